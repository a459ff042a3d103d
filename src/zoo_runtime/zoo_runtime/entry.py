"""``main()`` of a node executable (``ros2 run <pkg> <exe>``), in either world."""
from __future__ import annotations

from typing import Callable


def spin_node(make_node: Callable[[], object], args: list[str] | None = None) -> None:
    """``rclpy.init(args)``, build the node with ``make_node()`` (a Node class or a factory),
    spin it until Ctrl-C or shutdown, then clean up."""
    from zoo_runtime import rclpy
    rclpy.init(args=args)
    node = None
    try:
        node = make_node()
        rclpy.spin(node)
    except KeyboardInterrupt:
        pass
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
