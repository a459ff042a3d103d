"""A description's nominal initial pose (``config/initial_pose.yaml``): the base pose and joint
positions the robot rests stably in, used wherever a scenario does not say otherwise."""
from __future__ import annotations

from collections.abc import Mapping

import yaml

from zoo_description_tools import find_description


def nominal_pose(package: str, xacro_args: Mapping[str, object] | None = None
                 ) -> tuple[list[float] | None, dict[str, float]]:
    """([x, y, z, roll, pitch, yaw] or None, {joint: position}) of ``package``; a
    ``variants.<variant>.base`` entry overrides the base for that xacro ``variant``."""
    path = find_description(package) / 'config' / 'initial_pose.yaml'
    if not path.is_file():
        return None, {}
    data = yaml.safe_load(path.read_text()) or {}
    base = data.get('base')
    variant = (xacro_args or {}).get('variant')
    if variant is not None:
        base = ((data.get('variants') or {}).get(str(variant)) or {}).get('base', base)
    pose = None if not base else [float(x) for x in (*base['xyz'], *base['rpy'])]
    return pose, {k: float(v) for k, v in (data.get('joints') or {}).items()}
