"""`ros2 launch zoo_bringup talker_listener.launch.py`: the talker_listener scenario under ROS 2
(no simulator: wall-clock time); `set:=node.param=value;...` overrides parameters."""
from zoo_scenario.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('talker_listener')
