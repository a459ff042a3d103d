"""The Nao walk generator against specs/nao.md §5: wave shapes at chosen phases, a golden comparison
with a straightforward scalar transcription of §5.3, the §5.4 left/right relations, sampling and
unit conversion."""
import math

import numpy as np
import pytest

from coupled_wave_gait import nao_wave_walk as nw
from coupled_wave_gait import waves
from coupled_wave_gait.nao_wave_walk import EARLIER, LATER, NaoWaveWalk, WalkParams

PI = math.pi
A, S = 30.0, 40.0


# --- wave shapes at chosen phases -------------------------------------------------------------
@pytest.mark.parametrize('x, expected', [
    (0.0, S),
    (PI / 2, 6 / 11 * A + S),
    (0.8 * PI, A + S),              # inside the flat top (3π/4, π)
    (0.75 * PI, 6 / 11 * A * math.sin(0.75 * PI) + S),  # boundary excluded
    (PI, S + 6 / 11 * A * math.sin(PI)),                # boundary excluded
    (1.5 * PI, -6 / 11 * A + S),
])
def test_hip_pitch_shape(x, expected):
    assert waves.hip_pitch(np.array([x]), A, S)[0] == pytest.approx(expected, abs=1e-12)


def test_ramped_hip_pitch_enters_its_flat_top_without_a_step():
    """``hip_pitch_ramped`` (nao_wave_walk_smooth): the spec's shape but for a straight ramp from the
    sine's crest (π/2) to the flat top (3π/4), where the spec's shape steps by 0.61·A in one
    tick; the drop at π (the swing) is kept."""
    x = np.linspace(0.0, 2 * PI, 20001)
    spec, ramped = waves.hip_pitch(x, A, S), waves.hip_pitch_ramped(x, A, S)
    outside = (x <= PI / 2) | (x > 0.75 * PI)
    np.testing.assert_array_equal(ramped[outside], spec[outside])
    f = lambda v: waves.hip_pitch_ramped(np.array([v]), A, S)[0]  # noqa: E731
    assert f(PI / 2) == pytest.approx(6 / 11 * A + S)
    assert f(0.625 * PI) == pytest.approx((6 / 11 * A + A) / 2 + S)
    assert f(0.75 * PI) == pytest.approx(A + S)
    steps = lambda y: np.flatnonzero(np.abs(np.diff(y)) > 0.01 * A)  # noqa: E731
    assert len(steps(spec)) == 2 and len(steps(ramped)) == 1  # 3π/4 and π; π only
    assert x[steps(ramped)[0]] == pytest.approx(PI, abs=1e-3)


def test_knee_pitch_shape_ramps_to_its_peak():
    a, b, c = 3.25 * PI, 3.5 * PI, 3.75 * PI
    f = lambda x: waves.knee_pitch(np.array([x]), A, S)[0]  # noqa: E731
    y_a, y_c = 0.22 * A * math.sin(a) + S, 0.22 * A * math.sin(c) + S
    assert f(PI / 2) == pytest.approx(0.22 * A + S)
    assert f(2.5 * PI) == pytest.approx(0.22 * A + S)      # second sine lobe in the 4π domain
    assert f(a) == pytest.approx(y_a)
    assert f((a + b) / 2) == pytest.approx((y_a + A + S) / 2)
    assert f(b) == pytest.approx(A + S)
    assert f((b + c) / 2) == pytest.approx((A + S + y_c) / 2)
    assert f(c) == pytest.approx(y_c)
    assert waves.SHAPES['knee_pitch'].domain == pytest.approx(4 * PI)


def test_ankle_pitch_shape_fast_rise_slow_fall():
    f = lambda x: waves.ankle_pitch(np.array([x]), A, S)[0]  # noqa: E731
    assert f(0.0) == pytest.approx(S - A)
    assert f(PI / 5) == pytest.approx(S)
    assert f(2 * PI / 5) == pytest.approx(S + A)
    assert f(2 * PI / 5 + 4 * PI / 5) == pytest.approx(S)
    assert f(2 * PI - 1e-12) == pytest.approx(S - A)


# --- golden vectors: an independent scalar transcription of §5.3 ----------------------------
def wrap(x, L):
    return x % L


def reference_vectors(p, base_phase):
    """§5.3 written out literally, one joint and one sample at a time (degrees). The branch phases
    use t_i/T = i/18 exactly, so samples that land on a branch boundary (x = π for BASE_PHASE = 0)
    fall on the side exact arithmetic puts them."""
    T, w = p[0], 2 * PI / p[0]
    rows = []
    for i in range(1, 19):
        t = i * T / 18
        u = i / 18  # t / T
        r = {}
        for side, hp, kp, ap in (('R', 0.0, 0.0, 0.0), ('L', PI, 2 * PI, PI)):
            x = wrap(2 * PI * u + base_phase + hp, 2 * PI)
            r[side + 'HipPitch'] = p[1] + p[2] if 3 * PI / 4 < x < PI else \
                6 / 11 * p[1] * math.sin(x) + p[2]
            x = wrap(4 * PI * u + base_phase + 2.67 + p[4] + kp, 4 * PI)
            a, b, c = 7 * PI / 2 - PI / 4, 7 * PI / 2, 7 * PI / 2 + PI / 4
            ya, yb, yc = 0.22 * p[3] * math.sin(a) + p[5], p[3] + p[5], \
                0.22 * p[3] * math.sin(c) + p[5]
            if a < x <= b:
                v = ya + (x - a) / (b - a) * (yb - ya)
            elif b < x <= c:
                v = yb + (x - b) / (c - b) * (yc - yb)
            else:
                v = 0.22 * p[3] * math.sin(x) + p[5]
            r[side + 'KneePitch'] = v
            x = wrap(2 * PI * u + base_phase + 3.455 + p[7] + ap, 2 * PI)
            r[side + 'AnklePitch'] = (x / (2 * PI / 5)) * 2 * p[6] + (p[8] - p[6]) \
                if 0 <= x <= 2 * PI / 5 else \
                ((x - 2 * PI / 5) / (8 * PI / 5)) * (-2 * p[6]) + (p[8] + p[6])
        hr = 0.2 * p[9] * math.sin(2 * PI * t / T + base_phase + 1.047)
        r['RHipRoll'], r['LHipRoll'] = hr + 1, hr + 0
        ar = 0.23 * p[9] * math.sin(w * t + base_phase - 2.0943)
        r['RAnkleRoll'], r['LAnkleRoll'] = ar - 2.9, ar + (-2.9 + 5)
        sp = 0.37 * 50 * math.sin(w * t + base_phase + 3.14) + 90.5
        r['RShoulderPitch'] = sp
        r['LShoulderPitch'] = 0.37 * 50 * math.sin(w * t + base_phase + 3.14 + PI) + 90.5
        for name, (amp, off, ph) in {'ShoulderRoll': (0.05, -12.5, 0), 'ElbowYaw': (0.2, 75, 3.14),
                                     'ElbowRoll': (0.22, 31, 0)}.items():
            v = amp * 50 * math.sin(w * t + base_phase + ph) + off
            r['R' + name], r['L' + name] = v, -v
        rows.append([r[j] for j in nw.GAIT_JOINTS])
    return np.array(rows)


PARAM_SETS = [
    # (name, raw params, version or None for BASE_PHASE=-1.5 without hard-coded values)
    ('later', [0.6, 0, -100, 30, 2, 40, 20, -3, -75, 0], LATER),        # candidate Search#4129
    ('earlier', [0.6, 0, -100, 30, 2, 40, 20, -3, -75, 0], EARLIER),
    ('free-1', [0.8, 12.5, -25, 35, -1.2, 45, 9, 0.7, -20, 30], None),
    ('free-2', [1.1, 40, -10, 60, 5.5, 20, 25, -2.5, -45, 49.5], None),
    ('earlier-free', [0.45, 20, -30, 10, 0.3, 55, 15, 1.0, -30, 12], EARLIER),
]


@pytest.mark.parametrize('name, raw, version', PARAM_SETS, ids=[s[0] for s in PARAM_SETS])
def test_generator_matches_spec_transcription(name, raw, version):
    p = WalkParams.from_sequence(raw)
    base = nw.BASE_PHASE_LATER
    if version is not None:
        p, base = version.apply(p), version.base_phase
    got = NaoWaveWalk(p, base_phase=base).samples_deg()
    want = reference_vectors(p.as_tuple(), base)
    assert got.shape == (18, 18)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)


def test_version_hardcoded_values():
    p = LATER.apply(WalkParams.from_sequence([0.6] + [1.0] * 9))
    assert (p.knee_offset, p.ankle_amplitude, p.ankle_offset, p.balance) == \
        (42.1, 7.5, -21.4, 38.29999)
    assert (p.hip_amplitude, p.knee_phase) == (1.0, 1.0)
    assert EARLIER.apply(p).balance == 20.0 and EARLIER.base_phase == 0.0
    assert LATER.base_phase == -1.5


# --- structural relations of §5.4 at every sample -------------------------------------------
@pytest.mark.parametrize('name, raw, version', PARAM_SETS, ids=[s[0] for s in PARAM_SETS])
def test_left_right_relations(name, raw, version):
    p = WalkParams.from_sequence(raw)
    base = version.base_phase if version else nw.BASE_PHASE_LATER
    s = NaoWaveWalk(version.apply(p) if version else p, base_phase=base).samples_deg()
    col = {j: s[:, k] for k, j in enumerate(nw.GAIT_JOINTS)}
    half = np.roll(np.arange(18), -9)  # sample i of the left = sample i + 9 of the right
    for j in ('HipPitch', 'KneePitch', 'AnklePitch', 'ShoulderPitch'):
        np.testing.assert_allclose(col['L' + j], col['R' + j][half], atol=1e-9, err_msg=j)
    np.testing.assert_allclose(col['RHipRoll'] - col['LHipRoll'], 1.0, atol=1e-12)
    np.testing.assert_allclose(col['LAnkleRoll'] - col['RAnkleRoll'], 5.0, atol=1e-12)
    for j in ('ShoulderRoll', 'ElbowYaw', 'ElbowRoll'):
        np.testing.assert_array_equal(col['L' + j], -col['R' + j])


def test_zero_amplitudes_give_constant_offsets():
    p = WalkParams(0.7, 0.0, -20.0, 25, 1, 40, 10, 0, -20, 0.0)
    s = NaoWaveWalk(p).samples_deg()
    col = {j: s[:, k] for k, j in enumerate(nw.GAIT_JOINTS)}
    np.testing.assert_array_equal(col['RHipPitch'], -20.0)
    np.testing.assert_array_equal(col['LHipPitch'], -20.0)
    np.testing.assert_array_equal(col['RHipRoll'], 1.0)
    np.testing.assert_array_equal(col['LHipRoll'], 0.0)
    np.testing.assert_allclose(col['RAnkleRoll'], -2.9)
    np.testing.assert_allclose(col['LAnkleRoll'], 2.1)
    assert np.ptp(col['RKneePitch']) > 10  # the knee still moves


def test_arm_swing_flag_holds_arms_at_their_offsets():
    s = NaoWaveWalk(WalkParams(0.6, 10, -20, 25, 1, 40, 10, 0, -20, 20), arm_swing=False).samples_deg()
    col = {j: s[:, k] for k, j in enumerate(nw.GAIT_JOINTS)}
    np.testing.assert_allclose(col['RShoulderPitch'], 90.5)
    np.testing.assert_allclose(col['LElbowRoll'], -31.0)


# --- sampling, playback and units -----------------------------------------------------------
def test_sample_times_and_playback_schedule():
    T = 0.9
    np.testing.assert_allclose(nw.sample_times(T), [i * T / 18 for i in range(1, 19)])
    walk = NaoWaveWalk(WalkParams(T, 20, -20, 30, 1, 40, 10, 0.5, -20, 25))
    rows = walk.samples_deg()
    np.testing.assert_allclose(rows, walk.bank.values(nw.sample_times(T)))
    dt = T / 18
    for k in range(40):  # the k-th command of sampled playback loops over the 18 vectors
        np.testing.assert_allclose(walk.sample_rad(k)[:18], rows[k % 18] * math.pi / 180,
                                   atol=1e-15)
    # The continuous mode meets the sampled one where the sampled one switches (t = k·T/18).
    for k in range(36):
        np.testing.assert_allclose(walk.continuous_rad(k * dt), walk.sample_rad(k), atol=1e-12)
    mid = walk.continuous_rad(2.5 * dt)[:18]
    assert not np.allclose(mid, rows[2] * math.pi / 180)


def test_degrees_to_radians_and_hip_yaw_pitch_zero():
    walk = NaoWaveWalk(WalkParams(0.6, 20, -20, 30, 1, 40, 10, 0.5, -20, 25))
    assert walk.joints[-2:] == ('LHipYawPitch', 'RHipYawPitch')
    for k in range(18):
        v = walk.sample_rad(k)
        np.testing.assert_array_equal(v[:18], walk.samples_deg()[k] * (math.pi / 180.0))
        assert v[18] == 0.0 and v[19] == 0.0
    # e.g. the shoulder pitch offset 90.5 deg is commanded as 1.5795 rad
    assert walk.sample_rad(0)[nw.GAIT_JOINTS.index('RShoulderPitch')] == pytest.approx(
        math.radians(90.5 + 18.5 * math.sin(2 * PI / 18 - 1.5 + 3.14)))


def test_limit_violations_flag_out_of_range_samples():
    walk = NaoWaveWalk(WalkParams(0.6, 0, -100, 30, 2, 40, 20, -3, -75, 0))  # hip offset -100 deg
    v = walk.limit_violations({'RHipPitch': (-1.53589, 0.48398), 'RKneePitch': (-0.1, 2.1)})
    assert v == {'RHipPitch': 18}


def test_bad_parameters_are_named():
    with pytest.raises(ValueError, match='period_s'):
        WalkParams(0.0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    with pytest.raises(ValueError, match='expected 10 values'):
        WalkParams.from_sequence([1, 2, 3])
    with pytest.raises(ValueError, match='knee_phase'):
        WalkParams(0.6, 0, 0, 0, float('nan'), 0, 0, 0, 0, 0)


def test_the_nao_wave_walk_is_a_gait_generator_the_player_can_play():
    from coupled_wave_gait import player_plugin
    from gait_player.generator import GaitGenerator
    from coupled_wave_gait.nao_wave_walk import VERSIONS
    params = WalkParams.from_sequence([0.6, 20, -10, 30, 0, 30, 10, 0, -20, 5])
    gait = player_plugin.nao_wave_walk()(params, VERSIONS['later'], True)
    assert isinstance(gait, GaitGenerator)
    assert gait.period == 0.6 and gait.sample_interval == pytest.approx(0.6 / 18)
    assert gait.sample_rad(0).shape == (len(gait.joints),)


def test_sole_parallel_variant_keeps_the_soles_parallel_to_the_torso():
    """``nao_wave_walk_flat``: AnklePitch = -(HipPitch + KneePitch) + the spec's ankle wave, AnkleRoll =
    -HipRoll (hip, knee and ankle pitch all about y, hip and ankle roll about x), every other
    joint as in the spec; in the sampled and the continuous mode."""
    from coupled_wave_gait import player_plugin
    from coupled_wave_gait.nao_wave_walk import GAIT_JOINTS, VERSIONS
    params = WalkParams.from_sequence([0.6, 20, -30, 30, 0.5, 45, 6, -1.5, -8, 20])
    spec = NaoWaveWalk(params)
    flat = player_plugin.nao_wave_walk_flat()(params, VERSIONS['later'], True)
    col = {j: k for k, j in enumerate(GAIT_JOINTS)}
    times = np.linspace(0.0, 1.2, 37)
    for a, b in [(spec.samples_deg(), flat.samples_deg()),
                 (np.array([spec.continuous_rad(t) for t in times]) / nw.DEG,
                  np.array([flat.continuous_rad(t) for t in times]) / nw.DEG)]:
        for side in 'RL':
            hp, kp, hr = (a[:, col[side + j]] for j in ('HipPitch', 'KneePitch', 'HipRoll'))
            np.testing.assert_allclose(b[:, col[side + 'AnklePitch']],
                                       a[:, col[side + 'AnklePitch']] - hp - kp, atol=1e-9)
            np.testing.assert_allclose(b[:, col[side + 'AnkleRoll']], -hr, atol=1e-9)
        same = [k for j, k in col.items() if 'Ankle' not in j]
        np.testing.assert_array_equal(b[:, same], a[:, same])
    with pytest.raises(ValueError, match="sole: expected one of spec, parallel, got 'tilted'"):
        NaoWaveWalk(params, sole='tilted')


def test_smooth_variant_is_the_sole_parallel_walk_with_the_ramped_hip():
    """``nao_wave_walk_smooth``: ``nao_wave_walk_flat`` with the hip pitch wave ramped into its flat top;
    the ankle pitch follows the hip through the sole-parallel relation, every other joint is the
    same."""
    from coupled_wave_gait import player_plugin
    from coupled_wave_gait.nao_wave_walk import GAIT_JOINTS, VERSIONS
    params = WalkParams.from_sequence([0.6, 20, -30, 30, 0.5, 45, 6, -1.5, -8, 20])
    flat = player_plugin.nao_wave_walk_flat()(params, VERSIONS['later'], True)
    smooth = player_plugin.nao_wave_walk_smooth()(params, VERSIONS['later'], True)
    col = {j: k for k, j in enumerate(GAIT_JOINTS)}
    t = np.linspace(0.0, 1.2, 481)
    a = np.array([flat.continuous_rad(v) for v in t]) / nw.DEG
    b = np.array([smooth.continuous_rad(v) for v in t]) / nw.DEG
    for side in 'RL':
        hp, ap = col[side + 'HipPitch'], col[side + 'AnklePitch']
        assert np.any(b[:, hp] != a[:, hp])
        np.testing.assert_allclose(b[:, ap] + b[:, hp], a[:, ap] + a[:, hp], atol=1e-9)
        jumps = lambda y: np.count_nonzero(np.abs(np.diff(y)) > 3.0)  # noqa: E731
        assert jumps(a[:, hp]) == 2 * jumps(b[:, hp]) == 4  # two periods: the step in, the drop
    same = [k for j, k in col.items() if 'HipPitch' not in j and 'AnklePitch' not in j]
    np.testing.assert_array_equal(b[:, same], a[:, same])
    with pytest.raises(ValueError, match="hip: expected one of spec, ramped, got 'soft'"):
        NaoWaveWalk(params, hip='soft')
