"""The name-validation exceptions of upstream ros2/rclpy (jazzy 85415f71) rclpy/exceptions.py,
same classes and message format (that file imports the C extension, so it is not usable here)."""


class NameValidationException(Exception):
    """Raised when a topic name, node name, or namespace are invalid."""

    def __init__(self, name_type: str, name: str, error_msg: str, invalid_index: int) -> None:
        msg = """\
Invalid {name_type}: {error_msg}:
  '{name}'
   {indent}^\
""".format(name_type=name_type, name=name, error_msg=error_msg, indent=' ' * invalid_index)
        Exception.__init__(self, msg)


class InvalidNamespaceException(NameValidationException):
    """Raised when a namespace is invalid."""

    def __init__(self, name: str, error_msg: str, invalid_index: int) -> None:
        NameValidationException.__init__(self, 'namespace', name, error_msg, invalid_index)


class InvalidNodeNameException(NameValidationException):
    """Raised when a node name is invalid."""

    def __init__(self, name: str, error_msg: str, invalid_index: int) -> None:
        NameValidationException.__init__(self, 'node name', name, error_msg, invalid_index)
