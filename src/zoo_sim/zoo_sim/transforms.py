"""Rigid-transform helpers (quaternions are w, x, y, z, as MuJoCo stores them)."""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Fixed-axis roll-pitch-yaw (URDF/SDF convention: R = Rz(yaw) Ry(pitch) Rx(roll))."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return np.array([cr * cp * cy + sr * sp * sy,
                     sr * cp * cy - cr * sp * sy,
                     cr * sp * cy + sr * cp * sy,
                     cr * cp * sy - sr * sp * cy])


def quat_mul(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw])


def quat_rotate(q: Sequence[float], v: Sequence[float]) -> np.ndarray:
    w, x, y, z = q
    u = np.array([x, y, z])
    v = np.asarray(v, dtype=float)
    return v + 2.0 * np.cross(u, np.cross(u, v) + w * v)


def quat_conj(q: Sequence[float]) -> np.ndarray:
    return np.array([q[0], -q[1], -q[2], -q[3]])


def compose(parent: tuple[np.ndarray, np.ndarray],
            child: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(pos, quat) of ``child`` given relative to ``parent``, expressed in the parent's frame."""
    p_pos, p_q = parent
    c_pos, c_q = child
    return p_pos + quat_rotate(p_q, c_pos), quat_mul(p_q, c_q)


def tilt_deg(q: Sequence[float]) -> float:
    """Angle between the body z axis and the world z axis, in degrees."""
    w, x, y, z = q
    cos_tilt = 1.0 - 2.0 * (x * x + y * y)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos_tilt))))


def rotation_change_deg(q0: Sequence[float], q1: Sequence[float]) -> tuple[float, float]:
    """(tilt change, heading change) in degrees from orientation ``q0`` to ``q1`` (w, x, y, z):
    the angle between the two body z axes, and the signed change of yaw about world z."""
    r0, r1 = _rot(q0), _rot(q1)
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, float(r0[:, 2] @ r1[:, 2])))))
    yaw = math.atan2(r1[1, 0], r1[0, 0]) - math.atan2(r0[1, 0], r0[0, 0])
    return tilt, math.degrees((yaw + math.pi) % (2 * math.pi) - math.pi)


def _rot(q: Sequence[float]) -> np.ndarray:
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def relative_poses(pos: np.ndarray, quat: np.ndarray, parent: np.ndarray, child: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Poses of frames ``child[k]`` in frames ``parent[k]`` (indices into world poses ``pos``
    (n, 3) and ``quat`` (n, 4)), vectorised."""
    qp = quat[parent] * np.array([1.0, -1.0, -1.0, -1.0])  # conjugates
    qc = quat[child]
    w1, x1, y1, z1 = qp.T
    w2, x2, y2, z2 = qc.T
    q = np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                  w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                  w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                  w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=1)
    v = pos[child] - pos[parent]
    p = v + 2.0 * _cross(qp[:, 1:], _cross(qp[:, 1:], v) + qp[:, :1] * v)
    return p, q


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cross product (np.cross costs more than the arithmetic for small arrays)."""
    return np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
                     a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                     a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=1)
