"""The three keyframe strides of the thesis (spec hoap2.md §3): forward step, positive (left) turn,
negative (right) turn, authored for the workspace HOAP-2 as quasi-static motions (spec §3.3: the
centre of mass stays over the supporting sole) and solved by leg inverse kinematics.

A stride is a list of *poses* in a ground frame (base x, y, yaw; each sole x, y, z, yaw), joined
by straight task-space moves sampled every ``sample`` seconds and converted to joint angles, so
the stance sole stays put between keyframes. ``forward_frames``/``turn_frames`` return
``(times, {joint: angles})`` for all 25 joints (arms, head and waist at the nominal pose);
``to_csv`` writes them in joint_pid_control's keyframe CSV format (rad).

Turns (spec §3.3): positive = balance on the right leg, left sole turned by the angle (its hip yaw
takes the angle), double support, balance on the left leg, hip yaws back to 0 so the body turns,
double support; negative = the mirror. Unlike the thesis' files, the other leg joints of the turn
are solved for the angle too (a 45° turned sole moves the support polygon; spec §10 item 12).
"""
from __future__ import annotations

import dataclasses
import io
import math

import numpy as np

from . import leg_kinematics as lk

# Nominal pose of hoap2_description/config/initial_pose.yaml (walk.csv's first frame).
BASE_HEIGHT = 0.283439
NOMINAL = {
    'body_joint_1': 0.0, 'head_joint_1': 0.0, 'head_joint_2': 0.0,
    'larm_joint_1': 1.570796, 'larm_joint_2': 0.174533, 'larm_joint_3': -0.174533,
    'larm_joint_4': -0.436332, 'larm_joint_5': 0.0,
    'rarm_joint_1': 1.570796, 'rarm_joint_2': -0.174533, 'rarm_joint_3': 0.174533,
    'rarm_joint_4': -0.436332, 'rarm_joint_5': 0.0,
}
JOINTS = (['body_joint_1', 'head_joint_1', 'head_joint_2'] + lk.joint_names('l')
          + lk.joint_names('r') + [f'{s}arm_joint_{k}' for s in 'lr' for k in range(1, 6)])
SOLE_NOMINAL = np.array([lk.SOLE[0] + lk.HIP[0], lk.HIP[1]])  # left sole centre, base frame


@dataclasses.dataclass(frozen=True)
class StrideParams:
    """Shape and timing of the strides. ``shift_x``/``shift_y``: base offset (body frame) from
    its nominal place over the stance sole in single support, chosen so the centre of mass
    projects near the sole centre (measured on the MuJoCo model: README, "Strides")."""
    step_length: float = 0.05   # m the body advances per forward stride
    lift: float = 0.02          # m sole clearance of the swing foot
    shift_x: float = 0.004      # m
    shift_y: float = 0.034      # m
    body_height: float = BASE_HEIGHT - 0.01  # m: knees a little more bent than nominal
    shift_time: float = 0.8     # s per weight shift
    lift_time: float = 0.3      # s to lift or lower a foot
    swing_time: float = 0.6     # s to move a lifted foot (or turn the body)
    hold_time: float = 0.2      # s still at the end of a weight shift
    sample: float = 0.05        # s between solved keyframes


@dataclasses.dataclass(frozen=True)
class Pose:
    base: tuple[float, float, float]           # x, y, yaw
    left: tuple[float, float, float, float]    # sole x, y, z, yaw
    right: tuple[float, float, float, float]


def _rot(yaw: float) -> np.ndarray:
    return np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])


def _sole_in_ground(base: tuple, side: str, z: float = 0.0, dyaw: float = 0.0) -> tuple:
    sign = 1.0 if side == 'l' else -1.0
    xy = np.array(base[:2]) + _rot(base[2]) @ (SOLE_NOMINAL * [1.0, sign])
    return (float(xy[0]), float(xy[1]), z, base[2] + dyaw)


def _base_over(sole: tuple, side: str, yaw: float, p: StrideParams, shifted: bool) -> tuple:
    """The base placed so that ``sole`` is at its nominal body-frame spot, plus the weight
    shift toward it when ``shifted``."""
    sign = 1.0 if side == 'l' else -1.0
    rot = _rot(yaw)
    xy = np.array(sole[:2]) - rot @ (SOLE_NOMINAL * [1.0, sign])
    if shifted:
        xy = xy + rot @ np.array([p.shift_x, sign * p.shift_y])
    return (float(xy[0]), float(xy[1]), yaw)


def _leg_angles(pose: Pose, side: str, p: StrideParams, q0) -> np.ndarray:
    sole = pose.left if side == 'l' else pose.right
    bx, by, byaw = pose.base
    rel = _rot(byaw).T @ (np.array(sole[:2]) - [bx, by])
    pos = np.array([rel[0], rel[1], sole[2] - p.body_height])
    return lk.solve_leg(side, pos, sole[3] - byaw, q0)


def _lerp(a: Pose, b: Pose, s: float) -> Pose:
    def mix(u, v):
        return tuple(x + (y - x) * s for x, y in zip(u, v))
    return Pose(mix(a.base, b.base), mix(a.left, b.left), mix(a.right, b.right))


def solve(poses: list[tuple[float, Pose]], p: StrideParams) -> tuple[np.ndarray, dict]:
    """Joint keyframes of a pose sequence [(duration to reach it, pose), ...] (the first
    duration is ignored): every segment sampled every ``p.sample`` s and solved."""
    times, rows = [0.0], [poses[0][1]]
    for (_, a), (dur, b) in zip(poses, poses[1:]):
        n = max(1, int(round(dur / p.sample)))
        for k in range(1, n + 1):
            times.append(times[-1] + dur / n)
            rows.append(_lerp(a, b, k / n))
    cols = {j: [] for j in JOINTS}
    q_prev = {'l': None, 'r': None}
    for pose in rows:
        for side in 'lr':
            q = _leg_angles(pose, side, p, q_prev[side])
            q_prev[side] = q
            for name, v in zip(lk.joint_names(side), q):
                cols[name].append(float(v))
        for name, v in NOMINAL.items():
            cols[name].append(v)
    return np.array(times), {j: np.array(v) for j, v in cols.items()}


def standing(p: StrideParams, yaw: float = 0.0) -> Pose:
    base = (0.0, 0.0, yaw)
    return Pose(base, _sole_in_ground(base, 'l'), _sole_in_ground(base, 'r'))


def forward_poses(p: StrideParams) -> list[tuple[float, Pose]]:
    """Double support -> left step -> right step -> double support (spec §3.2)."""
    s0 = standing(p)
    seq = [(0.0, s0)]
    left, right = s0.left, s0.right
    for swing, stance in (('l', 'r'), ('r', 'l')):
        st = right if stance == 'r' else left
        sw = left if swing == 'l' else right
        base = _base_over(st, stance, 0.0, p, shifted=True)
        up = (sw[0], sw[1], p.lift, 0.0)
        ahead = (sw[0] + p.step_length, sw[1], p.lift, 0.0)
        down = (ahead[0], ahead[1], 0.0, 0.0)

        def pose(b, s):
            return Pose(b, s, right) if swing == 'l' else Pose(b, left, s)
        seq += [(p.shift_time, pose(base, sw)), (p.hold_time, pose(base, sw)),
                (p.lift_time, pose(base, up)), (p.swing_time, pose(base, ahead)),
                (p.lift_time, pose(base, down))]
        if swing == 'l':
            left = down
        else:
            right = down
    end = Pose((p.step_length, 0.0, 0.0), left, right)
    seq += [(p.shift_time, end), (p.hold_time, end)]
    return seq


def turn_poses(angle: float, p: StrideParams) -> list[tuple[float, Pose]]:
    """Positive angle: left sole turned while on the right leg, then the body turns on the left
    leg (spec §3.3); negative: the mirror."""
    s0 = standing(p)
    swing, stance = ('l', 'r') if angle >= 0.0 else ('r', 'l')
    sw0 = s0.left if swing == 'l' else s0.right
    st0 = s0.right if swing == 'l' else s0.left

    def pose(b, sw, st):
        return Pose(b, sw, st) if swing == 'l' else Pose(b, st, sw)
    on_stance = _base_over(st0, stance, 0.0, p, shifted=True)
    up = (sw0[0], sw0[1], p.lift, 0.0)
    turned_up = (sw0[0], sw0[1], p.lift, angle)
    turned = (sw0[0], sw0[1], 0.0, angle)
    on_swing = _base_over(turned, swing, 0.0, p, shifted=True)
    # The body turns about the (planted) turned sole; the other foot, lifted, follows it.
    body_turned = _base_over(turned, swing, angle, p, shifted=True)
    end = _base_over(turned, swing, angle, p, shifted=False)  # centred over both soles
    st_up = _sole_in_ground(end, stance, p.lift)
    st_down = (st_up[0], st_up[1], 0.0, st_up[3])
    st_lift = (st0[0], st0[1], p.lift, 0.0)
    return [(0.0, s0),
            (p.shift_time, pose(on_stance, sw0, st0)), (p.hold_time, pose(on_stance, sw0, st0)),
            (p.lift_time, pose(on_stance, up, st0)),
            (p.swing_time, pose(on_stance, turned_up, st0)),
            (p.lift_time, pose(on_stance, turned, st0)),
            (p.shift_time, pose(on_swing, turned, st0)), (p.hold_time, pose(on_swing, turned, st0)),
            (p.lift_time, pose(on_swing, turned, st_lift)),
            (p.swing_time, pose(body_turned, turned, st_up)),
            (p.lift_time, pose(body_turned, turned, st_down)),
            (p.shift_time, pose(end, turned, st_down)), (p.hold_time, pose(end, turned, st_down))]


def forward_frames(p: StrideParams = StrideParams()) -> tuple[np.ndarray, dict]:
    return solve(forward_poses(p), p)


def turn_frames(angle: float, p: StrideParams = StrideParams()) -> tuple[np.ndarray, dict]:
    return solve(turn_poses(angle, p), p)


def to_csv(times: np.ndarray, cols: dict) -> str:
    """joint_pid_control's keyframe CSV (rad): ``time,<joint>,...``."""
    out = io.StringIO()
    out.write('time,' + ','.join(JOINTS) + '\n')
    for k, t in enumerate(times):
        out.write(f'{t:.3f},' + ','.join(f'{cols[j][k]:.6f}' for j in JOINTS) + '\n')
    return out.getvalue()
