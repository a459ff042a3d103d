"""The same topic contract under Gazebo Harmonic (gz sim + ros_gz_bridge), kept thin.

``plugins`` generates the ``<gazebo>`` blocks a robot's URDF needs: its IMU and contact sensors
only, no joint-command systems; ``bridge`` generates the ros_gz_bridge YAML mapping those sensors'
gz topics to the simulator's ROS topics; ``gazebo_backend`` drives Gazebo through the gz.sim8 Python
bindings where they are installed: the simulator node itself commands the joints (velocity or
effort) and reads joint states, odometry and link poses through the ECM.
"""
