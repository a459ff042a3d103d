"""`ros2 launch launch/robobo_global_test.launch.py`: the robobo_global_test scenario under ROS 2 + Gazebo."""
from zoo_bringup.ros_launch import scenario_launch_description


def generate_launch_description():
    return scenario_launch_description('robobo_global_test')
