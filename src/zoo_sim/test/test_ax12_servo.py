"""The AX-12 servo actuator (ax12_servo; specs/snake.md R7-R11): the compliance curve, its MuJoCo
actuators, speed, chatter, 10 Hz goals, quantisation, limits and the torque readout."""
import math
import re

import mujoco
import numpy as np
import pytest

from zoo_sim import SimConfigError
from zoo_sim.ax12_servo import (POSITION_UNIT, Ax12Params, compliance_torque, from_register,
                                to_register)
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec

P = Ax12Params()
U = POSITION_UNIT


def snake(gravity=None, pose=None, **servo) -> MujocoPhysics:
    return MujocoPhysics.create('empty', [RobotSpec(
        'snake', 'snake_description', pose=pose, servo='ax12',
        servo_params={k: str(v) for k, v in servo.items()})], gravity=gravity)


def test_curve_segments():
    """R8 (1): 0 inside the margins, punch at the edge, monotone ramp, the limit beyond."""
    e = np.linspace(-0.5, 0.5, 2001)
    tau = compliance_torque(e, P)
    assert (tau[np.abs(e) <= U] == 0).all()
    assert compliance_torque(1.001 * U, P) == pytest.approx(P.punch_torque, rel=1e-2)
    assert (np.diff(tau) >= -1e-12).all()
    assert compliance_torque(0.3, P) == pytest.approx(P.limit)
    assert compliance_torque(-0.3, P) == pytest.approx(-P.limit)


def test_k_doubles_the_slope():
    """R9: doubling k doubles the ramp's torque per unit error."""
    e1, e2 = 3 * U, 5 * U
    slope = lambda p: (compliance_torque(e2, p) - compliance_torque(e1, p)) / (e2 - e1)  # noqa
    assert slope(Ax12Params(k=4.0)) == pytest.approx(2 * slope(Ax12Params(k=2.0)))


def test_actuators_reproduce_the_curve():
    """The four clamped actuators' sum is compliance_torque (outside the 1-unit punch ramp),
    scaled so that what the gearbox friction leaves at the limit is the limit."""
    ph = snake(gravity=[0, 0, 0], pose=[0, 0, 1, 0, 0, 0])
    m, d, s = ph.model, ph.data, ph.robots['snake'].servos
    for e in [-0.3, -0.05, -3.5 * U, -0.5 * U, 0.0, 0.5 * U, 2.5 * U, 0.02, 0.08, 0.3]:
        s.goal[:] = e + d.qpos[s.qadr]
        s._write_goal()
        mujoco.mj_forward(m, d)
        got = d.actuator_force[s.acts[3]].sum()
        assert got == pytest.approx(float(compliance_torque(e, P)) * s.gain[3], abs=1e-9), e
    assert s.gain[3] * P.limit - s.friction[3] == pytest.approx(P.limit)
    assert s.friction[3] == pytest.approx(0.059)  # snake_description config/snake_model.yaml


def step_response(registers=None, deg=30.0, **servo):
    """A free joint (no gravity, body in the air), its servo's ``registers`` written if given
    (Ax12Servos.set_registers), told to turn ``deg``: its angles over 0.8 s."""
    ph = snake(gravity=[0, 0, 0], pose=[0, 0, 1, 0, 0, 0], **servo)
    r = ph.robots['snake']
    if registers:
        r.servos.set_registers(np.array([15]), **registers)
    ph.servo_goals('snake', np.array([15]), np.array([math.radians(deg)]))
    q = []
    for _ in range(800):
        ph.advance(1)
        q.append(ph.data.qpos[r.qadr[15]])
    return ph, np.array(q)


def peak_speed(ph, q) -> float:
    return float(np.max(np.diff(q)) / ph.model.opt.timestep)


def test_free_joint_moves_at_v_max_without_chatter():
    """R8 (2), (3): a free joint stepping 55 deg reaches V_max (+-5 %; the rotor inertia takes
    ~30 ms to spin it up, so a shorter step stays below) and settles inside the compliance margin
    without a sustained oscillation."""
    ph, q = step_response(deg=55.0)
    assert peak_speed(ph, q) == pytest.approx(P.v_max, rel=0.05)
    tail = q[-300:]
    assert tail.max() - tail.min() < U
    assert abs(tail[-1] - math.radians(55)) < 2 * U   # on the grid, inside margin + one step


def test_moving_speed_register_sets_v_max():
    ph, q = step_response(moving_speed=300, deg=55.0)
    assert peak_speed(ph, q) == pytest.approx(300 * 0.111 * 2 * math.pi / 60, rel=0.05)


def test_goals_are_consumed_at_10_hz():
    """R10: a goal written at any step takes effect at the step that starts at the next 0.1 s
    tick, one update per tick."""
    ph = snake()
    s = ph.robots['snake'].servos
    ph.advance(37)
    before = s.latches
    ph.servo_goals('snake', np.array([3]), np.array([0.2]))
    ph.advance(63)  # steps 37..99: the goal waits in its register
    assert s.goal[3] == 0.0
    ph.advance(1)
    assert s.goal[3] == pytest.approx(from_register(to_register(0.2)))
    assert s.latches == before + 1


@pytest.mark.parametrize('stamp_step, seen_after_step', [
    (100, 103),   # computed for the tick at 0.1 s, arrived 3 steps after it: taken at once
    (99, 103),    # computed just before that tick: the tick would have consumed it
    (101, 201),   # computed after the tick: the step that starts at the next one, as in lockstep
    (0, 201)])    # unstamped: the same
def test_a_stamped_goal_that_missed_its_tick_is_taken_on_arrival(stamp_step, seen_after_step):
    """A goal stamped at or before the last tick but written after it (under real ROS, a command
    that reached the simulator late) is consumed at once, as that tick would have consumed it;
    left for the next tick, the command after it would overwrite it and the servo would never
    see it (a lost 10 Hz goal made a launched lateral roll go 0.21-0.25 m for 0.158)."""
    ph = snake()
    s = ph.robots['snake'].servos
    ph.advance(103)  # 1 ms steps: the tick at step 100 has gone
    before = s.latches
    ph.servo_goals('snake', np.array([3]), np.array([0.2]), stamp_ns=stamp_step * ph.step_ns)
    while ph.steps < seen_after_step:
        assert s.goal[3] == 0.0, ph.steps
        ph.advance(1)
    assert s.goal[3] == pytest.approx(from_register(to_register(0.2)))
    assert s.latches == before + (ph.steps > 103)  # a late goal takes its tick's place


def test_quantised_position_and_clamped_goals():
    """R11 quantisation (1024 steps over 300 deg) and R3 (a goal of 80 deg stays within 60)."""
    ph = snake()
    ph.servo_goals('snake', np.arange(16), np.full(16, math.radians(80)))
    ph.advance(1500)
    q, _, _ = ph.joint_state('snake')
    steps = q / U
    assert np.allclose(steps, np.rint(steps), atol=1e-9)
    assert np.abs(ph.data.qpos[ph.robots['snake'].qadr]).max() <= math.radians(61)


def test_effort_under_gravity_load():
    """R11: the torque readout carries the load: pitch joint 15 lifting the last two modules
    (0.13 kg about 0.07 m from the axis: ~0.09 N m)."""
    ph = snake()
    ph.advance(200)
    ph.servo_goals('snake', np.array([14]), np.array([math.radians(-30)]))
    ph.advance(1000)
    _, _, tau = ph.joint_state('snake')
    assert abs(tau[14]) > 0.03
    assert np.all(np.abs(tau) <= P.max_torque + 1e-9)


def test_a_stalled_servo_reads_its_limit_not_more():
    """Issue 28: the motor's curve is scaled up by the gearbox friction's share; the effort (the
    AX-12's Present Load) still reads the datasheet's 1.5 N m at stall, the effort limit, within
    the back-EMF of a joint that the stop pushes back (1.512; 1.571 without the scaling back)."""
    ph = snake()
    ph.servo_goals('snake', np.arange(16), np.full(16, math.radians(80)))  # every joint to its stop
    ph.advance(1500)
    _, _, tau = ph.joint_state('snake')
    assert np.max(np.abs(tau)) == pytest.approx(P.max_torque, rel=0.01)


def test_bad_settings_are_one_line():
    with pytest.raises(SimConfigError, match="unknown AX-12 setting 'slope'"):
        Ax12Params.from_strings({'slope': '3'}, 'x')
    with pytest.raises(SimConfigError, match='punch 2000 is outside 0..1023'):
        Ax12Params.from_strings({'punch': '2000'}, 'x')
    with pytest.raises(SimConfigError, match="'k:=two' is not a float"):
        Ax12Params.from_strings({'k': 'two'}, 'x')


def test_a_servos_moving_speed_register_caps_its_speed():
    """Issue 27: Moving Speed 50 written to one servo (5.55 rpm, 0.111 rpm per unit): it turns at
    that speed (+-5 %), not at the no-load 59 rpm."""
    ph, q = step_response({"moving_speed": 50})
    v = np.diff(q) / ph.model.opt.timestep
    moving = (q[1:] > math.radians(1)) & (q[1:] < math.radians(4))
    assert np.mean(v[moving]) == pytest.approx(50 * 0.111 * 2 * math.pi / 60, rel=0.05)


@pytest.mark.parametrize('registers', [{'torque_enable': False}, {'torque_limit': 0}])
def test_no_torque_no_motion_and_back_drivable(registers):
    """Torque off or Torque Limit 0: a goal moves nothing, and a small push (0.1 N m, 0.3 s:
    above the gearbox's 0.059 N m friction) turns the joint, where a powered servo holds it
    within a few steps."""
    ph, q = step_response(registers)
    assert abs(q[-1]) < math.radians(0.5)
    held, _ = step_response()
    moved = []
    for physics in (ph, held):
        robot = physics.robots['snake']
        robot.servos.set_goals(np.array([15]), np.array([physics.data.qpos[robot.qadr[15]]]))
        physics.data.qfrc_applied[robot.dadr[15]] = 0.1
        start = physics.data.qpos[robot.qadr[15]]
        for _ in range(300):
            physics.advance(1)
        moved.append(physics.data.qpos[robot.qadr[15]] - start)
    assert moved[0] > math.radians(10) and abs(moved[1]) < 6 * U, moved


def test_a_bad_register_value_is_one_line_and_changes_nothing():
    ph = snake(gravity=[0, 0, 0])
    s = ph.robots['snake'].servos
    with pytest.raises(SimConfigError, match='within 0..1023, got 2000'):
        s.set_registers(np.array([3]), torque_enable=False, moving_speed=2000)
    assert s.torque_enable[3] and s.moving_speed[3] == 0


def test_servo_settings_in_si_are_the_registers():
    """MujocoPhysics.servo_settings (the /<robot>/servo_settings topic): 0.581 rad/s is Moving
    Speed 50, 0 is no cap (register 0), half the torque is Torque Limit 512, torque off is limp."""
    ph = snake(gravity=[0, 0, 0])
    s = ph.robots['snake'].servos
    ph.servo_settings('snake', np.array([2, 3]), np.array([True, False]),
                      np.array([50 * 0.111 * 2 * math.pi / 60, 0.0]), np.array([0.5, 1.0]))
    assert s.moving_speed[[2, 3]].tolist() == [50, 0]
    assert s.torque_limit[[2, 3]].tolist() == [512, 1023]
    assert s.torque_enable[[2, 3]].tolist() == [True, False]
    assert s.damping[3] == 0.0  # limp: no back-EMF either


@pytest.mark.parametrize('speed,torque,words', [
    (-1.0, 1.0, 'speed_limit: expected rad/s >= 0'),
    (float('nan'), 1.0, 'speed_limit: expected rad/s >= 0'),
    (0.0, 1.5, 'torque_limit: expected a fraction 0..1, got [1.5]'),
])
def test_bad_servo_settings_are_one_line_and_change_nothing(speed, torque, words):
    ph = snake(gravity=[0, 0, 0])
    s = ph.robots['snake'].servos
    with pytest.raises(SimConfigError, match=re.escape(words)):
        ph.servo_settings('snake', np.array([3]), np.array([False]), np.array([speed]),
                          np.array([torque]))
    assert s.torque_enable[3] and s.moving_speed[3] == 0 and s.torque_limit[3] == 1023
