"""`ros2 launch launch/nao_stand_dds.launch.py`: the nao_stand_dds scenario under ROS 2 + Gazebo."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('nao_stand_dds')
