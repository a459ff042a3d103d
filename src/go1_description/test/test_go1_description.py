"""Go1 description: the kinematic and inertial facts of specs/go1.md."""
from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest
import yaml

from go1_description import FOOT_LINKS, FOOT_RADIUS, JOINT_NAMES, STAND_LEG
from zoo_description_tools import (find_description, load_pinocchio, parse_links_joints,
                                   xacro_to_urdf)

PKG = 'go1_description'


@pytest.fixture(scope='module')
def urdf() -> str:
    return xacro_to_urdf(PKG)


@pytest.fixture(scope='module')
def pin_model(urdf):
    return load_pinocchio(urdf)


def configuration(model, leg_q) -> np.ndarray:
    q = pin.neutral(model)
    for name, value in zip(JOINT_NAMES, list(leg_q) * 4):
        q[model.joints[model.getJointId(name)].idx_q] = value
    return q


def test_friction_and_self_collision_args_reach_the_urdf() -> None:
    text = xacro_to_urdf(PKG, {'foot_mu': 1.0, 'self_collide': False})
    assert '<mu1>1.0</mu1>' in text and '<self_collide>0</self_collide>' in text


def test_twelve_joints_with_the_spec_limits(urdf) -> None:
    _, joints = parse_links_joints(urdf)
    movable = [n for n, j in joints.items() if j.type != 'fixed']
    assert sorted(movable) == sorted(JOINT_NAMES)
    expected = {  # lower, upper, effort, velocity, axis (specs/go1.md 2.2, R1.3)
        'hip': (-0.863, 0.863, 23.7, 30.1, (1, 0, 0)),
        'thigh': (-0.686, 4.501, 23.7, 30.1, (0, 1, 0)),
        'calf': (-2.818, -0.888, 35.55, 20.06, (0, 1, 0)),
    }
    for name in JOINT_NAMES:
        j = joints[name]
        lower, upper, effort, velocity, axis = expected[name.split('_')[1]]
        assert (j.lower, j.upper, j.effort, j.velocity) == (lower, upper, effort, velocity), name
        assert tuple(j.axis) == axis, name


def test_fl_foot_at_the_stand_pose_and_at_zero(pin_model) -> None:
    model, data = pin_model
    foot = model.getFrameId('FL_foot')
    for leg_q, expected in ((STAND_LEG, (0.18132, 0.12675, -0.33906)),
                            ((0.0, 0.0, 0.0), (0.1881, 0.12675, -0.426))):
        pin.framesForwardKinematics(model, data, configuration(model, leg_q))
        np.testing.assert_allclose(data.oMf[foot].translation, expected, atol=1e-4)


def test_feet_are_mirror_images_at_the_stand_pose(pin_model) -> None:
    model, data = pin_model
    pin.framesForwardKinematics(model, data, configuration(model, STAND_LEG))
    p = {f: data.oMf[model.getFrameId(f)].translation for f in FOOT_LINKS}
    np.testing.assert_allclose(p['FR_foot'], p['FL_foot'] * [1, -1, 1], atol=1e-12)
    # Rear feet: (-0.195, +-0.127, -0.339) (specs/go1.md 2.2, derived).
    np.testing.assert_allclose(p['RL_foot'], [-0.195, 0.127, -0.339], atol=1e-3)
    np.testing.assert_allclose(p['RR_foot'], p['RL_foot'] * [1, -1, 1], atol=1e-12)


def test_centroidal_inertia_reproduces_the_thesis(pin_model) -> None:
    """R1.1: at the stand pose ccrba gives Eq. 5.1b; with straight legs, Code 5.1's numbers."""
    model, data = pin_model
    eq_5_1b = [[0.15579, -0.000426763, -0.0163273],
               [-0.000426763, 0.420183, -9.928e-5],
               [-0.0163273, -9.928e-5, 0.422203]]
    code_5_1 = [[0.1996, -0.000377827, -0.00371351],
                [-0.000377827, 0.451246, -0.00012186],
                [-0.00371351, -0.00012186, 0.409456]]
    for leg_q, expected in ((STAND_LEG, eq_5_1b), ((0.0, 0.0, 0.0), code_5_1)):
        q = configuration(model, leg_q)
        pin.ccrba(model, data, q, np.zeros(model.nv))
        np.testing.assert_allclose(data.Ig.inertia, expected, atol=1e-5)
    pin.centerOfMass(model, data, configuration(model, STAND_LEG))
    np.testing.assert_allclose(data.com[0], [-0.000265, 0.000848, -0.023897], atol=1e-6)


def test_initial_pose_puts_the_four_soles_on_the_ground(pin_model) -> None:
    model, data = pin_model
    pose = yaml.safe_load((find_description(PKG) / 'config/initial_pose.yaml').read_text())
    assert [pose['joints'][n] for n in JOINT_NAMES] == list(STAND_LEG) * 4
    q = configuration(model, STAND_LEG)
    q[:3] = pose['base']['xyz']
    pin.framesForwardKinematics(model, data, q)
    soles = [data.oMf[model.getFrameId(f)].translation[2] - FOOT_RADIUS for f in FOOT_LINKS]
    np.testing.assert_allclose(soles, 0.0, atol=1e-5)
