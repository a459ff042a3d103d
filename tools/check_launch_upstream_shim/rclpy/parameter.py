"""Stand-in (import only): launch_ros SetUseSimTime and to_parameters_list import Parameter."""
from . import _unavailable

Parameter = _unavailable('parameter.Parameter')
