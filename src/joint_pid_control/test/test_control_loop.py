"""The per-tick logic of the PID node without ROS: the seed's law (thesis preset), the watchdog,
inputs by joint name, and one-time reports."""
import math

import numpy as np
import pytest

from joint_pid_control.control_loop import DEFAULT_GAINS, ControlLoop
from joint_pid_control.joint_limits import JointLimits
from joint_pid_control.seed_law import SeedLaw
from joint_pid_control.watchdog import Watchdog

MS = 1_000_000  # ns
ANKLE_ROLL = JointLimits(-0.768992, 0.397935, 4.16174)  # thesis RAnkleRoll, specs/nao.md §2.5
ANKLE_PITCH = JointLimits(-1.1863, 0.932006, 6.40239)


def test_seed_law_reproduces_v_10e_plus_0_1_delta_e():
    law = SeedLaw([-1.0], [1.0])
    meas = [0.0, 0.05, 0.12, 0.2]
    e_prev, out = 0.0, []
    for m in meas:
        v, at_limit = law.update(np.array([0.5]), np.array([m]), dt=0.001)
        e = 0.5 - m
        assert v[0] == pytest.approx(10 * e + 0.1 * (e - e_prev), abs=1e-15)
        assert not at_limit[0]
        e_prev = e
        out.append(v[0])
    assert out[0] == pytest.approx(5.05)   # the error memory starts at 0


def test_seed_law_gives_zero_velocity_for_targets_at_or_beyond_a_limit():
    law = SeedLaw([ANKLE_ROLL.lower] * 4, [ANKLE_ROLL.upper] * 4)
    targets = np.array([0.397935, 0.5, -0.768992, 0.1])
    v, at_limit = law.update(targets, np.zeros(4))
    assert v.tolist()[:3] == [0.0, 0.0, 0.0] and v[3] == pytest.approx(1.01)
    assert at_limit.tolist() == [True, True, True, False]


def test_watchdog_needs_both_inputs_fresh():
    w = Watchdog(2, timeout=0.5)
    assert not w.live(0).any()
    w.saw_targets(np.array([True, True]), 0)
    assert not w.live(100 * MS).any()                  # no state yet
    w.saw_states(np.array([True, False]), 100 * MS)
    assert w.live(200 * MS).tolist() == [True, False]
    assert w.live(500 * MS).tolist() == [True, False]  # exactly the timeout: still live
    assert w.live(500 * MS + 1).tolist() == [False, False]
    w.timeout = math.inf
    assert w.live(10 ** 15).tolist() == [True, False]
    with pytest.raises(ValueError, match='watchdog_timeout'):
        Watchdog(1, 0.0)


def make_loop(preset='default', timeout=0.5):
    return ControlLoop(['RAnkleRoll', 'RAnklePitch'], preset, [DEFAULT_GAINS] * 2,
                       [ANKLE_ROLL, ANKLE_PITCH], timeout)


def test_watchdog_stops_a_joint_whose_targets_go_silent_and_resumes_cleanly():
    loop = make_loop()
    t = 0
    loop.on_states(['RAnkleRoll', 'RAnklePitch'], [0.0, 0.0], t)
    cmd, clamped, silent, back = loop.tick(t)
    assert cmd.tolist() == [0.0, 0.0] and back == []   # no target yet: stopped
    history = []
    for k in range(1, 200):                           # 100 Hz ticks for ~2 s
        t = k * 10 * MS
        loop.on_states(['RAnkleRoll', 'RAnklePitch'], [0.0, 0.0], t)
        if t < 500 * MS:  # the target publisher dies at 0.5 s
            loop.on_targets(['RAnkleRoll', 'RAnklePitch'], [0.1, -0.2], [], t)
        cmd, clamped, silent, back = loop.tick(t)
        history.append((t, cmd.copy(), silent, back))
    started = [h for h in history if h[3]]
    stopped = [h for h in history if h[2]]
    assert len(started) == 1 and started[0][3] == ['RAnkleRoll', 'RAnklePitch']
    assert len(stopped) == 1 and stopped[0][0] == 1000 * MS   # last target 490 ms + 500 ms
    for t, cmd, _, _ in history:
        if t <= 990 * MS:
            assert cmd[0] > 0 and cmd[1] < 0
        else:
            assert cmd.tolist() == [0.0, 0.0]
    assert loop.controller.i_term.tolist() == [0.0, 0.0]  # no windup kept across the silence


def test_targets_for_other_joints_are_ignored_and_clamping_is_reported_once():
    loop = make_loop()
    reports = []
    for k in range(5):
        t = k * 10 * MS
        loop.on_states(['RAnkleRoll', 'RAnklePitch', 'HeadYaw'], [0.3, 0.0, 9.0], t)
        loop.on_targets(['HeadYaw', 'RAnkleRoll', 'RAnklePitch'], [1.0, 0.9, 0.1], [], t)
        cmd, clamped, _, _ = loop.tick(t)
        reports.append(clamped)
        if k == 1:  # the 0.9 rad target is driven to the 0.397935 rad limit, not beyond
            assert cmd[0] == pytest.approx(20 * (0.397935 - 0.3))
    assert reports == [['RAnkleRoll'], [], [], [], []]
    loop.on_targets(['RAnkleRoll'], [0.0], [], 50 * MS)
    assert loop.tick(50 * MS)[1] == []
    loop.on_targets(['RAnkleRoll'], [-2.0], [], 60 * MS)
    assert loop.tick(60 * MS)[1] == ['RAnkleRoll']       # a new episode is reported again


def test_feedforward_velocity_and_bad_messages():
    loop = ControlLoop(['j'], 'default', [DEFAULT_GAINS.__class__(p=1.0, feedforward_gain=1.0)],
                       [JointLimits(-1, 1, 5)], 0.5)
    loop.on_states(['j'], [0.0], 0)
    loop.on_targets(['j'], [0.2], [0.7], 0)
    loop.tick(0)
    cmd = loop.tick(10 * MS)[0]
    assert cmd[0] == pytest.approx(0.2 + 0.7)
    with pytest.raises(ValueError, match='1 names but 2 values'):
        loop.on_targets(['j'], [0.1, 0.2], [], 20 * MS)
    with pytest.raises(ValueError, match='non-finite position'):
        loop.on_targets(['j'], [math.nan], [], 20 * MS)
    with pytest.raises(ValueError, match="preset: expected one of default, thesis"):
        ControlLoop(['j'], 'fast', [DEFAULT_GAINS], [JointLimits()], 0.5)


def test_thesis_preset_runs_the_seed_law_and_refuses_gains():
    loop = make_loop('thesis')
    loop.on_states(['RAnkleRoll', 'RAnklePitch'], [0.0, 0.0], 0)
    loop.on_targets(['RAnkleRoll', 'RAnklePitch'], [0.5, 0.2], [], 0)
    cmd, clamped, _, _ = loop.tick(0)
    assert cmd[0] == 0.0 and cmd[1] == pytest.approx(10 * 0.2 + 0.1 * 0.2)
    assert clamped == ['RAnkleRoll']
    with pytest.raises(ValueError, match="preset 'thesis'"):
        loop.set_gains([DEFAULT_GAINS] * 2)


def test_reset_makes_runs_repeatable_and_clamps_respect_the_velocity_limit():
    def run(loop, start_ns=0):
        out = []
        for k in range(30):
            t = start_ns + 10 * MS * k
            loop.on_states(['RAnkleRoll', 'RAnklePitch'], [0.01 * k, -0.02 * k], t)
            loop.on_targets(['RAnkleRoll', 'RAnklePitch'], [0.3, -0.5], [], t)
            out.append(loop.tick(t)[0])
        return np.array(out)
    loop = make_loop()
    first = run(loop)
    loop.reset()
    # bit for bit, also at another absolute time (dt comes from integer nanoseconds)
    np.testing.assert_array_equal(run(loop, 123_456_789_012), first)
    with pytest.raises(ValueError, match=r'gains.RAnkleRoll.u_clamp_min/u_clamp_max'):
        loop.set_gains([DEFAULT_GAINS.__class__(p=1.0, u_clamp_min=5.0), DEFAULT_GAINS])
