"""Issue 24 item 2b: every scenario started with the real `ros2 launch zoo_bringup robozoo.launch.py
scenario:=<s>` (MuJoCo physics in the simulator node, real rclpy, rmw_cyclonedds_cpp, localhost
discovery, a domain of its own) runs a few simulated seconds with the same outcome as the embedded
run of the same scenario, `ros2 node list` shows every node of the scenario, and Ctrl-C stops it
cleanly.

The outcome is the robot's base in the world (ground truth) in both worlds:
- a robot that moves in the embedded run: how far its base gets in MOVE seconds from the instant
  it starts to move (2 cm from where it stood). Under ROS the controllers start in their own
  processes and prepare (a walk plan, leg IK, a map) while sim time already runs, so a motion can
  start later than in lockstep; from its start on it must be the same motion. The simulator runs
  at up to 3x real time here and waits for the controllers' stamped commands (zoo_sim
  command_sync); commands sent on events still reach the motors a step or two later than in
  lockstep, so the distances agree within the tolerances below, not bitwise. The Go1 trot over
  the Unitree UDP protocol (commands in wall time, which the sync cannot see) must only move.
- a robot at rest (stands, servers waiting for a client): its drift after REST seconds, both
  within a millimetre, and neither falls."""
from __future__ import annotations

import os
import subprocess
import time

import numpy as np
import pytest

from conftest import WS, ros2
from launched import LaunchedScenario
from zoo_scenario.scenario import list_scenarios, load_scenario
from zoo_runtime.bag import read_bag

REST = 2.0      # sim seconds a resting robot is watched
ONSET = 0.02    # m from the first pose: the motion has started (a settling robot moves less)
# family -> (sim seconds of motion compared, absolute tolerance m, relative tolerance)
MOVE = {
    'walk': (2.5, 0.03, 0.15),        # the Nao's walks: ~0.25 m
    'trot': (2.0, 0.05, 0.20),        # the Go1 tracking its plan: ~0.6 m
    'navigation': (2.5, 0.03, 0.25),  # the HOAP-2's keyframe strides
    'robobo': (2.0, 0.01, 0.10),
    'snake': (2.5, 0.02, 0.30),
}


def family(scenario: str) -> str:
    if scenario.endswith('_stand'):
        return 'rest'
    if scenario in ('nao_walk', 'nao_wave_walk', 'nao_gait_search'):
        return 'walk'
    for prefix, fam in (('go1_trot', 'trot'), ('hoap2_navigation', 'navigation'),
                        ('snake_', 'snake'), ('robobo_', 'robobo')):
        if scenario.startswith(prefix):
            return fam
    return 'rest'


def real_time_factor(scenario: str) -> float:
    """Bridges to a client in wall time run paced: the Robobo's remote protocol at real time, the
    Go1's 500 Hz UDP loop at half (four processes at 500 Hz on two loaded cores answer late in
    wall time, and a trot fed late falls: at 0.5 a late datagram is half as late in sim time).
    The Nao's walks at real time too: two controllers in a chain (the gait player's targets feed
    the PID node, whose commands the simulator waits for), and the sync sees only the last link,
    so at 3x on a loaded machine the player's targets reach the PID late and the walk goes
    shorter (0.227 m against 0.296 m, nao_wave_walk, load 4 on 2 cores), as a walk on a real
    robot would if its pattern generator ran 3x behind. Everything else as fast as the simulator
    and the command sync allow, up to 3x."""
    if 'udp' in scenario:
        return 0.5
    return 1.0 if 'remote' in scenario or family(scenario) == 'walk' else 3.0


def own_outputs(scenario: str, folder) -> list[str]:
    """``--set`` lines that point every node's ``output`` parameter (the gait search's journal,
    out/... in the checkout by default) into ``folder``: a search resumes from its journal, so a
    run sharing it with the run before evaluates the next candidate, not the first."""
    return [f'{n.name}.output={folder}/{n.name}' for n in load_scenario(scenario).nodes
            if isinstance(n.parameters, dict) and 'output' in n.parameters]


def node_list(env, expected: list[str], wall_timeout: float = 20.0) -> list[str]:
    """`ros2 node list --no-daemon` until it shows every expected node (discovery takes a moment
    on a loaded machine)."""
    end = time.monotonic() + wall_timeout
    while True:
        nodes = ros2(env, 'node', 'list', '--no-daemon').stdout.split()
        if set(expected) <= set(nodes) or time.monotonic() > end:
            return nodes


SCENARIOS = sorted(s for s in list_scenarios() if s != 'talker_listener')


def embedded_tracks(scenario: str, robots: list[str], duration: float, tmp_path) -> dict:
    """Each robot's (t, x, y) over an embedded run of ``duration`` sim seconds."""
    out = tmp_path / 'embedded'
    sets = [a for s in own_outputs(scenario, out / 'nodes') for a in ('--set', s)]
    env = {k: v for k, v in os.environ.items() if k != 'ZOO_RUNTIME'}
    topics = [f'/{r}/odometry/ground_truth' for r in robots]
    run = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', scenario, '--duration',
                          str(duration), '--quiet', '--output', str(out), *sets, '--record', *topics],
                         env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    bag = read_bag(out / 'bag', topics)
    return {r: np.column_stack([bag[t]['header.stamp'], bag[t]['pose.pose.position.x'],
                                bag[t]['pose.pose.position.y']])
            for r, t in zip(robots, topics)}


def onset(track: np.ndarray) -> float | None:
    moved = np.hypot(*(track[:, 1:] - track[0, 1:]).T) > ONSET
    return float(track[np.argmax(moved), 0]) if moved.any() else None


def travel(track: np.ndarray, t0: float, seconds: float) -> float:
    """Distance in the plane from the pose at ``t0`` to the pose ``seconds`` later."""
    at = [np.array([np.interp(t, track[:, 0], track[:, k]) for k in (1, 2)])
          for t in (t0, t0 + seconds)]
    return float(np.hypot(*(at[1] - at[0])))


@pytest.mark.parametrize('scenario', SCENARIOS)
def test_scenario_under_ros2_launch_matches_the_embedded_run(scenario, ros_env, tmp_path):
    fam = family(scenario)
    seconds, abs_tol, rel_tol = MOVE.get(fam, (REST, 0.001, 0.0))
    robots = [r.name for r in load_scenario(scenario).robots]
    # first, as scenarios that serve a client bind a fixed port (the Robobo's, the Go1's)
    expected = embedded_tracks(scenario, robots, REST + seconds + 1.0, tmp_path)
    run = LaunchedScenario(scenario, ros_env, tmp_path / 'launch.log',
                           [f'sim.real_time_factor={real_time_factor(scenario)}',
                            *own_outputs(scenario, tmp_path / 'ros_nodes')])
    try:
        starts = {r: onset(expected[r]) for r in robots}
        run.wait_sim_time(REST, wall_timeout=180)
        nodes = node_list(ros_env, run.node_names)
        missing = [n for n in run.node_names if n not in nodes]
        assert not missing, f'ros2 node list: {nodes}, missing {missing}'
        for robot in robots:
            if starts[robot] is None:  # at rest embedded: at rest under ROS
                got = np.array(run.base_xy[robot])
                assert len(got), f'no /{robot}/odometry/ground_truth:\n{run.output()[-3000:]}'
                assert travel(got, got[0, 0], REST) <= 0.001, (robot, got[-1], got[0])
                assert travel(expected[robot], 0.0, REST) <= 0.001
                continue
            deadline = REST + 10
            while onset(np.array(run.base_xy[robot])) is None and run.sim_time < deadline:
                run.wait_sim_time(run.sim_time + 0.1, wall_timeout=60)
            t0 = onset(np.array(run.base_xy[robot]))
            assert t0 is not None, f'{robot} never moved under ROS in {deadline} s'
            run.wait_sim_time(t0 + seconds + 0.1, wall_timeout=60 + 4 * seconds)
            d_ros = travel(np.array(run.base_xy[robot]), t0, seconds)
            d_emb = travel(expected[robot], starts[robot], seconds)
            if 'udp' in scenario:  # commands over UDP in wall time: no command sync, it moves
                assert d_ros > 0.1, f'{robot}: {d_ros:.4f} m under ROS in {seconds} s'
                continue
            assert abs(d_ros - d_emb) <= max(abs_tol, rel_tol * d_emb), (
                f'{robot}: {d_ros:.4f} m under ROS, {d_emb:.4f} m embedded in {seconds} s from '
                f'the start of the motion (t = {t0:.2f} s under ROS, {starts[robot]:.2f} s '
                'embedded)')
        for robot in robots:
            assert not run.metrics_at(robot, run.sim_time).fell, f'{robot} fell under ROS'
    finally:
        rc = run.stop()
    out = run.output()
    assert rc == 0, out[-3000:]
    assert 'Traceback' not in out and 'process has died' not in out, out[-3000:]


def test_talker_listener_under_ros2_launch(ros_env, tmp_path):
    """No simulator: wall time. The listener counts what the talker says (10 Hz)."""
    run = LaunchedScenario('talker_listener', ros_env, tmp_path / 'launch.log')
    try:
        echo = ros2(ros_env, 'topic', 'echo', '--once', '/demo/count',
                    'zoo_interfaces/msg/Counter', timeout=60)
        assert echo.returncode == 0 and 'count:' in echo.stdout, echo.stdout + echo.stderr
    finally:
        assert run.stop() == 0, run.output()[-3000:]
