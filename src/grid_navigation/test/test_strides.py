"""The keyframe strides (spec hoap2.md §3, R19-R21)."""
from __future__ import annotations

import numpy as np
import pytest

from joint_pid_control import keyframes

from grid_navigation import leg_kinematics as lk
from grid_navigation import stride_player, strides

LIMITS = {**{n: lim for s in 'lr' for n, lim in zip(lk.joint_names(s), lk.LIMITS[s])}}


@pytest.mark.parametrize('name', ['forward_step.csv', 'turn_pos.csv', 'turn_neg.csv'])
def test_shipped_csvs(name):  # R19
    frames = keyframes.load(str(stride_player.stride_file(name)))
    assert set(frames.joints) == set(strides.JOINTS) and len(frames.joints) == 25
    first, last = frames.sample(0.0), frames.sample(frames.duration)
    assert np.abs(first - last).max() < 1e-3  # double support at both ends
    for k, j in enumerate(frames.joints):
        if j in LIMITS:
            lo, hi = LIMITS[j]
            assert lo - 1e-6 <= frames.tracks[k][1].min() and frames.tracks[k][1].max() <= hi + 1e-6


def test_shipped_csvs_are_what_the_generator_writes():
    assert stride_player.stride_file('forward_step.csv').read_text() == \
        strides.to_csv(*strides.forward_frames())


@pytest.mark.parametrize('angle', [0.7854, 0.3, -0.3, -0.7854])
def test_the_swing_hip_yaw_takes_the_angle(angle):  # R20, as far as the chain allows
    """The hip rolls after pitching (yaw -> pitch -> roll), so a weight shift with a flat sole
    also needs hip yaw: up to 0.145 rad on either leg, whatever the angle (README,
    Deviations). The swing leg's hip yaw peaks at the angle plus at most 0.07 rad."""
    _, cols = strides.turn_frames(angle)
    swing, stance = ('l', 'r') if angle > 0 else ('r', 'l')
    yaw = cols[f'{swing}leg_joint_1'] * np.sign(angle)
    assert angle * np.sign(angle) <= yaw.max() <= abs(angle) + 0.07
    assert yaw.min() >= -0.15
    assert np.abs(cols[f'{stance}leg_joint_1']).max() <= 0.15


def test_leg_ik_round_trip():
    q = lk.solve_leg('l', [0.02, 0.05, -0.25], 0.4)
    p, r = lk.sole_pose('l', q)
    assert p == pytest.approx([0.02, 0.05, -0.25], abs=1e-8)
    assert r[2, 2] == pytest.approx(1.0) and np.arctan2(r[1, 0], r[0, 0]) == pytest.approx(0.4)
    with pytest.raises(lk.IKError):
        lk.solve_leg('l', [0.0, 0.04, -0.40])


def test_turn_frames_keep_the_com_over_the_stance_sole():  # R21, on the MuJoCo model
    import mujoco
    from zoo_sim.mujoco_backend import MujocoPhysics
    from zoo_sim.mujoco_scene import RobotSpec
    ph = MujocoPhysics.create(None, [RobotSpec('hoap2', package='hoap2_description',
                                               fixed_base=True)])
    m, d, r = ph.model, ph.data, ph.robots['hoap2']
    soles = {s: m.body(f'hoap2/{s}_sole').id for s in 'lr'}
    checked = 0
    for angle in (0.7854, -0.7854):
        t, cols = strides.turn_frames(angle)
        for k in range(len(t)):
            for j, i in r.index.items():
                d.qpos[r.qadr[i]] = cols[j][k]
            mujoco.mj_kinematics(m, d)
            mujoco.mj_comPos(m, d)
            z = {s: d.xpos[soles[s]][2] for s in 'lr'}
            if abs(z['l'] - z['r']) < 1e-3:
                continue  # double support
            stance = min(z, key=z.get)
            com = d.subtree_com[m.body('hoap2/base_link').id]
            rel = d.xmat[soles[stance]].reshape(3, 3).T @ (com - d.xpos[soles[stance]])
            assert abs(rel[0]) <= 0.047 and abs(rel[1]) <= 0.031, (angle, t[k], rel)
            checked += 1
    assert checked > 40
