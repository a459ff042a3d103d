"""HOAP-2 leg kinematics in the base frame, from the geometry of spec hoap2.md §2.2 (the
hoap2_description URDF uses the same numbers): hip point (-0.034, ±0.039, -0.055), thigh and
shank 0.100 m, sole centre (0.0112, 0, -0.0405) from the ankle. Chain: yaw (j1, z) -> pitch (j3,
y) -> roll (j2, x) -> knee (j4, y) -> ankle pitch (j5, y) -> ankle roll (j6, x).

Plain numpy; the stride generator solves every keyframe with :func:`solve_leg`.
"""
from __future__ import annotations

import math

import numpy as np

HIP = np.array([-0.034, 0.039, -0.055])  # left hip point; the right one mirrors y
THIGH = 0.100
SHANK = 0.100
SOLE = np.array([0.0112, 0.0, -0.0405])  # sole centre (bottom face) from the ankle
# spec §2.2 limits, chain order j1, j3, j2, j4, j5, j6
LIMITS = {
    'l': [(-0.541052, 1.58825), (-1.43117, 1.23918), (-0.36652, 0.541052),
          (-0.017453, 2.26893), (-1.06465, 1.06465), (-0.43633, 0.43633)],
    'r': [(-1.58825, 0.541052), (-1.43117, 1.23918), (-0.541052, 0.36652),
          (-0.017453, 2.26893), (-1.06465, 1.06465), (-0.43633, 0.43633)],
}
CHAIN = ('joint_1', 'joint_3', 'joint_2', 'joint_4', 'joint_5', 'joint_6')


def joint_names(side: str) -> list[str]:
    return [f'{side}leg_{j}' for j in CHAIN]


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _ry(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def hip_point(side: str) -> np.ndarray:
    return HIP * np.array([1.0, 1.0 if side == 'l' else -1.0, 1.0])


def sole_pose(side: str, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(position, rotation) of the sole centre in the base frame for chain-order angles ``q``."""
    r_thigh = _rz(q[0]) @ _ry(q[1]) @ _rx(q[2])
    knee = hip_point(side) + r_thigh @ np.array([0.0, 0.0, -THIGH])
    r_shank = r_thigh @ _ry(q[3])
    ankle = knee + r_shank @ np.array([0.0, 0.0, -SHANK])
    r_foot = r_shank @ _ry(q[4]) @ _rx(q[5])
    return ankle + r_foot @ SOLE, r_foot


def _error(side: str, q: np.ndarray, pos: np.ndarray, yaw: float) -> np.ndarray:
    p, r = sole_pose(side, q)
    re = _rz(yaw).T @ r  # identity when the sole is flat with the wanted yaw
    return np.concatenate([p - pos, 0.5 * np.array([re[2, 1] - re[1, 2], re[0, 2] - re[2, 0],
                                                    re[1, 0] - re[0, 1]])])


class IKError(ValueError):
    pass


def solve_leg(side: str, pos, yaw: float = 0.0, q0=None, tol: float = 1e-9) -> np.ndarray:
    """Chain-order joint angles putting the sole centre at ``pos`` (base frame), flat, turned by
    ``yaw``. Newton with a numerical Jacobian; raises IKError when unreachable or off limits."""
    pos = np.asarray(pos, dtype=float)
    q = np.array([yaw, -0.35, 0.0, 0.7, -0.35, 0.0]) if q0 is None else np.array(q0, float)
    for _ in range(50):
        e = _error(side, q, pos, yaw)
        if float(np.abs(e).max()) < tol:
            break
        jac = np.empty((6, 6))
        for k in range(6):
            dq = np.zeros(6)
            dq[k] = 1e-7
            jac[:, k] = (_error(side, q + dq, pos, yaw) - e) / 1e-7
        q = q - np.linalg.lstsq(jac, e, rcond=None)[0]
    else:
        raise IKError(f'{side} leg: sole position {pos.tolist()} yaw {yaw:.4f} not reachable')
    for k, (lo, hi) in enumerate(LIMITS[side]):
        if not lo - 1e-9 <= q[k] <= hi + 1e-9:
            raise IKError(f'{side} leg: {joint_names(side)[k]} = {q[k]:.4f} outside [{lo}, {hi}] '
                          f'for sole position {pos.tolist()} yaw {yaw:.4f}')
    return q
