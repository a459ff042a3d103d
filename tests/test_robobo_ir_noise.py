"""The Robobo's IR noise (issue 27), through robobopy 1.5.0 (PyPI, unmodified): a robot standing
still 10 cm from a wall reads different values from one status to the next (the description's
Gaussian range noise, robobo_description README "IR noise"), and two runs with the same seed send
the very same IRS statuses (the noise is drawn from the scenario's seeded generator)."""
from __future__ import annotations

import pytest

pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')

from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import ServedTruth, recording_connect, wait_sim  # noqa: E402

WALL_X = 0.40          # the arena's inner wall face (worlds/robobo_arena.sdf: walls at +-0.405)
FRONT_C_X = 0.0534     # front_c ahead of the wheel axle (robobo_api README, "Global test")
FACING_WALL = (WALL_X - FRONT_C_X - 0.10, -0.2, 0.0)   # front_c 10 cm from the wall
UNTIL_S = 5.0          # sim time to record up to


def served_irs() -> tuple[list[dict], list[int], float]:
    """IRS statuses a robobopy client receives until UNTIL_S, Front-C as read by robobopy's
    readIRSensor every 0.2 s, and how far the base moved meanwhile (m)."""
    from robobopy.utils.IR import IR
    robot_id = free_robot_id()
    with ServedRun(robot_id, pose=FACING_WALL, sim_server=False) as served:
        truth = ServedTruth(served)
        rob, frames = recording_connect(robot_id, truth)
        start = truth.pose()
        reads = []
        while truth.sim_time() < UNTIL_S:
            reads.append(rob.readIRSensor(IR.FrontC))
            wait_sim(truth, 0.2)
        moved = max(abs(a - b) for a, b in zip(truth.pose()[:2], start[:2]))
        rob.disconnect()
    irs = [f['value'] for _t, f in frames if f.get('name') == 'IRS']
    return irs, reads, moved


def test_a_still_robot_reads_noisy_and_seeded_irs():
    irs_a, reads, moved = served_irs()
    assert moved < 1e-4, moved                              # it stood still
    assert len(set(reads)) >= 3, reads                      # readings differ (main: one value)
    front_c = [int(v['Front-C']) for v in irs_a]
    assert len(irs_a) >= 10 and 80 < min(front_c) and max(front_c) < 160, front_c

    irs_b, _reads, _moved = served_irs()                    # the same scenario and seed again
    # each client connects at its own sim time; from the second status on both are the sequence
    # the seeded simulation sends every 0.1 s, so the later one continues inside the earlier one
    first, later = sorted((irs_a[1:], irs_b[1:]), key=len, reverse=True)
    assert later[0] in first, (first, later)
    at = first.index(later[0])
    overlap = min(len(later), len(first) - at)
    assert overlap >= 10 and first[at:at + overlap] == later[:overlap], (first, later)
