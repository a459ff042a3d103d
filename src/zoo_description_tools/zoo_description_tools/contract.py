"""Checks of the robozoo description contract (briefs: descriptions_common) that go beyond
physics: frame names, joint kinds and limits, the config files and their agreement with the URDF.

The config files describe the default variant. For another variant (e.g. a snake with fewer
modules) names the URDF does not have are tolerated; everything present must still agree.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from .gains import DESCRIPTION_GAIN_KEYS, GAIN_KEYS
from .generate import robot_name
from .locate import find_description
from .urdf_model import GAZEBO_CONTACT_TAGS, MOVABLE, UrdfModel, parse_urdf
from .xacro_args import load_arg_specs, to_xacro_string, xacro_arg_defaults

# the movable kinds but sliding ones (no robot here has one), and fixed joints
ALLOWED_JOINTS = tuple(kind for kind in MOVABLE if kind != 'prismatic') + ('fixed',)
# what a contact link must set (maxVel may stay Gazebo's default)
CONTACT_TAGS = tuple(tag for tag in GAZEBO_CONTACT_TAGS if tag != 'maxVel')


def _load_yaml(path: Path, problems: list[str]) -> Any:
    if not path.is_file():
        problems.append(f'{path.parent.name}/{path.name}: missing')
        return None
    with open(path, encoding='utf-8') as f:
        return yaml.safe_load(f)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def urdf_problems(model: UrdfModel) -> list[str]:
    """Frame names, joint kinds, limits and axes."""
    problems = []
    if model.root != 'base_link':
        problems.append(f'root link is {model.root!r}, expected base_link (the floating base)')
    imu = [j for j in model.joints.values() if j.child == 'imu_link']
    if not imu or imu[0].type != 'fixed' or imu[0].parent != 'base_link':
        problems.append('imu_link must be fixed to base_link')
    for j in model.joints.values():
        if j.type not in ALLOWED_JOINTS:
            problems.append(f'joint {j.name}: type {j.type!r}, expected one of {ALLOWED_JOINTS}')
            continue
        if j.type == 'fixed':
            continue
        if abs(np.linalg.norm(j.axis) - 1.0) > 1e-6:
            problems.append(f'joint {j.name}: axis {j.axis.tolist()} is not a unit vector')
        if not (j.effort and j.effort > 0 and j.velocity and j.velocity > 0):
            problems.append(f'joint {j.name}: needs <limit effort velocity> > 0')
        if j.type == 'revolute' and not (
                j.lower is not None and j.upper is not None and j.lower < j.upper):
            problems.append(f'joint {j.name}: revolute joint needs <limit lower < upper>')
    return problems


def _group_problems(model: UrdfModel, data: Any, default_variant: bool) -> list[str]:
    where = 'config/joint_groups.yaml'
    if not isinstance(data, dict) or not isinstance(data.get('groups'), dict):
        return [f'{where}: expected {{groups: {{name: [joints]}}, contact_links: [links]}}']
    problems = []
    movable = model.movable_joints()
    grouped = set()
    for group, joints in data['groups'].items():
        if not isinstance(joints, list):
            problems.append(f'{where}: group {group} is not a list')
            continue
        grouped.update(joints)
        for name in joints:
            if name not in movable and (default_variant or name in model.joints):
                problems.append(f'{where}: group {group} names {name!r}, not a movable joint')
    if default_variant:
        missing = sorted(set(movable) - grouped)
        if missing:
            problems.append(f'{where}: joints in no group: {missing}')
    contacts = data.get('contact_links')
    if not isinstance(contacts, list) or not contacts:
        problems.append(f'{where}: contact_links must list the foot/sole/wheel links')
        return problems
    for name in contacts:
        if name not in model.links:
            if default_variant:
                problems.append(f'{where}: contact link {name!r} is not in the URDF')
            continue
        if model.links[name].collisions == 0:
            problems.append(f'contact link {name}: has no collision geometry')
        tags = model.gazebo.get(name, {})
        for tag in CONTACT_TAGS:
            try:
                float(tags[tag])
            except (KeyError, ValueError):
                problems.append(f'contact link {name}: <gazebo reference> lacks a numeric <{tag}>')
    return problems


def _pose_problems(model: UrdfModel, data: Any, default_variant: bool) -> list[str]:
    where = 'config/initial_pose.yaml'
    base = data.get('base') if isinstance(data, dict) else None
    if not isinstance(base, dict) or not isinstance(data.get('joints'), dict):
        return [f'{where}: expected {{base: {{xyz, rpy}}, joints: {{name: rad}}}}']
    problems = []
    for key in ('xyz', 'rpy'):
        value = base.get(key)
        if not (isinstance(value, list) and len(value) == 3 and all(map(_is_number, value))):
            problems.append(f'{where}: base.{key} must be 3 numbers')
    movable = model.movable_joints()
    for name, q in data['joints'].items():
        joint = movable.get(name)
        if joint is None:
            if default_variant:
                problems.append(f'{where}: {name!r} is not a movable joint')
            continue
        if not _is_number(q):
            problems.append(f'{where}: {name} = {q!r} is not a number')
        elif joint.type == 'revolute' and not joint.lower <= q <= joint.upper:
            problems.append(f'{where}: {name} = {q} is outside [{joint.lower}, {joint.upper}]')
    if default_variant:
        missing = sorted(set(movable) - set(data['joints']))
        if missing:
            problems.append(f'{where}: no initial angle for {missing}')
    return problems


def _gain_problems(model: UrdfModel, data: Any, default_variant: bool) -> list[str]:
    where = 'config/pid_gains.yaml'
    try:
        params = data['/**']['ros__parameters']  # any node name: no remappings in scenarios
        joints, gains = params['joints'], params['gains']
    except (TypeError, KeyError):
        return [f'{where}: expected /**.ros__parameters.{{joints, gains}}']
    problems = []
    if set(joints) != set(gains):
        problems.append(f'{where}: joints and gains keys differ: {sorted(set(joints) ^ set(gains))}')
    movable = model.movable_joints()
    for name, gain in gains.items():
        joint = movable.get(name)
        if joint is None:
            if default_variant:
                problems.append(f'{where}: {name!r} is not a movable joint')
            continue
        missing = [k for k in DESCRIPTION_GAIN_KEYS if k not in gain]
        if missing:
            problems.append(f'{where}: {name} lacks {missing}')
            continue
        unknown = [k for k in gain if k not in GAIN_KEYS]
        if unknown:
            problems.append(f'{where}: {name} has keys the PID does not know: {unknown} '
                            f'(expected some of {", ".join(GAIN_KEYS)})')
        if gain['antiwindup_strategy'] != 'back_calculation':
            problems.append(f'{where}: {name}.antiwindup_strategy must be back_calculation')
        if not all(_is_number(gain[k]) for k in ('p', 'i', 'd')) or min(gain['p'], gain['i'], gain['d']) < 0:
            problems.append(f'{where}: {name} p, i, d must be numbers >= 0')
        # The PID outputs a joint velocity command, clamped to the joint's velocity limit, which
        # joint_pid_control takes from the URDF: a copy here could only disagree with it.
        clamps = sorted(k for k in gain if k.startswith('u_clamp'))
        if clamps:
            problems.append(f'{where}: {name} sets {clamps}: the output clamp is the URDF\'s '
                            f'velocity limit ({joint.velocity}); remove them')
    if default_variant:
        missing = sorted(set(movable) - set(gains))
        if missing:
            problems.append(f'{where}: no gains for {missing}')
    return problems


def _arg_problems(package_dir: Path, xacro_file: Path) -> list[str]:
    """The xacro's own <xacro:arg> defaults must be the YAML's, so plain `xacro` users get the
    same robot."""
    specs = load_arg_specs(package_dir)
    declared = xacro_arg_defaults(xacro_file)
    problems = []
    if set(specs) != set(declared):
        problems.append(f'{xacro_file.name} declares args {sorted(declared)} but '
                        f'config/xacro_args.yaml declares {sorted(specs)}')
    for name in set(specs) & set(declared):
        ours, theirs = to_xacro_string(specs[name].default), declared[name]
        same = ours == theirs
        if not same and specs[name].type == 'float':
            try:
                same = math.isclose(float(theirs), float(ours), rel_tol=1e-12)
            except ValueError:
                same = False
        if not same:
            problems.append(f'{xacro_file.name}: arg {name} defaults to {theirs!r} but '
                            f'config/xacro_args.yaml says {ours!r}')
    return problems


def description_problems(package: str, urdf_text: str, default_variant: bool = True) -> list[str]:
    """Every violation of the description contract by ``package`` and its generated URDF."""
    pkg = find_description(package)
    robot = robot_name(package)
    model = parse_urdf(urdf_text)
    problems = urdf_problems(model)
    for name, check in (('joint_groups', _group_problems), ('initial_pose', _pose_problems),
                        ('pid_gains', _gain_problems)):
        data = _load_yaml(pkg / 'config' / f'{name}.yaml', problems)
        if data is not None:
            problems += check(model, data, default_variant)
    problems += _arg_problems(pkg, pkg / 'urdf' / f'{robot}.urdf.xacro')
    for required in (f'rviz/{robot}.rviz', 'README.md'):
        if not (pkg / required).is_file():
            problems.append(f'{package}: missing {required}')
    return problems
