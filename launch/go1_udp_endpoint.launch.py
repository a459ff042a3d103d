"""`ros2 launch launch/go1_udp_endpoint.launch.py`: the go1_udp_endpoint scenario under ROS 2 + Gazebo."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('go1_udp_endpoint')
