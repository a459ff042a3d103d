"""The vectorised PID: step responses of a simulated Nao joint (MuJoCo), anti-windup under
saturation, and control_toolbox's semantics (integration order, deadband, clamps, derivative on
measurement with its filter, feed-forward, target clamping)."""
import math

import mujoco
import numpy as np
import pytest

from joint_pid_control.control_loop import DEFAULT_GAINS, with_velocity_clamp
from joint_pid_control.joint_limits import JointLimits
from joint_pid_control.params import Gains
from joint_pid_control.pid import JointPid, tracking_time_constant

# Nao knee (naoV40, specs/nao.md §2.7): limits -0.0923279..2.11255 rad, effort 3.023 N·m,
# velocity 6.40239 rad/s; below it the tibia (0.29142 kg, 0.1029 m) and ankle + foot
# (0.13416 + 0.16184 kg). The motor is a velocity servo with gain kv capped at the effort limit,
# like the simulator's joint motors.
KNEE = JointLimits(-0.0923279, 2.11255, 6.40239)
KNEE_XML = """
<mujoco><compiler angle="radian"/><option timestep="0.001" integrator="implicitfast"/>
<worldbody><body pos="0 0 1" {pose}>
  <joint name="knee" type="hinge" axis="0 1 0" range="-0.0923279 2.11255" limited="true"/>
  <geom type="capsule" fromto="0 0 0 0 0 -0.1029" size="0.015" mass="0.29142"/>
  <body pos="0 0 -0.1029"><geom type="box" size="0.05 0.03 0.02" pos="0.02 0 -0.03" mass="0.296"/>
  </body></body></worldbody>
<actuator><velocity joint="knee" kv="{kv}" forcerange="-3.023 3.023" forcelimited="true"/>
</actuator></mujoco>"""


def knee_step(gains, kv, loaded, step=0.2, rate=100.0, duration=1.5):
    """Joint angle every physics step (1 kHz) after a target step at t = 0."""
    pose = 'euler="0 1.5708 0"' if loaded else ''  # loaded: the shank sticks out horizontally
    m = mujoco.MjModel.from_xml_string(KNEE_XML.format(kv=kv, pose=pose))
    d = mujoco.MjData(m)
    pid = JointPid([with_velocity_clamp(gains, KNEE)], [KNEE.lower], [KNEE.upper])
    n_sub = int(round(1.0 / (rate * m.opt.timestep)))
    q = []
    for _ in range(int(duration * rate)):
        u, _ = pid.update(np.array([step]), np.array([d.qpos[0]]), 1.0 / rate)
        d.ctrl[0] = u[0]
        for _ in range(n_sub):
            mujoco.mj_step(m, d)
            q.append(d.qpos[0])
    return np.arange(1, len(q) + 1) * m.opt.timestep, np.array(q)


@pytest.mark.parametrize('kv', [3.0, 30.0])
@pytest.mark.parametrize('loaded', [False, True], ids=['unloaded', 'gravity-loaded'])
@pytest.mark.parametrize('rate', [100.0, 1000.0])
def test_default_gains_step_response_of_a_nao_knee(kv, loaded, rate):
    t, q = knee_step(DEFAULT_GAINS, kv, loaded, rate=rate)
    overshoot = (q.max() - 0.2) / 0.2
    assert overshoot <= 0.05                        # issue: no overshoot beyond 5 %
    outside = np.flatnonzero(np.abs(q - 0.2) > 0.01)
    settle = t[outside[-1]] if outside.size else 0.0
    assert settle <= 0.5                            # R8: within 0.01 rad in <= 0.5 s


def test_velocity_clamp_defaults_to_the_joint_velocity_limit():
    g = with_velocity_clamp(DEFAULT_GAINS, KNEE)
    assert (g.u_clamp_min, g.u_clamp_max) == (-6.40239, 6.40239)
    g = with_velocity_clamp(Gains(u_clamp_max=1.0), KNEE)
    assert (g.u_clamp_min, g.u_clamp_max) == (-6.40239, 1.0)
    t, q = knee_step(DEFAULT_GAINS, 30.0, False, step=2.0, duration=0.2)
    assert np.max(np.diff(q)) / 1e-3 <= 6.40239 * 1.001  # a 2 rad step moves at most at 6.4 rad/s


def integrator_run(strategy, blocked_until, steps=600, dt=0.01, u_max=0.5, step=1.0):
    """Ideal velocity joint (q' = u), held at a hard stop until ``blocked_until`` ticks."""
    pid = JointPid([Gains(p=2.0, i=4.0, u_clamp_max=u_max, u_clamp_min=-u_max,
                          antiwindup_strategy=strategy)], [-10.0], [10.0])
    q, qs, its = 0.0, [], []
    for k in range(steps):
        u, _ = pid.update(np.array([step]), np.array([q]), dt)
        if k >= blocked_until:
            q += u[0] * dt
        qs.append(q)
        its.append(pid.i_term[0])
    return np.array(qs), np.array(its)


@pytest.mark.parametrize('strategy', ['back_calculation', 'conditional_integration'])
def test_anti_windup_keeps_the_integrator_bounded_under_saturation(strategy):
    _, i_none = integrator_run('none', blocked_until=10**9, steps=500)
    _, i_aw = integrator_run(strategy, blocked_until=10**9, steps=500)
    # Blocked for 5 s with e = 1: plain integration winds up to Ki·e·t = 20 and keeps growing;
    # with anti-windup the integral stays at what the saturated output can use (< u_max).
    assert i_none[-1] == pytest.approx(4.0 * 1.0 * 5.0, rel=1e-9)
    assert np.all(np.abs(i_aw) <= 0.5 + 1e-9)
    assert abs(i_aw[-1] - i_aw[-50]) < 1e-3       # bounded and settled, not creeping
    # Released after 3 s: the wound-up loop overshoots by ~180 %, the protected one by no more
    # than this underdamped PI (zeta = 0.5) does anyway.
    q_none, _ = integrator_run('none', blocked_until=300, steps=3000)
    q_aw, _ = integrator_run(strategy, blocked_until=300, steps=3000)
    assert q_none.max() > 2.5
    assert q_aw.max() < 1.15 and abs(q_aw[-1] - 1.0) < 1e-3


def test_integral_is_applied_after_the_output_and_respects_deadband_and_clamps():
    pid = JointPid([Gains(p=1.0, i=10.0, antiwindup_strategy='none', error_deadband=0.05,
                          i_clamp_max=0.3, i_clamp_min=-0.3)], [-1.0], [1.0])
    u, _ = pid.update(np.array([0.5]), np.array([0.0]), 0.01)
    assert u[0] == pytest.approx(0.5)               # no integral on the first output
    u, _ = pid.update(np.array([0.5]), np.array([0.0]), 0.01)
    assert u[0] == pytest.approx(0.5 + 10 * 0.5 * 0.01)
    for _ in range(100):
        pid.update(np.array([0.5]), np.array([0.0]), 0.01)
    assert pid.i_term[0] == pytest.approx(0.3)      # i_clamp_max
    pid.reset()
    pid.update(np.array([0.04]), np.array([0.0]), 0.01)
    assert pid.i_term[0] == 0.0                     # |e| <= error_deadband: no integration
    prev = pid.command.copy()
    u, _ = pid.update(np.array([0.9]), np.array([0.0]), 0.0)
    np.testing.assert_array_equal(u, prev)          # dt = 0 returns the previous command


def test_derivative_on_measurement_filter_and_feedforward():
    pid = JointPid([Gains(p=0.0, d=2.0, derivative_filter_time_constant=0.05,
                          feedforward_gain=1.0)], [-9.0], [9.0])
    u, _ = pid.update(np.array([0.0]), np.array([0.0]), 0.01)
    u, _ = pid.update(np.array([5.0]), np.array([0.0]), 0.01)
    assert u[0] == 0.0                              # a target step gives no derivative kick
    out = []
    for k in range(1, 200):                        # measurement ramps at 1 rad/s
        u, _ = pid.update(np.array([5.0]), np.array([0.01 * k]), 0.01, np.array([0.3]))
        out.append(u[0])
    alpha = 0.01 / (0.05 + 0.01)
    assert out[0] == pytest.approx(-2.0 * alpha + 0.3)       # first-order filter, first step
    assert out[-1] == pytest.approx(-2.0 * 1.0 + 0.3, abs=1e-6)


def test_targets_are_clamped_into_the_limits():
    pid = JointPid([Gains(p=1.0)] * 3, [-1.0, -1.0, -1.0], [1.0, 1.0, 1.0])
    u, clamped = pid.update(np.array([2.0, 0.5, -3.0]), np.zeros(3), 0.01)
    np.testing.assert_allclose(u, [1.0, 0.5, -1.0])
    assert clamped.tolist() == [True, False, True]


def test_back_calculation_default_tracking_time_constant():
    assert tracking_time_constant(Gains(p=2.0, i=4.0)) == pytest.approx(0.5)       # Kp/Ki
    assert tracking_time_constant(Gains(p=2.0, i=4.0, d=1.0)) == pytest.approx(math.sqrt(0.25))
    assert tracking_time_constant(Gains(p=2.0, i=4.0, tracking_time_constant=0.1)) == 0.1
    assert tracking_time_constant(Gains(p=2.0)) == math.inf


def test_one_call_serves_joints_with_different_gains_and_strategies():
    gains = [Gains(p=1.0), Gains(p=3.0, i=1.0, antiwindup_strategy='back_calculation'),
             Gains(p=2.0, u_clamp_max=0.1, u_clamp_min=-0.1)]
    pid = JointPid(gains, [-5.0] * 3, [5.0] * 3)
    singles = [JointPid([g], [-5.0], [5.0]) for g in gains]
    u, _ = pid.update(np.array([1.0, 1.0, 1.0]), np.zeros(3), 0.01)
    np.testing.assert_allclose(u, [1.0, 3.0, 0.1])
    for s in singles:
        s.update(np.ones(1), np.zeros(1), 0.01)
    for k in range(50):
        meas = np.array([0.01 * k, 0.02 * k, 0.005 * k])
        u, _ = pid.update(np.ones(3), meas, 0.01)
        for j, s in enumerate(singles):
            assert u[j] == s.update(np.ones(1), meas[j:j + 1], 0.01)[0][0]


def _reference_update(pid, target, measured, dt, target_velocity):
    """control_toolbox's law written out plainly on copies of ``pid``'s state (the update before
    it skipped work that changes nothing): what JointPid.update must return, bit for bit."""
    from joint_pid_control.pid import BACK_CALCULATION, CONDITIONAL
    tgt = np.clip(target, pid.lower, pid.upper)
    e = tgt - measured
    have = pid._have_prev.copy()
    raw = np.where(have, (measured - pid._prev_meas) / dt, 0.0)
    alpha = dt / (pid.tf + dt)
    d_f = np.where(have, pid.d_filtered + alpha * (raw - pid.d_filtered), 0.0)
    u_unsat = pid.kp * e + pid.i_term - pid.kd * d_f + pid.kff * target_velocity
    u = np.clip(u_unsat, pid.u_min, pid.u_max)
    di = dt * pid.ki * e
    back = dt * np.where(np.isfinite(pid.tt), (u - u_unsat) / pid.tt, 0.0)
    di = np.where((pid.strategy == BACK_CALCULATION) & (pid.ki != 0.0), di + back, di)
    di = np.where((pid.strategy == CONDITIONAL) & (u_unsat != u) & (e * u_unsat > 0.0), 0.0, di)
    di = np.where(np.abs(e) > pid.deadband, di, 0.0)
    return u, d_f, np.clip(pid.i_term + di, pid.i_min, pid.i_max)


def test_update_is_the_plain_law_bit_for_bit():
    """Random gains (every anti-windup strategy, derivative, clamps, deadband), targets beyond
    the limits, saturation, partial resets and changing dt: the update's shortcuts change no
    bit of the commands or the controller state."""
    rng = np.random.default_rng(9)
    for _ in range(40):
        n = int(rng.integers(1, 7))
        gains = [Gains(p=float(rng.uniform(0, 30)), i=float(rng.choice([0.0, rng.uniform(0, 9)])),
                       d=float(rng.choice([0.0, rng.uniform(0, 1)])),
                       u_clamp_max=float(rng.choice([math.inf, 1.0])),
                       u_clamp_min=float(rng.choice([-math.inf, -1.0])),
                       i_clamp_max=float(rng.choice([math.inf, 0.3])),
                       i_clamp_min=float(rng.choice([-math.inf, -0.3])),
                       antiwindup_strategy=str(rng.choice(['none', 'back_calculation',
                                                           'conditional_integration'])),
                       tracking_time_constant=float(rng.choice([0.0, 0.05])),
                       error_deadband=float(rng.choice([1e-16, 0.01])),
                       feedforward_gain=float(rng.choice([0.0, 1.0])),
                       derivative_filter_time_constant=float(rng.choice([0.0, 0.01])))
                 for _ in range(n)]
        pid = JointPid(gains, [-1.0] * n, [1.0] * n)
        for step in range(60):
            if rng.random() < 0.1:
                pid.reset(rng.random(n) < 0.5)
            target, measured = rng.uniform(-1.5, 1.5, n), rng.uniform(-1.2, 1.2, n)
            velocity = rng.uniform(-1, 1, n)
            dt = float(rng.choice([0.01, 0.01, 0.005]))
            u_ref, d_ref, i_ref = _reference_update(pid, target, measured, dt, velocity)
            u, _ = pid.update(target, measured, dt, velocity)
            for got, want in ((u, u_ref), (pid.d_filtered, d_ref), (pid.i_term, i_ref)):
                assert got.tobytes() == want.tobytes()
