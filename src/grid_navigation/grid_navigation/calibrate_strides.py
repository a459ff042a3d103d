"""Measures the strides on the dynamic HOAP-2 in MuJoCo (spec hoap2.md R24, R25):
``python -m grid_navigation.calibrate_strides [--forward N] [--turn ANGLE ...]`` plays the
primitives through velocity servos that copy the joint PID node (P 10 1/s, ±5 rad/s, 100 Hz;
hoap2_description/config/pid_gains.yaml) and prints, per primitive, the ground-truth advance,
lateral drift and yaw change, then the maximum tilt and minimum base height."""
from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from . import strides
from .steering import wrap

P_GAIN, V_MAX, RATE = 10.0, 5.0, 100.0


def _yaw(q) -> float:
    w, x, y, z = q
    return math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))


def measure(sequence: list[tuple[str, float]], world: str = 'empty') -> dict:
    from zoo_sim.mujoco_backend import MujocoPhysics
    from zoo_sim.mujoco_scene import RobotSpec
    from zoo_sim.transforms import tilt_deg
    ph = MujocoPhysics.create(world, [RobotSpec('hoap2', package='hoap2_description')])
    joints = ph.robots['hoap2'].joints
    every = np.arange(len(joints))
    steps = int(round(1.0 / RATE / (ph.step_ns * 1e-9)))
    worst = {'max_tilt_deg': 0.0, 'min_base_height': math.inf}
    z0 = float(ph.base_pose('hoap2')[0][2])

    def servo(target: np.ndarray) -> None:
        q, _, _ = ph.joint_state('hoap2')
        ph.commands('hoap2', every, 'velocity', np.clip(P_GAIN * (target - q), -V_MAX, V_MAX))
        ph.advance(steps)
        pos, quat = ph.base_pose('hoap2')
        worst['max_tilt_deg'] = max(worst['max_tilt_deg'], tilt_deg(quat))
        worst['min_base_height'] = min(worst['min_base_height'], float(pos[2]))

    rows = []
    for kind, angle in sequence:
        t, cols = strides.forward_frames() if kind == 'forward' else strides.turn_frames(angle)
        table = np.array([cols[j] for j in joints])
        (p0, q0) = ph.base_pose('hoap2')
        for tt in np.arange(0.0, t[-1] + 0.3 + 1e-9, 1.0 / RATE):  # + 0.3 s settling
            servo(np.array([np.interp(tt, t, row) for row in table]))
        p1, q1 = ph.base_pose('hoap2')
        d, y0 = p1[:2] - p0[:2], _yaw(q0)
        rows.append({'primitive': kind, 'angle': angle,
                     'advance_m': float(d[0] * math.cos(y0) + d[1] * math.sin(y0)),
                     'lateral_m': float(-d[0] * math.sin(y0) + d[1] * math.cos(y0)),
                     'yaw_change_rad': wrap(_yaw(q1) - y0)})
    worst['standing_height'] = z0
    return {'primitives': rows, **worst}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog='python -m grid_navigation.calibrate_strides')
    p.add_argument('--forward', type=int, default=10, help='forward strides (10: R24)')
    p.add_argument('--turn', type=float, nargs='*', default=[0.7854] * 8,
                   help='turn angles, rad (8 x 0.7854: R25)')
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    seq = [('forward', 0.0)] * args.forward + [('turn', a) for a in args.turn]
    out = measure(seq)
    for r in out['primitives']:
        print(f"{r['primitive']:8s} {r['angle']:+.4f} rad: "
              f"advance {r['advance_m'] * 1e3:6.1f} mm, lateral {r['lateral_m'] * 1e3:6.1f} mm, "
              f"yaw {math.degrees(r['yaw_change_rad']):6.2f}°")
    print(json.dumps({k: v for k, v in out.items() if k != 'primitives'}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
