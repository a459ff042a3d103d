"""Footsteps: when and where each foot steps, the swing foot's path (lifted smoothly, never into
the ground) and the ZMP reference and wrench split that the rest of the plan is built on."""
import numpy as np
import pytest

from zmp_walk.footsteps import Footsteps
from zmp_walk.params import ZmpWalkParams

P = ZmpWalkParams()
CX = 0.025  # the Nao's sole box centre ahead of the sole frame (URDF collision box)


@pytest.fixture(scope='module')
def fs():
    return Footsteps(P, CX)


def test_right_foot_first_half_a_step_then_full_steps(fs):
    t0 = P.crouch_time + P.shift_time
    assert len(fs.steps) == P.plan_steps
    for k, s in enumerate(fs.steps):
        assert s.swing == ('R' if k % 2 == 0 else 'L')
        assert s.start == pytest.approx(t0 + k * P.step_time)
        assert s.lift_off == pytest.approx(s.start + P.double_support)
        assert s.touch_down == pytest.approx(s.start + P.step_time)
        # the swing foot lands step_length ahead of the stance foot (half that the first time)
        assert s.x_to == pytest.approx((k + 0.5) * P.step_length)
        assert s.x_from == pytest.approx(max(k - 1.5, 0.0) * P.step_length)
    assert fs.end == pytest.approx(t0 + P.plan_steps * P.step_time)
    for foot, y in (('L', P.foot_y), ('R', -P.foot_y)):
        np.testing.assert_allclose(fs.foot(foot, 0.0), [0.0, y, 0.0])
        np.testing.assert_allclose(fs.foot(foot, fs.end + 1.0)[1:], [y, 0.0])


def _swing_heights(fs, s, n=2001):
    ts = np.linspace(s.lift_off, s.touch_down, n)
    return ts, np.array([fs.foot(s.swing, t) for t in ts])


@pytest.mark.parametrize('peak', [
    0.5, 0.7,
    0.2,   # the former lift, sin^2(pi u^a), left the ground at up to 4 m/s below a peak of 0.25
])
def test_the_swing_foot_leaves_and_lands_gently_and_peaks_at_lift(peak):
    p = ZmpWalkParams(swing_peak=peak)
    fs = Footsteps(p, CX)
    h = 1e-6  # s: one-sided finite differences at the ends of the swing
    for s in fs.steps[:2]:
        up = (fs.foot(s.swing, s.lift_off + h) - fs.foot(s.swing, s.lift_off)) / h
        down = (fs.foot(s.swing, s.touch_down) - fs.foot(s.swing, s.touch_down - h)) / h
        # peak vertical speed is ~ pi lift / single_support = 0.16 m/s: 1 mm/s is "zero"
        assert abs(up[2]) < 1e-3 and abs(down[2]) < 1e-3
        assert abs(up[0]) < 1e-3 and abs(down[0]) < 1e-3       # quintic forward motion too
        ts, xyz = _swing_heights(fs, s)
        assert xyz[:, 2].min() >= 0.0
        assert xyz[:, 2].max() == pytest.approx(p.lift, abs=1e-9)
        top = s.lift_off + peak * p.single_support
        assert fs.foot(s.swing, top)[2] == pytest.approx(p.lift, abs=1e-12)
        assert ts[np.argmax(xyz[:, 2])] == pytest.approx(top, abs=p.single_support / 2000)
        # the sole moves in its own sagittal line (flat foot: positions only, no rotation)
        assert np.all(xyz[:, 1] == fs.side_y(s.swing))
        assert np.all(np.diff(xyz[:, 0]) >= 0.0)


def test_feet_are_on_the_ground_except_in_their_own_swing(fs):
    ts = np.arange(0.0, fs.end + 0.5, 0.001)
    for foot in 'LR':
        z = np.array([fs.foot(foot, t)[2] for t in ts])
        swinging = np.zeros(ts.shape, dtype=bool)
        for s in fs.steps:
            if s.swing == foot:
                swinging |= (ts > s.lift_off) & (ts < s.touch_down)
        assert np.all(z[~swinging] == 0.0) and np.all(z[swinging] > 0.0)


def test_zmp_reference_under_the_stance_foot_linear_between_feet_and_continuous(fs):
    dt = 0.001
    ts = np.arange(0.0, fs.end + 0.5, dt)
    px, py = fs.zmp_reference(ts)
    before = ts < fs.steps[0].start
    np.testing.assert_allclose(px[before], CX + P.zmp_x)
    np.testing.assert_allclose(py[before], 0.0)
    for s in fs.steps:
        stance = 'L' if s.swing == 'R' else 'R'
        single = (ts >= s.lift_off) & (ts < s.touch_down)
        np.testing.assert_allclose(px[single], fs.foot(stance, s.lift_off)[0] + CX + P.zmp_x,
                                   atol=1e-12)
        np.testing.assert_allclose(py[single], P.zmp_y if stance == 'L' else -P.zmp_y)
        double = np.flatnonzero((ts >= s.start) & (ts < s.lift_off))
        for a in (px, py):                                   # straight line: no curvature
            assert np.abs(np.diff(a[double], 2)).max() < 1e-12
    # continuous: no jump larger than the double-support slope allows in one sample
    slope_y = 2 * P.zmp_y / P.double_support
    slope_x = P.step_length / P.double_support
    assert np.abs(np.diff(py)).max() <= slope_y * dt * (1 + 1e-6)
    assert np.abs(np.diff(px)).max() <= slope_x * dt * (1 + 1e-6)


def test_left_share_follows_the_feet_and_the_zmp(fs):
    ts = np.arange(0.0, fs.end + 0.5, 0.002)
    _, py = fs.zmp_reference(ts)
    for t, y in zip(ts, py):
        share = fs.left_share(t, y)
        if fs.foot('L', t)[2] > 0.0:
            assert share == 0.0
        elif fs.foot('R', t)[2] > 0.0:
            assert share == 1.0
        else:
            assert 0.0 <= share <= 1.0
            assert share == pytest.approx((y + P.zmp_y) / (2 * P.zmp_y))
    assert fs.left_share(0.0, 0.0) == 0.5                   # standing: shared evenly
    centred = Footsteps(ZmpWalkParams(zmp_y=0.0), CX)
    assert centred.left_share(0.0, 0.0) == 0.5
