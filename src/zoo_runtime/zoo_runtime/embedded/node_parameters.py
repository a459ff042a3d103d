"""The parameter half of rclpy's Node: declaration, typed storage, descriptors (read-only,
dynamic typing, ranges), overrides from files/arguments, and the pre/on/post-set callbacks.

As in rclpy a parameter's type is fixed at declaration (from its default, or a Parameter.Type)
unless its descriptor allows dynamic typing, and an override of another type is rejected with
InvalidParameterTypeException. An on-set callback that rejects a change leaves the old values.
"""
from __future__ import annotations

import math
from typing import Callable

from ._msgs import message
from .exceptions import (InvalidParameterException, InvalidParameterTypeException,
                         InvalidParameterValueException, ParameterAlreadyDeclaredException,
                         ParameterImmutableException, ParameterNotDeclaredException,
                         ParameterUninitializedException)
from .parameter import PARAMETER_SEPARATOR_STRING, Parameter

__all__ = ['NodeParameters']

PARAM_REL_TOL = 1e-6


def _descriptor_cls():
    return message('rcl_interfaces/msg/ParameterDescriptor')


def _result(successful: bool, reason: str = ''):
    return message('rcl_interfaces/msg/SetParametersResult')(successful=successful,
                                                           reason=reason)


def _validate_name(name) -> None:
    if not isinstance(name, str) or not name:
        raise InvalidParameterException(name)


class NodeParameters:
    """Mixed into Node; expects ``get_logger()``."""

    def _init_parameters(self, overrides: dict[str, tuple[object, str]],
                         allow_undeclared: bool, auto_declare: bool) -> None:
        self._parameters: dict[str, Parameter] = {}
        self._descriptors: dict = {}
        self._override_origins = {name: origin for name, (_, origin) in overrides.items()}
        self._parameter_overrides = {name: Parameter(name, value=value)
                                     for name, (value, _) in overrides.items()}
        self._allow_undeclared_parameters = allow_undeclared
        self._pre_set_parameters_callbacks: list[Callable] = []
        self._on_set_parameters_callbacks: list[Callable] = []
        self._post_set_parameters_callbacks: list[Callable] = []
        if auto_declare:
            for name, param in self._parameter_overrides.items():
                self._parameters[name] = param
                self._descriptors[name] = _descriptor_cls()(name=name, type=param.type_.value,
                                                            dynamic_typing=True)

    # -- declaring ------------------------------------------------------------------------------
    def declare_parameter(self, name: str, value=None, descriptor=None,
                          ignore_override: bool = False) -> Parameter:
        if value is None and descriptor is None:
            args = (name,)
        else:
            args = (name, value, _descriptor_cls()() if descriptor is None else descriptor)
        return self.declare_parameters('', [args], ignore_override)[0]

    def declare_parameters(self, namespace: str, parameters: list,
                           ignore_override: bool = False) -> list[Parameter]:
        declared: list[Parameter] = []
        descriptors: dict = {}
        descriptor_cls = _descriptor_cls()
        for index, spec in enumerate(parameters):
            if not isinstance(spec, tuple) or not 1 <= len(spec) <= 3:
                raise TypeError(f'declare_parameters: item {index} must be a tuple (name, '
                                f'[value_or_type, [descriptor]]), got {spec!r}')
            name = spec[0]
            if not isinstance(name, str):
                raise TypeError(f'declare_parameters: name at index {index} is not a str: '
                                f'{name!r}')
            if namespace:
                name = f'{namespace}.{name}'
            _validate_name(name)
            second = spec[1] if len(spec) > 1 else None
            descriptor = spec[2] if len(spec) > 2 else descriptor_cls()
            if not isinstance(descriptor, descriptor_cls):
                raise TypeError(f'declare_parameters: descriptor of {name!r} is not a '
                                f'ParameterDescriptor: {descriptor!r}')
            if len(spec) == 1:
                descriptor.dynamic_typing = True  # rclpy warns that this form is deprecated
            value = None
            if isinstance(second, Parameter.Type):
                if second == Parameter.Type.NOT_SET:
                    raise ValueError(f'Cannot declare parameter {name!r} as statically typed of '
                                     'type NOT_SET')
                if descriptor.dynamic_typing:
                    raise ValueError(f'parameter {name!r}: a type and dynamic_typing=True cannot '
                                     'be given together')
                descriptor.type = second.value
            else:
                value = second
                if not descriptor.dynamic_typing:
                    descriptor.type = Parameter.Type.from_parameter_value(value).value
                    if descriptor.type == Parameter.Type.NOT_SET.value:
                        raise ValueError(f'Cannot declare statically typed parameter {name!r} '
                                         'with default value None (give a default, a '
                                         'Parameter.Type or dynamic_typing=True)')
            if not ignore_override and name in self._parameter_overrides:
                value = self._parameter_overrides[name].value
            declared.append(Parameter(name, value=value))
            descriptors[name] = descriptor
        already = [p.name for p in declared if p.name in self._parameters]
        if already:
            raise ParameterAlreadyDeclaredException(already)
        for param in declared:
            result = self._set_atomically_common([param], descriptors, allow_not_set_type=True)
            if not result.successful:
                origin = self._override_origins.get(param.name)
                from_override = not ignore_override and origin is not None
                if result.reason.startswith('Wrong parameter type'):
                    exc = InvalidParameterTypeException(
                        param, Parameter.Type(descriptors[param.name].type).name)
                else:
                    exc = InvalidParameterValueException(param.name, param.value, result.reason)
                if from_override:
                    exc.args = (f'{exc.args[0]} (value from {origin})',) + exc.args[1:]
                raise exc
        return [self._parameters[p.name] for p in declared]

    def undeclare_parameter(self, name: str) -> None:
        if not self.has_parameter(name):
            raise ParameterNotDeclaredException(name)
        if self._descriptors[name].read_only:
            raise ParameterImmutableException(name)
        del self._parameters[name]
        del self._descriptors[name]

    # -- reading --------------------------------------------------------------------------------
    def has_parameter(self, name: str) -> bool:
        return name in self._parameters

    def get_parameter(self, name: str) -> Parameter:
        if name in self._parameters:
            param = self._parameters[name]
            if param.type_ != Parameter.Type.NOT_SET or self._descriptors[name].dynamic_typing:
                return param
            raise ParameterUninitializedException(name)
        if self._allow_undeclared_parameters:
            return Parameter(name, Parameter.Type.NOT_SET, None)
        raise ParameterNotDeclaredException(name)

    def get_parameters(self, names: list[str]) -> list[Parameter]:
        if not all(isinstance(n, str) for n in names):
            raise TypeError('get_parameters: all names must be str')
        return [self.get_parameter(n) for n in names]

    def get_parameter_or(self, name: str, alternative_value: Parameter | None = None
                         ) -> Parameter:
        if alternative_value is None:
            alternative_value = Parameter(name, Parameter.Type.NOT_SET)
        param = self._parameters.get(name)
        if param is None or param.type_ == Parameter.Type.NOT_SET:
            return alternative_value
        return param

    def get_parameter_type(self, name: str) -> Parameter.Type:
        if name in self._parameters:
            return self._parameters[name].type_
        if self._allow_undeclared_parameters:
            return Parameter.Type.NOT_SET
        raise ParameterNotDeclaredException(name)

    def get_parameter_types(self, names: list[str]) -> list[Parameter.Type]:
        return [self.get_parameter_type(n) for n in names]

    def get_parameters_by_prefix(self, prefix: str) -> dict[str, Parameter]:
        if prefix:
            prefix += PARAMETER_SEPARATOR_STRING
        return {name[len(prefix):]: param for name, param in self._parameters.items()
                if name.startswith(prefix)}

    def describe_parameter(self, name: str):
        if name in self._descriptors:
            return self._descriptors[name]
        if self._allow_undeclared_parameters:
            return _descriptor_cls()()
        raise ParameterNotDeclaredException(name)

    def describe_parameters(self, names: list[str]) -> list:
        return [self.describe_parameter(n) for n in names]

    def list_parameters(self, prefixes: list[str], depth: int):
        """rcl_interfaces/msg/ListParametersResult: names under ``prefixes`` (all if empty) at
        most ``depth`` separators below them (0 = any depth), and their prefixes."""
        if depth < 0:
            raise ValueError(f'list_parameters: depth must be >= 0, got {depth}')
        sep = PARAMETER_SEPARATOR_STRING

        def shallow(rest: str) -> bool:
            return depth == 0 or rest.count(sep) < depth

        result = message('rcl_interfaces/msg/ListParametersResult')()
        names, found_prefixes = [], []
        for name in self._parameters:
            wanted = shallow(name) if not prefixes else any(
                name == p or (name.startswith(p + sep) and shallow(name[len(p) + 1:]))
                for p in prefixes)
            if not wanted:
                continue
            names.append(name)
            prefix = name.rpartition(sep)[0]
            if prefix and prefix not in found_prefixes:
                found_prefixes.append(prefix)
        result.names = names
        result.prefixes = found_prefixes
        return result

    # -- setting --------------------------------------------------------------------------------
    def set_parameters(self, parameter_list: list[Parameter]) -> list:
        return [self._set_parameters_atomically([p]) for p in parameter_list]

    def set_parameters_atomically(self, parameter_list: list[Parameter]):
        return self._set_parameters_atomically(parameter_list)

    def _set_parameters_atomically(self, parameter_list: list[Parameter]):
        if self._pre_set_parameters_callbacks:
            modified: list[Parameter] = []
            for callback in self._pre_set_parameters_callbacks:
                modified.extend(callback(parameter_list))
            parameter_list = modified
            if not parameter_list:
                return _result(False, 'parameter list cannot be empty, this might be due to '
                                      'pre_set_parameters_callback modifying the original '
                                      'parameters list.')
        if not all(isinstance(p, Parameter) for p in parameter_list):
            raise TypeError('set_parameters: every item must be a Parameter')
        undeclared = [p.name for p in parameter_list if p.name not in self._parameters]
        if undeclared and not self._allow_undeclared_parameters:
            raise ParameterNotDeclaredException(undeclared)
        return self._set_atomically_common(parameter_list)

    def _set_atomically_common(self, parameter_list: list[Parameter], descriptors=None,
                               allow_not_set_type: bool = False):
        if descriptors is not None:
            result = self._apply_descriptors(parameter_list, descriptors, False)
        else:
            result = self._apply_descriptors(parameter_list, self._descriptors, True)
        if not result.successful:
            return result
        for callback in self._on_set_parameters_callbacks:
            result = callback(parameter_list)
            if not hasattr(result, 'successful'):
                raise TypeError(f'on-set parameters callback {callback!r} returned {result!r}; '
                                'it must return rcl_interfaces/msg/SetParametersResult')
            if not result.successful:
                return result
        for param in parameter_list:
            if not allow_not_set_type and param.type_ == Parameter.Type.NOT_SET:
                self._parameters.pop(param.name, None)
                self._descriptors.pop(param.name, None)
                continue
            if descriptors is not None:
                self._descriptors[param.name] = descriptors[param.name]
            elif param.name not in self._descriptors:
                self._descriptors[param.name] = _descriptor_cls()(name=param.name,
                                                                  dynamic_typing=True)
            self._parameters[param.name] = param
        for callback in self._post_set_parameters_callbacks:
            callback(parameter_list)
        return _result(True)

    def _apply_descriptors(self, parameter_list, descriptors, check_read_only: bool):
        for param in parameter_list:
            if param.name in descriptors:
                result = self._apply_descriptor(param, descriptors[param.name], check_read_only)
                if not result.successful:
                    return result
        return _result(True)

    def _apply_descriptor(self, parameter: Parameter, descriptor, check_read_only: bool = True):
        descriptor.name = parameter.name
        if check_read_only and descriptor.read_only:
            return _result(False, f'Trying to set a read-only parameter: {parameter.name}.')
        if descriptor.dynamic_typing:
            descriptor.type = parameter.type_.value
        elif self.has_parameter(parameter.name) and parameter.type_ == Parameter.Type.NOT_SET:
            return _result(False, 'Static parameter cannot be undeclared')
        elif (parameter.type_ != Parameter.Type.NOT_SET and
              parameter.type_.value != descriptor.type):
            return _result(False, f"Wrong parameter type, expected "
                                  f"'{Parameter.Type(descriptor.type)}' got '{parameter.type_}'")
        if parameter.type_ == Parameter.Type.INTEGER and descriptor.integer_range:
            return self._check_range(parameter, descriptor.integer_range[0], exact=True)
        if parameter.type_ == Parameter.Type.DOUBLE and descriptor.floating_point_range:
            return self._check_range(parameter, descriptor.floating_point_range[0], exact=False)
        return _result(True)

    @staticmethod
    def _check_range(parameter: Parameter, value_range, exact: bool):
        lo = min(value_range.from_value, value_range.to_value)
        hi = max(value_range.from_value, value_range.to_value)
        v = parameter.value

        def same(a, b) -> bool:
            return a == b if exact else math.isclose(a, b, rel_tol=PARAM_REL_TOL)

        if same(v, lo) or same(v, hi):
            return _result(True)
        if not lo < v < hi:
            return _result(False, f'Parameter {parameter.name} out of range. Min: {lo}, '
                                  f'Max: {hi}, value: {v}')
        step = value_range.step
        if step:
            on_step = (v - lo) % step == 0 if exact else same(lo + round((v - lo) / step) * step,
                                                              v)
            if not on_step:
                return _result(False, f'The parameter value for {parameter.name} is not a valid '
                                      f'step. Min: {lo}, max: {hi}, value: {v}, step: {step}')
        return _result(True)

    def set_descriptor(self, name: str, descriptor, alternative_value=None):
        if not self.has_parameter(name):
            if not self._allow_undeclared_parameters:
                raise ParameterNotDeclaredException(name)
            return self.get_parameter(name).get_parameter_value()
        if self.describe_parameter(name).read_only:
            raise ParameterImmutableException(name)
        current = self.get_parameter(name)
        candidates = [current]
        if alternative_value is not None:
            from .parameter import parameter_value_to_python
            candidates.append(Parameter(name, Parameter.Type(alternative_value.type),
                                        parameter_value_to_python(alternative_value)))
        for candidate in candidates:
            result = self._apply_descriptor(candidate, descriptor, False)
            if result.successful:
                self._parameters[name] = candidate
                self._descriptors[name] = descriptor
                return candidate.get_parameter_value()
        raise InvalidParameterValueException(name, candidates[-1].value, result.reason)

    # -- callbacks ------------------------------------------------------------------------------
    def add_pre_set_parameters_callback(self, callback: Callable) -> None:
        self._pre_set_parameters_callbacks.insert(0, callback)

    def add_on_set_parameters_callback(self, callback: Callable) -> None:
        self._on_set_parameters_callbacks.insert(0, callback)

    def add_post_set_parameters_callback(self, callback: Callable) -> None:
        self._post_set_parameters_callbacks.insert(0, callback)

    def remove_pre_set_parameters_callback(self, callback: Callable) -> None:
        self._pre_set_parameters_callbacks.remove(callback)

    def remove_on_set_parameters_callback(self, callback: Callable) -> None:
        self._on_set_parameters_callbacks.remove(callback)

    def remove_post_set_parameters_callback(self, callback: Callable) -> None:
        self._post_set_parameters_callbacks.remove(callback)
