"""A robot's :class:`~zoo_sim.robot_interface.RobotInfo` straight from its description, with no
physics engine: for backends that drive hardware (``dynamixel_bridge.backend``). The same path
as the MuJoCo backend's: a :class:`~zoo_sim.mujoco_scene.RobotSpec` (description package, xacro
args, or URDF text) -> ``urdf_robot`` -> the one URDF parser, the same actuated joints in the
same order, the same IMU and contact links, and ``robot_info_from``: joint names, order and
limits are the URDF's whatever drives them.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from . import SimConfigError
from .mujoco_scene import BuiltRobot, RobotSpec, default_sensor_links
from .robot_interface import RobotInfo, robot_info_from
from .urdf_robot import load_description, parse_urdf


@dataclasses.dataclass
class DescribedRobot:
    info: RobotInfo
    position_limits: np.ndarray  # (n, 2) lower, upper per joint of info.joints (+-inf: none)


def describe(spec: RobotSpec) -> DescribedRobot:
    """The robot ``spec`` names, as its description says; a one-line SimConfigError if the
    description cannot be read or names links it does not have."""
    if spec.urdf is not None:
        desc = parse_urdf(spec.urdf, f'<robot {spec.name}>')
    elif spec.package:
        desc = load_description(spec.package, spec.xacro_args, spec.model)
    else:
        raise SimConfigError(f"robot '{spec.name}': needs a description package")
    base_link = desc.root_link
    if base_link == 'world':
        base_link = next(j.child for j in desc.joints if j.parent == 'world')
    imu_link, contact_links = default_sensor_links(spec, desc, base_link)
    for link in [imu_link, *contact_links]:
        if link not in desc.links or link == 'world':
            raise SimConfigError(f"robot '{spec.name}': link '{link}' is not a link of "
                                 f'{desc.source}')
    joints = desc.actuated
    built = BuiltRobot(spec, desc, f'{spec.name}/', base_link,
                       spec.fixed_base or desc.root_link == 'world', [j.name for j in joints],
                       contact_links, imu_link)
    info = robot_info_from(built, np.array([j.velocity_limit for j in joints], dtype=float),
                           np.array([j.effort_limit for j in joints], dtype=float))
    if spec.fall_tilt_deg is not None:
        info.fall_tilt_deg = float(spec.fall_tilt_deg)
    return DescribedRobot(info, np.array([j.position_range for j in joints], dtype=float)
                          .reshape(len(joints), 2))
