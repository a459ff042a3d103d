"""`ros2 launch launch/snake_sidewinding.launch.py`: the snake_sidewinding scenario under ROS 2 + Gazebo."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('snake_sidewinding')
