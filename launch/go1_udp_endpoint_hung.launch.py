"""`ros2 launch zoo_bringup go1_udp_endpoint_hung.launch.py [backend:=gazebo]`: the
go1_udp_endpoint_hung scenario under ROS 2, MuJoCo physics by default (Gazebo Harmonic with
backend:=gazebo); `set:=node.param=value;...` overrides parameters."""
from zoo_scenario.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('go1_udp_endpoint_hung')
