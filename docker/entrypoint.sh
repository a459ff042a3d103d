#!/usr/bin/env bash
# Sources ROS 2 and the workspace's install space, then runs the command (ros2 launch ...).
set -e
source /opt/ros/jazzy/setup.bash
source /ws/install/setup.bash
exec "$@"
