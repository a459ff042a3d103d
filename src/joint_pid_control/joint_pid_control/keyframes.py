"""Keyframe files: time-stamped joint angles played through ``joint_targets`` (the seed's
"combined movements" component, specs/nao.md §10.2).

CSV: a header ``time,<joint>,<joint>,...`` then one row per keyframe; an optional first line
``# angle_unit: deg`` (default rad). YAML::

    angle_unit: deg          # optional, rad by default
    interpolation: linear    # or step (hold each keyframe until the next)
    keyframes:
      - {time: 0.0, RShoulderPitch: 90, RElbowRoll: 30}
      - {time: 1.5, RShoulderPitch: -20}

Times are seconds from the start, strictly increasing. A joint need not appear in every keyframe:
each joint is interpolated between the keyframes that name it and holds its first/last value
before/after them.
"""
from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

UNITS = {'rad': 1.0, 'deg': math.pi / 180.0}
INTERPOLATIONS = ('linear', 'step')
PACKAGE = 'joint_pid_control'


class KeyframeError(ValueError):
    pass


@dataclass(frozen=True)
class Keyframes:
    joints: tuple[str, ...]
    tracks: tuple[tuple[np.ndarray, np.ndarray], ...]  # per joint: (times, values in rad)
    interpolation: str = 'linear'

    @property
    def duration(self) -> float:
        return max(float(t[-1]) for t, _ in self.tracks)

    def sample(self, t: float, loop: bool = False) -> np.ndarray:
        """Joint angles (rad) at ``t`` seconds from the start."""
        if loop and self.duration > 0.0:
            t = t % self.duration
        out = np.empty(len(self.joints))
        for k, (times, values) in enumerate(self.tracks):
            if self.interpolation == 'linear':
                out[k] = np.interp(t, times, values)
            else:
                out[k] = values[max(0, int(np.searchsorted(times, t, side='right')) - 1)]
        return out


def _build(rows: list[tuple[float, dict[str, float]]], unit: str, interpolation: str,
           source: str) -> Keyframes:
    if unit not in UNITS:
        raise KeyframeError(f"{source}: angle_unit {unit!r}: expected 'rad' or 'deg'")
    if interpolation not in INTERPOLATIONS:
        raise KeyframeError(f"{source}: interpolation {interpolation!r}: expected 'linear' or "
                            f"'step'")
    if not rows:
        raise KeyframeError(f'{source}: no keyframes')
    times = [t for t, _ in rows]
    for k in range(1, len(times)):
        if not times[k] > times[k - 1]:
            raise KeyframeError(f'{source}: keyframe {k + 1}: time {times[k]} is not after '
                                f'{times[k - 1]}')
    joints: list[str] = []
    for _, values in rows:
        joints += [j for j in values if j not in joints]
    if not joints:
        raise KeyframeError(f'{source}: no joint values')
    scale = UNITS[unit]
    tracks = []
    for j in joints:
        pts = [(t, v[j]) for t, v in rows if j in v]
        tracks.append((np.array([p[0] for p in pts]), np.array([p[1] for p in pts]) * scale))
    return Keyframes(tuple(joints), tuple(tracks), interpolation)


def _number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise KeyframeError(f'{where}: expected a finite number, got {value!r}')
    return float(value)


def parse_csv(text: str, source: str = '<csv>') -> Keyframes:
    unit = 'rad'
    lines = text.splitlines()
    if lines and lines[0].startswith('#'):
        key, _, value = lines[0].lstrip('#').partition(':')
        if key.strip() != 'angle_unit':
            raise KeyframeError(f"{source}:1: expected '# angle_unit: rad|deg', got {lines[0]!r}")
        unit = value.strip()
        lines = lines[1:]
    reader = csv.reader(io.StringIO('\n'.join(lines)))
    header = [h.strip() for h in next(reader, [])]
    if not header or header[0] != 'time' or len(header) < 2:
        raise KeyframeError(f"{source}: header must be 'time,<joint>,...', got {header}")
    first = 2 + (text.startswith('#'))
    rows = []
    for n, row in enumerate(reader, first):
        if not row:
            continue
        if len(row) != len(header):
            raise KeyframeError(f'{source}:{n}: {len(row)} values for {len(header)} columns')
        try:
            vals = [float(x) for x in row]
        except ValueError:
            raise KeyframeError(f'{source}:{n}: not a number in {row}') from None
        rows.append((vals[0], dict(zip(header[1:], vals[1:]))))
    return _build(rows, unit, 'linear', source)


def parse_yaml(text: str, source: str = '<yaml>') -> Keyframes:
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise KeyframeError(f'{source}: not valid YAML ({str(e).splitlines()[0]})') from None
    if not isinstance(doc, dict) or not isinstance(doc.get('keyframes'), list):
        raise KeyframeError(f"{source}: expected a mapping with a 'keyframes' list")
    unknown = sorted(set(doc) - {'angle_unit', 'interpolation', 'keyframes', 'description'})
    if unknown:
        raise KeyframeError(f"{source}: unknown key(s) {', '.join(unknown)}")
    rows = []
    for k, kf in enumerate(doc['keyframes'], 1):
        where = f'{source}: keyframe {k}'
        if not isinstance(kf, dict) or 'time' not in kf:
            raise KeyframeError(f"{where}: expected a mapping with 'time' and joint values")
        values = {str(j): _number(v, f'{where}: {j}') for j, v in kf.items() if j != 'time'}
        rows.append((_number(kf['time'], f'{where}: time'), values))
    return _build(rows, str(doc.get('angle_unit', 'rad')), str(doc.get('interpolation', 'linear')),
                  source)


def resolve(name: str) -> Path:
    """A keyframe file by path, or by name (with or without extension) among the files this
    package ships (installed share directory, else the source tree)."""
    p = Path(name)
    if p.is_file():
        return p
    from zoo_runtime.resources import package_share  # the locator; imports zoo_runtime
    share = package_share(PACKAGE)
    dirs = ([share / 'config' / 'keyframes'] if share else []) + [
        Path(__file__).resolve().parents[1] / 'config' / 'keyframes']
    for d in dirs:
        for cand in (d / name, d / f'{name}.yaml', d / f'{name}.csv'):
            if cand.is_file():
                return cand
    raise KeyframeError(f'keyframe file {name!r}: not a file, nor a shipped keyframe file')


def load(name: str) -> Keyframes:
    path = resolve(name)
    text = path.read_text()
    if path.suffix.lower() == '.csv':
        return parse_csv(text, str(path))
    if path.suffix.lower() in ('.yaml', '.yml'):
        return parse_yaml(text, str(path))
    raise KeyframeError(f'{path}: expected a .csv, .yaml or .yml file')
