"""`ros2 launch launch/robozoo.launch.py scenario:=<name> [backend:=gazebo|mujoco] [set:=n.p=v;...]`"""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description()
