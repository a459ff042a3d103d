"""Angle files (R19; spec §11 #14): one goal line per 0.1 s command tick, as on the Lola-OP.

The group's syntax is not available (spec §13 #2), so this is the documented CSV meanwhile:
a header ``t_s,joint_1,...,joint_16`` then one line per tick, times 0, 0.1, 0.2 ... s and goal
angles in degrees. The run lasts the file's duration: its number of lines times 0.1 s.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from .serpenoid import JOINT_LIMIT_DEG, SAMPLE_INTERVAL


class AngleFileError(ValueError):
    """A file that cannot be played; the message names the file and the line."""


def write(path: str | Path, joints: list[str], angles_rad: np.ndarray) -> None:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator='\n')
    out.writerow(['t_s', *joints])
    for k, row in enumerate(np.degrees(np.asarray(angles_rad))):
        out.writerow([f'{k * SAMPLE_INTERVAL:.1f}', *(f'{a:.4f}' for a in row)])
    Path(path).write_text(buf.getvalue())


def read(path: str | Path) -> tuple[list[str], np.ndarray]:
    """(joint names, goal angles in rad, one row per 0.1 s tick)."""
    path = Path(path)
    try:
        lines = list(csv.reader(path.read_text().splitlines()))
    except OSError as exc:
        raise AngleFileError(f'{path}: cannot read: {exc.strerror}') from None
    if not lines or not lines[0] or lines[0][0] != 't_s':
        raise AngleFileError(f"{path}:1: expected the header 't_s,joint_1,...'")
    joints = lines[0][1:]
    if not joints:
        raise AngleFileError(f'{path}:1: no joint columns')
    rows = []
    for n, line in enumerate(lines[1:], start=2):
        if len(line) != len(joints) + 1:
            raise AngleFileError(f'{path}:{n}: expected {len(joints) + 1} values, got {len(line)}')
        try:
            values = [float(v) for v in line]
        except ValueError:
            raise AngleFileError(f'{path}:{n}: not a number in {line}') from None
        if abs(values[0] - (n - 2) * SAMPLE_INTERVAL) > 1e-6:
            raise AngleFileError(f'{path}:{n}: time {values[0]:g} s, expected '
                                 f'{(n - 2) * SAMPLE_INTERVAL:.1f} s (one line per 0.1 s)')
        if max(abs(v) for v in values[1:]) > JOINT_LIMIT_DEG + 1e-9:
            raise AngleFileError(f'{path}:{n}: an angle beyond +-{JOINT_LIMIT_DEG:g} deg')
        rows.append(values[1:])
    if not rows:
        raise AngleFileError(f'{path}: no command lines')
    return joints, np.radians(np.array(rows))


def duration(rows: np.ndarray) -> float:
    return len(rows) * SAMPLE_INTERVAL


class AngleFileGait:
    """A read file as a gait generator: row k is the k-th 0.1 s command (held in between)."""

    def __init__(self, joints: list[str], rows_rad: np.ndarray):
        self.joints = tuple(joints)
        self.rows = rows_rad
        self.period = duration(rows_rad)
        self.sample_interval = SAMPLE_INTERVAL

    def sample_rad(self, k: int) -> np.ndarray:
        return self.rows[k]

    def continuous_rad(self, elapsed: float) -> np.ndarray:
        return self.rows[min(int(elapsed / SAMPLE_INTERVAL + 1e-9), len(self.rows) - 1)]

    def continuous_list(self, elapsed: float) -> list[float]:
        return self.continuous_rad(elapsed).tolist()

    def limit_violations(self, limits) -> dict[str, int]:
        out = {}
        for j, name in enumerate(self.joints):
            lo, hi = limits.get(name, (-np.inf, np.inf))
            out[name] = int(((self.rows[:, j] < lo) | (self.rows[:, j] > hi)).sum())
        return out
