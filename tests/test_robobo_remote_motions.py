"""The Robobo's blocking moves over the Remote Access Protocol end as on the real robot (issue 27):
robobopy 1.5.0 (PyPI, unmodified) waits for each UNLOCK with no timeout of its own, so a move that
cannot reach its target must still end and send it. Judged on the simulator's ground truth."""
from __future__ import annotations

import math
import threading

import pytest

pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')

from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import FACING_BALL, R, ServedTruth, connect  # noqa: E402

BACKED_TO_WALL = (-0.27, 0.0, 0.0)   # facing east, the back against the west wall


def returns_within(call, wall_s: float) -> bool:
    done = threading.Event()
    threading.Thread(target=lambda: (call(), done.set()), daemon=True).start()
    return done.wait(wall_s)


def test_a_blocked_tilt_ends_with_its_unlock_and_the_next_tilt_reaches_its_target():
    robot_id = free_robot_id()
    with ServedRun(robot_id, pose=BACKED_TO_WALL, sim_server=False) as served:
        truth, rob = ServedTruth(served), connect(robot_id)
        try:
            assert returns_within(lambda: rob.moveTiltTo(30, 50), 15.0), \
                'moveTiltTo(30, 50) against the wall never returned (no UNLOCK-TILT)'
            blocked_at = truth.joint_deg('tilt_motor')
            assert blocked_at == pytest.approx(42, abs=2.0)   # the phone meets the wall
            assert returns_within(lambda: rob.moveTiltTo(70, 50), 15.0)
            assert truth.joint_deg('tilt_motor') == pytest.approx(70, abs=1.0)
        finally:
            rob.disconnect()


def test_move_wheels_by_degrees_turns_the_wheels_by_that_angle():
    """robobopy's moveWheelsByDegrees (the app's MOVEBY-DEGREES): the named wheel(s) turn by the
    angle, the other stands, and the call returns when they got there (UNLOCK-MOVE)."""
    from robobopy.utils.Wheels import Wheels
    from robobo_api.api_node import JOINTS
    from robobo_api.motor_laws import WHEEL_PRESETS, cubic_ab
    robot_id = free_robot_id()
    with ServedRun(robot_id, pose=FACING_BALL, sim_server=False) as served:
        truth, rob = ServedTruth(served), connect(robot_id)
        wheel = lambda name: truth.api.degrees(JOINTS.index(name))  # noqa: E731
        try:
            x0, y0, _ = truth.pose()
            left0, right0, t0 = wheel('left_motor'), wheel('right_motor'), truth.sim_time()
            assert returns_within(lambda: rob.moveWheelsByDegrees(Wheels.BOTH, 360, 30), 15.0)
            took = truth.sim_time() - t0
            assert wheel('left_motor') - left0 == pytest.approx(360, abs=1.0)
            assert wheel('right_motor') - right0 == pytest.approx(360, abs=1.0)
            x1, y1, _ = truth.pose()
            assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(math.radians(360) * R, rel=0.03)
            a, b = cubic_ab(WHEEL_PRESETS['thesis'], 30)   # the law's time for 360 deg
            assert took == pytest.approx((360 - b) / a, abs=0.3)
            left0, right0 = wheel('left_motor'), wheel('right_motor')
            assert returns_within(lambda: rob.moveWheelsByDegrees(Wheels.L, 180, -20), 15.0)
            assert wheel('left_motor') - left0 == pytest.approx(-180, abs=1.0)
            assert wheel('right_motor') - right0 == pytest.approx(0, abs=1.0)
        finally:
            rob.disconnect()
