"""rclpy.validate_node_name as upstream ros2/rclpy (jazzy) has it, over the rmw port."""
from . import _rmw_names
from .exceptions import InvalidNodeNameException


def validate_node_name(node_name: str):
    result = _rmw_names.node_name(node_name)
    if result is None:
        return True
    error_msg, invalid_index = result
    raise InvalidNodeNameException(node_name, error_msg, invalid_index)
