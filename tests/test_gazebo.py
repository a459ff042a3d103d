"""Gazebo Harmonic for real (issue 31): every world and robot of the workspace loads in gz-sim8
through the Gazebo backend, and the scenarios that must behave alike on both engines do, run with
`bin/robozoo run <scenario> --set sim.backend=gazebo` beside the same MuJoCo run.

Worlds with a heightmap (go1_steps, snake_terrain) load, but bullet-featherstone has no
heightmap collision shape: the backend says so in one line and nothing stands on the terrain.

Tolerances, and why the engines differ (bullet-featherstone, the only physics plugin of the
shared build, against MuJoCo):
- Stands: both hold still. Drift under 2 mm and tilt under 0.5 deg in 4 s on Gazebo (MuJoCo
  holds to microns). bullet's joint motors are soft: without the backend's slip correction the
  Nao crept 0.03 rad/s at the ankles and fell in 6 s; with it the Nao drifts ~0.3 mm in 4 s.
- The Go1 trot (PD + feed-forward at 2 kHz): the base follows the MuJoCo run within 5 cm up to
  3.5 s (its first 0.75 m) and ends standing within 5 cm of the goal. Before the stance forces
  (issue 28), bullet's stiffer contacts bounced the body on the plan's last strides (0.41 m high
  at 4.0 s against 0.34 m) and it flipped at 4.8 s.
- The Nao's wave walk (velocity motors at 100 Hz): the torso pitches further forward under
  bullet (19 deg at 0.5 s against 15 deg) and the Nao falls at 1.5 s: a strict xfail records it.
  Its first 0.3 s agree within 5 mm.
Gazebo runs here at 0.3-0.6x real time (each step calls Python twice through the bindings);
benchmarks/bench_backends.py measures it."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

WS = Path(__file__).resolve().parents[1]
ROBOZOO = str(WS / 'bin' / 'robozoo')
STANDS = ['go1_stand', 'hoap2_stand', 'nao_stand', 'robobo_stand', 'snake_stand']
ROBOTS = {'go1': 'go1_description', 'hoap2': 'hoap2_description', 'nao': 'nao_description',
          'robobo': 'robobo_description', 'snake': 'snake_description'}


@pytest.fixture(scope='module')
def gz_here():
    """Gazebo is here (tools/env.sh activated .gz/ or a user's own); in CI or where set-up
    unpacked it, a missing one fails, never skips."""
    from zoo_sim.gazebo.gazebo_backend import import_gz_sim8
    if not import_gz_sim8():
        if os.environ.get('CI') or (WS / '.gz').is_dir():
            pytest.fail('gz.sim8 does not import, yet Gazebo is expected here: run make setup')
        pytest.skip('no Gazebo Harmonic (gz.sim8) here')


def run(scenario: str, out: Path, backend: str, *args: str) -> dict:
    sets = ['--set', 'sim.backend=gazebo'] if backend == 'gazebo' else []
    p = subprocess.run([ROBOZOO, 'run', scenario, '--quiet', '--output', str(out), *sets, *args],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads((out / 'summary.json').read_text())


def track(out: Path, topic: str) -> np.ndarray:
    from zoo_runtime.bag import read_bag
    b = read_bag(out / 'bag', [topic])[topic]
    return np.column_stack([b['header.stamp'], b['pose.pose.position.x'],
                            b['pose.pose.position.y'], b['pose.pose.position.z']])


def at(tr: np.ndarray, t: float) -> np.ndarray:
    return np.array([np.interp(t, tr[:, 0], tr[:, k]) for k in (1, 2, 3)])


@pytest.mark.parametrize('world', sorted(p.stem for p in (WS / 'worlds').glob('*.sdf')))
def test_every_world_loads_and_steps_in_gz_sim8(world, gz_here):
    """Ground, includes and heightmaps load; bullet-featherstone has no heightmap collision
    shape, which the backend says in one line (go1_steps' step,
    snake_terrain)."""
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    from zoo_sim.gazebo.plugins import physics_engines
    ph = GazeboPhysics.create(world, [])
    ph.advance(20)  # raises if gz-sim8 loaded nothing or its clock did not advance 20 steps
    assert ph.metrics()['steps'] == 20
    from zoo_sim.sdf_world import load_world
    heightmap = any(g.shape.heightfield is not None for m in load_world(WS / 'worlds' /
                    f'{world}.sdf').models for ln in m.links for g in ln.collisions)
    said = [w for w in ph.warnings if 'is a heightmap' in w]
    assert bool(said) == (heightmap and 'dartsim' not in physics_engines()), ph.warnings


@pytest.mark.parametrize('robot', sorted(ROBOTS))
def test_every_robot_loads_and_rests_in_gz_sim8(robot, gz_here):
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    from zoo_sim.mujoco_scene import RobotSpec
    ph = GazeboPhysics.create('empty', [RobotSpec(robot, package=ROBOTS[robot])])
    start = ph.base_pose(robot)[0]
    ph.advance(300)
    assert np.linalg.norm(ph.base_pose(robot)[0] - start) < 0.01
    assert len(ph.joint_state(robot)[0]) == len(ph.robot_info(robot).joints)


@pytest.mark.parametrize('scenario', STANDS)
def test_stand_on_gazebo_holds_as_on_mujoco(scenario, gz_here, tmp_path):
    gz = run(scenario, tmp_path / 'gz', 'gazebo', '--duration', '4')
    mj = run(scenario, tmp_path / 'mj', 'mujoco', '--duration', '4')
    for name, r in gz['robots'].items():
        assert not r['fell'] and not mj['robots'][name]['fell']
        assert r['drift_xy'] < 2e-3, (name, r['drift_xy'], mj['robots'][name]['drift_xy'])
        assert r['max_tilt_deg'] < 0.5, (name, r['max_tilt_deg'])
        assert r['base_start'] == pytest.approx(mj['robots'][name]['base_start'], abs=1e-6)
    assert gz['metrics']['sim']['backend'] == 'gazebo'


@pytest.fixture(scope='module')
def trot(gz_here, tmp_path_factory):
    out = tmp_path_factory.mktemp('trot')
    topic = '/go1/odometry/ground_truth'
    runs = {b: run('go1_trot_earth', out / b, b, '--record', topic) for b in ('gazebo', 'mujoco')}
    return runs, {b: track(out / b, topic) for b in runs}


def test_go1_trot_on_gazebo_follows_the_mujoco_run(trot):
    _, tracks = trot
    for t in (2.5, 3.0, 3.5):
        gz, mj = at(tracks['gazebo'], t), at(tracks['mujoco'], t)
        assert np.linalg.norm(gz[:2] - mj[:2]) < 0.05, (t, gz, mj)
    assert at(tracks['gazebo'], 3.5)[0] > 0.6  # it trots: 0.75 m by 3.5 s


def test_go1_trot_on_gazebo_ends_standing_at_the_goal(trot):
    """Since the stance forces (issue 28) the Go1 no longer flips on bullet's contacts."""
    summaries, _ = trot
    assert not summaries['gazebo']['robots']['go1']['fell']
    assert summaries['gazebo']['metrics']['plan_tracker']['distance_to_goal_m'] < 0.05


@pytest.fixture(scope='module')
def wave_walk(gz_here, tmp_path_factory):
    out = tmp_path_factory.mktemp('walk')
    topic = '/nao/odometry/ground_truth'
    runs = {b: run('nao_wave_walk', out / b, b, '--duration', '3', '--record', topic)
            for b in ('gazebo', 'mujoco')}
    return runs, {b: track(out / b, topic) for b in runs}


def test_nao_wave_walk_on_gazebo_starts_as_on_mujoco(wave_walk):
    _, tracks = wave_walk
    gz, mj = at(tracks['gazebo'], 0.3), at(tracks['mujoco'], 0.3)
    assert np.linalg.norm(gz - mj) < 5e-3, (gz, mj)


@pytest.mark.xfail(strict=True, reason='bullet-featherstone: the Nao pitches forward further '
                   'and falls at 1.5 s (see the module docstring)')
def test_nao_wave_walk_on_gazebo_stays_up(wave_walk):
    summaries, _ = wave_walk
    assert not summaries['gazebo']['robots']['nao']['fell']


def test_a_gazebo_run_says_what_it_cannot_serve(gz_here, tmp_path):
    """The Robobo's camera and IR lidars need a rendering engine the shared build lacks: one
    line each, then the run goes on (it no longer segfaults in gz's Sensors system)."""
    p = subprocess.run([ROBOZOO, 'run', 'robobo_stand', '--duration', '0.2', '--output',
                        str(tmp_path / 'r'), '--set', 'sim.backend=gazebo'],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    lines = [ln for ln in (p.stdout + p.stderr).splitlines()
             if 'not available under this Gazebo build' in ln]
    assert any('(camera on' in ln for ln in lines), p.stderr[-2000:]
