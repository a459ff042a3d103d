"""The calibrated laws against the spec's own unit values (specs/robobo.md 4.1, 4.2, R12)."""
import math

import numpy as np
import pytest

from robobo_api.motor_laws import (PAN_PRESETS, TILT_PRESETS, WHEEL_PRESETS, WheelMotor,
                                   pan_tilt_omega, pan_tilt_time, wheel_angle_deg, wheel_omega)


@pytest.mark.parametrize('p, t, omega', [(90, 1, 9.292), (2, 1, 0.741), (10, 3, 1.814),
                                         (60, 3, 7.352), (2, 3, 0.993), (10, 1, 1.414),
                                         (60, 1, 6.671), (90, 3, 10.420)])
def test_wheel_omega_is_table_8(p, t, omega):  # R12: +-0.5 %
    assert wheel_omega(p, t) == pytest.approx(omega, rel=0.005)
    assert wheel_omega(-p, t) == pytest.approx(-omega, rel=0.005)


def test_wheel_rules():
    assert wheel_omega(0, 1) == 0.0
    assert wheel_omega(250, 1) == wheel_omega(100, 1)      # clamped to [-100, 100]
    assert wheel_angle_deg(60, 3) == pytest.approx(1263.8, abs=0.1)  # R10
    with pytest.raises(ValueError, match='positive'):
        wheel_omega(50, 0)
    with pytest.raises(ValueError, match='positive'):
        wheel_omega(50, -1)


@pytest.mark.parametrize('speed, pan, tilt', [(2, (4.77, 9.38), (10.00, 20.88)),
                                              (6, (3.60, 6.99), (7.22, 14.75)),
                                              (10, (2.91, 5.57), (5.76, 11.58)),
                                              (30, (1.53, 2.78), (3.09, 5.99)),
                                              (60, (1.00, 1.68), (1.94, 3.76)),
                                              (80, (0.89, 1.42), (1.71, 3.20))])
def test_pan_tilt_times_are_spec_table(speed, pan, tilt):
    for deg, t_pan, t_tilt in zip((45, 90), pan, tilt):
        assert pan_tilt_time(deg, speed, PAN_PRESETS['thesis']) == pytest.approx(t_pan, abs=0.006)
        assert pan_tilt_time(deg, speed, TILT_PRESETS['thesis']) == pytest.approx(t_tilt, abs=0.006)
        omega = pan_tilt_omega(deg, speed, PAN_PRESETS['thesis'])
        assert math.radians(deg) / omega == pytest.approx(t_pan, abs=0.006)


def test_presets_differ_and_exist():
    assert set(WHEEL_PRESETS) == {'thesis', 'code', 'mint'}
    assert wheel_omega(60, 3, WHEEL_PRESETS['code']) == pytest.approx(7.352, rel=0.005)


def run_timed_move(motor, omega, start_s, move_s, stamps):
    """A timed move through ``motor`` as the node runs it: requested at ``start_s``, stepped at
    the sim times ``stamps`` (each command holds until the next, as the simulator waits for it),
    ended at the first step past its due time, run until it settles; the angle the held commands
    turned (rad per wheel), and every command of wheel 0."""
    angle, commands, started, ended = [0.0, 0.0], [], False, False
    for now, after in zip(stamps, stamps[1:]):
        if not started and now >= start_s:
            motor.set_target([omega, -omega], start_s)
            started = True
        if started and not ended and now >= start_s + move_s:
            motor.set_target([0.0, 0.0], start_s + move_s)
            ended = True
        command = motor.step(now, after - now)
        commands.append(command[0])
        angle = [a + c * (after - now) for a, c in zip(angle, command)]
        if ended and motor.settled:
            return angle, commands
    raise AssertionError('the motor never settled')


def test_wheel_motor_lags_first_order_and_turns_the_laws_angle():
    """R12's optional motor: the speed follows the law's with exp(-t/tau); a timed move run
    through it (start, then stop once the time is up) turns the wheel by the law's angle."""
    tau, omega, period = 0.1, wheel_omega(60, 1), 0.01   # a 1 s move, 100 Hz steps
    motor = WheelMotor(tau)
    motor.set_target([omega, -omega], 0.0)
    for k in range(1, 11):
        motor.step(k * period, period)
    assert motor.speed[0] == pytest.approx(omega * (1 - math.exp(-1)), rel=1e-9)  # 0.1 s: 63 %
    motor.reset()
    angle, _ = run_timed_move(motor, omega, 0.0, 1.0, [k * period for k in range(500)])
    assert motor.speed == [0.0, 0.0]
    assert angle == pytest.approx([omega * 1.0, -omega * 1.0], abs=WheelMotor.SETTLED_RAD_S * tau)
    motor.reset()
    assert motor.target == motor.speed == [0.0, 0.0]
    with pytest.raises(ValueError, match='time constant: expected > 0 s, got 0'):
        WheelMotor(0.0)


def test_wheel_motor_turns_the_laws_angle_however_its_steps_fall():
    """In CI robobopy's moveWheelsByTime(30, 30, 1.5) turned 301-341 deg for the law's 318 under
    real ROS: the move started when its request came and ended when a late timer fired. With the
    request between two steps, the end due between two others and steps 10-50 ms apart, the
    motor still turns the law's angle (what the held commands missed is made up), and no command
    goes past the law's speed or backwards (nothing skids)."""
    tau, omega = 0.1, wheel_omega(30, 1.5)
    rng = np.random.default_rng(7)
    stamps = list(np.cumsum(rng.choice([0.01, 0.01, 0.02, 0.05], size=400)))
    angle, commands = run_timed_move(WheelMotor(tau), omega, 0.1234, 1.5, stamps)
    assert angle == pytest.approx([omega * 1.5, -omega * 1.5], abs=WheelMotor.SETTLED_RAD_S * tau)
    assert 0.0 <= min(commands) and max(commands) <= omega


@pytest.mark.parametrize('name', ['pan', 'tilt'])
def test_robot_presets_are_the_fit_to_the_real_robot(name):
    """The default pan/tilt coefficients are pan_tilt_fit's on the real times (issue 28), within
    a few percent of every real cell, and every move of >= 1 degree at any speed takes a
    positive time (B(0) = 0)."""
    from robobo_api import real_robot
    from robobo_api.pan_tilt_fit import fit_law
    times = real_robot.PAN_S if name == 'pan' else real_robot.TILT_S
    preset = (PAN_PRESETS if name == 'pan' else TILT_PRESETS)['robot']
    assert fit_law(times) == pytest.approx(preset, rel=1e-5, abs=1e-12)
    for speed, real in times.items():
        for deg, t in zip((45, 90), real):
            assert pan_tilt_time(deg, speed, preset) == pytest.approx(t, rel=0.036)
    for speed in range(1, 101):
        assert pan_tilt_time(1, speed, preset) > 0
