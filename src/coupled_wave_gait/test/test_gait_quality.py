"""Gait quality (coupled_wave_gait.gait_quality): the measures on synthetic recordings (a flat,
clean walk passes; a foot that chatters, rolls on its edge or slips fails; saturated hips and
overspeed joints fail), the search penalty, and the step recorder on the simulator (a sample per
physics step, the walk unchanged)."""
import math

import numpy as np
import pytest

from coupled_wave_gait.gait_quality import (GaitRecording, QualityTargets, SoleSamples, measure,
                                            penalty_factor, touchdowns, violations)

DT = 0.001
N = 6000  # 6 s at 1 kHz
PERIOD = 0.6
JOINTS = ['LHipPitch', 'RHipPitch', 'LKneePitch', 'RKneePitch']
VEL_LIMIT = np.array([6.4, 6.4, 6.4, 6.4])
EFFORT_LIMIT = np.array([3.0, 3.0, 3.0, 3.0])


def clean_walk(speed=0.15) -> GaitRecording:
    """Two feet alternating, each in contact 60 % of every 0.6 s period (double support 10 % at
    each exchange), flat and still on the ground while in contact, the base moving forward."""
    t = np.arange(N) * DT
    phase = (t / PERIOD) % 1.0
    left = phase < 0.6
    right = (phase >= 0.5) | (phase < 0.1)
    contact = np.column_stack([left, right])
    corners = np.where(contact, 4, 0)
    sole_xy = np.zeros((N, 2, 2))
    for i, loaded in enumerate((left, right)):
        x = 0.0
        for k in range(N):  # the foot moves only in the air
            if not loaded[k]:
                x += 2 * speed * DT / 0.4
            sole_xy[k, i, 0] = x
        sole_xy[:, i, 1] = 0.05 if i == 0 else -0.05
    base = np.column_stack([speed * t, 0.01 * np.sin(2 * np.pi * t / PERIOD), np.full(N, 0.32)])
    velocity = np.column_stack([3.0 * np.sin(2 * np.pi * t / PERIOD + k) for k in range(4)])
    effort = np.column_stack([1.5 * np.sin(2 * np.pi * t / PERIOD + k) for k in range(4)])
    return GaitRecording(dt=DT, base_xyz=base, feet=['l_ankle', 'r_ankle'], contact=contact,
                         corners=corners, sole_xy=sole_xy, joints=list(JOINTS),
                         velocity=velocity, effort=effort, velocity_limit=VEL_LIMIT.copy(),
                         effort_limit=EFFORT_LIMIT.copy())


def test_a_clean_flat_walk_passes_every_target():
    q = measure(clean_walk())
    assert q.ok(), q.failures()
    assert q.samples == N and q.duration_s == pytest.approx(6.0)
    assert q.touchdowns_per_s['l_ankle'] == pytest.approx(10 / 6.0, abs=0.2)  # one per period
    assert q.flat_fraction == {'l_ankle': 1.0, 'r_ankle': 1.0}
    assert q.median_slip_m_s == {'l_ankle': 0.0, 'r_ankle': 0.0}
    assert q.forward_m == pytest.approx(0.15 * (N - 1) * DT)
    assert q.max_lateral_m == pytest.approx(0.01, abs=1e-4)
    assert q.max_velocity_ratio == pytest.approx(3.0 / 6.4, abs=1e-3)
    assert q.effort_limit_fraction == {'LHipPitch': 0.0, 'RHipPitch': 0.0}
    assert not q.fell
    assert penalty_factor(q) == 1.0 and not any(violations(q).values())
    d = q.to_dict()
    assert d['failures'] == [] and d['targets']['min_flat_fraction'] == 0.8


def test_a_chattering_foot_fails_on_touchdowns():
    rec = clean_walk()
    # the left foot taps the ground every 3 ms for the first 0.1 s of each swing
    t = np.arange(N) * DT
    phase = (t / PERIOD) % 1.0
    tapping = (phase >= 0.6) & (phase < 0.6 + 0.1 / PERIOD) & (np.arange(N) % 3 == 0)
    rec.contact[:, 0] |= tapping
    rec.corners[:, 0] = np.where(tapping, 1, rec.corners[:, 0])
    q = measure(rec)
    assert q.touchdowns_per_s['l_ankle'] > 10.0
    assert q.touchdowns_per_s['r_ankle'] < 10.0
    assert any(f.startswith('l_ankle:') and 'touchdowns/s' in f for f in q.failures())
    worse = measure(clean_walk())
    assert penalty_factor(q) < penalty_factor(worse) == 1.0


def test_touchdowns_count_rising_edges_only():
    c = np.array([[0, 1], [1, 1], [1, 0], [0, 0], [1, 1], [0, 1], [1, 1]], dtype=bool)
    assert touchdowns(c).tolist() == [3, 1]
    assert touchdowns(c[:1]).tolist() == [0, 0]


def test_a_foot_on_its_edge_is_loaded_but_not_flat():
    rec = clean_walk()
    rec.corners[:, 1] = np.where(rec.contact[:, 1], 2, 0)  # right foot: two corners only
    rec.corners[::4, 0] = np.where(rec.contact[::4, 0], 3, 0)  # left: flat 3/4 of the time
    q = measure(rec)
    assert q.flat_fraction['r_ankle'] == 0.0
    assert q.flat_fraction['l_ankle'] == pytest.approx(0.75, abs=0.01)
    fails = q.failures()
    assert any(f.startswith('r_ankle: flat') for f in fails)
    assert any(f.startswith('l_ankle: flat') for f in fails)
    assert measure(rec, targets=QualityTargets(min_flat_fraction=0.7)).flat_fraction == \
        q.flat_fraction


def test_flat_by_stance_fifth_tells_touchdown_and_lift_off_from_mid_stance():
    rec = clean_walk()
    t = np.arange(N) * DT
    phase = (t / PERIOD) % 1.0
    # the left foot (in contact for phase 0..0.6) lands and lifts on its heel: two corners in
    # the first and the last 0.06 of its stance, and bounces once, 2 ms, before landing
    edge = rec.contact[:, 0] & ((phase < 0.06) | (phase >= 0.54))
    rec.corners[:, 0] = np.where(edge, 2, rec.corners[:, 0])
    bounce = (phase >= 1.0 - 0.005) & (phase < 1.0 - 0.003)
    rec.contact[:, 0] |= bounce
    rec.corners[:, 0] = np.where(bounce, 1, rec.corners[:, 0])
    q = measure(rec)
    left = q.flat_by_stance_fifth['l_ankle']
    assert len(left) == 5 and left[1:4] == [1.0, 1.0, 1.0]     # the bounce joins the stance
    assert 0.4 < left[0] < 0.6 and left[4] == pytest.approx(0.5, abs=0.02)
    assert q.flat_by_stance_fifth['r_ankle'] == [1.0] * 5
    corners = q.corners_by_stance_fifth['l_ankle']
    assert corners[1:4] == [4.0, 4.0, 4.0] and 2.0 < corners[0] < 3.2 and 2.9 < corners[4] < 3.1
    assert q.to_dict()['flat_by_stance_fifth']['l_ankle'] == left


def test_slip_overspeed_saturation_drift_and_fall_fail():
    rec = clean_walk()
    rec.sole_xy[:, 0, 0] += 0.05 * np.arange(N) * DT  # the left sole slides at 5 cm/s
    q = measure(rec)
    assert q.median_slip_m_s['l_ankle'] == pytest.approx(0.05, rel=1e-6)
    assert [f for f in q.failures() if 'slip' in f] == \
        ['l_ankle: median stance slip 0.0500 m/s > 0.02']

    rec = clean_walk()
    rec.velocity[3000, 3] = 1.2 * VEL_LIMIT[3]  # RKneePitch once at 1.2x its limit
    rec.effort[:1800, 0] = -3.0                  # LHipPitch saturated 30 % of the time
    rec.effort[:1000, 1] = 2.98                  # RHipPitch at 0.993 x its limit, 16.7 %
    q = measure(rec)
    assert q.max_velocity_joint == 'RKneePitch' and q.max_velocity_ratio == pytest.approx(1.2)
    assert q.effort_limit_fraction == {'LHipPitch': pytest.approx(0.3),
                                       'RHipPitch': pytest.approx(1 / 6)}
    assert sorted(f.split(':')[0] for f in q.failures()) == ['LHipPitch', 'RKneePitch']

    rec = clean_walk(speed=0.05)
    rec.base_xyz[:, 1] += np.linspace(0.0, 0.3, N) ** 2  # veers, 9 cm at the end...
    rec.base_xyz[4000:, 2] = 0.1                          # ...and falls
    q = measure(rec)
    assert q.fell and q.max_lateral_m == pytest.approx(0.09, abs=0.011)
    fails = q.failures()
    assert fails[0].startswith('fell') and any(f.startswith('forward') for f in fails)
    v = violations(q)
    assert v['forward'] == pytest.approx(1 - q.forward_m / 0.6) and v['lateral'] == 0.0


def test_targets_with_a_margin_are_stricter():
    t = QualityTargets().scaled(0.1)
    assert t.max_lateral_m == pytest.approx(0.135) and t.max_touchdowns_per_s == pytest.approx(9)
    assert t.min_flat_fraction == pytest.approx(0.82) and t.min_forward_m > 0.6
    q = measure(clean_walk())
    q.flat_fraction['l_ankle'] = 0.81                    # meets 80 %, misses 82 %
    assert q.ok() and not q.ok(t)
    assert violations(q, t)['flat/l_ankle'] == pytest.approx(1 - 0.81 / 0.82)
    assert penalty_factor(q, t, weight=2.0) == pytest.approx(
        math.exp(-2.0 * (1 - 0.81 / 0.82)))


def test_walk_weight_weighs_forward_and_lateral_misses():
    q = measure(clean_walk(speed=0.05))                     # 0.3 m: misses 0.6 m by half
    q.touchdowns_per_s['l_ankle'] = 20.0                    # and the touchdowns by 100 %
    v = violations(q)
    assert v['forward'] == pytest.approx(0.5, abs=0.01) and v['touchdowns/l_ankle'] == 1.0
    assert penalty_factor(q) == pytest.approx(math.exp(-(v['forward'] + 1.0)))
    assert penalty_factor(q, walk_weight=10.0) == pytest.approx(
        math.exp(-(10.0 * v['forward'] + 1.0)))


def test_recording_shapes_are_checked():
    rec = clean_walk()
    with pytest.raises(ValueError, match='corners'):
        GaitRecording(dt=DT, base_xyz=rec.base_xyz, feet=rec.feet, contact=rec.contact,
                      corners=rec.corners[:, :1], sole_xy=rec.sole_xy, joints=rec.joints,
                      velocity=rec.velocity, effort=rec.effort,
                      velocity_limit=rec.velocity_limit, effort_limit=rec.effort_limit)
    with pytest.raises(ValueError, match='no joint'):
        measure(rec, hip_pitch=('LHipPitch', 'NoSuchJoint'))


def test_sole_contact_says_why_a_loaded_sole_is_not_flat():
    """The diagnostics of ``StepRecorder(..., soles=True)``: the right foot rides on its heel edge
    (toe corners 1.2 mm up, pitched 0.43 deg, centre of pressure on the heel edge) in the fourth
    fifth of each stance (phase 0.86..0.98 of its 0.5..1.1), while the left is in the air;
    elsewhere both are flat with the centre of pressure at the middle of the sole."""
    rec = clean_walk()
    t = np.arange(N) * DT
    phase = (t / PERIOD) % 1.0
    heel = (phase >= 0.86) & (phase < 0.98)
    rec.corners[:, 1] = np.where(heel, 2, rec.corners[:, 1])
    lift = np.zeros((N, 2, 4))
    lift[heel, 1, 2:] = 0.0012                     # toe corners (x > 0) up
    tilt = np.zeros((N, 2, 2))
    tilt[heel, 1, 1] = math.radians(-0.43)
    force = np.where(rec.contact, 50.0, 0.0)
    cop = np.zeros((N, 2, 2))
    cop[heel, 1, 0] = -0.08                        # on the heel edge
    rec.soles = SoleSamples(lift, tilt, force, cop, np.array([[0.08, 0.04]] * 2), 50.0)
    q = measure(rec)
    right, left = q.sole_contact['r_ankle'], q.sole_contact['l_ankle']
    assert left['not_flat_share'] == 0.0 and left['core']['loaded_share'] == 1.0
    assert right['not_flat_share'] == pytest.approx(1 - q.flat_fraction['r_ankle'])
    assert right['not_flat_in_single_support'] == 1.0
    fourth = right['by_stance_fifth'][3]
    assert fourth['lift_mm'] == pytest.approx(1.2) and fourth['tilt_deg'] == pytest.approx(0.43)
    assert fourth['force_share'] == 1.0 and fourth['not_flat_share'] > 0.9
    middle = right['by_stance_fifth'][1]  # (the first and last stances are cut by the recording)
    assert middle['not_flat_share'] == 0.0 and math.isnan(middle['lift_mm'])
    assert right['core']['flat_share_inside'] == 1.0          # flat exactly where CoP is inside
    assert right['core']['loaded_share'] == pytest.approx(q.flat_fraction['r_ankle'])
    assert right['flat_if_lift_below_mm'] == {'0.1': q.flat_fraction['r_ankle'],
                                              '0.3': q.flat_fraction['r_ankle'],
                                              '1': q.flat_fraction['r_ankle'], '3': 1.0}
    as_json = q.to_dict()['sole_contact']['r_ankle']['by_stance_fifth']
    assert as_json[3]['lift_mm'] == pytest.approx(1.2) and as_json[1]['lift_mm'] is None
    assert measure(clean_walk()).sole_contact == {}            # not recorded: no diagnostics
    with pytest.raises(ValueError, match=r'soles.cop: expected shape \(6000, 2, 2\)'):
        rec.soles = SoleSamples(lift, tilt, force, cop[:, :1], np.array([[0.08, 0.04]] * 2), 50.0)
        rec.__post_init__()
