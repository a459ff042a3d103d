"""Force stand (HighCmd mode 1): the trunk rolled, pitched, yawed and raised or lowered over feet
that stay where the stand pose put them, as joint targets (SDK order) by the Go1's leg IK.

Ranges (unitree_legged_sdk v3.8 ``include/unitree_legged_sdk/comm.h``, HighCmd comments):
bodyHeight delta -0.13 ... 0.03 m, roll and pitch -0.75 ... 0.75 rad, yaw -0.6 ... 0.6 rad;
a request outside them is clamped to them. The delta is taken from this robot's stand pose
(spec go1.md §2.2: about 0.36 m of trunk height; a real Go1 stands at 0.31 m, comm.h).
Geometry: spec go1.md §2.2 (unitree_ros go1_description const.xacro)."""
from __future__ import annotations

import numpy as np

from .constants import SDK_LEGS

HIP_ORIGIN = (0.1881, 0.04675)   # m, |x| |y| of each hip joint in the trunk (front +x, left +y)
HIP_OFFSET = 0.08                # m, hip -> thigh joint along y (left +)
THIGH, CALF = 0.213, 0.213       # m, thigh -> calf joint, calf -> foot centre
HEIGHT_RANGE = (-0.13, 0.03)     # m, comm.h bodyHeight
EULER_RANGE = ((-0.75, 0.75), (-0.75, 0.75), (-0.6, 0.6))   # rad, comm.h euler (roll pitch yaw)
# URDF joint limits (spec go1.md §2.2): the IK's answer is clamped to them
LIMITS = ((-0.863, 0.863), (-0.686, 4.501), (-2.818, -0.888))


def _leg_signs(leg: str) -> tuple[float, float]:
    """(front +1 / rear -1, left +1 / right -1) of an SDK leg name."""
    return (1.0 if leg[0] == 'F' else -1.0), (1.0 if leg[1] == 'L' else -1.0)


def _rot(roll: float, pitch: float, yaw: float) -> np.ndarray:
    cr, sr, cp, sp, cy, sy = (np.cos(roll), np.sin(roll), np.cos(pitch), np.sin(pitch),
                              np.cos(yaw), np.sin(yaw))
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    return rz @ ry @ rx


def foot_in_trunk(leg: str, q: tuple[float, float, float]) -> np.ndarray:
    """Forward kinematics: the foot centre of ``leg`` in the trunk frame."""
    fx, sy = _leg_signs(leg)
    hip, thigh, calf = q
    x = -THIGH * np.sin(thigh) - CALF * np.sin(thigh + calf)
    z = -THIGH * np.cos(thigh) - CALF * np.cos(thigh + calf)
    d = sy * HIP_OFFSET
    y_r, z_r = d * np.cos(hip) - z * np.sin(hip), d * np.sin(hip) + z * np.cos(hip)
    return np.array([fx * HIP_ORIGIN[0] + x, sy * HIP_ORIGIN[1] + y_r, z_r])


def leg_ik(leg: str, foot: np.ndarray) -> np.ndarray:
    """(hip, thigh, calf) that put the foot centre of ``leg`` at ``foot`` (trunk frame), knee
    backwards as the Go1's; out of reach, the nearest reachable; clamped to the joint limits."""
    fx, sy = _leg_signs(leg)
    px, py, pz = foot - np.array([fx * HIP_ORIGIN[0], sy * HIP_ORIGIN[1], 0.0])
    d = sy * HIP_OFFSET
    z_leg = -np.sqrt(max(py * py + pz * pz - d * d, 1e-9))
    hip = np.arctan2(pz, py) - np.arctan2(z_leg, d)
    hip = (hip + np.pi) % (2 * np.pi) - np.pi
    reach = np.clip(np.hypot(px, z_leg), 1e-6, THIGH + CALF)
    c = (reach ** 2 - THIGH ** 2 - CALF ** 2) / (2 * THIGH * CALF)
    calf = -np.arccos(np.clip(c, -1.0, 1.0))
    a, b = THIGH + CALF * np.cos(calf), CALF * np.sin(calf)
    thigh = np.arctan2(-px, -z_leg) - np.arctan2(b, a)
    return np.array([np.clip(v, lo, hi) for v, (lo, hi) in zip((hip, thigh, calf), LIMITS)])


def clamp_request(body_height: float, euler) -> tuple[float, np.ndarray]:
    """The HighCmd's height delta and euler angles within comm.h's ranges (NaN counts as 0)."""
    h = float(np.clip(np.nan_to_num(body_height), *HEIGHT_RANGE))
    e = np.array([np.clip(np.nan_to_num(float(v)), lo, hi)
                  for v, (lo, hi) in zip(euler, EULER_RANGE)])
    return h, e


def force_stand_q(stand: tuple[float, float, float], body_height: float, euler) -> np.ndarray:
    """Joint targets (SDK order, 12) for the trunk ``body_height`` m above (below) the stand pose
    and turned by ``euler`` (roll, pitch, yaw; clamped to comm.h's ranges), feet kept on the
    ground where ``stand`` put them."""
    h, e = clamp_request(body_height, euler)
    r_t = _rot(*e).T
    out = []
    for leg in SDK_LEGS:
        foot = foot_in_trunk(leg, stand)
        out.append(leg_ik(leg, r_t @ (foot - np.array([0.0, 0.0, h]))))
    return np.concatenate(out)
