"""HOAP-2 description against specs/hoap2.md (the checks every description passes:
tests/test_descriptions.py): the 25 PROTO motors (names, axes, origins, limits, caps), PROTO masses,
kinematic facts, sole contact, the sole plane and the initial pose."""
from __future__ import annotations

import functools
import shutil
import subprocess
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pinocchio as pin
import pytest

from hoap2_description import (ANKLE_TO_SOLE_M, JOINTS, MOTOR_MAX_TORQUE_NM,
                               MOTOR_MAX_VELOCITY_RAD_S, SOLE_SIZE_M, TOTAL_MASS_KG)
from zoo_description_tools import load_pinocchio, parse_urdf, total_mass, xacro_to_urdf
from zoo_description_tools import frame_xyz, load_config, pinocchio_at
from zoo_description_tools.support import convex_hull_margin

PKG = 'hoap2_description'


@functools.lru_cache(maxsize=None)
def urdf(**args) -> str:
    return xacro_to_urdf(PKG, args)




def mujoco_at(text: str, base_xyz=(0.0, 0.0, 0.0), joints: dict | None = None):
    spec = mujoco.MjSpec.from_string(text)
    spec.worldbody.first_body().add_freejoint()
    m = spec.compile()
    d = mujoco.MjData(m)
    d.qpos[:3] = base_xyz
    for name, value in (joints or {}).items():
        d.qpos[m.jnt_qposadr[m.joint(name).id]] = value
    mujoco.mj_forward(m, d)
    return m, d






def sole_geom(m: mujoco.MjModel, s: str) -> int:
    geoms = [g for g in range(m.ngeom) if m.geom_bodyid[g] == m.body(f'{s}_foot').id and m.geom_contype[g]]
    assert len(geoms) == 1, f'{s}_foot must have exactly one collision shape'
    return geoms[0]


def sole_bottom_corners(m: mujoco.MjModel, d: mujoco.MjData, s: str) -> np.ndarray:
    g = sole_geom(m, s)
    hx, hy, hz = m.geom_size[g]
    local = np.array([[sx * hx, sy * hy, -hz] for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    return d.geom_xpos[g] + local @ d.geom_xmat[g].reshape(3, 3).T


# --- joints ----------------------------------------------------------------------------------------

MOTORS = (['body_joint_1', 'head_joint_1', 'head_joint_2']
          + [f'{s}leg_joint_{i}' for s in 'lr' for i in range(1, 7)]
          + [f'{s}arm_joint_{i}' for s in 'lr' for i in range(1, 6)])

# Axis and limits of every motor, specs/hoap2.md section 2.2 (right side mirrored where stated).
SPEC_JOINTS = {
    'body_joint_1': ((0, -1, 0), -0.017453, 1.5708),
    'lleg_joint_1': ((0, 0, 1), -0.541052, 1.58825), 'rleg_joint_1': ((0, 0, 1), -1.58825, 0.541052),
    'lleg_joint_3': ((0, 1, 0), -1.43117, 1.23918), 'rleg_joint_3': ((0, 1, 0), -1.43117, 1.23918),
    'lleg_joint_2': ((1, 0, 0), -0.36652, 0.541052), 'rleg_joint_2': ((1, 0, 0), -0.541052, 0.36652),
    'lleg_joint_4': ((0, 1, 0), -0.017453, 2.26893), 'rleg_joint_4': ((0, 1, 0), -0.017453, 2.26893),
    'lleg_joint_5': ((0, 1, 0), -1.06465, 1.06465), 'rleg_joint_5': ((0, 1, 0), -1.06465, 1.06465),
    'lleg_joint_6': ((1, 0, 0), -0.43633, 0.43633), 'rleg_joint_6': ((1, 0, 0), -0.43633, 0.43633),
    'larm_joint_1': ((0, 1, 0), -1.5882, 2.6354), 'rarm_joint_1': ((0, 1, 0), -1.5882, 2.6354),
    'larm_joint_2': ((0, 0, 1), -0.0175, 1.6755), 'rarm_joint_2': ((0, 0, 1), -1.6755, 0.0175),
    'larm_joint_3': ((1, 0, 0), -1.5882, 1.5882), 'rarm_joint_3': ((1, 0, 0), -1.5882, 1.5882),
    'larm_joint_4': ((0, 1, 0), -2.0071, 0.01745), 'rarm_joint_4': ((0, 1, 0), -2.0071, 0.01745),
    'larm_joint_5': ((1, 0, 0), -1.0472, 1.0472), 'rarm_joint_5': ((1, 0, 0), -1.0472, 1.0472),
    'head_joint_1': ((0, 0, 1), -1.0472, 1.0472),
    'head_joint_2': ((0, 1, 0), -0.2618, 1.0472),
}


def test_25_motors_with_the_proto_names_and_caps():
    """R22: 25 actuated joints (6 per leg, 5 per arm, 2 head, 1 body), caps 9 N m and 5 rad/s."""
    movable = parse_urdf(urdf()).movable_joints()
    assert sorted(movable) == sorted(MOTORS) == sorted(JOINTS) and len(set(JOINTS)) == 25
    assert {j.type for j in movable.values()} == {'revolute'}
    assert {(j.effort, j.velocity) for j in movable.values()} == {(9.0, 5.0)}
    assert (MOTOR_MAX_TORQUE_NM, MOTOR_MAX_VELOCITY_RAD_S) == (9.0, 5.0)


def test_axes_and_limits_in_urdf_mujoco_and_pinocchio():
    joints = parse_urdf(urdf()).joints
    m, _ = mujoco_at(urdf())
    pmodel, _ = load_pinocchio(urdf())
    for name, (axis, lower, upper) in SPEC_JOINTS.items():
        assert joints[name].axis.tolist() == list(axis), name
        assert tuple(m.jnt_range[m.joint(name).id]) == pytest.approx((lower, upper), abs=1e-6), name
        idx = pmodel.joints[pmodel.getJointId(name)].idx_q
        assert (pmodel.lowerPositionLimit[idx], pmodel.upperPositionLimit[idx]) == pytest.approx(
            (lower, upper), abs=1e-6), name


# --- mass properties -----------------------------------------------------------------------------

# PROTO Physics masses (specs/hoap2.md section 2.2); the foot lumps the foot solid and the touch
# sensor's (0.136753 + 0.02 kg).
PROTO_MASSES = {
    'torso': 2.37622, 'waist': 0.49768, 'neck': 0.0208892, 'head': 0.0669886,
    'l_hip_yaw_link': 0.039388, 'l_hip_pitch_link': 0.438537, 'r_hip_pitch_link': 0.438575,
    'l_thigh': 0.172696, 'r_shank': 0.285827, 'l_ankle_pitch_link': 0.171128,
    'l_foot': 0.136753 + 0.02, 'r_foot': 0.136753 + 0.02,
    'l_shoulder_pitch_link': 0.199031, 'r_shoulder_roll_link': 0.201439,
    'l_upper_arm': 0.218287, 'r_upper_arm': 0.220645, 'l_forearm': 0.167592, 'r_forearm': 0.167552,
    'l_hand': 0.0472, 'r_hand': 0.0472,
}


def test_proto_masses_and_torso_inertia():
    links = parse_urdf(urdf()).links
    for name, mass in PROTO_MASSES.items():
        assert links[name].inertial.mass == pytest.approx(mass, rel=1e-9), name
    torso = links['torso'].inertial
    assert np.diag(torso.inertia) == pytest.approx([0.008602, 0.011272, 0.009781], rel=1e-9)
    assert torso.xyz == pytest.approx([-0.03, 0.00028, 0.067], abs=5e-4)
    # R22: 7 +- 1 kg; 7.16 kg expected from the PROTO masses.
    assert total_mass(urdf()) == pytest.approx(7.16, abs=0.005)
    assert TOTAL_MASS_KG == pytest.approx(total_mass(urdf()), abs=0.005)


# --- kinematics (pinocchio, MuJoCo) ----------------------------------------------------------------

def test_leg_geometry():
    """Hips 0.078 m apart at (-0.034, +-0.039, -0.055), thigh and shank 0.10 m, ankle to sole
    0.0405 m, hip to sole 0.2405 m; segment lengths hold in a bent pose too (1e-4 m)."""
    bent = {'lleg_joint_3': -0.7, 'lleg_joint_4': 1.3, 'lleg_joint_5': -0.4, 'lleg_joint_2': 0.2,
            'rleg_joint_1': -0.5, 'rleg_joint_4': 0.9, 'rleg_joint_6': 0.3}
    for pose in ({}, bent):
        model, data, _ = pinocchio_at(urdf(), pose)
        for s, y in (('l', 0.039), ('r', -0.039)):
            hip = frame_xyz(model, data, f'{s}leg_joint_1')
            assert hip == pytest.approx([-0.034, y, -0.055], abs=1e-4)
            assert frame_xyz(model, data, f'{s}leg_joint_3') == pytest.approx(hip, abs=1e-4)
            assert frame_xyz(model, data, f'{s}leg_joint_2') == pytest.approx(hip, abs=1e-4)
            knee = frame_xyz(model, data, f'{s}leg_joint_4')
            ankle = frame_xyz(model, data, f'{s}leg_joint_5')
            assert frame_xyz(model, data, f'{s}leg_joint_6') == pytest.approx(ankle, abs=1e-4)
            assert np.linalg.norm(knee - hip) == pytest.approx(0.100, abs=1e-4)
            assert np.linalg.norm(ankle - knee) == pytest.approx(0.100, abs=1e-4)
            if not pose:
                sole = frame_xyz(model, data, f'{s}_sole')
                assert ankle[2] - sole[2] == pytest.approx(0.0405, abs=1e-4)
                assert ankle[2] - sole[2] == pytest.approx(ANKLE_TO_SOLE_M, abs=1e-9)
                assert hip[2] - sole[2] == pytest.approx(0.2405, abs=1e-4)


def test_arm_and_head_geometry():
    model, data, _ = pinocchio_at(urdf(), {})
    for s, y in (('l', 0.0995), ('r', -0.0995)):
        shoulder = np.array([-0.034, y, 0.09])
        for i in (1, 2, 3):
            assert frame_xyz(model, data, f'{s}arm_joint_{i}') == pytest.approx(shoulder, abs=1e-4)
        # At zero the arm points forward: elbow 0.101 m and hand 0.100 m further along +x.
        assert frame_xyz(model, data, f'{s}arm_joint_4') == pytest.approx(shoulder + [0.101, 0, 0], abs=1e-4)
        assert frame_xyz(model, data, f'{s}arm_joint_5') == pytest.approx(shoulder + [0.201, 0, 0], abs=1e-4)
    assert frame_xyz(model, data, 'head_joint_1') == pytest.approx([-0.034, 0, 0.09], abs=1e-4)
    assert frame_xyz(model, data, 'head_joint_2') == pytest.approx([-0.026, 0, 0.171], abs=1e-4)


def test_height_is_about_half_a_metre():
    """Standing straight (all joints 0) on its soles the robot is 48-50 cm tall (section 2.2),
    and its shapes do not touch each other."""
    m, d = mujoco_at(urdf(), (0.0, 0.0, 0.2955))
    head = m.geom_bodyid.tolist().index(m.body('head').id)
    top = d.geom_xpos[head][2] + m.geom_size[head][0]
    assert sole_bottom_corners(m, d, 'l')[:, 2] == pytest.approx(0.0, abs=1e-4)
    assert 0.48 <= top <= 0.50
    assert d.ncon == 0


# --- contact ---------------------------------------------------------------------------------------

def test_sole_box_is_the_proto_touch_sensor():
    """Footprint 0.094 x 0.062 m, 0.015 m thick; its bottom face is the sole frame (1 mm)."""
    m, d = mujoco_at(urdf())
    model, data, _ = pinocchio_at(urdf(), {})
    for s in ('l', 'r'):
        g = sole_geom(m, s)
        assert 2 * m.geom_size[g] == pytest.approx([0.094, 0.062, 0.015], abs=1e-9)
        assert 2 * m.geom_size[g][:2] == pytest.approx(SOLE_SIZE_M, abs=1e-9)
        corners = sole_bottom_corners(m, d, s)
        sole = frame_xyz(model, data, f'{s}_sole')
        assert corners[:, 2] == pytest.approx(sole[2], abs=1e-3)
        assert corners[:, :2].mean(axis=0) == pytest.approx(sole[:2], abs=1e-6)


@pytest.mark.parametrize('mu', [1.0, 0.5])
def test_sole_contact_values_reach_the_sdf(tmp_path, mu):
    path = tmp_path / 'hoap2.urdf'
    path.write_text(urdf() if mu == 1.0 else urdf(sole_mu=mu))
    sdf = subprocess.run([shutil.which('ign'), 'sdf', '-p', str(path)], capture_output=True,
                         text=True, check=True).stdout
    model = ET.fromstring(sdf).find('model')
    for foot, sensor in (('l_foot', 'left_touch'), ('r_foot', 'right_touch')):
        link = model.find(f"link[@name='{foot}']")
        (collision,) = link.findall('collision')
        assert collision.get('name') == f'{foot}_collision'
        friction = collision.find('surface/friction/ode')
        ode = collision.find('surface/contact/ode')
        assert float(friction.findtext('mu')) == mu and float(friction.findtext('mu2')) == mu
        assert float(ode.findtext('kp')) == 1e6 and float(ode.findtext('kd')) == 100.0
        assert float(ode.findtext('min_depth')) == 0.001
        touch = link.find(f"sensor[@name='{sensor}']")
        assert touch.get('type') == 'contact'
        assert touch.findtext('contact/collision') == f'{foot}_collision'


# --- initial pose ----------------------------------------------------------------------------------

def test_initial_pose_stands_flat_without_self_contact():
    """With the base upright, all sole corners touch the ground (soles level), knees bent 40 deg
    as in the sample walk's first frame, and no shapes of the robot touch each other."""
    pose = load_config(PKG, 'initial_pose')
    assert pose['base']['rpy'] == [0.0, 0.0, 0.0]
    m, d = mujoco_at(urdf(), pose['base']['xyz'], pose['joints'])
    for s in ('l', 'r'):
        assert sole_bottom_corners(m, d, s)[:, 2] == pytest.approx(0.0, abs=1e-4)
    assert d.ncon == 0
    assert pose['joints']['lleg_joint_4'] == pytest.approx(np.radians(40), abs=1e-5)


def test_initial_pose_com_above_the_soles():
    """The CoM projection lies inside the double-support polygon with at least 3 cm margin."""
    pose = load_config(PKG, 'initial_pose')
    m, d = mujoco_at(urdf(), pose['base']['xyz'], pose['joints'])
    corners = np.vstack([sole_bottom_corners(m, d, s) for s in ('l', 'r')])
    model, data, q = pinocchio_at(urdf(), pose['joints'], pose['base']['xyz'])
    com = pin.centerOfMass(model, data, q)
    assert convex_hull_margin(corners[:, :2], com[:2]) > 0.03
