"""NAO V4 description against specs/nao.md (the checks every description passes:
tests/test_descriptions.py): the naoV40 joint set, official masses, the thesis' foot, kinematic
lengths, contact values, the sole plane and the initial pose."""
from __future__ import annotations

import functools
import shutil
import subprocess
import xml.etree.ElementTree as ET

import mujoco
import numpy as np
import pinocchio as pin
import pytest

from nao_description import (FOOT_HEIGHT_M, H25_JOINTS, HIP_OFFSET_Y_M, HIP_OFFSET_Z_M,
                             THIGH_LENGTH_M, TIBIA_LENGTH_M, TOTAL_MASS_KG)
from zoo_description_tools import load_pinocchio, parse_urdf, total_mass, xacro_to_urdf
from zoo_description_tools import frame_xyz, load_config, pinocchio_at
from zoo_description_tools.support import convex_hull_margin

PKG = 'nao_description'
SPEC_MASS = 5.195  # specs/nao.md section 2.7


@functools.lru_cache(maxsize=None)
def urdf(**args) -> str:
    return xacro_to_urdf(PKG, args)




def mujoco_model(text: str) -> mujoco.MjModel:
    spec = mujoco.MjSpec.from_string(text)
    spec.worldbody.first_body().add_freejoint()
    return spec.compile()






# --- mass (the checks common to every description: tests/test_descriptions.py) --------------------

def test_total_mass_is_the_spec_sum():
    # R1: 5.195 +- 0.01 kg; the two 2 mg grippers are the only additions to the spec's list.
    assert total_mass(urdf()) == pytest.approx(SPEC_MASS, abs=0.001)


# --- joints ----------------------------------------------------------------------------------------

def test_25_dof_with_the_upstream_names():
    model = parse_urdf(urdf())
    movable = model.movable_joints()
    assert {j.type for j in movable.values()} == {'revolute'}
    root = ET.fromstring(urdf())
    mimics = {j.get('name'): j.find('mimic').get('joint') for j in root.findall('joint')
              if j.find('mimic') is not None}
    assert mimics == {'RHipYawPitch': 'LHipYawPitch'}
    assert set(movable) - set(mimics) == set(H25_JOINTS)
    assert len(H25_JOINTS) == 25


def test_independent_hip_yaw_pitch_and_21_dof_variants():
    assert len(parse_urdf(urdf(hip_yaw_pitch='independent')).movable_joints()) == 26
    assert '<mimic' not in urdf(hip_yaw_pitch='independent')
    h21 = parse_urdf(urdf(hands=False)).movable_joints()
    assert set(H25_JOINTS) - set(h21) == {'LWristYaw', 'LHand', 'RWristYaw', 'RHand'}
    assert total_mass(urdf(hands=False)) == pytest.approx(total_mass(urdf()), rel=1e-12)


# (lower, upper, effort, velocity) from the naoV40 table, specs/nao.md section 2.7.
NAOV40_LIMITS = {
    'HeadYaw': (-2.08567, 2.08567, 1.547, 8.26797),
    'HeadPitch': (-0.671952, 0.514872, 1.532, 7.19407),
    'LHipYawPitch': (-1.14529, 0.740718, 3.348, 4.16174),
    'LHipRoll': (-0.379435, 0.79046, 3.348, 4.16174),
    'LHipPitch': (-1.53589, 0.48398, 3.023, 6.40239),
    'LKneePitch': (-0.0923279, 2.11255, 3.023, 6.40239),
    'LAnklePitch': (-1.18944, 0.922581, 3.023, 6.40239),
    'LAnkleRoll': (-0.397761, 0.768992, 3.348, 4.16174),
    'RHipYawPitch': (-1.14529, 0.740718, 3.348, 4.16174),
    'RHipRoll': (-0.79046, 0.379435, 3.348, 4.16174),
    'RAnklePitch': (-1.1863, 0.932006, None, 6.40239),
    'RAnkleRoll': (-0.768992, 0.397761, 3.348, 4.16174),
    'LShoulderPitch': (-2.08567, 2.08567, 1.329, 8.26797),
    'LShoulderRoll': (-0.314159, 1.32645, 1.7835, 7.19407),
    'LElbowYaw': (-2.08567, 2.08567, 1.547, 8.26797),
    'LElbowRoll': (-1.54462, -0.0349066, 1.532, 7.19407),
    'LWristYaw': (-1.82387, 1.82387, 0.4075, 24.6229),
    'LHand': (0.0, 1.0, 0.292, 8.33),
    'RShoulderRoll': (-1.32645, 0.314159, None, None),
    'RElbowRoll': (0.0349066, 1.54462, None, None),
}
# Thesis model, Cuadros 4.2 and 4.3 (specs/nao.md section 2.5, requirement R2).
THESIS_RIGHT_ANKLE = {
    'RAnkleRoll': (-0.768992, 0.397935, 3.2, 4.16174),
    'RAnklePitch': (-1.1863, 0.932006, 3.2, 6.40239),
}


def assert_limits(text: str, table: dict) -> None:
    joints = parse_urdf(text).joints
    mj = mujoco_model(text)
    pmodel, _ = load_pinocchio(text)
    for name, (lower, upper, effort, velocity) in table.items():
        j = joints[name]
        assert (j.lower, j.upper) == pytest.approx((lower, upper), abs=1e-6), name
        assert tuple(mj.jnt_range[mj.joint(name).id]) == pytest.approx((lower, upper), abs=1e-6), name
        idx = pmodel.joints[pmodel.getJointId(name)].idx_q
        assert (pmodel.lowerPositionLimit[idx], pmodel.upperPositionLimit[idx]) == pytest.approx(
            (lower, upper), abs=1e-6), name
        if effort is not None:
            assert j.effort == pytest.approx(effort, abs=1e-6), name
            assert pmodel.effortLimit[pmodel.joints[pmodel.getJointId(name)].idx_v] == pytest.approx(
                effort, abs=1e-6), name
        if velocity is not None:
            assert j.velocity == pytest.approx(velocity, abs=1e-6), name


def test_naov40_limits_in_urdf_mujoco_and_pinocchio():
    assert_limits(urdf(), NAOV40_LIMITS)


def test_thesis_preset_right_ankle():
    """R2: the thesis preset reports Cuadros 4.2/4.3, zero damping, and 5.0 N m elsewhere."""
    text = urdf(preset='thesis')
    assert_limits(text, THESIS_RIGHT_ANKLE)
    joints = parse_urdf(text).joints
    assert joints['RAnkleRoll'].axis.tolist() == [1, 0, 0]
    assert joints['RAnklePitch'].axis.tolist() == [0, 1, 0]
    assert joints['RAnkleRoll'].damping == 0.0 and joints['RAnklePitch'].damping == 0.0
    assert joints['LKneePitch'].effort == 5.0


def test_hip_yaw_pitch_axes_are_the_45_degree_ones():
    joints = parse_urdf(urdf()).joints
    s = np.sqrt(0.5)
    assert joints['LHipYawPitch'].axis == pytest.approx([0, s, -s], abs=1e-4)
    assert joints['RHipYawPitch'].axis == pytest.approx([0, s, s], abs=1e-4)


# --- mass properties -----------------------------------------------------------------------------

# specs/nao.md section 2.7 "Masses (kg)"; the foot (ankle roll child) is l_ankle / r_ankle, the
# ankle pitch link is named LAnklePitchLink (README: SDF forbids a link named like its joint).
SPEC_LINK_MASSES = {
    'torso': 1.04956, 'Head': 0.60533, 'Neck': 0.06442,
    'Pelvis': 0.06981, 'Hip': 0.13053, 'Thigh': 0.38968, 'Tibia': 0.29142,
    'AnklePitchLink': 0.13416, '_ankle': 0.16184,
    'Shoulder': 0.07504, 'Bicep': 0.15777, 'Elbow': 0.06483, 'ForeArm': 0.07761, '_wrist': 0.18533,
}


def test_official_link_masses():
    links = parse_urdf(urdf()).links
    for part, mass in SPEC_LINK_MASSES.items():
        names = [part] if part in ('torso', 'Head', 'Neck') else (
            [s + part for s in ('l', 'r')] if part.startswith('_') else [s + part for s in 'LR'])
        for name in names:
            assert links[name].inertial.mass == pytest.approx(mass, rel=1e-6), name


def test_right_foot_is_the_thesis_link():
    """R1: RAnkleRollLink of Cuadros 4.1/4.4: mass, CoM and full inertia (rel 1e-6)."""
    foot = parse_urdf(urdf()).links['r_ankle'].inertial
    assert foot.mass == pytest.approx(0.16184, rel=1e-6)
    assert foot.xyz == pytest.approx([0.02542, -0.0033, -0.03239], rel=1e-6)
    i = foot.inertia
    got = [i[0, 0], i[0, 1], i[0, 2], i[1, 1], i[1, 2], i[2, 2]]
    assert got == pytest.approx([0.000269302, 5.87505e-06, 0.000139133, 0.000643474,
                                 -1.88492e-05, 0.000525035], rel=1e-6)
    left = parse_urdf(urdf()).links['l_ankle'].inertial.inertia
    mirror = np.diag([1.0, -1.0, 1.0])
    assert left == pytest.approx(mirror @ i @ mirror, rel=1e-9)


# --- kinematics (pinocchio) ------------------------------------------------------------------------

def test_leg_segment_lengths():
    """Thigh 0.100, tibia 0.1029, foot height 0.04511 m (section 2.7) to 1e-4 m, in a bent pose
    too; hip offsets (0, +-0.050, -0.085)."""
    bent = {'LHipPitch': -0.6, 'LKneePitch': 1.2, 'LAnklePitch': -0.5, 'LHipRoll': 0.2,
            'RHipPitch': -0.3, 'RKneePitch': 0.8, 'RAnkleRoll': 0.1}
    for pose in ({}, bent):
        model, data, _ = pinocchio_at(urdf(), pose)
        for s, side in (('l', 'L'), ('r', 'R')):
            hip = frame_xyz(model, data, f'{side}HipPitch')
            knee = frame_xyz(model, data, f'{side}KneePitch')
            ankle = frame_xyz(model, data, f'{side}AnkleRoll')
            sole = frame_xyz(model, data, f'{s}_sole')
            assert np.linalg.norm(knee - hip) == pytest.approx(0.100, abs=1e-4)
            assert np.linalg.norm(ankle - knee) == pytest.approx(0.1029, abs=1e-4)
            assert np.linalg.norm(sole - ankle) == pytest.approx(0.04511, abs=1e-4)
            y = 0.05 if side == 'L' else -0.05
            assert frame_xyz(model, data, f'{side}HipYawPitch') == pytest.approx([0, y, -0.085], abs=1e-4)


def test_zero_pose_landmarks():
    model, data, _ = pinocchio_at(urdf(), {})
    # The thesis' right-foot link pose (Cuadro 4.1) and the naoV40 sensor frames.
    assert frame_xyz(model, data, 'r_ankle') == pytest.approx([0, -0.05, -0.2879], abs=1e-4)
    assert frame_xyz(model, data, 'HeadYaw') == pytest.approx([0, 0, 0.1265], abs=1e-4)
    assert frame_xyz(model, data, 'LShoulderPitch') == pytest.approx([0, 0.098, 0.100], abs=1e-4)
    assert frame_xyz(model, data, 'LElbowYaw') == pytest.approx([0.105, 0.113, 0.100], abs=1e-4)
    assert frame_xyz(model, data, 'LWristYaw') == pytest.approx([0.16095, 0.113, 0.100], abs=1e-4)
    assert frame_xyz(model, data, 'CameraTop_frame') == pytest.approx([0.05871, 0, 0.19014], abs=1e-4)
    assert frame_xyz(model, data, 'CameraBottom_frame') == pytest.approx([0.05071, 0, 0.14424], abs=1e-4)
    assert frame_xyz(model, data, 'LFsrFL_frame') == pytest.approx([0.07025, 0.0799, -0.33301], abs=1e-4)


# --- contact ---------------------------------------------------------------------------------------

def test_foot_contact_values_reach_the_sdf(tmp_path):
    """R3: Gazebo reads friction 0.5/0.5 along fdir1 x, kp 1e6, kd 100, max_vel 0.1, min_depth
    0.003 on each foot's collision (libsdformat's own URDF conversion)."""
    path = tmp_path / 'nao.urdf'
    path.write_text(urdf())
    sdf = subprocess.run([shutil.which('ign'), 'sdf', '-p', str(path)], capture_output=True,
                         text=True, check=True).stdout
    model = ET.fromstring(sdf).find('model')
    for foot in ('l_ankle', 'r_ankle'):
        link = model.find(f"link[@name='{foot}']")
        collisions = link.findall('collision')
        assert [c.get('name') for c in collisions] == [f'{foot}_collision']
        surface = collisions[0].find('surface')
        ode = surface.find('contact/ode')
        friction = surface.find('friction/ode')
        assert float(friction.findtext('mu')) == 0.5 and float(friction.findtext('mu2')) == 0.5
        assert friction.findtext('fdir1').split() == ['1', '0', '0']
        assert float(ode.findtext('kp')) == 1e6 and float(ode.findtext('kd')) == 100.0
        assert float(ode.findtext('max_vel')) == 0.1
        assert float(ode.findtext('min_depth')) == 0.003
        sensor = link.find("sensor[@type='contact']")
        assert sensor.findtext('contact/collision') == f'{foot}_collision'


def box_corners_z(m: mujoco.MjModel, d: mujoco.MjData, geom: int) -> np.ndarray:
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    local = signs * m.geom_size[geom]
    return (d.geom_xpos[geom] + local @ d.geom_xmat[geom].reshape(3, 3).T)[:, 2]


def test_sole_box_bottom_is_the_sole_plane():
    """R4: with all joints at 0 the lowest collision point of each foot is within 1 mm of its
    sole frame, and each foot has exactly one collision shape."""
    m = mujoco_model(urdf())
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    model, data, _ = pinocchio_at(urdf(), {})
    for s in ('l', 'r'):
        geoms = [g for g in range(m.ngeom) if m.geom_bodyid[g] == m.body(f'{s}_ankle').id
                 and m.geom_contype[g]]
        assert len(geoms) == 1
        lowest = box_corners_z(m, d, geoms[0]).min()
        assert lowest == pytest.approx(frame_xyz(model, data, f'{s}_sole')[2], abs=1e-3)


# --- initial pose ----------------------------------------------------------------------------------

def sole_rectangles(text: str, pose: dict):
    """The bottom corners of each sole box at ``pose``, and the MuJoCo model and data there."""
    m = mujoco_model(text)
    d = mujoco.MjData(m)
    d.qpos[:3] = pose['base']['xyz']
    for name, value in pose['joints'].items():
        d.qpos[m.jnt_qposadr[m.joint(name).id]] = value
    mujoco.mj_forward(m, d)
    rects = []
    for s in ('l', 'r'):
        g = next(g for g in range(m.ngeom) if m.geom_bodyid[g] == m.body(f'{s}_ankle').id
                 and m.geom_contype[g])
        half = m.geom_size[g]
        local = np.array([[sx * half[0], sy * half[1], -half[2]] for sx, sy in
                          ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        rects.append(d.geom_xpos[g] + local @ d.geom_xmat[g].reshape(3, 3).T)
    return rects, m, d


def test_initial_pose_rests_flat_on_the_ground():
    """With the base upright, every sole corner touches the ground and no shapes of the robot
    touch each other."""
    pose = load_config(PKG, 'initial_pose')
    assert pose['base']['rpy'] == [0.0, 0.0, 0.0]
    rects, m, d = sole_rectangles(urdf(), pose)
    for rect in rects:
        assert rect[:, 2] == pytest.approx(0.0, abs=1e-4)
    assert d.ncon == 0


def test_initial_pose_com_above_the_support_polygon():
    """The CoM projection lies inside the double-support polygon with at least 5 cm margin."""
    pose = load_config(PKG, 'initial_pose')
    rects, _, _ = sole_rectangles(urdf(), pose)
    model, data, q = pinocchio_at(urdf(), pose['joints'], pose['base']['xyz'])
    com = pin.centerOfMass(model, data, q)
    margin = convex_hull_margin(np.vstack(rects)[:, :2], com[:2])
    assert margin > 0.05


# --- config ------------------------------------------------------------------------------------------

def test_thesis_joint_groups_cover_walking_and_arm_joints():
    """R9: the 12 plugin groups of the thesis cover every walking and arm joint."""
    groups = load_config(PKG, 'joint_groups')['groups']
    plugin_groups = ['Neck', 'NeckSpeed', 'LeftShoulder', 'RightShoulder', 'LeftElbow', 'RightElbow',
                     'LeftHip', 'RightHip', 'LeftKnee', 'RightKnee', 'LeftAnkle', 'RightAnkle']
    covered = set().union(*(groups[g] for g in plugin_groups))
    walking_and_arms = set(groups['legs']) | {j for j in groups['arms'] if 'Wrist' not in j and 'Hand' not in j}
    assert walking_and_arms <= covered


def test_package_constants_agree_with_the_urdf():
    joints = parse_urdf(urdf()).joints
    assert -joints['LKneePitch'].xyz[2] == pytest.approx(THIGH_LENGTH_M)
    assert -joints['LAnklePitch'].xyz[2] == pytest.approx(TIBIA_LENGTH_M)
    assert -joints['l_sole_joint'].xyz[2] == pytest.approx(FOOT_HEIGHT_M)
    assert joints['LHipYawPitch'].xyz == pytest.approx([0, HIP_OFFSET_Y_M, -HIP_OFFSET_Z_M])
    assert total_mass(urdf()) == pytest.approx(TOTAL_MASS_KG, abs=0.001)


def test_default_gains_are_the_thesis_pd():
    gains = load_config(PKG, 'pid_gains')['/**']['ros__parameters']['gains']
    assert {(g['p'], g['i']) for g in gains.values()} == {(10.0, 0.0)}
