"""Leg IK: the geometry read from the Nao URDF is the spec's, the analytic angles put the sole
exactly where asked and flat (checked by pinocchio's forward kinematics), and a model whose leg
is built otherwise is refused with what differs."""
import itertools

import numpy as np
import pinocchio as pin
import pytest

from zoo_description_tools.pinocchio_model import load_pinocchio
from zmp_walk.leg_ik import LEG_JOINTS, LegGeometry, leg_angles, reach


@pytest.mark.parametrize('side, y', [('L', 0.05), ('R', -0.05)])
def test_geometry_is_the_specs(nao_model, side, y):
    # /work/shared/specs/nao.md, naoV40 joint table and "Dimension summary": HipOffsetY 0.050,
    # HipOffsetZ 0.085, Thigh 0.100, Tibia 0.1029, FootHeight 0.04511 (l_ankle -> l_sole)
    g = LegGeometry.from_model(nao_model, side)
    np.testing.assert_allclose(g.hip, [0.0, y, -0.085], atol=1e-12)
    assert g.thigh == pytest.approx(0.1, abs=1e-12)
    assert g.tibia == pytest.approx(0.1029, abs=1e-12)
    assert g.foot == pytest.approx(0.04511, abs=1e-12)
    assert g.length == pytest.approx(0.2029, abs=1e-12)


def _sole_pose(model, data, side, torso, angles):
    q = pin.neutral(model)
    q[:3] = torso                                  # base_link = torso (spec), upright
    for j, v in zip(LEG_JOINTS, angles):
        q[model.joints[model.getJointId(side + j)].idx_q] = v
    pin.framesForwardKinematics(model, data, q)
    return data.oMf[model.getFrameId(side.lower() + '_sole')]


def test_angles_round_trip_through_forward_kinematics_with_the_sole_flat(nao_model):
    data = nao_model.createData()
    torso = np.array([0.3, -0.2, 0.31])            # anywhere in the world
    checked = 0
    for side in 'LR':
        g = LegGeometry.from_model(nao_model, side)
        # ankle from the hip: forward/back, sideways (in and out), from nearly straight (0.18 of
        # 0.2029 m) through the walk's 0.175 to deeply crouched
        for dx, dy, dz in itertools.product((-0.07, -0.03, 0.0, 0.03, 0.07),
                                            (-0.04, 0.0, 0.03), (0.18, 0.175, 0.15, 0.12)):
            sole = torso + g.hip + (dx, dy, -dz - g.foot)
            assert reach(g, torso, sole) < 1.0
            pose = _sole_pose(nao_model, data, side, torso, leg_angles(g, torso, sole))
            np.testing.assert_allclose(pose.translation, sole, atol=1e-9)
            np.testing.assert_allclose(pose.rotation, np.eye(3), atol=1e-9)
            checked += 1
    assert checked == 120


def test_reach_and_out_of_reach_targets(nao_model):
    g = LegGeometry.from_model(nao_model, 'L')
    torso = np.zeros(3)
    below = g.hip * (1, 1, 0) - (0.0, 0.0, -g.hip[2] + g.foot)   # the hip's vertical
    assert reach(g, torso, below - (0, 0, g.length)) == pytest.approx(1.0)
    assert reach(g, torso, below - (0, 0, g.length + 0.01)) > 1.0
    assert reach(g, torso, below - (0.15, 0.0, 0.15)) > 1.0
    assert reach(g, torso, below - (0, 0, 0.19)) < 1.0
    # out of reach the knee straightens rather than failing (the caller checks reach)
    angles = leg_angles(g, torso, below - (0, 0, g.length + 0.05))
    assert angles[2] == 0.0 and all(np.isfinite(angles))



def test_a_leg_built_otherwise_is_refused_saying_what_differs(nao_urdf):
    knee = '<origin rpy="0 0 0" xyz="0 0 -0.1"/>'
    i = nao_urdf.index('name="LKneePitch"')
    moved = nao_urdf[:i] + nao_urdf[i:].replace(knee, '<origin rpy="0 0 0" xyz="0 0.01 -0.1"/>',
                                                1)
    model = load_pinocchio(moved, floating=True)[0]
    with pytest.raises(ValueError) as e:
        LegGeometry.from_model(model, 'L')
    assert str(e.value) == ('leg IK: the model is not a Nao leg: expected the knee below the '
                            'hip, offset [0.0, 0.01]')
    LegGeometry.from_model(model, 'R')                 # the other leg is untouched
    with pytest.raises(ValueError, match='leg IK: the model has no joint XHipYawPitch'):
        LegGeometry.from_model(model, 'X')


def test_a_knee_turning_about_another_axis_is_refused(nao_urdf):
    """(Found by this test: the geometry check once looked at the joints' origins only, and
    leg_angles then put the sole 0.1 m off.)"""
    i = nao_urdf.index('name="LKneePitch"')
    j = nao_urdf.index('<axis xyz="0 1 0"/>', i)
    model = load_pinocchio(nao_urdf[:j] + '<axis xyz="1 0 0"/>' + nao_urdf[j + 19:],
                           floating=True)[0]
    with pytest.raises(ValueError, match='LKneePitch'):
        LegGeometry.from_model(model, 'L')
