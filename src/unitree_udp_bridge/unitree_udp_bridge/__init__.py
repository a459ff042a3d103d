"""Go1 UDP bridge: ``safety``, ``preflight``, ``bridge_core`` (no ROS), ``bridge_node`` (ROS)."""
