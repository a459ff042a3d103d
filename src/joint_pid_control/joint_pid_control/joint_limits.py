"""Joint limits (position range and velocity) from parameters or from a URDF string."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from zoo_description_tools import DescriptionError, parse_urdf

from .params import ParameterError

PREFIX = 'joint_limits.'
KEYS = ('lower', 'upper', 'velocity')


@dataclass(frozen=True)
class JointLimits:
    lower: float = -math.inf
    upper: float = math.inf
    velocity: float = math.inf  # rad/s

    def validated(self, where: str) -> 'JointLimits':
        if not self.lower <= self.upper:
            raise ParameterError(f'{where}: expected lower <= upper, got {self.lower} > '
                                 f'{self.upper}')
        if not self.velocity > 0.0:
            raise ParameterError(f'{where}.velocity: expected > 0 rad/s, got {self.velocity}')
        return self


def limits_from_params(params: Mapping[str, Any], joints: Iterable[str]) -> dict[str, JointLimits]:
    """``joint_limits.<joint>.{lower,upper,velocity}``; joints without any entry are omitted."""
    joints = list(joints)
    found: dict[str, dict[str, float]] = {}
    for name, value in params.items():
        if not name.startswith(PREFIX):
            continue
        joint, _, key = name[len(PREFIX):].rpartition('.')
        if joint not in joints:
            raise ParameterError(f'{name}: joint {joint!r} is not one of the controlled joints '
                                 f'({", ".join(joints)})')
        if key not in KEYS:
            raise ParameterError(f'{name}: unknown limit {key!r} (expected {", ".join(KEYS)})')
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            raise ParameterError(f'{name}: expected a number, got {value!r}')
        found.setdefault(joint, {})[key] = float(value)
    return {j: JointLimits(**v).validated(f'{PREFIX}{j}') for j, v in found.items()}


def all_limits_from_urdf(urdf: str) -> dict[str, JointLimits]:
    """Limits of every movable joint of a URDF, read by the workspace's one URDF parser
    (zoo_description_tools): continuous joints have no position bounds, a joint without a
    velocity limit no velocity bound; a revolute or prismatic joint without lower/upper is an
    error, never a range of 0."""
    try:
        model = parse_urdf(urdf, 'robot_description')
    except DescriptionError as e:
        raise ParameterError(' '.join(str(e).split())) from None
    return {j.name: JointLimits(*j.position_range, j.velocity_limit).validated(
                f'robot_description joint {j.name}')
            for j in model.movable_joints().values()}


def limits_from_urdf(urdf: str, joints: Iterable[str]) -> dict[str, JointLimits]:
    """Limits of ``joints`` from a URDF; raises naming the joints the URDF lacks."""
    found = all_limits_from_urdf(urdf)
    joints = list(joints)
    missing = [j for j in joints if j not in found]
    if missing:
        raise ParameterError(f'robot_description: no movable joint named {", ".join(missing)}')
    return {j: found[j] for j in joints}
