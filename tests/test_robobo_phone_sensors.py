"""The simulated Robobo's phone sensors as robobopy 1.5.0 (PyPI, unmodified) reads them from the
app (issue 27): the accelerometer includes gravity in the phone's axes (Android: +9.81 m/s^2 on
the axis pointing up at rest), the orientation's pitch follows the tilt, the batteries report a
level in percent (robobo_api.phone_sensors)."""
from __future__ import annotations

import math
import time

import pytest

from robobo_api.phone_sensors import battery_level, phone_acceleration, phone_orientation

G = 9.81


def test_phone_axes_at_rest():
    up = (0.0, 0.0, G)                          # the base IMU at rest: gravity's reaction, up
    assert phone_acceleration(up, 180, 90) == pytest.approx((0, G, 0), abs=1e-9)  # upright
    assert phone_acceleration(up, 180, 0) == pytest.approx((0, 0, G), abs=1e-9)   # flat
    level = (1.0, 0.0, 0.0, 0.0)
    assert phone_orientation(level, 180, 70)[1] == pytest.approx(-70)  # Android: top raised < 0
    assert phone_orientation(level, 180, 5)[1] == pytest.approx(-5)
    assert phone_orientation(level, 250, 70)[0] == pytest.approx(0)    # yaw: the base's heading
    # forward acceleration of the base shows on the upright phone's z (out of the screen)
    assert phone_acceleration((1.0, 0.0, G), 180, 90) == pytest.approx((0, G, 1.0), abs=1e-9)


def test_battery_drains_over_the_spec_endurance():
    assert battery_level(0) == 100
    assert battery_level(4.5 * 3600) == 50      # half of 9 h (spec 2.4: 8-10 h of use)
    assert battery_level(20 * 3600) == 0


robobopy = pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')

from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import WALL_LIMIT_S, connect  # noqa: E402


def settled(read, want, tol: float) -> tuple:
    """Poll ``read()`` until it is within ``tol`` of ``want`` (or the wall limit)."""
    deadline = time.time() + WALL_LIMIT_S
    while True:
        got = tuple(read())
        if all(abs(g - w) <= tol for g, w in zip(got, want)) or time.time() > deadline:
            return got
        time.sleep(0.1)


def test_robobopy_reads_accel_orientation_battery():
    robot_id = free_robot_id()
    with ServedRun(robot_id, sim_server=False):
        rob = connect(robot_id)
        try:
            def accel():
                a = rob.readAccelerationSensor()
                return a.x, a.y, a.z

            def pitch():
                return (rob.readOrientationSensor().pitch,)

            t = math.radians(70)                # the power-on tilt (spec 4.2)
            assert settled(accel, (0, G * math.sin(t), G * math.cos(t)), 0.3) == \
                pytest.approx((0, G * math.sin(t), G * math.cos(t)), abs=0.3)
            assert settled(pitch, (-70,), 1.5) == pytest.approx((-70,), abs=1.5)
            rob.moveTiltTo(40, 60)
            t = math.radians(40)
            assert settled(pitch, (-40,), 1.5) == pytest.approx((-40,), abs=1.5)
            assert settled(accel, (0, G * math.sin(t), G * math.cos(t)), 0.3) == \
                pytest.approx((0, G * math.sin(t), G * math.cos(t)), abs=0.3)
            assert rob.readBatteryLevel('base') == 100
            assert rob.readBatteryLevel('phone') == 100
        finally:
            rob.disconnect()
