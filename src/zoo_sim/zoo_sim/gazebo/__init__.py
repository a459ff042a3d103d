"""The same topic contract under Gazebo Harmonic (gz sim + ros_gz_bridge), kept thin.

``plugins`` generates the ``<gazebo>`` blocks a robot's URDF needs (joint controllers, effort
inputs, joint states, odometry, link poses, IMU and contact sensors); ``bridge`` generates the
ros_gz_bridge YAML mapping their gz topics to the simulator's ROS topics; ``gazebo_backend`` drives
Gazebo through the gz.sim8 Python bindings where they are installed.
"""
