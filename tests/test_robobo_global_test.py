"""The thesis' global test (R22, issue 12 part 7), judged on ground truth: wall contacts from
MuJoCo's contact list after every physics step, the gap and heading to the ball from the base
pose. The ROS example from 5 seeded random start poses (~1.5 s each: the run ends once the
program stops); the robobopy example, over the protocol at real time, from one."""
from __future__ import annotations

import os
import subprocess
import sys
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


def plain_shell_env() -> dict[str, str]:
    """A shell where only robobopy's Python is on PATH: no tools/env.sh, no PYTHONPATH."""
    keep = {k: v for k, v in os.environ.items()
            if k in ('HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'USER')}
    return {**keep, 'PATH': f"{Path(sys.executable).parent}:/usr/bin:/bin"}


def test_robobopy_example_runs_as_its_readme_shows_and_reaches_the_ball():
    """`python src/robobo_api/examples/global_test_robobopy.py --ip 127.0.0.1 --robot-id N`
    (the robobo_api README's command) from the workspace root of a plain shell."""
    pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')
    from zoo_bringup.robobo_served_run import ServedRun, free_robot_id
    robot_id = free_robot_id()
    pose = POSES[1]   # one with an IR wall turn before the ball is seen (ROS run above)
    with ServedRun(robot_id, pose=pose, sim_server=False) as served:
        contacts = WallContacts(served.run.physics, 'robobo').attach()
        done = subprocess.run(
            ['python', 'src/robobo_api/examples/global_test_robobopy.py', '--ip', '127.0.0.1',
             '--robot-id', str(robot_id), '--limit', '60'],
            cwd=WS, env=plain_shell_env(), capture_output=True, text=True, timeout=120)
        time.sleep(1.0)
        served.stop()
        pos, quat = served.run.physics.base_pose('robobo')
        gap, facing = reach(float(pos[0]), float(pos[1]), yaw_of(quat))
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'stopped in front of the ball' in done.stdout
    assert gap <= REACH_GAP and facing <= FACING_DEG, (gap, facing)
    assert contacts.touches == 0
