"""robozoo simulator: SDF worlds and xacro robots on MuJoCo (embedded default) or Gazebo.

The algorithms live in plain modules with no ROS import (``sdf_world``, ``urdf_robot``,
``mujoco_backend`` ...); ``sim_node`` is the thin ROS shell that maps topics, services and
parameters onto them.
"""

# The gravity vector of the world the simulator runs (geometry_msgs/Vector3, m/s^2, latched):
# nodes that need g (planners, trackers) read it here rather than repeating the world's value
WORLD_GRAVITY_TOPIC = '/sim/gravity'
# The world the simulator runs (std_msgs/String, latched: its ``world`` parameter, a name or a
# path; '' without a world file): planners read the terrain from it
WORLD_TOPIC = '/sim/world'


class SimConfigError(ValueError):
    """Bad simulator input (world, robot, parameter); the message is one line naming the file or
    parameter and the element at fault."""
