"""rclpy.parameter: a named, typed parameter value."""
from __future__ import annotations

import array
from enum import Enum

from ._msgs import message

__all__ = ['Parameter', 'PARAMETER_SEPARATOR_STRING', 'parameter_value_to_python']

PARAMETER_SEPARATOR_STRING = '.'


def _all(values, kind) -> bool:
    return all(isinstance(v, kind) for v in values)


class Parameter:
    class Type(Enum):
        NOT_SET = 0
        BOOL = 1
        INTEGER = 2
        DOUBLE = 3
        STRING = 4
        BYTE_ARRAY = 5
        BOOL_ARRAY = 6
        INTEGER_ARRAY = 7
        DOUBLE_ARRAY = 8
        STRING_ARRAY = 9

        @classmethod
        def from_parameter_value(cls, parameter_value) -> Parameter.Type:
            """The type of a Python value, with rclpy's rules (``[]`` is a BYTE_ARRAY)."""
            v = parameter_value
            if v is None:
                return cls.NOT_SET
            if isinstance(v, bool):
                return cls.BOOL
            if isinstance(v, int):
                return cls.INTEGER
            if isinstance(v, float):
                return cls.DOUBLE
            if isinstance(v, str):
                return cls.STRING
            if isinstance(v, (list, tuple, array.array)):
                if _all(v, bytes):
                    return cls.BYTE_ARRAY
                if _all(v, bool):
                    return cls.BOOL_ARRAY
                if _all(v, int):
                    return cls.INTEGER_ARRAY
                if _all(v, float):
                    return cls.DOUBLE_ARRAY
                if _all(v, str):
                    return cls.STRING_ARRAY
                raise TypeError(f'parameter value {v!r} is not a list of one type among bytes, '
                                'bool, int, float and str')
            raise TypeError(f'parameter value {v!r} of type {type(v).__name__} is not one of '
                            'bool, int, float, str or a list of those')

        def check(self, parameter_value) -> bool:
            v = parameter_value
            T = Parameter.Type
            if self == T.NOT_SET:
                return v is None
            if self == T.BOOL:
                return isinstance(v, bool)
            if self == T.INTEGER:
                return isinstance(v, int) and not isinstance(v, bool)
            if self == T.DOUBLE:
                return isinstance(v, float)
            if self == T.STRING:
                return isinstance(v, str)
            if not isinstance(v, (list, tuple, array.array)):
                return False
            if self == T.BYTE_ARRAY:
                return _all(v, bytes) and all(len(b) == 1 for b in v)
            if self == T.BOOL_ARRAY:
                return _all(v, bool)
            if self == T.INTEGER_ARRAY:
                return _all(v, int) and not any(isinstance(i, bool) for i in v)
            if self == T.DOUBLE_ARRAY:
                return _all(v, float)
            return _all(v, str)

    def __init__(self, name: str, type_: Parameter.Type | None = None, value=None):
        if type_ is None:
            type_ = Parameter.Type.from_parameter_value(value)
        if not isinstance(type_, Parameter.Type):
            raise TypeError(f'parameter {name!r}: type_ must be a Parameter.Type, got {type_!r}')
        if not type_.check(value):
            raise ValueError(f'parameter {name!r}: type {type_.name} and value {value!r} do not '
                             'agree')
        self._name = name
        self._type_ = type_
        self._value = value

    @property
    def name(self) -> str:
        return self._name

    @property
    def type_(self) -> Parameter.Type:
        return self._type_

    @property
    def value(self):
        return self._value

    def __repr__(self) -> str:
        return f'Parameter(name={self._name!r}, type_={self._type_.name}, value={self._value!r})'

    def get_parameter_value(self):
        """This value as an rcl_interfaces/msg/ParameterValue."""
        T = Parameter.Type
        pv = message('rcl_interfaces/msg/ParameterValue')(type=self._type_.value)
        field = {T.BOOL: 'bool_value', T.INTEGER: 'integer_value', T.DOUBLE: 'double_value',
                 T.STRING: 'string_value', T.BYTE_ARRAY: 'byte_array_value',
                 T.BOOL_ARRAY: 'bool_array_value', T.INTEGER_ARRAY: 'integer_array_value',
                 T.DOUBLE_ARRAY: 'double_array_value',
                 T.STRING_ARRAY: 'string_array_value'}.get(self._type_)
        if field is not None:
            value = self._value
            if self._type_ == T.BYTE_ARRAY:
                value = b''.join(value)
            setattr(pv, field, value if not isinstance(value, tuple) else list(value))
        return pv

    def to_parameter_msg(self):
        return message('rcl_interfaces/msg/Parameter')(name=self._name,
                                                      value=self.get_parameter_value())

    @classmethod
    def from_parameter_msg(cls, param_msg) -> Parameter:
        value = parameter_value_to_python(param_msg.value)
        return cls(param_msg.name, Parameter.Type(param_msg.value.type), value)


def parameter_value_to_python(parameter_value):
    """The Python value held by an rcl_interfaces/msg/ParameterValue."""
    T = Parameter.Type
    t = T(parameter_value.type)
    if t == T.NOT_SET:
        return None
    if t == T.BOOL:
        return parameter_value.bool_value
    if t == T.INTEGER:
        return parameter_value.integer_value
    if t == T.DOUBLE:
        return parameter_value.double_value
    if t == T.STRING:
        return parameter_value.string_value
    if t == T.BYTE_ARRAY:
        return [bytes([b]) if isinstance(b, int) else b for b in parameter_value.byte_array_value]
    if t == T.BOOL_ARRAY:
        return list(parameter_value.bool_array_value)
    if t == T.INTEGER_ARRAY:
        return list(parameter_value.integer_array_value)
    if t == T.DOUBLE_ARRAY:
        return list(parameter_value.double_array_value)
    return list(parameter_value.string_array_value)
