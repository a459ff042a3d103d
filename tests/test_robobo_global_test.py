"""The thesis' global test (R22, issue 12 part 7), judged on ground truth: wall contacts from
MuJoCo's contact list after every physics step, the gap and heading to the ball from the base
pose. The ROS example from 5 seeded random start poses (~1.5 s each: the run ends once the
program stops); the robobopy example, over the protocol at real time, from one."""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

from zoo_bringup.robobo_global_test_check import run_once, start_poses
from robobo_api.global_test_judge import FACING_DEG, REACH_GAP, WallContacts, reach, yaw_of

WS = Path(__file__).resolve().parents[1]
POSES = start_poses(5, seed=12)


def test_ros_example_reaches_the_ball_without_touching_a_wall():
    results = [run_once(pose) for pose in POSES]
    for r in results:
        assert r['reached'], r
        assert r['wall_touches'] == 0 and r['wall_contact_steps'] == 0, r
        assert r['done_at_s'] < 120.0, r
    assert sum(r['wall_turns'] for r in results) >= 2  # the IR avoidance was exercised


def test_robobopy_example_reaches_the_ball_without_touching_a_wall():
    pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')
    from zoo_bringup.robobo_served_run import ServedRun, free_robot_id
    spec = importlib.util.spec_from_file_location(
        'global_test_robobopy', WS / 'src/robobo_api/examples/global_test_robobopy.py')
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    robot_id = free_robot_id()
    pose = POSES[1]   # one with an IR wall turn before the ball is seen (ROS run above)
    with ServedRun(robot_id, pose=pose, sim_server=False) as served:
        contacts = WallContacts(served.run.physics, 'robobo').attach()
        reached = example.run('127.0.0.1', robot_id, limit_s=60.0)
        time.sleep(1.0)
        served.stop()
        pos, quat = served.run.physics.base_pose('robobo')
        gap, facing = reach(float(pos[0]), float(pos[1]), yaw_of(quat))
    assert reached
    assert gap <= REACH_GAP and facing <= FACING_DEG, (gap, facing)
    assert contacts.touches == 0
