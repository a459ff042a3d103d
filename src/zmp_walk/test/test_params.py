"""ZmpWalkParams: the shipped defaults are valid, and each bad value is refused with one
ValueError naming the field (what a `gait.<name>` parameter of the Walker turns into)."""
import math

import pytest

from zmp_walk.params import ZmpWalkParams


def test_defaults_are_valid_and_the_step_time_is_both_phases():
    p = ZmpWalkParams()
    assert p.step_time == pytest.approx(p.single_support + p.double_support)
    assert ZmpWalkParams.from_mapping(p.as_dict()) == p


@pytest.mark.parametrize('field, value, expected', [
    ('step_length', math.nan, 'step_length: expected a finite number, got nan'),
    ('lift', math.inf, 'lift: expected a finite number, got inf'),
    ('kp', '60', "kp: expected a finite number, got '60'"),
    ('kd', True, 'kd: expected a finite number, got True'),
    ('single_support', 0.0, 'single_support: expected > 0, got 0.0'),
    ('torso_height', -0.3, 'torso_height: expected > 0, got -0.3'),
    ('step_length', -0.01, 'step_length: expected >= 0, got -0.01'),
    ('kd_arm', -0.1, 'kd_arm: expected >= 0, got -0.1'),
    ('swing_peak', 0.0, 'swing_peak: expected between 0 and 1, got 0.0'),
    ('swing_peak', 1.0, 'swing_peak: expected between 0 and 1, got 1.0'),
    ('plan_steps', 9, 'plan_steps: expected an integer >= 10'),
    ('plan_steps', 12.5, 'plan_steps: expected an integer >= 10'),
    ('dt', 0.031, 'dt: expected at most a quarter of each support phase, got 0.031'),
])
def test_a_bad_value_names_its_field(field, value, expected):
    with pytest.raises(ValueError) as e:
        ZmpWalkParams(**{field: value})
    assert str(e.value).startswith(expected)
    assert '\n' not in str(e.value)


def test_dt_is_checked_against_the_shorter_phase():
    # at most a quarter of the shorter phase: 0.03 s of the 0.12 s double support is accepted;
    # 0.02 s is too coarse for a 0.06 s double support though a fifteenth of single support
    ZmpWalkParams(dt=0.03)
    with pytest.raises(ValueError, match='^dt:'):
        ZmpWalkParams(dt=0.02, double_support=0.06)


def test_from_mapping_rejects_unknown_names_listing_the_known_ones():
    with pytest.raises(ValueError) as e:
        ZmpWalkParams.from_mapping({'step_lenght': 0.05, 'zz': 1.0, 'lift': 0.01})
    msg = str(e.value)
    assert msg.startswith('unknown parameter(s) step_lenght, zz; expected some of ')
    for name in ZmpWalkParams().as_dict():
        assert name in msg


def test_an_integral_float_plan_steps_is_accepted_as_an_int():
    # a ROS double parameter (gait.plan_steps: 12.0) arrives as a float
    p = ZmpWalkParams.from_mapping({'plan_steps': 12.0, 'step_length': 0.05})
    assert p.plan_steps == 12 and type(p.plan_steps) is int and p.step_length == 0.05
    with pytest.raises(ValueError, match='^plan_steps:'):
        ZmpWalkParams.from_mapping({'plan_steps': 12.5})
