"""``main()`` of a node executable (``ros2 run <pkg> <exe>``), in either world."""
from __future__ import annotations

import signal
import sys
from typing import Callable

# Under real ROS each node, once built, says so here (std_msgs/String: its fully qualified name,
# transient local): the simulator of a launched scenario holds sim time at 0 until every node of
# the scenario is ready (zoo_sim parameter start_after_nodes), as the lockstep executor of the
# embedded world starts them all at t = 0.
NODE_READY_TOPIC = '/sim/node_ready'


def spin_node(make_node: Callable[[], object], args: list[str] | None = None) -> None:
    """``rclpy.init(args)``, build the node with ``make_node()`` (a Node class or a factory),
    say it is ready, spin it until Ctrl-C or shutdown, then clean up."""
    from zoo_runtime import EMBEDDED, rclpy
    interrupted = []

    def on_sigint(signum, frame):
        # Real rclpy's own handler has shut the context down, which ends the spin where it is
        # safe to; raising here as well would land anywhere in the main thread (a half-built
        # executor Task printed a traceback at exit). The embedded runtime has no such handler.
        interrupted.append(signum)
        if EMBEDDED:
            raise KeyboardInterrupt
    previous = signal.signal(signal.SIGINT, on_sigint)
    rclpy.init(args=args)
    node = None
    try:
        try:
            node = make_node()
        except ValueError as exc:  # a parameter or resource the node cannot use: one line
            print(f'error: {exc}', file=sys.stderr)
            raise SystemExit(2) from None
        if not EMBEDDED:
            announce_ready(node)
        rclpy.spin(node)
    except (KeyboardInterrupt, _external_shutdown(rclpy)):
        pass
    except RuntimeError:
        # Ctrl-C during rclpy's take_message surfaces as pybind11's "Unable to convert call
        # argument to Python object" once the signal handler has shut the context down
        if not interrupted and rclpy.ok():
            raise
    finally:
        # Ctrl-C in a terminal reaches a launched node twice (its process group, then launch's
        # own SIGINT): a second KeyboardInterrupt must not break the clean-up.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            if node is not None:
                node.destroy_node()
            rclpy.try_shutdown()
        finally:  # as it was: children of this process inherit an ignored SIGINT
            signal.signal(signal.SIGINT, previous)


def _external_shutdown(rclpy) -> type[BaseException]:
    """rclpy's ExternalShutdownException (the context was shut down by a signal handler)."""
    return getattr(rclpy.executors, 'ExternalShutdownException', KeyboardInterrupt)


def announce_ready(node) -> None:
    from zoo_runtime import rclpy
    from zoo_runtime.interfaces.std_msgs.msg import String
    qos = rclpy.qos.QoSProfile(depth=1, durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)
    node._zoo_ready_pub = node.create_publisher(String, NODE_READY_TOPIC, qos)
    node._zoo_ready_pub.publish(String(data=node.get_fully_qualified_name()))
