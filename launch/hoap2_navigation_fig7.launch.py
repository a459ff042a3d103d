"""`ros2 launch zoo_bringup hoap2_navigation_fig7.launch.py [backend:=gazebo]`: the
hoap2_navigation_fig7 scenario under ROS 2, MuJoCo physics by default (Gazebo Harmonic with
backend:=gazebo); `set:=node.param=value;...` overrides parameters."""
from zoo_scenario.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('hoap2_navigation_fig7')
