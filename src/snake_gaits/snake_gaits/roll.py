"""How far the snake has rolled about its own body axis, from module orientations alone.

A module's roll axis check: each module has an axis that is horizontal in the straight rest pose
and stays horizontal under any pitch of the body and, with the yaw joints straight, under any
pitch wave: its joint axis for a pitch module, its lateral axis (link y) for a yaw module (link
frames of snake_description: x along the snake, z the joint axis, pitch modules rolled -90 deg).
The angle by which that axis leaves the horizontal plane is the module's roll: ~0 for linear
progression on its belly, up to 90 deg for a snake lying on its side, and large by design in
lateral rolling. This, not the simulator's base-tilt fall rule (which fires when link 0 pitches
past 45 deg, as the head does in linear progression), says whether the snake went over.
"""
from __future__ import annotations

import numpy as np


def _axis_z(quats_wxyz: np.ndarray, local: np.ndarray) -> np.ndarray:
    """World z component of ``local`` (per row: a unit vector in the link frame) rotated by the
    quaternions (w, x, y, z)."""
    w, x, y, z = (quats_wxyz[:, k] for k in range(4))
    # third row of the rotation matrix
    r20, r21, r22 = 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)
    return r20 * local[:, 0] + r21 * local[:, 1] + r22 * local[:, 2]


def module_roll_deg(names: list[str], quats_wxyz, first_axis: str = 'pitch') -> np.ndarray:
    """Roll (deg, >= 0) of each ``link_<i>`` in ``names`` (other names are skipped)."""
    q = np.asarray(quats_wxyz, dtype=float)
    rows, local = [], []
    for k, name in enumerate(names):
        if not name.startswith('link_') or not name[5:].isdigit():
            continue
        pitch = (int(name[5:]) % 2 == 1) == (first_axis == 'pitch')
        rows.append(k)
        local.append((0.0, 0.0, 1.0) if pitch else (0.0, 1.0, 0.0))
    if not rows:
        return np.zeros(0)
    s = np.clip(np.abs(_axis_z(q[rows], np.array(local))), 0.0, 1.0)
    return np.degrees(np.arcsin(s))
