"""Acceptance (issue 15): the Go1 earth trot tracked through unitree_udp_bridge + the simulated
Go1's UDP endpoint (``go1_trot_udp``) ends within 5 cm of the same scenario without the UDP path
(the file minus the endpoint and bridge, the tracker on the simulator's topics); 500 Hz both
ways with no packet lost or corrupted; both directions in the rosbag2 bag. Lockstep runs (sim
time), so the result is deterministic; the watchdogs there have 2 s margins (steady clock)."""
from __future__ import annotations

import json
import os
import socket
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import yaml

WS = Path(__file__).resolve().parents[1]
UDP_NODES = {'go1_udp_endpoint', 'go1_udp_bridge'}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def direct_variant(path: Path) -> Path:
    sc = yaml.safe_load((WS / 'config/scenarios/go1_trot_udp.yaml').read_text())
    sc['nodes'] = [n for n in sc['nodes'] if n['name'] not in UDP_NODES]
    sc['nodes'][0]['parameters']['robot'] = 'go1'
    sc.pop('record')
    sc['description'] = 'go1_trot_udp without the UDP path'
    path.write_text(yaml.safe_dump(sc))
    return path


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('trot')
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}

    def one(args):
        name, scenario, extra = args
        out = tmp / name
        r = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', str(scenario), '--quiet',
                            '--output', str(out), *extra], env=env, capture_output=True,
                           text=True, timeout=900)
        assert r.returncode == 0, r.stderr[-2000:]
        return name, (json.loads((out / 'summary.json').read_text()), out)
    port = free_port()
    jobs = [('udp', 'go1_trot_udp', ['--record', '--set', f'go1_udp_endpoint.port={port}',
                                     '--set', f'go1_udp_bridge.robot_port={port}']),
            ('direct', direct_variant(tmp / 'go1_trot_direct.yaml'), [])]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(one, jobs))


def test_udp_trot_ends_within_5_cm_of_the_direct_one(runs):
    udp, direct = (runs[k][0]['robots']['go1'] for k in ('udp', 'direct'))
    assert not udp['fell'] and not direct['fell']
    gap = np.linalg.norm(np.subtract(udp['base_end'][:2], direct['base_end'][:2]))
    assert gap <= 0.05, f'UDP {udp["base_end"]} vs direct {direct["base_end"]}: {gap:.3f} m'
    tracker = runs['udp'][0]['metrics']['plan_tracker']
    assert tracker['plan_success'] and tracker['commands'] > 4000


def test_500_hz_both_ways_without_loss(runs):
    m = runs['udp'][0]['metrics']
    ep, br = m['go1_udp_endpoint'], m['go1_udp_bridge']
    assert br['state'] == 'running' and br['error'] is None
    assert ep['accepted'] == ep['received'] >= 4490           # 9 s x 500 Hz
    assert br['states'] >= 4490 and br['crc_errors'] == br['length_errors'] == 0
    assert br['watchdog_trips'] == 0 and not br['power_tripped'] and br['clamped'] == 0
    assert ep['crc_errors'] == ep['watchdog_trips'] == 0


def test_both_directions_are_in_the_bag(runs):
    from zoo_runtime.bag import read_bag
    _, out = runs['udp']
    topics = ['/go1_udp/joint_pd_commands', '/go1_udp/low_cmd', '/go1_udp/joint_states']
    bag = read_bag(out / 'bag', topics)
    for t in topics:
        assert len(bag[t]) >= 4490, t
