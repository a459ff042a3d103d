"""PID gains in ros2_control's shape: ``gains.<joint>.<key>`` (specs/ros_stack.md §2.4-2.5).

The keys and defaults are control_toolbox/pid_controller's, except where noted:
``derivative_filter_time_constant`` is ours (the first-order low-pass on the derivative), and
``antiwindup_strategy`` defaults to ``conditional_integration`` (ros2_control's default, ``legacy``,
is deprecated and not offered). ros2_control-only keys (``antiwindup``, ``saturation``,
``save_i_term``, ``angle_wraparound``, ``activate_state_publisher``) are refused by name rather
than silently ignored.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any, Iterable, Mapping

from zoo_description_tools.gains import GAIN_KEYS, STRATEGIES

PREFIX = 'gains.'


class ParameterError(ValueError):
    """A bad parameter; the message names it."""


@dataclass(frozen=True)
class Gains:
    p: float = 0.0
    i: float = 0.0
    d: float = 0.0
    u_clamp_max: float = math.inf
    u_clamp_min: float = -math.inf
    i_clamp_max: float = math.inf
    i_clamp_min: float = -math.inf
    antiwindup_strategy: str = 'conditional_integration'
    tracking_time_constant: float = 0.0   # back_calculation Tt; 0 = sqrt(d/i) if d else p/i
    error_deadband: float = 1e-16         # no integration while |e| <= this
    feedforward_gain: float = 0.0         # times the target velocity (our command is a velocity)
    derivative_filter_time_constant: float = 0.0  # ours: low-pass on d(measured)/dt; 0 = none

    def validated(self, where: str) -> 'Gains':
        """Self, or ParameterError naming ``<where>.<key>``."""
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type == 'str':
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v):
                raise ParameterError(f'{where}.{f.name}: expected a number, got {v!r}')
        if self.antiwindup_strategy not in STRATEGIES:
            raise ParameterError(f'{where}.antiwindup_strategy: expected one of '
                                 f'{", ".join(STRATEGIES)}, got {self.antiwindup_strategy!r}')
        if not self.u_clamp_min < self.u_clamp_max:
            raise ParameterError(f'{where}.u_clamp_min/u_clamp_max: expected min < max, got '
                                 f'{self.u_clamp_min} and {self.u_clamp_max}')
        if not self.i_clamp_min <= 0.0 <= self.i_clamp_max:
            raise ParameterError(f'{where}.i_clamp_min/i_clamp_max: expected min <= 0 <= max, '
                                 f'got {self.i_clamp_min} and {self.i_clamp_max}')
        for key in ('tracking_time_constant', 'error_deadband', 'derivative_filter_time_constant'):
            v = getattr(self, key)
            if not 0.0 <= v < math.inf:
                raise ParameterError(f'{where}.{key}: expected a finite value >= 0, got {v}')
        for key in ('p', 'i', 'd', 'feedforward_gain'):
            if not math.isfinite(getattr(self, key)):
                raise ParameterError(f'{where}.{key}: expected a finite value, got '
                                     f'{getattr(self, key)}')
        return self


if tuple(f.name for f in fields(Gains)) != GAIN_KEYS:  # the schema's owner is zoo_description_tools
    raise ImportError('joint_pid_control.params.Gains: fields differ from '
                      'zoo_description_tools.gains.GAIN_KEYS')
ROS2_CONTROL_ONLY = ('antiwindup', 'saturation', 'save_i_term', 'angle_wraparound',
                     'activate_state_publisher')


def parse_gains(params: Mapping[str, Any], joints: Iterable[str],
                base: Mapping[str, Gains]) -> dict[str, Gains]:
    """Merge flattened ``gains.<joint>.<key>`` entries of ``params`` over ``base`` (per joint).

    Entries not starting with ``gains.`` are ignored; everything under it must name a joint of
    ``joints`` and a known key, with a value of the right type."""
    joints = list(joints)
    updates: dict[str, dict[str, Any]] = {j: {} for j in joints}
    for name, value in params.items():
        if not name.startswith(PREFIX):
            continue
        joint, _, key = name[len(PREFIX):].rpartition('.')
        if joint not in updates:
            raise ParameterError(f'{name}: joint {joint!r} is not one of the controlled joints '
                                 f'({", ".join(joints)})')
        if key in ROS2_CONTROL_ONLY:
            raise ParameterError(f'{name}: ros2_control option not supported here '
                                 f'(supported: {", ".join(GAIN_KEYS)})')
        if key not in GAIN_KEYS:
            raise ParameterError(f'{name}: unknown gain key {key!r} (expected one of '
                                 f'{", ".join(GAIN_KEYS)})')
        if key == 'antiwindup_strategy':
            if not isinstance(value, str):
                raise ParameterError(f'{name}: expected a string, got {value!r}')
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParameterError(f'{name}: expected a number, got {value!r}')
        else:
            value = float(value)
        updates[joint][key] = value
    return {j: replace(base[j], **updates[j]).validated(f'{PREFIX}{j}') for j in joints}


def gains_parameters(joint: str, g: Gains) -> dict[str, Any]:
    """The flattened parameters that describe ``g`` (for declaring them with defaults)."""
    return {f'{PREFIX}{joint}.{k}': getattr(g, k) for k in GAIN_KEYS}
