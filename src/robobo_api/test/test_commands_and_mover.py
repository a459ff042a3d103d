"""Command validation (R6, R16, spec 10 #7-#11) and pan/tilt position control, no ROS."""
import math

import pytest

from robobo_api import commands
from robobo_api.axis_mover import AxisMover
from robobo_api.motor_laws import PAN_PRESETS, TILT_PRESETS


def test_wheels_command_rules():
    cmd, err = commands.wheels(150, -150, 1000, 3)
    assert err is None and (cmd.lspeed, cmd.rspeed, cmd.time_s) == (100, -100, 1.0)
    for bad in (0, -5):
        cmd, err = commands.wheels(10, 10, bad, 0)
        assert cmd is None and 'time must be > 0 ms' in err
    assert 'finite' in commands.wheels(float('nan'), 0, 10, 0)[1]
    assert 'unlockid' in commands.wheels(10, 10, 10, 0, strict_unlock=True)[1]


@pytest.mark.parametrize('name, target', [('pan', 5), ('pan', 345), ('tilt', 4), ('tilt', 120)])
def test_out_of_range_targets_refused(name, target):  # R6
    cmd, err = commands.axis(name, target, 50, 0, current_deg=100)
    assert cmd is None and 'outside' in err


def test_axis_speed_rules():  # R16
    assert commands.axis('pan', 90, 150, 0, 180)[0].speed == 100
    assert commands.axis('pan', 90, -1, 0, 180)[0].speed is None   # negative: no move
    assert commands.axis('pan', 180, 50, 0, 180)[0].speed is None  # already there


def test_mover_lands_on_target_in_formula_time():
    mover = AxisMover(PAN_PRESETS['thesis'])
    q, t, dt = 180.0, 0.0, 0.01
    v = mover.start(q, 90, 30, 0.0)
    while True:
        q += v * 57.29577951308232 * dt
        t += dt
        v, finished = mover.update(q, dt)
        if finished:
            break
    assert q == pytest.approx(90, abs=0.25) and t == pytest.approx(2.78, abs=0.02)
    v, _ = mover.update(89.0, dt)  # idle: servo back to the hold angle
    assert v > 0


def test_mover_ends_a_stalled_move_and_holds_where_it_stopped():
    """The phone blocked at 42 deg on its way from 70 to 30 (issue 27): the move ends."""
    mover = AxisMover(TILT_PRESETS['thesis'])
    q, t, dt = 70.0, 0.0, 0.01
    v = mover.start(q, 30, 50, 0.0)
    finished = False
    while not finished and t < 5.0:
        q = max(42.0, q + v * 57.29577951308232 * dt)   # a wall at 42 deg
        t += dt
        v, finished = mover.update(q, dt)
    # the app's rule: blocked once 1 deg of progress has not come for 2.25 s
    assert finished and mover.stalled
    assert t == pytest.approx(28.0 / mover.omega_deg + 2.25, abs=0.05)
    assert mover.hold_deg == pytest.approx(42.0) and not mover.moving


def test_mover_times_out_when_progress_is_too_slow_to_call_a_stall():
    mover = AxisMover(TILT_PRESETS['thesis'])
    q, t, dt = 70.0, 0.0, 0.01
    v = mover.start(q, 30, 50, 0.0)
    finished = False
    while not finished and t < 30.0:
        q += 0.3 * v * 57.29577951308232 * dt   # a third of the speed: never a stall
        t += dt
        v, finished = mover.update(q, dt)
    planned = 40.0 / mover.omega_deg
    assert finished and mover.stalled
    assert t == pytest.approx(2 * planned + 0.5, abs=0.02)


def test_wheels_by_degrees_rules():
    cmd, _ = commands.wheels_by_degrees('left', -90, 150, 3)
    assert (cmd.wheels, cmd.degrees, cmd.speed) == ((0,), 90.0, 100.0)  # |degrees|, clamped
    assert commands.wheels_by_degrees('both', 90, -20, 3)[0].wheels == (0, 1)
    for bad in (('front', 90, 20), ('left', 0, 20), ('left', 90, 0), ('left', math.nan, 20)):
        assert commands.wheels_by_degrees(*bad, 1)[0] is None


def test_a_move_by_degrees_lasts_as_long_as_the_timed_move_of_that_angle():
    from robobo_api.motor_laws import wheel_angle_deg, wheel_degrees_omega
    omega = wheel_degrees_omega(30, 360)
    t = 360 / omega
    assert wheel_angle_deg(30, t) == pytest.approx(360)
