"""`ros2 launch launch/robobo_remote_multi.launch.py`: the robobo_remote_multi scenario under ROS 2 + Gazebo."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('robobo_remote_multi')
