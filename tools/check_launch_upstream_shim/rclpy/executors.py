"""Stand-in (import only): launch_ros.ros_adapters imports SingleThreadedExecutor."""
from . import _unavailable

SingleThreadedExecutor = _unavailable('executors.SingleThreadedExecutor')
