"""Issue 17 item 2: `bin/robozoo run <scenario> --processes` (every node but the simulator in a
process of its own, topics on Cyclone DDS, one lockstep sim time) gives the in-process run's
results, its topics are on DDS for any participant, and it stops cleanly.

Tolerance of the comparison: every metric of summary.json (robots and nodes) equal within 1e-9
relative (1e-12 absolute), except the wall-clock ones (solve time, wall time, real-time factor);
the `--record` message counts and the nodes' output files (the tracker's plan.npz) equal.
Why so tight: the lockstep over DDS runs every callback at the sim time it runs in-process, with
the same inputs, and MuJoCo is deterministic, so only the order of callbacks within one tick
across processes could differ (in-process: global publish order; across processes: each writer's
order, processes in turn), and in these scenarios no callback depends on that order. Measured:
bit-identical. The scenarios: nao_wave_walk (the walker calls the simulator's and the PID node's reset
services across processes, then its targets go child to child to the PID node), go1_trot_earth
(the tracker in a child: joint states and odometry out, PD commands back at 500 Hz, the world's
0.5 ms step) and hoap2_navigation (three children; the map is latched).

Cyclone runs over loopback with unicast discovery (zoo_dds.transport.LOOPBACK_CONFIG) on a
random domain, so parallel runs do not meet.
"""
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

WS = Path(__file__).resolve().parents[1]
ROBOZOO = WS / 'bin' / 'robozoo'
WALL_CLOCK = {'solve_time_s', 'wall_time', 'real_time_factor', 'build_time_s'}


def _env() -> dict:
    from zoo_dds.transport import LOOPBACK_CONFIG
    return dict(os.environ, CYCLONEDDS_URI=LOOPBACK_CONFIG,
                ROS_DOMAIN_ID=str(random.Random().randrange(100, 232)))


def _run(scenario: str, out: Path, *extra: str) -> dict:
    r = subprocess.run([str(ROBOZOO), 'run', scenario, '--quiet', '--output', str(out), *extra],
                       env=_env(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads((out / 'summary.json').read_text())


def _differences(a, b, path='') -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f'{path}/{k}: only in one run' for k in set(a) ^ set(b)]
        for k in sorted(set(a) & set(b)):
            if k not in WALL_CLOCK:
                out += _differences(a[k], b[k], f'{path}/{k}')
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f'{path}[{i}]')]
    if isinstance(a, float) or isinstance(b, float):
        ok = isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
        return [] if ok else [f'{path}: {a!r} in-process, {b!r} --processes']
    return [] if a == b else [f'{path}: {a!r} in-process, {b!r} --processes']


@pytest.mark.parametrize('scenario,duration', [('nao_wave_walk', '1.5'), ('go1_trot_earth', '2.2'),
                                               ('hoap2_navigation', '1.2')])
def test_processes_give_the_in_process_metrics(tmp_path, scenario, duration):
    inside = _run(scenario, tmp_path / 'in', '--duration', duration, '--record')
    apart = _run(scenario, tmp_path / 'apart', '--duration', duration, '--record', '--processes')
    nodes = [n for n in inside['metrics'] if n != 'sim']
    assert nodes and set(apart['processes']['children']) == set(nodes)
    assert apart['processes']['received'] > 100  # commands really came over DDS
    if scenario == 'nao_wave_walk':  # the resets went over rq/rr and the walk started
        assert apart['metrics']['sim']['resets'] == 1 and apart['metrics']['walker']['walks'] == 1
    assert _differences(inside['robots'], apart['robots']) == []
    assert _differences(inside['metrics'], apart['metrics']) == []
    # the bag of the parent holds what the children published, as many as in-process
    assert apart['recorded'] == inside['recorded']
    assert apart['sim_time'] == inside['sim_time']
    # files the nodes write into the run folder (the tracker's plan), written by the child
    assert apart.get('files') == inside.get('files')
    for name in apart.get('files', []):
        assert _same_file(tmp_path / 'in' / name, tmp_path / 'apart' / name), name


def _same_file(a: Path, b: Path) -> bool:
    if a.suffix != '.npz':
        return a.read_bytes() == b.read_bytes()
    import numpy as np
    x, y = np.load(a), np.load(b)
    return x.files == y.files and all(np.array_equal(x[k], y[k]) for k in x.files
                                      if k not in WALL_CLOCK)


def _children(parent: int) -> dict[str, int]:
    """node name -> pid of the process_child processes of ``parent``."""
    out = {}
    for d in Path('/proc').iterdir():
        try:
            stat = (d / 'stat').read_text()
            cmd = (d / 'cmdline').read_bytes().split(b'\0')
        except (OSError, ValueError):
            continue
        if int(stat.rsplit(')', 1)[1].split()[1]) == parent and b'zoo_scenario.process_child' \
                in cmd:
            out[cmd[cmd.index(b'zoo_scenario.process_child') + 3].decode()] = int(d.name)
    return out


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _start_paced(out: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen([str(ROBOZOO), 'run', 'snake_linear_progression', '--processes',
                             '--real-time-factor', '1', '--duration', '60', '--quiet',
                             '--output', str(out)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_plain_cyclonedds_peer_sees_the_topics_and_sigint_stops_everything(tmp_path):
    """The gait's joint targets (child to simulator) and the simulator's joint states are on
    DDS as ROS 2 topics; Ctrl-C ends the run with its summary, and no child is left."""
    from cyclonedds.domain import DomainParticipant
    from cyclonedds.pub import DataWriter  # noqa: F401 - the peer is plain cyclonedds
    from cyclonedds.qos import Policy, Qos
    from cyclonedds.sub import DataReader
    from cyclonedds.topic import Topic
    from cyclonedds.util import duration
    sys.path.insert(0, str(Path(__file__).parent))
    from test_dds_interop import JointState_

    env = _env()
    run = _start_paced(tmp_path / 'run', env)
    try:
        os.environ['CYCLONEDDS_URI'] = env['CYCLONEDDS_URI']  # this process's Cyclone domain
        dp = DomainParticipant(int(env['ROS_DOMAIN_ID']))
        qos = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.History.KeepLast(10))
        readers = {t: DataReader(dp, Topic(dp, f'rt/snake/{t}', JointState_, qos=qos), qos)
                   for t in ('joint_targets', 'joint_states')}
        seen: dict[str, JointState_] = {}
        deadline = time.monotonic() + 60
        while len(seen) < 2 and time.monotonic() < deadline and run.poll() is None:
            for t, reader in readers.items():
                for s in reader.take(16):
                    seen[t] = s
            time.sleep(0.02)
        assert set(seen) == {'joint_targets', 'joint_states'}, run.stderr.read()[-2000:]
        assert len(seen['joint_states'].name) == 16 and seen['joint_targets'].name
        children = _children(run.pid)
        assert set(children) == {'gait', 'state_logger'}
    finally:
        run.send_signal(signal.SIGINT)
        stdout, stderr = run.communicate(timeout=60)
    assert run.returncode == 130, stderr[-2000:]
    summary = json.loads((tmp_path / 'run' / 'summary.json').read_text())
    assert summary['interrupted'] == 'SIGINT'
    assert summary['metrics']['gait']['goal_updates'] > 0  # asked after the interrupt
    assert all(_gone(pid) for pid in children.values())


def test_a_child_that_dies_stops_the_run_with_one_line(tmp_path):
    env = _env()
    run = _start_paced(tmp_path / 'run', env)
    try:
        children = _wait_children(run, 2)
        _wait_running(run, env)
        time.sleep(0.5)
        os.kill(children['gait'], signal.SIGKILL)
        stdout, stderr = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    errors = [line for line in stderr.splitlines() if line.startswith('robozoo: error')]
    assert run.returncode == 2 and len(errors) == 1, stderr[-2000:]
    assert f"node 'gait' (process {children['gait']}) was killed by SIGKILL at sim time" \
        in errors[0]
    summary = json.loads((tmp_path / 'run' / 'summary.json').read_text())
    assert "node 'gait'" in summary['interrupted'] and summary['sim_time'] > 0.3
    assert summary['metrics']['gait'] == {'exit_code': -9}
    assert _gone(children['state_logger'])


def _wait_running(run: subprocess.Popen, env: dict) -> None:
    """Until the simulator's joint states are on DDS: the lockstep is running."""
    from cyclonedds.domain import DomainParticipant
    from cyclonedds.sub import DataReader
    from cyclonedds.topic import Topic
    sys.path.insert(0, str(Path(__file__).parent))
    from test_dds_interop import JointState_
    os.environ['CYCLONEDDS_URI'] = env['CYCLONEDDS_URI']
    dp = DomainParticipant(int(env['ROS_DOMAIN_ID']))
    reader = DataReader(dp, Topic(dp, 'rt/snake/joint_states', JointState_))
    deadline = time.monotonic() + 60
    while not reader.take(1) and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)


def _wait_children(run: subprocess.Popen, n: int) -> dict[str, int]:
    deadline = time.monotonic() + 60
    children: dict[str, int] = {}
    while len(children) < n and time.monotonic() < deadline and run.poll() is None:
        children = _children(run.pid)
        time.sleep(0.1)
    return children


@pytest.mark.parametrize('sig', ['SIGTERM', 'SIGKILL'])
def test_sigterm_or_kill_9_of_robozoo_leaves_no_child(tmp_path, sig):
    """SIGTERM: a clean stop as in-process (exit 143, summary); kill -9: the kernel ends the
    children (PR_SET_PDEATHSIG), nothing is left running."""
    env = _env()
    run = _start_paced(tmp_path / 'run', env)
    try:
        children = _wait_children(run, 2)
        assert len(children) == 2
        _wait_running(run, env)
        time.sleep(0.5)
        run.send_signal(getattr(signal, sig))
        stderr = run.communicate(timeout=60)[1]
    finally:
        if run.poll() is None:
            run.kill()
    deadline = time.monotonic() + 10
    while not all(_gone(pid) for pid in children.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(_gone(pid) for pid in children.values())
    if sig == 'SIGTERM':
        assert run.returncode == 143, stderr[-3000:]
        summary = json.loads((tmp_path / 'run' / 'summary.json').read_text())
        assert summary['interrupted'] == 'SIGTERM' and summary['sim_time'] > 0.3
