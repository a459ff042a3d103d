"""Issue 24 item 2b: every scenario started with the real `ros2 launch zoo_bringup <s>.launch.py`
(MuJoCo physics in the simulator node, real rclpy, rmw_cyclonedds_cpp, localhost discovery, a
domain of its own) runs a few simulated seconds with the same outcome as the embedded run of the
same scenario, `ros2 node list` shows every node of the scenario, and Ctrl-C stops it cleanly.

The outcome is the simulator's metrics observer (/<robot>/metrics under ROS, summary.json's robots
embedded) at the same sim time: the base's displacement and whether the robot fell. Under ROS the
controllers run in their own processes and their commands reach the motors a step or two later than
in lockstep, so walks and trots agree within the tolerances below, not bitwise; the simulator holds
sim time at 0 until every node is ready, so both worlds start their controllers at t = 0."""
from __future__ import annotations

import json
import math
import os
import subprocess

import pytest

from conftest import WS, ros2
from launched import LaunchedScenario
from zoo_bringup.scenario import list_scenarios

# scenario family -> (sim seconds, absolute tolerance m, relative tolerance) on the displacement
FAMILIES = {
    'stand': (3.0, 0.001, 0.0),      # at rest both: drift within a millimetre
    'walk': (4.0, 0.04, 0.15),       # the Nao's walks: 0.2-0.4 m in 4 s
    'trot': (3.0, 0.08, 0.15),       # the Go1 tracking its plan: ~0.8 m in 3 s
    'navigation': (4.0, 0.03, 0.25),  # the HOAP-2's strides toward its first waypoint
    'robobo': (3.0, 0.02, 0.10),
    'snake': (3.0, 0.03, 0.30),
    'server': (3.0, 0.002, 0.0),     # waits for a client (robobopy, the Unitree SDK, DDS peers)
}


def family(scenario: str) -> str:
    if scenario.endswith('_stand'):
        return 'stand'
    if scenario in ('nao_walk', 'nao_wave_walk'):
        return 'walk'
    if scenario.startswith('go1_trot'):
        return 'trot'
    if scenario.startswith('hoap2_navigation'):
        return 'navigation'
    if scenario.startswith('snake_'):
        return 'snake'
    if scenario.startswith('robobo_') and 'remote' not in scenario:
        return 'robobo'
    return 'server'


SCENARIOS = sorted(s for s in list_scenarios() if s != 'talker_listener')


def embedded_robots(scenario: str, duration: float, tmp_path) -> dict:
    out = tmp_path / 'embedded'
    env = {k: v for k, v in os.environ.items() if k != 'ZOO_RUNTIME'}
    run = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', scenario, '--duration',
                          str(duration), '--quiet', '--output', str(out)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads((out / 'summary.json').read_text())['robots']


def displacement(base_start, base_end) -> float:
    return math.dist(base_start[:2], base_end[:2])


@pytest.mark.parametrize('scenario', SCENARIOS)
def test_scenario_under_ros2_launch_matches_the_embedded_run(scenario, ros_env, tmp_path):
    seconds, abs_tol, rel_tol = FAMILIES[family(scenario)]
    expected = embedded_robots(scenario, seconds, tmp_path)
    run = LaunchedScenario(scenario, ros_env, tmp_path / 'launch.log')
    try:
        run.wait_sim_time(seconds + 0.2, wall_timeout=120 + 4 * seconds)
        nodes = ros2(ros_env, 'node', 'list', '--no-daemon').stdout.split()
        missing = [n for n in run.node_names if n not in nodes]
        assert not missing, f'ros2 node list: {nodes}, missing {missing}'
        for robot, want in expected.items():
            got = run.metrics_at(robot, seconds)
            d_ros = displacement(got.base_start, got.base_end)
            d_emb = displacement(want['base_start'], want['base_end'])
            assert got.fell == want['fell'], (robot, got.fell, want['fell'])
            assert abs(d_ros - d_emb) <= max(abs_tol, rel_tol * d_emb), (
                f'{robot}: {d_ros:.4f} m under ROS, {d_emb:.4f} m embedded after {seconds} s')
    finally:
        rc = run.stop()
    out = run.output()
    assert rc == 0, out[-3000:]
    assert 'Traceback' not in out and 'process has died' not in out, out[-3000:]


def test_talker_listener_under_ros2_launch(ros_env, tmp_path):
    """No simulator: wall time. The listener counts what the talker says (10 Hz)."""
    run = LaunchedScenario('talker_listener', ros_env, tmp_path / 'launch.log')
    try:
        echo = ros2(ros_env, 'topic', 'echo', '--once', '/demo/count', timeout=60)
        assert echo.returncode == 0 and 'count:' in echo.stdout, echo.stdout + echo.stderr
    finally:
        assert run.stop() == 0, run.output()[-3000:]
