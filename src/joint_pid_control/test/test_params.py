"""Gains in ros2_control's ``gains.<joint>.*`` shape and joint limits from parameters or a URDF:
values land where they should, and each bad input names its parameter."""
import math

import pytest

from joint_pid_control.control_loop import DEFAULT_GAINS
from joint_pid_control.joint_limits import JointLimits, limits_from_params, limits_from_urdf
from joint_pid_control.params import Gains, ParameterError, gains_parameters, parse_gains

JOINTS = ['LKneePitch', 'RKneePitch']
BASE = {j: DEFAULT_GAINS for j in JOINTS}


def test_the_gains_schema_is_zoo_description_tools():
    """One schema (issue 26): the dataclass's fields are the owner's keys, in its order."""
    from dataclasses import fields

    from zoo_description_tools.gains import DESCRIPTION_GAIN_KEYS, GAIN_KEYS
    assert tuple(f.name for f in fields(Gains)) == GAIN_KEYS
    assert set(DESCRIPTION_GAIN_KEYS) <= set(GAIN_KEYS)


def test_flattened_gains_override_the_base_per_joint():
    g = parse_gains({'gains.LKneePitch.p': 12, 'gains.LKneePitch.antiwindup_strategy':
                     'back_calculation', 'gains.RKneePitch.u_clamp_max': 3.0,
                     'gains.RKneePitch.u_clamp_min': -3.0, 'rate': 100.0}, JOINTS, BASE)
    assert g['LKneePitch'].p == 12.0 and g['LKneePitch'].antiwindup_strategy == 'back_calculation'
    assert g['LKneePitch'].i == DEFAULT_GAINS.i
    assert (g['RKneePitch'].u_clamp_min, g['RKneePitch'].u_clamp_max) == (-3.0, 3.0)
    assert g['RKneePitch'].p == DEFAULT_GAINS.p


def test_declared_parameters_round_trip():
    params = gains_parameters('LKneePitch', Gains(p=3.0, i=1.0, error_deadband=0.01))
    assert params['gains.LKneePitch.p'] == 3.0
    assert parse_gains(params, ['LKneePitch'], {'LKneePitch': Gains()})['LKneePitch'] == \
        Gains(p=3.0, i=1.0, error_deadband=0.01)


@pytest.mark.parametrize('params, message', [
    ({'gains.LKneePitch.kp': 1.0}, r"gains.LKneePitch.kp: unknown gain key 'kp'"),
    ({'gains.HeadYaw.p': 1.0}, r"gains.HeadYaw.p: joint 'HeadYaw' is not one of"),
    ({'gains.LKneePitch.p': 'ten'}, r'gains.LKneePitch.p: expected a number'),
    ({'gains.LKneePitch.save_i_term': True}, r'gains.LKneePitch.save_i_term: ros2_control option'),
    ({'gains.LKneePitch.antiwindup_strategy': 'legacy'},
     r'gains.LKneePitch.antiwindup_strategy: expected one of none, back_calculation'),
    ({'gains.LKneePitch.u_clamp_min': 2.0, 'gains.LKneePitch.u_clamp_max': 1.0},
     r'gains.LKneePitch.u_clamp_min/u_clamp_max: expected min < max'),
    ({'gains.LKneePitch.i_clamp_min': 0.5}, r'gains.LKneePitch.i_clamp_min/i_clamp_max'),
    ({'gains.LKneePitch.derivative_filter_time_constant': -1.0},
     r'gains.LKneePitch.derivative_filter_time_constant: expected a finite value >= 0'),
    ({'gains.LKneePitch.p': math.inf}, r'gains.LKneePitch.p: expected a finite value'),
])
def test_bad_gains_are_named(params, message):
    with pytest.raises(ParameterError, match=message):
        parse_gains(params, JOINTS, BASE)


URDF = """<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="LKneePitch" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-0.0923279" upper="2.11255" effort="3.023" velocity="6.40239"/></joint>
  <joint name="RKneePitch" type="revolute"><parent link="a"/><child link="c"/>
    <limit lower="-0.103083" upper="2.120198" effort="3.023" velocity="6.40239"/></joint>
  <joint name="wheel" type="continuous"><parent link="a"/><child link="d"/>
    <limit effort="1" velocity="3"/></joint>
</robot>"""


def test_limits_from_urdf_and_parameters():
    lim = limits_from_urdf(URDF, ['LKneePitch', 'wheel'])
    assert lim['LKneePitch'] == JointLimits(-0.0923279, 2.11255, 6.40239)
    assert lim['wheel'] == JointLimits(-math.inf, math.inf, 3.0)
    with pytest.raises(ParameterError, match='robot_description: no movable joint named HeadYaw'):
        limits_from_urdf(URDF, ['LKneePitch', 'HeadYaw'])
    with pytest.raises(ParameterError, match='robot_description: not well-formed XML'):
        limits_from_urdf('<robot>', ['x'])
    # a revolute joint without lower/upper is an error, never a range of 0 (was: 0.0)
    no_range = URDF.replace('lower="-0.0923279" upper="2.11255" ', '')
    with pytest.raises(ParameterError, match='robot_description joint LKneePitch: a revolute '
                                             'joint needs <limit lower=... upper=...>'):
        limits_from_urdf(no_range, ['LKneePitch'])
    p = limits_from_params({'joint_limits.RKneePitch.lower': -0.1,
                            'joint_limits.RKneePitch.upper': 2.0, 'rate': 5}, JOINTS)
    assert p == {'RKneePitch': JointLimits(-0.1, 2.0, math.inf)}
    with pytest.raises(ParameterError, match=r'joint_limits.RKneePitch: expected lower <= upper'):
        limits_from_params({'joint_limits.RKneePitch.lower': 3.0,
                            'joint_limits.RKneePitch.upper': 2.0}, JOINTS)
    with pytest.raises(ParameterError, match=r"joint_limits.RKneePitch.effort: unknown limit"):
        limits_from_params({'joint_limits.RKneePitch.effort': 3.0}, JOINTS)
