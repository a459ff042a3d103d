"""Issue 25, "nobody in": a `bin/robozoo run --processes` run hears only its own processes.

- Two runs of nao_walk at once on one DDS domain, on one host: each run's summary.json (robots,
  node metrics, samples sent and received between its processes) equals the solo run's. Before
  the fix the second run's walker commands reached the first run's simulator.
- A participant on the same host and domain that knows everything DDS discovery shows (the run's
  control topics and partition) but not the run's key sends forged control samples (an
  ``outputs`` request naming another folder, ``exit``, a ``tick``, and to robozoo ``failed``,
  ``ack`` and ``reply``) and a joint command in the run's partition: all are refused, counted
  and reported in rate-limited lines naming its participant; the run ends normally with the solo
  run's results, and no folder is written.

Both runs are paced (real time factor 1, 3 s of sim time) so that they overlap. The environment
gives Cyclone the loopback configuration with unicast discovery (zoo_dds.transport.
LOOPBACK_CONFIG in CYCLONEDDS_URI): the setting in which, before the fix, runs on one domain
met; a --processes run now uses its own configuration (zoo_dds.discovery.run_config).
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_multiprocess_run import _children, _differences  # noqa: E402

WS = Path(__file__).resolve().parents[1]
ROBOZOO = WS / 'bin' / 'robozoo'
SCENARIO, DURATION = 'nao_walk', '3'


def _env(domain: int) -> dict:
    from zoo_dds.transport import LOOPBACK_CONFIG
    env = dict(os.environ, CYCLONEDDS_URI=LOOPBACK_CONFIG, ROS_DOMAIN_ID=str(domain))
    env.pop('ROS_AUTOMATIC_DISCOVERY_RANGE', None)
    return env


def _start(out: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen([str(ROBOZOO), 'run', SCENARIO, '--processes', '--quiet',
                             '--duration', DURATION, '--real-time-factor', '1',
                             '--output', str(out)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _finish(run: subprocess.Popen, out: Path) -> tuple[dict, str]:
    try:
        stdout, stderr = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 0, stderr[-3000:]
    return json.loads((out / 'summary.json').read_text()), stderr


@pytest.fixture(scope='module')
def domain() -> int:
    return random.Random().randrange(100, 232)


@pytest.fixture(scope='module')
def solo(tmp_path_factory, domain) -> dict:
    out = tmp_path_factory.mktemp('solo') / 'run'
    return _finish(_start(out, _env(domain)), out)[0]


def _same_results(solo: dict, run: dict) -> list[str]:
    return (_differences(solo['robots'], run['robots'])
            + _differences(solo['metrics'], run['metrics'])
            + _differences({k: solo[k] for k in ('sim_time',)}, {k: run[k] for k in ('sim_time',)})
            + _differences({k: solo['processes'][k] for k in ('sent', 'received')},
                           {k: run['processes'][k] for k in ('sent', 'received')}))


def test_two_runs_at_once_on_one_domain_each_give_the_solo_results(tmp_path, solo, domain):
    env = _env(domain)
    runs = {name: _start(tmp_path / name, env) for name in ('a', 'b')}
    overlapped = False
    while all(r.poll() is None for r in runs.values()):
        # both locksteps running at once: each run's walker process alive
        overlapped = overlapped or all(_children(r.pid) for r in runs.values())
        time.sleep(0.1)
    for name, run in runs.items():
        summary, stderr = _finish(run, tmp_path / name)
        assert _same_results(solo, summary) == [], name
        assert summary['processes']['refused'] == {}, name  # the other run never matched
        assert 'refused' not in stderr, stderr
    assert overlapped
    assert solo['processes']['received'] > 100 and solo['metrics']['walker']


def _control_topics(dp, timeout: float = 60.0) -> tuple[str, str]:
    """(run id, partition) of the run's control channel, as DDS discovery shows them."""
    from cyclonedds.builtin import BuiltinDataReader, BuiltinTopicDcpsPublication
    from cyclonedds.qos import Policy
    reader = BuiltinDataReader(dp, BuiltinTopicDcpsPublication)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for pub in reader.take(64):
            m = re.fullmatch(r'robozoo/([0-9a-f]+)/down', getattr(pub, 'topic_name', ''))
            if m:
                return m.group(1), pub.qos[Policy.Partition].partitions[0]
        time.sleep(0.05)
    raise AssertionError('no robozoo control topic discovered')


def test_a_forger_is_refused_and_logged_and_changes_nothing(tmp_path, solo, domain):
    from cyclonedds.pub import Publisher
    from cyclonedds.qos import Policy, Qos
    from cyclonedds.sub import DataReader
    from cyclonedds.topic import Topic
    from test_dds_interop import JointState_
    from types import SimpleNamespace
    from zoo_dds.control import ControlChannel
    from zoo_dds.discovery import run_config
    from zoo_dds.qos_map import dds_qos
    from zoo_dds.transport import RawWriter, close, participant
    from zoo_runtime import messages

    env = _env(domain)
    out, evil = tmp_path / 'run', tmp_path / 'evil'
    run = _start(out, env)
    dp = participant(domain, run_config(), whole=True)  # a process of this host, as any
    try:
        run_id, partition = _control_topics(dp)
        states = DataReader(dp, Topic(dp, 'rt/nao/joint_states', JointState_))
        end = time.monotonic() + 60
        while not states.take(1) and time.monotonic() < end and run.poll() is None:
            time.sleep(0.05)  # the lockstep is running
        wrong = b'a guess at the key, not the key'
        down = ControlChannel(dp, run_id, parent=True, key=wrong)  # to the children
        up = ControlChannel(dp, run_id, parent=False, key=wrong)  # to robozoo
        T = 'zoo_interfaces/msg/JointPDCommand'
        Command = messages.get_message(T)  # (loads the workspace's interface types)
        command = RawWriter(dp, '/nao/joint_pd_commands', T, dds_qos(SimpleNamespace(
            history='KEEP_LAST', depth=10, reliability='RELIABLE', durability='VOLATILE'),
            writer=True), publisher=Publisher(dp, qos=Qos(Policy.Partition([partition]))))
        end = time.monotonic() + 30
        while min(down.matched()[0], up.matched()[0], command.matched()) < 1:
            assert time.monotonic() < end and run.poll() is None, 'the run was not reached'
            time.sleep(0.01)
        down.send('outputs', 1, 0, 1, str(evil))
        down.send('exit')
        down.send('tick', 0, 10 ** 9, 0, {'orders': {'0': [0, 0, 0]}, 'to': [1]})
        up.send('failed', 1, body={'error': 'forged'})
        up.send('ack', 1, 10 ** 9, 0, {'order': [0], 'next_due': None})
        up.send('reply', 1, 0, 1, {'error': 'forged'})
        command.write(messages.serialize(Command()))
        attacker = str(dp.get_guid())
        summary, stderr = _finish(run, out)
    finally:
        if run.poll() is None:
            run.kill()
        close(dp)
    assert _same_results(solo, summary) == []
    assert 'interrupted' not in summary
    assert not evil.exists()
    assert summary['processes']['refused'] == {f'robozoo/{run_id}/up': 3,
                                               'rt/nao/joint_pd_commands': 1}
    lines = [line for line in stderr.splitlines() if 'warning: refused' in line]
    print('\n'.join(lines))
    counts: dict[str, int] = {}
    for line in lines:
        assert line.endswith(f'from DDS participant {attacker}'), line
        who = line.split(': warning:')[0]
        counts[who] = counts.get(who, 0) + int(re.search(r'refused (\d+) DDS', line).group(1))
    assert counts == {'robozoo': 4, "robozoo: node 'walker'": 3}, stderr[-3000:]
    assert f"last on robozoo/{run_id}/down: 'outputs' sample not signed with this run's key" \
        in stderr
