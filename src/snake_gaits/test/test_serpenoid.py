"""Serpenoid generators (R24), angle files (R19) and the state-log layout (R20), without ROS."""
import math

import numpy as np
import pytest

from gait_player.generator import GaitGenerator
from snake_gaits import angle_file, state_log
from snake_gaits.serpenoid import GAITS, GaitError, Serpenoid, preset

LIMITS = {f'joint_{i}': (-math.radians(60), math.radians(60)) for i in range(1, 17)}


@pytest.mark.parametrize('gait', GAITS)
def test_presets_stay_within_60_deg_and_fit_the_interface(gait):
    g = Serpenoid(preset(gait))
    assert isinstance(g, GaitGenerator)
    assert g.limit_violations(LIMITS) == {j: 0 for j in LIMITS}
    t = np.linspace(0, 4, 401)
    assert max(np.abs(g.continuous_rad(x)).max() for x in t) <= math.radians(60) + 1e-12


def test_phase_relations():
    """Linear progression: pitch only; rolling: all pitch joints in phase, yaw 90 deg behind;
    sidewinding: equal spatial frequency in both planes; reversal: time-reversed targets."""
    lp = Serpenoid(preset('linear_progression'))
    assert np.all(lp.sample_rad(3)[1::2] == 0)           # even joints (yaw) still
    roll = Serpenoid(preset('lateral_rolling'))
    a = roll.continuous_rad(0.0)
    assert np.allclose(a[0::2], 0) and np.allclose(a[1::2], math.radians(10))
    p = preset('sidewinding')
    assert p.spatial_odd == p.spatial_even and p.phase_offset == 90
    fwd, rev = Serpenoid(p), Serpenoid(p.reversed())
    for t in (0.3, 1.7):
        assert np.allclose(rev.continuous_rad(t), fwd.continuous_rad(-t))


def test_first_axis_yaw_swaps_the_planes():
    a = Serpenoid(preset('linear_progression'), first_axis='yaw').sample_rad(2)
    assert np.all(a[0::2] == 0) and np.any(a[1::2] != 0)


def test_bad_parameters_name_themselves():
    with pytest.raises(GaitError, match='beyond the \\+-60 deg joint range'):
        preset('sidewinding', amplitude_even=50, offset=15)
    with pytest.raises(GaitError, match="gait 'crawl'"):
        preset('crawl')
    with pytest.raises(GaitError, match='direction'):
        preset('sidewinding', direction=0)


def test_angle_file_round_trip_and_duration(tmp_path):
    g = Serpenoid(preset('sidewinding'))
    rows = np.array([g.sample_rad(k) for k in range(40)])
    path = tmp_path / 'side.csv'
    angle_file.write(path, list(g.joints), rows)
    joints, back = angle_file.read(path)
    assert joints == list(g.joints)
    assert np.allclose(back, rows, atol=math.radians(1e-4))
    assert angle_file.duration(back) == pytest.approx(4.0)


@pytest.mark.parametrize('text, error', [
    ('x,joint_1\n0,1\n', ":1: expected the header"),
    ('t_s,joint_1\n0.0,1\n0.2,1\n', ':3: time 0.2 s, expected 0.1 s'),
    ('t_s,joint_1\n0.0,61\n', ':2: an angle beyond'),
    ('t_s,joint_1\n0.0,a\n', ':2: not a number'),
    ('t_s,joint_1\n0.0\n', ':2: expected 2 values, got 1'),
])
def test_bad_angle_files_are_one_line(tmp_path, text, error):
    path = tmp_path / 'bad.csv'
    path.write_text(text)
    with pytest.raises(angle_file.AngleFileError, match=error):
        angle_file.read(path)


def test_state_log_layout(tmp_path):
    links, keep = state_log.module_index(state_log.PUBLISHED_LINKS)
    joints = [f'joint_{i}' for i in range(1, 17)]
    assert len(links) == 17 and 1 not in keep
    assert len(state_log.header(links, joints)) == 1 + 17 * 7 + 16 * 3
    row = state_log.row(0.1, np.zeros((17, 3)), np.tile([1, 0, 0, 0], (17, 1)), np.ones(16),
                        np.zeros(16), np.zeros(16))
    path = state_log.write(tmp_path / 's.csv', links, joints, [row, row])
    cols, data = state_log.read(path)
    assert data.shape == (2, 168) and cols[1] == 'base_link.x'
