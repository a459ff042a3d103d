"""Go1 over UDP: the unitree_legged_sdk v3.8 protocol (``crc``, ``packet``, ``low_level``,
``high_level``, ``joint_map``: no ROS) and the simulated Go1 endpoint (``endpoint``,
``robot_state``, ``sport_mode``; ROS shell ``endpoint_node``)."""
