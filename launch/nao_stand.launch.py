"""`ros2 launch launch/nao_stand.launch.py`: the nao_stand scenario under ROS 2 + Gazebo."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('nao_stand')
