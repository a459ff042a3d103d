"""The state log of R20: per line the time, every link's pose (17 x: x y z qw qx qy qz, world
frame) and every joint's angle, velocity and torque (16 x: theta omega tau), SI units; CSV with a
header. 1 + 17*7 + 16*3 = 168 columns for the Lola-OP. The real robot's format is not available
(spec §13 #2); this is the documented layout meanwhile (spec §11 #14).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

# the simulator's link_poses order (RobotInfo.links: the URDF's links) for the 16-module snake;
# imu_link is a frame fixed to link 0, not a module, and is left out of the log
PUBLISHED_LINKS = ['base_link', 'imu_link', *(f'link_{i}' for i in range(1, 17))]
NOT_MODULES = ('imu_link',)


def module_index(published: list[str]) -> tuple[list[str], list[int]]:
    """The module links of a link_poses message and their indices in it."""
    keep = [i for i, ln in enumerate(published) if ln not in NOT_MODULES]
    return [published[i] for i in keep], keep


def header(links: list[str], joints: list[str]) -> list[str]:
    cols = ['t_s']
    for ln in links:
        cols += [f'{ln}.{c}' for c in ('x', 'y', 'z', 'qw', 'qx', 'qy', 'qz')]
    for j in joints:
        cols += [f'{j}.theta', f'{j}.omega', f'{j}.tau']
    return cols


def row(t: float, pos: np.ndarray, quat: np.ndarray, q: np.ndarray, dq: np.ndarray,
        tau: np.ndarray) -> np.ndarray:
    poses = np.concatenate([np.asarray(pos), np.asarray(quat)], axis=1).ravel()
    joints = np.stack([q, dq, tau], axis=1).ravel()
    return np.concatenate([[t], poses, joints])


def write(path: str | Path, links: list[str], joints: list[str], rows: list[np.ndarray]) -> Path:
    path = Path(path)
    data = np.array(rows) if rows else np.zeros((0, len(header(links, joints))))
    np.savetxt(path, data, delimiter=',', header=','.join(header(links, joints)), comments='',
               fmt='%.9g')
    return path


def read(path: str | Path) -> tuple[list[str], np.ndarray]:
    text = Path(path).read_text().splitlines()
    cols = text[0].split(',')
    if len(text) < 2:
        return cols, np.zeros((0, len(cols)))
    return cols, np.loadtxt(text[1:], delimiter=',', ndmin=2)
