"""The Robobo's blocking moves over the Remote Access Protocol end as on the real robot (issue 27):
robobopy 1.5.0 (PyPI, unmodified) waits for each UNLOCK with no timeout of its own, so a move that
cannot reach its target must still end and send it. Judged on the simulator's ground truth."""
from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')

from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import ServedTruth, connect  # noqa: E402

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
