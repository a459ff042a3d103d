"""`ros2 launch launch/nao_walk.launch.py`: the nao_walk scenario under ROS 2."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('nao_walk')
