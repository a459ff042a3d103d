"""``main()`` for this package's console scripts: init, spin one node, clean up."""
from __future__ import annotations

from zoo_runtime import rclpy


def spin_node(node_cls, args=None) -> None:
    rclpy.init(args=args)
    node = node_cls()
    try:
        rclpy.spin(node)
    except KeyboardInterrupt:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
