"""`ros2 launch launch/hoap2_navigation_fig7.launch.py`: the scenario under ROS 2."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('hoap2_navigation_fig7')
