"""rclpy's exception classes, with the same names and constructor arguments."""
from __future__ import annotations


class NotInitializedException(Exception):
    def __init__(self, msg: str = 'rclpy.init() has not been called', *args):
        super().__init__(msg, *args)


class InvalidHandle(Exception):
    pass


class NameValidationException(Exception):
    """A topic, service, node or namespace name is not valid."""

    def __init__(self, name_type: str, name: str, error_msg: str, invalid_index: int | None):
        where = '' if invalid_index is None else f' (at index {invalid_index})'
        super().__init__(f'Invalid {name_type} {name!r}: {error_msg}{where}')
        self.name = name


class InvalidNamespaceException(NameValidationException):
    def __init__(self, name, error_msg, invalid_index=None):
        super().__init__('namespace', name, error_msg, invalid_index)


class InvalidNodeNameException(NameValidationException):
    def __init__(self, name, error_msg, invalid_index=None):
        super().__init__('node name', name, error_msg, invalid_index)


class InvalidTopicNameException(NameValidationException):
    def __init__(self, name, error_msg, invalid_index=None):
        super().__init__('topic name', name, error_msg, invalid_index)


class InvalidServiceNameException(NameValidationException):
    def __init__(self, name, error_msg, invalid_index=None):
        super().__init__('service name', name, error_msg, invalid_index)


class InvalidRemappingRuleError(ValueError):
    pass


class UnknownROSArgsError(ValueError):
    """``--ros-args`` held an argument that rcl does not know."""


class InvalidParameterException(Exception):
    def __init__(self, parameter, *args):
        super().__init__(f'Invalid parameter name: {parameter!r}', *args)


class ParameterException(Exception):
    def __init__(self, error_msg, parameters, *args):
        super().__init__(f'{error_msg}: {parameters}', *args)


class ParameterNotDeclaredException(ParameterException):
    def __init__(self, parameters, *args):
        super().__init__('Invalid access to undeclared parameter(s)', parameters, *args)


class ParameterAlreadyDeclaredException(ParameterException):
    def __init__(self, parameters, *args):
        super().__init__('Parameter(s) already declared', parameters, *args)


class ParameterImmutableException(ParameterException):
    def __init__(self, parameters, *args):
        super().__init__('Attempted to modify read-only parameter', parameters, *args)


class ParameterUninitializedException(ParameterException):
    def __init__(self, parameter_name, *args):
        super().__init__('The parameter is statically typed and was not initialized',
                         parameter_name, *args)


class InvalidParameterValueException(ParameterException):
    def __init__(self, parameter, value, reason, *args):
        self.parameter_name, self.value, self.reason = parameter, value, reason
        Exception.__init__(
            self, f'Invalid parameter value ({value!r}) for parameter {parameter!r}. '
                  f'Reason: {reason}', *args)


class InvalidParameterTypeException(ParameterException):
    def __init__(self, desired_parameter, expected_type, *args):
        # structured copies (not in rclpy) so a launcher can say which node and file it was
        self.parameter_name = desired_parameter._name
        self.value = desired_parameter._value
        self.expected_type = expected_type
        Exception.__init__(
            self, f"Trying to set parameter '{desired_parameter._name}' to "
                  f"'{desired_parameter._value!r}' of type "
                  f"'{desired_parameter._type_.name}', expecting type '{expected_type}'", *args)


class ROSInterruptException(Exception):
    def __init__(self, *args):
        super().__init__('rclpy.shutdown() has been called', *args)


class NodeNameNonExistentError(RuntimeError):
    """A graph query named a node that is not in the graph (rclpy raises it from _rclpy)."""


class RunStopped(RuntimeError):
    """A part of the run ended it early (a node's process died, a node's link to hardware
    broke): the outputs describe the run up to there, then the CLI reports it as an error.
    Defined here so a node can stop an embedded run without importing the scenario runner."""
