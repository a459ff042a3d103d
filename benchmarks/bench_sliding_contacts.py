"""Cost of Coulomb sliding contacts (zoo_sim.sliding_contacts): the Robobo driving straight at
6 rad/s with its slider designated (the shipped description) against the same robot with
``sliding_links=[]`` (MuJoCo's own friction reference), stepped side by side, alternating, in one
process; and a world without designated geoms with the callback installed against none.

    python benchmarks/bench_sliding_contacts.py

Prints one JSON line: {"bench": "sliding_contacts", "robobo_ratio": ..., "designated_us_per_step":
..., "plain_us_per_step": ..., "undesignated_ratio": ...} (ratios of the minima over REPEATS).
"""
from __future__ import annotations

import json
import time

import mujoco

from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec

STEPS = 2000
REPEATS = 7


def driving_robobo(sliding_links) -> MujocoPhysics:
    ph = MujocoPhysics.create('empty', [RobotSpec('robobo', package='robobo_description',
                                                  sliding_links=sliding_links)])
    r = ph.robots['robobo']
    for joint in ('left_motor', 'right_motor'):
        ph.command('robobo', r.index[joint], 'velocity', 6.0)
    ph.advance(200)
    return ph


def us_per_step(ph: MujocoPhysics) -> float:
    t = time.perf_counter()
    ph.advance(STEPS)
    return (time.perf_counter() - t) / STEPS * 1e6


def main() -> None:
    designated, plain = driving_robobo(None), driving_robobo([])
    times = {'designated': [], 'plain': [], 'nao_cb': [], 'nao': []}
    nao = MujocoPhysics.create('empty', [RobotSpec('nao', package='nao_description')])
    for _ in range(REPEATS):
        times['designated'].append(us_per_step(designated))
        times['plain'].append(us_per_step(plain))
        times['nao_cb'].append(us_per_step(nao))  # the callback is installed (Robobo above)
        callback = mujoco.get_mjcb_control()
        mujoco.set_mjcb_control(None)
        times['nao'].append(us_per_step(nao))
        mujoco.set_mjcb_control(callback)
    best = {k: min(v) for k, v in times.items()}
    print(json.dumps({'bench': 'sliding_contacts',
                      'robobo_ratio': round(best['designated'] / best['plain'], 3),
                      'designated_us_per_step': round(best['designated'], 2),
                      'plain_us_per_step': round(best['plain'], 2),
                      'undesignated_ratio': round(best['nao_cb'] / best['nao'], 3)}))


if __name__ == '__main__':
    main()
