"""Keyframe files (CSV/YAML, the shipped Nao demos) and the teleop key mapping."""
import math

import numpy as np
import pytest

from joint_pid_control import keyframes
from joint_pid_control.keyframes import KeyframeError, parse_csv, parse_yaml
from joint_pid_control.teleop_keys import NAO_GROUPS, Teleop

# naoV40 limits (rad), specs/nao.md §2.7
NAO_LIMITS = {
    'LShoulderPitch': (-2.08567, 2.08567), 'RShoulderPitch': (-2.08567, 2.08567),
    'LShoulderRoll': (-0.314159, 1.32645), 'RShoulderRoll': (-1.32645, 0.314159),
    'LElbowYaw': (-2.08567, 2.08567), 'RElbowYaw': (-2.08567, 2.08567),
    'LElbowRoll': (-1.54462, -0.0349066), 'RElbowRoll': (0.0349066, 1.54462),
    'LHipRoll': (-0.379435, 0.79046), 'RHipRoll': (-0.79046, 0.379435),
    'LAnkleRoll': (-0.397761, 0.768992), 'RAnkleRoll': (-0.768992, 0.397761),
}


def test_csv_linear_interpolation_units_and_loop():
    kf = parse_csv('# angle_unit: deg\ntime,A,B\n0,0,90\n2,90,0\n')
    assert kf.joints == ('A', 'B') and kf.duration == 2.0
    np.testing.assert_allclose(kf.sample(1.0), [math.radians(45)] * 2)
    np.testing.assert_allclose(kf.sample(5.0), [math.pi / 2, 0.0])           # holds the end
    np.testing.assert_allclose(kf.sample(2.5, loop=True), [math.radians(22.5),
                                                            math.radians(67.5)])


def test_yaml_partial_keyframes_and_step_interpolation():
    kf = parse_yaml('interpolation: step\nkeyframes:\n'
                    '  - {time: 0.0, A: 0.1}\n  - {time: 1.0, B: 0.5}\n  - {time: 2.0, A: 0.3}\n')
    assert kf.joints == ('A', 'B')
    np.testing.assert_allclose(kf.sample(0.5), [0.1, 0.5])   # B holds its only value
    np.testing.assert_allclose(kf.sample(1.99), [0.1, 0.5])
    np.testing.assert_allclose(kf.sample(2.0), [0.3, 0.5])
    lin = parse_yaml('keyframes:\n  - {time: 0.0, A: 0.1}\n  - {time: 1.0, B: 0.5}\n'
                     '  - {time: 2.0, A: 0.3}\n')
    np.testing.assert_allclose(lin.sample(1.0), [0.2, 0.5])  # A between its own keyframes


@pytest.mark.parametrize('text, parser, message', [
    ('time,A\n0,1\n0,2\n', parse_csv, r'keyframe 2: time 0.0 is not after 0.0'),
    ('time,A\n0,1,2\n', parse_csv, r'<csv>:2: 3 values for 2 columns'),
    ('t,A\n0,1\n', parse_csv, r"header must be 'time,<joint>,...'"),
    ('# unit: deg\ntime,A\n0,1\n', parse_csv, r"<csv>:1: expected '# angle_unit"),
    ('time,A\n0,x\n', parse_csv, r'<csv>:2: not a number'),
    ('keyframes:\n  - {A: 1}\n', parse_yaml, r"keyframe 1: expected a mapping with 'time'"),
    ('keyframes:\n  - {time: 0, A: fast}\n', parse_yaml, r'keyframe 1: A: expected a finite'),
    ('angle_unit: grad\nkeyframes:\n  - {time: 0, A: 1}\n', parse_yaml, r"angle_unit 'grad'"),
    ('keyframe:\n  - {time: 0, A: 1}\n', parse_yaml, r"expected a mapping with a 'keyframes'"),
    ('speed: 2\nkeyframes:\n  - {time: 0, A: 1}\n', parse_yaml, r'unknown key\(s\) speed'),
])
def test_bad_keyframe_files_are_named(text, parser, message):
    with pytest.raises(KeyframeError, match=message):
        parser(text)


@pytest.mark.parametrize('name', ['nao_arm_up_down', 'nao_arms_mirrored', 'nao_hip_sway'])
def test_shipped_nao_demos_stay_inside_the_joint_limits(name):
    kf = keyframes.load(name)
    assert kf.duration >= 3.0
    for t in np.linspace(0.0, kf.duration, 200):
        for j, v in zip(kf.joints, kf.sample(t)):
            lo, hi = NAO_LIMITS[j]
            assert lo <= v <= hi, (name, j, t, v)


def test_mirrored_demo_is_mirrored_and_sway_keeps_feet_flat():
    kf = keyframes.load('nao_arms_mirrored')
    for t in (0.3, 1.7, 2.2):
        v = dict(zip(kf.joints, kf.sample(t)))
        assert v['LShoulderPitch'] == pytest.approx(v['RShoulderPitch'])
        for j in ('ShoulderRoll', 'ElbowYaw', 'ElbowRoll'):
            assert v['L' + j] == pytest.approx(-v['R' + j])
    kf = keyframes.load('nao_hip_sway')
    for t in (0.5, 1.0, 2.0, 3.5):
        v = dict(zip(kf.joints, kf.sample(t)))
        assert v['LHipRoll'] == v['RHipRoll'] == pytest.approx(-v['LAnkleRoll'])
    with pytest.raises(KeyframeError, match="keyframe file 'nao_moonwalk'"):
        keyframes.load('nao_moonwalk')


def test_teleop_ankle_keys_match_the_seed():
    tele = Teleop(NAO_GROUPS, step=0.05, limits={'RAnkleRoll': (-0.768992, 0.397761)})
    assert tele.press('6') == 'group ankles'
    expected = {'w': ('RAnklePitch', 0.05), 's': ('RAnklePitch', -0.05),
                'a': ('RAnkleRoll', 0.05), 'd': ('RAnkleRoll', -0.05),
                'i': ('LAnklePitch', 0.05), 'k': ('LAnklePitch', -0.05),
                'j': ('LAnkleRoll', 0.05), 'l': ('LAnkleRoll', -0.05)}
    for key, (joint, delta) in expected.items():
        before = dict(tele.targets)
        assert tele.press(key).startswith(joint)
        changed = {j for j in tele.targets if tele.targets[j] != before[j]}
        assert changed == {joint} and tele.targets[joint] - before[joint] == pytest.approx(delta)


def test_teleop_groups_clamp_reset_and_quit():
    tele = Teleop(NAO_GROUPS, step=0.1, limits={'RAnkleRoll': (-0.768992, 0.397761)})
    assert len(tele.joints) == 20 and 'HeadYaw' in tele.joints
    tele.press('6')
    for _ in range(10):
        tele.press('a')
    assert tele.targets['RAnkleRoll'] == 0.397761
    tele.press('5')
    assert tele.press('a') == ''             # knees have no second joint
    assert tele.press('w') == 'RKneePitch +0.100 rad'
    assert tele.press('x') == '' and tele.press('9') == ''
    tele.press('r')
    assert set(tele.targets.values()) == {0.0}
    tele.press('q')
    assert tele.quit
    assert 'w/s RAnklePitch' in tele.help()
    with pytest.raises(ValueError, match="teleop group 'x': at most 4 joints"):
        Teleop({'x': ('a', 'b', 'c', 'd', 'e')}, 0.1)
