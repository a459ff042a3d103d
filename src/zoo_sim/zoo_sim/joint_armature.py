"""Motor rotor inertia reflected through the gearbox (MuJoCo's joint ``armature``), from a
description's ``config/armature.yaml``. URDF has no element for it, so the description carries it
beside the URDF, each figure with its source:

    armature:
      - joints: '.*_calf_joint'        # a regular expression, matched whole against joint names
        rotor_inertia: 1.1e-05         # kg m^2, the motor's own
        gear_ratio: 30.0               # armature = rotor_inertia x gear_ratio^2
        source: 'maker datasheet ...'
      - joints: '.*_hip_joint'
        armature: 0.01                 # kg m^2, as an upstream model gives it
        source: 'owner/repo path'

A rotor turning ``ratio`` times faster than its joint stores ``ratio^2`` times its own inertia's
energy: on small links it dominates the link (a Nao hand: 1.1e-9 kg m2 of link), and without it a
PD or effort command accelerates such a joint through its stop in one step. Entries apply to the
actuated joints (a mimic joint follows its master's motor); a joint matched twice takes the
first entry. No file: no armature."""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Sequence

import yaml

from . import SimConfigError

FILE = 'armature.yaml'


def _number(path: Path, i: int, entry: dict, key: str) -> float:
    value = entry.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not math.isfinite(value) or value < 0:
        raise SimConfigError(f'{path}: armature[{i}].{key}: expected a number >= 0, got '
                             f'{value!r}')
    return float(value)


def _value(path: Path, i: int, entry: dict) -> float:
    if not isinstance(entry, dict) or not isinstance(entry.get('joints'), str) \
            or not isinstance(entry.get('source'), str) or not entry['source'].strip():
        raise SimConfigError(f'{path}: armature[{i}]: expected a mapping with joints (a regular '
                             f'expression) and source (text), got {entry!r}')
    if 'armature' in entry:
        if 'rotor_inertia' in entry or 'gear_ratio' in entry:
            raise SimConfigError(f'{path}: armature[{i}]: give armature, or rotor_inertia and '
                                 'gear_ratio, not both')
        return _number(path, i, entry, 'armature')
    return _number(path, i, entry, 'rotor_inertia') * _number(path, i, entry, 'gear_ratio') ** 2


def read(path: Path, joints: Sequence[str]) -> dict[str, float]:
    """Joint name -> armature (kg m^2) for ``joints`` from the file at ``path``."""
    data = yaml.safe_load(path.read_text()) or {}
    entries = data.get('armature') if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise SimConfigError(f'{path}: armature: expected a list of entries, got {entries!r}')
    out: dict[str, float] = {}
    for i, entry in enumerate(entries):
        value = _value(path, i, entry)
        try:
            pattern = re.compile(entry['joints'])
        except re.error as exc:
            raise SimConfigError(f'{path}: armature[{i}].joints: not a regular expression: '
                                 f'{exc}') from None
        matched = [j for j in joints if pattern.fullmatch(j)]
        if not matched:
            raise SimConfigError(f"{path}: armature[{i}].joints: '{entry['joints']}' matches no "
                                 f'actuated joint (have {", ".join(joints)})')
        for j in matched:
            out.setdefault(j, value)
    return out


def armature(package: str, joints: Sequence[str]) -> dict[str, float]:
    """The description package's armature per actuated joint (empty without the file)."""
    from zoo_description_tools import find_description
    path = find_description(package) / 'config' / FILE
    return read(path, joints) if path.is_file() else {}
