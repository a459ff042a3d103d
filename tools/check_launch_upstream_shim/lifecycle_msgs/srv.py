"""Stand-in (import only), see tools/check_launch_upstream_shim/README.md."""
from rosidl_placeholder import placeholder_module

__getattr__ = placeholder_module('lifecycle_msgs', 'srv')
