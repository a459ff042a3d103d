"""Robobo description: the model facts of specs/robobo.md (R1-R3, R17, R20)."""
from __future__ import annotations

import math

import mujoco
import numpy as np
import pinocchio as pin
import pytest
import yaml

from robobo_description import (CAMERA_POSE, IR_POSES, IR_SENSORS, TOTAL_MASS, WHEEL_RADIUS,
                                WHEEL_TRACK)
from zoo_description_tools import (find_description, floor_contacts,
                                   load_mujoco, load_pinocchio, parse_urdf, xacro_to_urdf)

PKG = 'robobo_description'
# Thesis SDF model frame (front = -X), Table 3: body link and wheel centres.
BODY = np.array([-0.055984, 0.034729, 0.0308])
LEFT_WHEEL = np.array([-0.082628, -0.038096, 0.03225])
RIGHT_WHEEL = np.array([-0.082628, 0.10746, 0.03225])
AXLE = (LEFT_WHEEL + RIGHT_WHEEL) / 2
YAW_PI = np.diag([-1.0, -1.0, 1.0])  # model frame -> base_link (front = +X)


def model_to_base(p) -> np.ndarray:
    return YAW_PI @ (np.asarray(p) - AXLE)


@pytest.fixture(scope='module')
def urdf() -> str:
    return xacro_to_urdf(PKG)


@pytest.fixture(scope='module')
def initial_pose() -> dict:
    return yaml.safe_load((find_description(PKG) / 'config/initial_pose.yaml').read_text())


def placed(urdf_text: str, joints: dict[str, float]):
    """pinocchio model and data with the frames placed at ``joints`` (base at the origin)."""
    model, data = load_pinocchio(urdf_text, floating=False)
    q = pin.neutral(model)
    for name, value in joints.items():
        jid = model.getJointId(name)
        if model.joints[jid].nq == 2:  # continuous joint: (cos, sin)
            q[model.joints[jid].idx_q:model.joints[jid].idx_q + 2] = (math.cos(value), math.sin(value))
        else:
            q[model.joints[jid].idx_q] = value
    pin.framesForwardKinematics(model, data, q)
    return model, data


def frame(model, data, name: str) -> pin.SE3:
    return data.oMf[model.getFrameId(name)]


@pytest.mark.parametrize('variant, mass', [({}, TOTAL_MASS), ({'preset': 'mint'}, 0.949)])
def test_link_masses_sum_to_the_spec_exactly(variant, mass) -> None:
    # R2: 0.829 +- 0.005 kg; our sum is exact (the 0.5 % check for every description:
    # tests/test_descriptions.py).
    links = parse_urdf(xacro_to_urdf(PKG, variant)).links.values()
    assert sum(l.inertial.mass for l in links if l.inertial) == pytest.approx(mass, abs=1e-12)


def test_masses_and_inertias_are_table_5(urdf) -> None:
    links = parse_urdf(urdf).links
    expected = {  # mass, (Ixx, Ixy, Ixz, Iyy, Iyz, Izz) x 1e-6 in the link's thesis axes
        'base_link': (0.48, (485.229, 0.058, 13.696, 1227.181, -0.029, 1452.813)),
        'left_wheel': (0.046, (14.552, 0, 0, 23.921, 0, 14.552)),
        'right_wheel': (0.046, (14.552, 0, 0, 23.921, 0, 14.552)),
        'pan': (0.077, (37.326, 0, 0, 37.326, 0, 74.536)),
        'tilt_smartphone': (0.18, (91.682, 0, 0, 375.824, 0, 465.727)),
    }
    for name, (mass, (ixx, ixy, ixz, iyy, iyz, izz)) in expected.items():
        inertial = links[name].inertial
        assert inertial.mass == mass
        tensor = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]) * 1e-6
        np.testing.assert_allclose(inertial.inertia, tensor, atol=1e-12)
    # The body's inertial frame is the thesis body link frame (front = -X) at its Table 3 pose.
    np.testing.assert_allclose(links['base_link'].inertial.xyz, model_to_base(BODY), atol=1e-9)
    np.testing.assert_allclose(links['base_link'].inertial.rpy, [0, 0, math.pi], atol=1e-12)


def test_wheel_track_radius_and_forward_sense(urdf) -> None:
    model, data = placed(urdf, {})
    left, right = frame(model, data, 'left_wheel'), frame(model, data, 'right_wheel')
    assert np.linalg.norm(left.translation - right.translation) == pytest.approx(WHEEL_TRACK, abs=1e-4)
    np.testing.assert_allclose(left.translation, model_to_base(LEFT_WHEEL), atol=1e-9)
    np.testing.assert_allclose(right.translation, model_to_base(RIGHT_WHEEL), atol=1e-9)
    # The axle is 2.66 cm in front of the body centre (spec 2.5).
    assert model_to_base(BODY)[0] == pytest.approx(-0.026644, abs=1e-6)
    joints = parse_urdf(urdf).joints
    for side in ('left', 'right'):
        axis = joints[f'{side}_motor'].axis
        # Rolling without slip: centre velocity = omega x (centre - contact point).
        v = np.cross(axis, [0.0, 0.0, WHEEL_RADIUS])
        np.testing.assert_allclose(v, [WHEEL_RADIUS, 0, 0], atol=1e-12)  # positive = forward
    mj = load_mujoco(urdf)
    radii = {round(float(r), 6) for g, r in enumerate(mj.geom_size[:, 0])
             if mj.body(mj.geom_bodyid[g]).name == 'left_wheel'}
    assert WHEEL_RADIUS in radii


@pytest.mark.parametrize('sensor', IR_SENSORS)
def test_ir_sensor_poses_are_table_7(urdf, sensor) -> None:
    model, data = placed(urdf, {})
    x, y, z, roll, pitch, yaw = IR_POSES[sensor]
    expected_pos = model_to_base(BODY + np.array([x, y, z]))
    pose = frame(model, data, sensor)
    np.testing.assert_allclose(pose.translation, expected_pos, atol=1e-4)
    direction = pose.rotation[:, 0]  # the sensing direction
    expected_dir = YAW_PI @ np.array([math.cos(pitch) * math.cos(yaw),
                                      math.cos(pitch) * math.sin(yaw), -math.sin(pitch)])
    np.testing.assert_allclose(direction, expected_dir, atol=1e-9)
    front = sensor.startswith('front')
    assert (direction[0] > 0) == front
    assert direction[2] == pytest.approx(-math.sin(0.21) if sensor in ('front_l', 'front_r', 'back_c')
                                         else 0.0, abs=1e-12)


def test_ir_rays_start_outside_the_robot(urdf) -> None:
    """The simulator casts rays from these frames; none lies inside a collision shape."""
    model, data = placed(urdf, {'pan_motor': math.pi, 'tilt_motor': math.radians(70)})
    mj = load_mujoco(urdf, floating=False)
    mjd = mujoco.MjData(mj)
    mjd.qpos[mj.joint('pan_motor').qposadr[0]] = math.pi
    mjd.qpos[mj.joint('tilt_motor').qposadr[0]] = math.radians(70)
    mujoco.mj_forward(mj, mjd)
    for sensor in IR_SENSORS:
        p = frame(model, data, sensor).translation
        for g in range(mj.ngeom):
            local = mjd.geom_xmat[g].reshape(3, 3).T @ (p - mjd.geom_xpos[g])
            size = mj.geom_size[g]
            if mj.geom_type[g] == mujoco.mjtGeom.mjGEOM_BOX:
                assert np.any(np.abs(local) > size + 1e-4), (sensor, g)
            elif mj.geom_type[g] == mujoco.mjtGeom.mjGEOM_SPHERE:
                assert np.linalg.norm(local) > size[0], (sensor, g)
            elif mj.geom_type[g] == mujoco.mjtGeom.mjGEOM_CYLINDER:
                assert np.hypot(local[0], local[1]) > size[0] or abs(local[2]) > size[1], (sensor, g)


def test_camera_looks_forward_at_the_power_on_pose(urdf, initial_pose) -> None:
    """R1: pan 180 deg, tilt 70 deg -> the front camera looks ahead (20 deg up: the phone leans
    back 20 deg from vertical). Camera pose from spec 5.3 in the thesis tilt link frame."""
    joints = initial_pose['joints']
    assert (joints['pan_motor'], joints['tilt_motor']) == pytest.approx((math.pi, math.radians(70)))
    model, data = placed(urdf, joints)
    cam = frame(model, data, 'camera_link')
    up20 = [math.cos(math.radians(20)), 0.0, math.sin(math.radians(20))]
    np.testing.assert_allclose(cam.rotation[:, 0], up20, atol=2e-4)  # 1.5708 / 3.1415 rounding
    rel = frame(model, data, 'smartphone').actInv(cam)
    np.testing.assert_allclose(rel.translation, CAMERA_POSE[:3], atol=1e-12)
    np.testing.assert_allclose(rel.rotation, pin.rpy.rpyToMatrix(*CAMERA_POSE[3:]), atol=1e-12)


def test_tilt_raises_the_phone_and_its_axis_crosses_the_pan_axis(urdf) -> None:
    z = [frame(*placed(urdf, {'pan_motor': math.pi, 'tilt_motor': t}), 'smartphone').translation[2]
         for t in (0.1, 1.0)]
    assert z[1] > z[0] + 0.05
    model, data = placed(urdf, {})
    hinge, pan = frame(model, data, 'tilt_smartphone'), frame(model, data, 'pan')
    # spec 3.5 (derived): the tilt axis passes through the pan axis at model z = 0.0793 m.
    assert hinge.translation[0] == pytest.approx(pan.translation[0], abs=1e-9)
    assert hinge.translation[2] + AXLE[2] == pytest.approx(0.0793, abs=1e-9)


def test_three_point_rest_is_statically_determinate(urdf, initial_pose) -> None:
    """Both wheel treads and the rear slider touch the ground and nothing else does; the
    centre of mass projects inside the support triangle, so the three normal loads are positive
    and fixed by statics alone (the original model drifted by itself, spec 3.3)."""
    base = initial_pose['base']
    contacts = floor_contacts(urdf, base['xyz'], base['rpy'], initial_pose['joints'])
    touching = [link for link, d in contacts if abs(d) < 1e-6]
    assert sorted(set(touching)) == ['base_link', 'left_wheel', 'right_wheel']
    assert touching.count('base_link') == 1  # the slider sphere only: the body box clears the floor
    assert all(d > 5e-4 for link, d in contacts if abs(d) >= 1e-6)  # the rest stays clear
    # Loads: support points (wheel treads at x = 0, the slider) and the centre of mass.
    model, data = load_pinocchio(urdf, floating=False)
    q = pin.neutral(model)
    for name, value in initial_pose['joints'].items():
        jid = model.getJointId(name)
        if model.joints[jid].nq == 1:
            q[model.joints[jid].idx_q] = value
    com = pin.centerOfMass(model, data, q)
    mj = load_mujoco(urdf, floating=False)
    slider = next(mj.geom_pos[g] for g in range(mj.ngeom)
                  if mj.geom_type[g] == mujoco.mjtGeom.mjGEOM_SPHERE)
    points = np.array([[0.0, WHEEL_TRACK / 2], [0.0, -WHEEL_TRACK / 2], slider[:2]])
    a = np.vstack([np.ones(3), points[:, 0], points[:, 1]])
    loads = np.linalg.solve(a, [1.0, com[0], com[1]])  # fractions of the weight
    assert np.all(loads > 0.1), loads


def test_contact_parameters_are_table_4(urdf) -> None:
    gazebo = parse_urdf(urdf).gazebo
    for link in ('left_wheel', 'right_wheel'):
        assert (float(gazebo[link]['mu1']), float(gazebo[link]['minDepth'])) == (0.8, 8e-4)
    assert (float(gazebo['base_link']['mu1']), float(gazebo['base_link']['minDepth'])) == (0.2, 4e-4)


def test_joint_limits_and_caps(urdf) -> None:
    joints = parse_urdf(urdf).joints
    assert {n: (j.type, j.effort) for n, j in joints.items() if j.type != 'fixed'} == {
        'left_motor': ('continuous', 0.5), 'right_motor': ('continuous', 0.5),   # R4 fmax
        'pan_motor': ('revolute', 0.15), 'tilt_motor': ('revolute', 0.22)}        # R5 caps
    # The plugin's stops while moving: pan [0.191, 6.004], tilt [0.0873, 1.9199] rad, i.e. about
    # 11..344 deg and 5..110 deg (spec 4.2).
    assert (joints['pan_motor'].lower, joints['pan_motor'].upper) == (0.191, 6.004)
    assert (joints['tilt_motor'].lower, joints['tilt_motor'].upper) == (0.0873, 1.9199)
    assert math.degrees(joints['pan_motor'].upper) == pytest.approx(344, abs=0.1)
    assert math.degrees(joints['tilt_motor'].upper) == pytest.approx(110, abs=0.1)
    # Velocity limits = the calibrated speeds at 100 % (Tables 8 and 9), deg/s -> rad/s.
    a = lambda c, p: c[0] * p**3 + c[1] * p**2 + c[2] * p + c[3]  # noqa: E731
    for name, coeffs in (('left_motor', (-0.00005, 0.00522, 6.35708, 51.36677)),
                         ('pan_motor', (-0.00003, 0.00388, 0.84747, 8.05468)),
                         ('tilt_motor', (0.00001, -0.00260, 0.48094, 3.18153))):
        assert joints[name].velocity == pytest.approx(math.radians(a(coeffs, 100)), abs=1e-3)
