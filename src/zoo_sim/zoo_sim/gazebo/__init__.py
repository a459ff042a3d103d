"""The same topic contract under Gazebo Harmonic, kept thin.

``gazebo_backend`` drives gz-sim 8 through its Python bindings in the simulator's process: the node
commands the joints itself (velocity, effort or PD) and reads joint states, odometry and link poses
through the ECM; ``sensors`` reads the IMU and contacts from gz-sim's own sensor systems over
gz-transport; ``plugins`` gives a robot's URDF the sensor topics and the sensors it lacks, and no
joint-command systems; ``bridge`` writes the ros_gz_bridge YAML for those sensors, for the launch's
``gz_sensors:=ros_gz_bridge`` path.
"""
