"""PD + feed-forward joint commands (Unitree's MotorCmd shape), evaluated at every physics step:
tau = kp (q_d - q) + kd (dq_d - dq) + tau_ff, clamped to the effort limit. Checked on recorded
joint states of the Go1 hanging in the air (fixed base), at the 0.5 ms step its gains need."""
from __future__ import annotations

import numpy as np
import pytest

from zoo_runtime import rclpy
from zoo_runtime.embedded import executors, parameter
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec
from zoo_sim.sim_node import Simulator

STAND = np.tile([0.0, 0.67, -1.3], 4)         # spec go1.md 2.2, Unitree's stand pose
KP = np.tile([100.0, 300.0, 300.0], 4)        # go1_description robot_control.yaml (spec 2.4)
KD = np.tile([5.0, 8.0, 8.0], 4)
N = 12


def go1(step: float = 0.0005) -> MujocoPhysics:
    return MujocoPhysics.create('empty', [RobotSpec('go1', package='go1_description',
                                                    pose=(0, 0, 0.8, 0, 0, 0), fixed_base=True)],
                                step=step)


def run(ph: MujocoPhysics, seconds: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    qs, dqs, taus = [], [], []
    for _ in range(round(seconds / ph.model.opt.timestep)):
        ph.advance(1)
        q, dq, tau = ph.joint_state('go1')
        qs.append(q.copy()), dqs.append(dq.copy()), taus.append(tau.copy())
    return np.array(qs), np.array(dqs), np.array(taus)


def test_pd_settles_where_the_gains_balance_gravity():
    ph = go1()
    assert ph.pd_commands('go1', np.arange(N), STAND, np.zeros(N), KP, KD, np.zeros(N)) == N
    q, dq, tau = run(ph, 1.5)
    assert np.abs(dq[-1]).max() < 1e-4                       # at rest
    # the torque the joint states report is the PD law's, and it holds the legs up
    np.testing.assert_allclose(tau[-1], KP * (STAND - q[-1]), atol=1e-6)
    assert np.abs(tau[-1]).max() > 0.1 and np.abs(STAND - q[-1]).max() < 0.01


def test_feed_forward_and_target_velocity_are_in_the_law():
    """kp = 0: kd (dq_d - dq) + tau_ff drives the joint at the speed where they balance."""
    ph = go1()
    j = np.array([0])  # FL hip: its axis is horizontal, so gravity acts on it; tau_ff cancels
    ph.pd_commands('go1', np.arange(N), STAND, np.zeros(N), KP, KD, np.zeros(N))
    run(ph, 1.0)
    hold = ph.joint_state('go1')[2][0]
    ph.pd_commands('go1', j, [0.0], [0.5], [0.0], [5.0], [hold])
    _, dq, _ = run(ph, 0.2)
    assert dq[-1, 0] == pytest.approx(0.5, abs=0.02)


def test_torque_never_beats_the_effort_limit():
    ph = go1()
    far = STAND + np.tile([0.5, 1.0, 1.0], 4)
    ph.pd_commands('go1', np.arange(N), far, np.zeros(N), KP * 10, KD, np.full(N, 30.0))
    _, _, tau = run(ph, 0.3)
    limit = ph.robots['go1'].effort_limit
    assert (np.abs(tau) <= limit + 1e-9).all()
    assert (np.abs(tau).max(0) >= limit - 1e-9).all()  # and they reach it


def test_bad_pd_commands_are_rejected_or_clamped():
    ph = go1()
    r = ph.robots['go1']
    applied = ph.pd_commands('go1', np.arange(3), [np.nan, 0.7, 10.0], [0, 0, 0],
                             [100, -1, 100], [1, 1, 1], [0, 0, 0])
    assert applied == 1 and r.sanitizer.rejected == 2 and r.sanitizer.clamped == 1
    warning = ' '.join(ph.command_warnings(0))
    assert 'FL_hip_joint pd' in warning and 'FL_calf_joint position 10 clamped' in warning


def test_clean_commands_pass_the_one_pass_check_unchanged_and_the_rest_are_still_named():
    """The sanitiser's one-pass check of a clean command (what a walk sends at 250 Hz) returns
    exactly the fields, and per set of joints its own bounds: the same values at the hip, where
    they are clean, and at the calf, where 1.0 rad is beyond the range, are told apart."""
    from zoo_sim.commands import CommandSanitizer
    ph = go1()
    r = ph.robots['go1']
    san = CommandSanitizer('go1', r.joints, r.vel_limit, r.effort_limit)
    lo, hi = r.motors.lower, r.motors.upper
    q, dq, kp, kd, tau = [0.5, 0.2], [1.0, -1.0], [10.0, 0.0], [0.5, 0.0], [1.0, -2.0]
    hips = np.array([0, 3])
    out = san.pd(hips, q, dq, kp, kd, tau, lo, hi)
    assert [np.asarray(f).tolist() for f in out[1:]] == [q, dq, kp, kd, tau]
    assert np.array_equal(out[0], hips) and san.clamped == san.rejected == 0
    calves = np.array([2, 5])                                   # upper limits -0.888 (go1.md)
    out = san.pd(calves, [1.0, 1.0], dq, kp, kd, tau, lo, hi)
    assert out[1].tolist() == hi[calves].tolist() and san.clamped == 2
    out = san.pd(hips, q, dq, kp, kd, [1e3, -2.0], lo, hi)      # beyond the effort limit
    assert out[5][0] == r.effort_limit[0] and san.clamped == 3
    out = san.pd(hips, q, [np.inf, -1.0], kp, kd, tau, lo, hi)  # rejected whole, the other kept
    assert out[0].tolist() == [3] and san.rejected == 1


def test_pd_joints_rows_are_out_while_the_others_hold_by_velocity():
    """A PD joint's motor row has bound 0 (MuJoCo leaves it out) and imposes 0; the velocity
    joints' rows keep their force and targets; an effort command brings back the per-call
    bounds (its own force bound), and velocity mode restores everything."""
    ph = go1()
    m, mo = ph.model, ph.robots['go1'].motors
    ph.pd_commands('go1', np.arange(3), STAND[:3], np.zeros(3), KP[:3], KD[:3], np.zeros(3))
    ph.commands('go1', np.arange(3, N), 'velocity', np.full(N - 3, 0.1))
    run(ph, 0.01)
    bounds = m.tendon_frictionloss[mo._friction]
    assert (bounds[:3] == 0).all() and (bounds[3:] == mo.force[3:]).all()
    assert (mo.imposed[:3] == 0).all() and mo.imposed[3:] == pytest.approx(0.1, abs=0.02)
    ph.commands('go1', np.array([3]), 'effort', np.array([2.0]))
    run(ph, 0.01)
    assert m.tendon_frictionloss[mo._friction][3] == pytest.approx(2.0)
    ph.commands('go1', np.arange(N), 'velocity', np.zeros(N))
    run(ph, 0.01)
    assert (m.tendon_frictionloss[mo._friction] == mo.force).all()


def test_unstable_gains_are_named_once():
    """Twice the shipped kd at 1 ms: kd h / I is 1.08 on the calves (0.54 at the shipped kd, with
    the rotor inertia; 1.4 without it), 0.59 on the thighs."""
    ph = go1(step=0.001)
    ph.pd_commands('go1', np.arange(N), STAND, np.zeros(N), KP, 2 * KD, np.zeros(N))
    warnings = ph.command_warnings(0)
    assert len(warnings) == 4 and all('calf' in w and 'use a physics step' in w for w in warnings)
    ph.pd_commands('go1', np.arange(N), STAND, np.zeros(N), KP, 2 * KD, np.zeros(N))
    assert ph.command_warnings(0) == []
    assert go1().command_warnings(0) == []  # 0.5 ms: stable


@pytest.mark.parametrize('first', ['pd', 'effort'])
def test_velocity_mode_after_another_holds(first):
    """Back in velocity mode every joint's motor holds again (after effort commands the rows
    used to keep the effort's bound, 0 here: the legs fell 0.83 rad) and no PD torque remains.
    (After 0.2 s of effort 0 the thighs, with their rotors, take 1.1 mrad to brake.)"""
    ph = go1()
    if first == 'pd':
        ph.pd_commands('go1', np.arange(N), STAND, np.zeros(N), KP, KD, np.zeros(N))
    else:
        ph.commands('go1', np.arange(N), 'effort', np.zeros(N))
    run(ph, 0.2)
    ph.commands('go1', np.arange(N), 'velocity', np.zeros(N))
    q0 = ph.joint_state('go1')[0].copy()
    q, _, _ = run(ph, 0.5)
    assert np.abs(q[-1] - q0).max() < 2e-3


def test_joint_pd_commands_topic():
    ctx = rclpy.context.Context()
    rclpy.init(args=[], context=ctx)
    ex = executors.LockstepExecutor(context=ctx, step_ns=500_000)
    params = {'world': 'empty', 'robot_names': ['go1'], 'robots.go1.package': 'go1_description',
              'robots.go1.pose': [0.0, 0.0, 0.8, 0.0, 0.0, 0.0], 'robots.go1.fixed_base': True,
              'use_sim_time': True, 'physics_step': 0.0005}
    sim = Simulator(context=ctx, parameter_overrides=[parameter.Parameter(k, value=v)
                                                      for k, v in params.items()])
    node = rclpy.node.Node('tracker', context=ctx)
    pub = node.create_publisher(JointPDCommand, '/go1/joint_pd_commands', 10)
    ex.add_node(sim), ex.add_node(node)
    ex.set_physics(sim.lockstep_physics)
    try:
        pub.publish(JointPDCommand(name=sim.physics.robots['go1'].joints, position=STAND.tolist(),
                                   velocity=[0.0] * N, effort=[0.0] * N, kp=KP.tolist(),
                                   kd=KD.tolist()))
        pub.publish(JointPDCommand(name=['FL_hip_joint'], position=[0.0], velocity=[],
                                   effort=[], kp=[], kd=[]))  # malformed: dropped whole
        ex.spin_until(1_000_000_000)
        q = sim.physics.joint_state('go1')[0]
        assert np.abs(q - STAND).max() < 0.01
    finally:
        sim.destroy_node(), node.destroy_node(), ex.shutdown(), ctx.try_shutdown()
