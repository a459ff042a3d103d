"""``robozoo sweep`` on the real simulator: a 2x2 grid (gravity x the Go1 trot's playback speed,
1.5 s runs) tabulated in grid order with the physics each point asked for; a misspelt parameter
refused in one line with the close match; SIGKILL mid-sweep and a resume run every point once
and give what an uninterrupted sweep on the other engine (Dask) gave, and a grown grid runs only
its new points; the same points on a running Dask cluster (--cluster)."""
import csv
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from journaled_cli import child_env, start_until_journaled
from zoo_runtime import EMBEDDED

if not EMBEDDED:
    pytest.skip('runs the scenario in the embedded runtime', allow_module_level=True)

GRAVITY = ['[0.0,0.0,-9.81]', '[0.0,0.0,-3.71]']
SPEED = ['0.8', '1.2']
GRID = ['go1_trot_earth', '--set', f'sim.gravity={",".join(GRAVITY)}',
        '--set', f'plan_tracker.playback_speed={",".join(SPEED)}',
        '--set', 'plan_tracker.ramp_s=0.2', '--duration', '1.5', '--no-progress']


def sweep(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'zoo_experiments.sweep', *args], env=child_env(),
                          capture_output=True, text=True, timeout=600)


def records(out: Path) -> dict:
    """The journal's records by point (its --set list, sorted)."""
    lines = (out / 'journal.jsonl').read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    points = {tuple(sorted(r['set'])): r for r in recs}
    assert len(points) == len(recs) == len({r['seq'] for r in recs}), 'a point was run twice'
    return points


@pytest.fixture(scope='module')
def reference(tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp('dask')
    r = sweep(*GRID, '--out', str(out), '--engine', 'dask', '--workers', '2',
              '--metric', 'go1.drift_xy', '--metric', 'go1.fell')
    assert r.returncode == 0, r.stderr[-2000:]
    return out, r.stdout


def test_the_grid_is_tabulated_with_the_physics_each_point_asked_for(reference):
    out, stdout = reference
    lines = stdout.splitlines()
    assert lines[0].split() == ['sim.gravity', 'plan_tracker.playback_speed',
                                'plan_tracker.ramp_s', 'go1.drift_xy', 'go1.fell']
    table = [line.split() for line in lines[2:6]]
    assert [(row[0], row[1]) for row in table] == [(g, s) for g in GRAVITY for s in SPEED]
    assert lines[6].startswith('4 of 4 points')
    rows = list(csv.DictReader(open(out / 'sweep.csv')))
    assert [(r['sim.gravity'], r['plan_tracker.playback_speed']) for r in rows] == \
        [(g, s) for g in GRAVITY for s in SPEED]
    points = json.loads((out / 'sweep.json').read_text())['points']
    for p, (g, s) in zip(points, [(g, s) for g in GRAVITY for s in SPEED]):
        assert p['summary']['metrics']['sim']['gravity'] == pytest.approx(json.loads(g))
        assert p['summary']['sim_time'] == pytest.approx(1.5)
    # the trot covers ground in proportion to its playback speed, under either gravity
    drift = {(r['sim.gravity'], r['plan_tracker.playback_speed']): float(r['go1.drift_xy'])
             for r in rows}
    for g in GRAVITY:
        assert drift[g, '1.2'] > 1.5 * drift[g, '0.8'] > 0.3
    assert {r['go1.fell'] for r in rows} == {'False'}
    assert (out / 'sweep.png').read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_a_misspelt_parameter_is_one_line_with_the_close_match(tmp_path):
    r = sweep('go1_trot_earth', '--set', 'plan_tracker.playbak_speed=0.8,1.2',
              '--out', str(tmp_path / 'bad'), '--no-progress')
    assert r.returncode == 2
    error = r.stderr.strip().splitlines()[-1]
    assert error.startswith("robozoo sweep: error: node 'plan_tracker'")
    assert "'playbak_speed'" in error and "did you mean 'playback_speed'?" in error
    assert not (tmp_path / 'bad').exists()  # refused before any work


def test_killed_sweep_resumes_running_every_point_once(tmp_path, reference):
    out = tmp_path / 'killed'
    proc = start_until_journaled([sys.executable, '-m', 'zoo_experiments.sweep', *GRID, '--out',
                                  str(out), '--workers', '1'], out / 'journal.jsonl', 1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = records(out)
    assert 1 <= len(partial) < 4
    r = sweep(*GRID, '--out', str(out), '--workers', '2')
    assert r.returncode == 0, r.stderr[-2000:]
    missing = 4 - len(partial)
    assert f'running {missing} point{"s" if missing > 1 else ""} on' in r.stderr  # only those
    done, want = records(out), records(reference[0])
    assert sorted(done) == sorted(want) and len(done) == 4
    for point, rec in done.items():
        assert rec['summary']['robots'] == want[point]['summary']['robots']


def test_sweep_on_a_running_dask_cluster_gives_the_local_results(tmp_path, reference):
    """--cluster: a scheduler and a worker started as a user would (``dask scheduler``, ``dask
    worker``), the points run there and come back as the local run's."""
    import socket

    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    address = f'tcp://127.0.0.1:{port}'
    cluster = [subprocess.Popen([sys.executable, '-m', f'distributed.cli.{cmd}', *args,
                                 '--no-dashboard'], env=child_env(), start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for cmd, args in (('dask_scheduler', ['--host', '127.0.0.1', '--port', str(port)]),
                                 ('dask_worker', [address, '--nthreads', '1']))]
    try:
        out = tmp_path / 'cluster'
        r = sweep('go1_trot_earth', '--set', f'sim.gravity={GRAVITY[0]}',
                  '--set', f'plan_tracker.playback_speed={",".join(SPEED)}',
                  '--set', 'plan_tracker.ramp_s=0.2', '--duration', '1.5', '--no-progress',
                  '--out', str(out), '--cluster', address)
        assert r.returncode == 0, r.stderr[-2000:]
        assert f'on the Dask cluster at {address} (1 workers' in r.stderr
    finally:
        for proc in cluster:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    done, want = records(out), records(reference[0])
    assert len(done) == 2
    for point, rec in done.items():
        assert rec['summary']['robots'] == want[point]['summary']['robots']


def test_a_grown_grid_runs_only_its_new_points(tmp_path, reference):
    """A point is known by its settings, not its place in the grid: one more speed adds two
    points (one per gravity), and the four of the reference are reused as they are."""
    import shutil

    out = tmp_path / 'grown'
    shutil.copytree(reference[0], out)
    grown = [x.replace(f'={",".join(SPEED)}', f'={",".join(SPEED)},1.0') for x in GRID]
    r = sweep(*grown, '--out', str(out), '--workers', '2')
    assert r.returncode == 0, r.stderr[-2000:]
    assert 'running 2 points on' in r.stderr and '6 of 6 points' in r.stdout
    done, want = records(out), records(reference[0])
    assert len(done) == 6 and all(done[p] == want[p] for p in want)
    assert [line.split()[1] for line in r.stdout.splitlines()[2:8]] == ['0.8', '1.2', '1.0'] * 2


def test_values_split_at_the_commas_outside_brackets_and_quotes():
    from zoo_scenario.scenario import ScenarioError, load_scenario
    from zoo_experiments.sweep.grid import parse_axes, points, split_values

    assert split_values('[0.0,0.0,-9.81],[0.0,0.0,-3.71]') == ['[0.0,0.0,-9.81]',
                                                               '[0.0,0.0,-3.71]']
    assert split_values("a, 'b,c', {x: [1,2]}") == ['a', "'b,c'", '{x: [1,2]}']
    sc = load_scenario('go1_trot_earth')
    axes = parse_axes(['sim.gravity=[0.0,0.0,-9.81],[0.0,0.0,-3.71]',
                       'plan_tracker.playback_speed=0.8,1.0,1.2'], sc)
    grid = points(axes)
    assert len(grid) == 6 and grid[1] == ['sim.gravity=[0.0,0.0,-9.81]',
                                          'plan_tracker.playback_speed=1.0']
    for bad, words in (('plan_tracker.playback_speed=0.8,,1.2', 'an empty value'),
                       ('plan_tracker.playback_speed', 'expected node.parameter=value'),
                       ('plan_trackr.playback_speed=1.0', "did you mean 'plan_tracker'?"),
                       ('plan_tracker.goal=[1.0,{a: 1}]', 'or a list of one of those')):
        with pytest.raises(ScenarioError, match=words):
            parse_axes([bad], sc)
    with pytest.raises(ScenarioError, match='given twice'):
        parse_axes(['plan_tracker.kp=1.0', 'plan_tracker.kp=2.0'], sc)


@pytest.mark.parametrize('argv, words', [
    (['go1_trot_earth'], 'give at least one --set'),
    (['go1_trot_earth', '--set', 'plan_tracker.kp=1.0', '--duration', '-1'],
     '--duration -1.0: expected a positive'),
    (['go1_trot_earth', '--set', 'plan_tracker.kp=1.0', '--workers', '0'],
     '--workers 0: expected an integer >= 1'),
    (['go1_trot_earth', '--set', 'plan_tracker.kp=1.0', '--engine', 'process', '--cluster',
      'tcp://127.0.0.1:8786'], 'needs --engine dask'),
    (['go1_trot_earth', '--set', 'plan_tracker.kp=1.0', '--cluster', 'nowhere'],
     "expected a scheduler address such as 'tcp://host:8786'"),
    (['go1_trot_erth', '--set', 'plan_tracker.kp=1.0'], "did you mean go1_trot_earth"),
    (['go1_trot_earth', '--set', 'plan_tracker.kp=1.0', '--engine', 'ray'], 'invalid choice'),
])
def test_bad_arguments_are_one_line_before_any_work(argv, words, tmp_path, capsys):
    from zoo_experiments.sweep.cli import main

    assert main([*argv, '--out', str(tmp_path / 'out')]) == 2
    out, err = capsys.readouterr()
    assert out == '' and len(err.strip().splitlines()) == 1, err
    assert err.startswith('robozoo sweep: error: ') and words in err, err
    assert not (tmp_path / 'out').exists()


def test_a_second_sweep_on_one_out_is_refused_in_one_line(tmp_path, capsys):
    """Two sweeps on one --out journalled every point twice and the next resume refused the
    journal (issue 25, as for the search): the second is refused, naming the first's pid."""
    from zoo_experiments.gait_search.cli import lock_run_dir
    from zoo_experiments.sweep.cli import main

    out = tmp_path / 'out'
    held = lock_run_dir(out, 'the first sweep')  # as a running sweep holds it
    try:
        code = main(['talker_listener', '--set', 'talker.rate=5.0,10.0', '--duration', '0.5',
                     '--out', str(out), '--no-progress'])
    finally:
        held.close()
    _, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f'--out {out}' in err and 'in use by another search or sweep' in err
    assert f'pid {os.getpid()}' in err and not (out / 'journal.jsonl').exists()
