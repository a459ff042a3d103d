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
    the angle between the two body z axes, and the signed change of yaw about world z. Plain
    float arithmetic: it runs at every summary sample."""
    yaw = _yaw(q1) - _yaw(q0)
    return tilt_change_deg(q0, q1), math.degrees((yaw + math.pi) % (2 * math.pi) - math.pi)


def tilt_change_deg(q0: Sequence[float], q1: Sequence[float]) -> float:
    """Angle in degrees between the body z axes of orientations ``q0`` and ``q1``."""
    w0, x0, y0, z0 = q0
    w1, x1, y1, z1 = q1
    cos = (4.0 * (x0 * z0 + w0 * y0) * (x1 * z1 + w1 * y1)
           + 4.0 * (y0 * z0 - w0 * x0) * (y1 * z1 - w1 * x1)
           + (1.0 - 2.0 * (x0 * x0 + y0 * y0)) * (1.0 - 2.0 * (x1 * x1 + y1 * y1)))
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def _yaw(q: Sequence[float]) -> float:
    w, x, y, z = q
    return math.atan2(2.0 * (x * y + w * z), 1.0 - 2.0 * (y * y + z * z))


def relative_poses(pos: np.ndarray, quat: np.ndarray, parent: np.ndarray, child: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Poses of frames ``child[k]`` in frames ``parent[k]`` (indices into world poses ``pos``
    (n, 3) and ``quat`` (n, 4)), vectorised: three tensor contractions (it runs at the /tf
    rate, and per-component numpy arithmetic on small arrays costs more)."""
    qp = quat[parent]
    q = np.einsum('ijk,nj,nk->ni', _CONJ_PRODUCT, qp, quat[child])
    rotation_t = np.einsum('jikl,nk,nl->nij', _ROTATION, qp, qp)  # R(qp) transposed
    return np.einsum('nij,nj->ni', rotation_t, pos[child] - pos[parent]), q


def _quaternion_tensors() -> tuple[np.ndarray, np.ndarray]:
    """``C[i, j, k]`` with ``conj(a) b = C a b`` (Hamilton product, w x y z), and ``R[i, j, k, l]``
    with the rotation matrix of a unit quaternion ``R(q)_ij = q_k q_l R[i, j, k, l]``."""
    product = np.zeros((4, 4, 4))
    for i, j, k, sign in [(0, 0, 0, 1), (0, 1, 1, -1), (0, 2, 2, -1), (0, 3, 3, -1),
                          (1, 0, 1, 1), (1, 1, 0, 1), (1, 2, 3, 1), (1, 3, 2, -1),
                          (2, 0, 2, 1), (2, 1, 3, -1), (2, 2, 0, 1), (2, 3, 1, 1),
                          (3, 0, 3, 1), (3, 1, 2, 1), (3, 2, 1, -1), (3, 3, 0, 1)]:
        product[i, j, k] = sign
    conj_product = product * np.array([1.0, -1.0, -1.0, -1.0])[None, :, None]
    rotation = np.zeros((3, 3, 4, 4))
    w, x, y, z = range(4)
    for (i, j), terms in {(0, 0): [(w, w, 1), (x, x, 1), (y, y, -1), (z, z, -1)],
                          (0, 1): [(x, y, 2), (w, z, -2)], (0, 2): [(x, z, 2), (w, y, 2)],
                          (1, 0): [(x, y, 2), (w, z, 2)],
                          (1, 1): [(w, w, 1), (x, x, -1), (y, y, 1), (z, z, -1)],
                          (1, 2): [(y, z, 2), (w, x, -2)], (2, 0): [(x, z, 2), (w, y, -2)],
                          (2, 1): [(y, z, 2), (w, x, 2)],
                          (2, 2): [(w, w, 1), (x, x, -1), (y, y, -1), (z, z, 1)]}.items():
        for k, l, c in terms:
            rotation[i, j, k, l] += c
    return conj_product, rotation


_CONJ_PRODUCT, _ROTATION = _quaternion_tensors()
