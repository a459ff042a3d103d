"""The Go1 gravity study's scenarios as a user runs them (issue 11): `bin/robozoo run
go1_trot_<gravity> --output DIR` plans the thesis task (spec go1.md §5.7) under that gravity, tracks
it in the simulator with PD + feed-forward joint commands at 500 Hz, and writes DIR/plan.npz and
DIR/summary.json. Checked on what the run recorded: the plan's status, the plan's gravity
against the simulator's (R5.1: the scenarios write g once, for the world; the tracker reads it
from /sim/gravity), falls, the distance to the goal and the joint tracking error (R5.5).
The scenarios track with base feedback and the plan's own swings (trajectory_optimizer README,
"Tracking")."""
from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

WS = Path(__file__).resolve().parents[1]
GRAVITIES = {'earth': 9.80665, 'intermediate': 6.76388, 'mars': 3.72111}  # spec §6.1
# what tracking reaches today (issue 11 asks for all three): the others are strict xfails.
# Within 0.15 m of the goal, without falling:
REACHES_GOAL = {'earth': True, 'intermediate': True, 'mars': True}
# Joint RMS error against the plan's joint angles <= 0.05 rad (R5.5): 0.032-0.041 rad since the
# plan's swings lift before they move and are tracked as planned (swing_warp 0), with the PD
# targets 10 ms ahead and the stance forces and planted feet of issue 28 (README, "Tracking").
TRACKS_PLAN_JOINTS = {'earth': True, 'intermediate': True, 'mars': True}


@pytest.fixture(scope='module')
def runs(tmp_path_factory) -> dict[str, tuple[dict, Path]]:
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}

    def one(name: str):
        out = tmp_path_factory.mktemp(name) / 'run'
        r = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', f'go1_trot_{name}', '--quiet',
                            '--output', str(out)], env=env, capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == 0, r.stderr[-2000:]
        return name, (json.loads((out / 'summary.json').read_text()), out)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(one, GRAVITIES))


@pytest.mark.parametrize('name', list(GRAVITIES))
def test_plan_is_solved_and_written(runs, name):
    summary, out = runs[name]
    tracker = summary['metrics']['plan_tracker']
    assert tracker['plan_success'] and tracker['plan_status'] == 'Solve_Succeeded'
    with np.load(out / 'plan.npz') as plan:
        assert float(plan['gravity']) == GRAVITIES[name]
        assert plan['foot_force'].shape[1:] == (4, 3)
    assert 'plan.npz' in summary['files']


@pytest.mark.parametrize('name', list(GRAVITIES))
def test_plan_gravity_is_the_worlds(runs, name):
    """The tracker has no gravity of its own in these scenarios: it planned under the world's."""
    summary, _ = runs[name]
    assert summary['metrics']['sim']['gravity'] == pytest.approx([0.0, 0.0, -GRAVITIES[name]])
    assert summary['metrics']['plan_tracker']['gravity'] == GRAVITIES[name]
    assert summary['metrics']['sim']['backend'] == 'mujoco'


@pytest.mark.parametrize('name', list(GRAVITIES))
def test_tracked_trot_reaches_the_goal_without_falling(runs, name, request):
    if not REACHES_GOAL[name]:
        request.applymarker(pytest.mark.xfail(strict=True, reason='tracking misses the goal '
                                              '(issue 11, open): see trajectory_optimizer README'))
    summary, _ = runs[name]
    tracker, robot = summary['metrics']['plan_tracker'], summary['robots']['go1']
    assert tracker['base_feedback']
    assert not robot['fell']
    assert tracker['distance_to_goal_m'] <= 0.15
    assert tracker['tracked_samples'] >= 1500  # joint states at 500 Hz over the 3.2 s plan


@pytest.mark.parametrize('name', list(GRAVITIES))
def test_joints_track_the_plan_within_r5_5(runs, name, request):
    if not TRACKS_PLAN_JOINTS[name]:
        request.applymarker(pytest.mark.xfail(strict=True, reason='joint RMS error above '
                                              '0.05 rad against the plan '
                                              '(issue 11, open): see trajectory_optimizer README'))
    summary, _ = runs[name]
    tracker = summary['metrics']['plan_tracker']
    assert not summary['robots']['go1']['fell']
    assert tracker['swing_warp'] == 0.0  # the commanded swings are the plan's
    assert tracker['joint_rms_error_rad'] <= 0.05
