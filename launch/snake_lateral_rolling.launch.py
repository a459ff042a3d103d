"""`ros2 launch launch/snake_lateral_rolling.launch.py`: the snake_lateral_rolling scenario under ROS 2 + Gazebo."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('snake_lateral_rolling')
