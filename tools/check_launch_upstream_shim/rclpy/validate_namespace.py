"""rclpy.validate_namespace as upstream ros2/rclpy (jazzy) has it, over the rmw port."""
from . import _rmw_names
from .exceptions import InvalidNamespaceException


def validate_namespace(namespace: str):
    result = _rmw_names.namespace(namespace)
    if result is None:
        return True
    error_msg, invalid_index = result
    raise InvalidNamespaceException(namespace, error_msg, invalid_index)
