"""Stand-in (import only): launch_ros SetROSLogDir imports get_logging_directory."""
from . import _unavailable

get_logging_directory = _unavailable('logging.get_logging_directory')
