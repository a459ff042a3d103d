"""`ros2 launch zoo_bringup robozoo.launch.py scenario:=<name or .yaml path>
[backend:=mujoco|gazebo|dynamixel|go1_udp] [set:=node.param=value;...]`: any scenario under ROS 2."""
from zoo_scenario.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description()
