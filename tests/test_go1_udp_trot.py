"""Acceptance (issue 15): the Go1 earth trot tracked through unitree_udp_bridge + the simulated
Go1's UDP endpoint (``go1_trot_udp``) ends within 5 cm of the same scenario without the UDP path
(the file minus the endpoint and bridge, the tracker on the simulator's topics); 500 Hz both
ways with no packet lost or corrupted; both directions in the rosbag2 bag. Lockstep runs (sim
time), so the result is deterministic; the watchdogs there have 2 s margins (steady clock).

Issue 25 (open door): while the same scenario runs, another socket on this machine floods the
bridge with forged LowStates (every motor at 400 W, over the power protection's 1000 W; a
HighState now and then, which would fail the pre-flight): the bridge takes state only from the
robot's address and port, so the Go1 walks as far as without the forgery; the forger is counted
and logged once in full, then as counts."""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
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


def forged_states() -> list[bytes]:
    """What the forger sends: LowStates of a Go1 whose motors all run at 20 N m x 20 rad/s
    (4800 W: the power protection latches after 6), and a HighState (a pre-flight failure)."""
    from unitree_udp.high_level import HighState, encode_high_state
    from unitree_udp.low_level import LowState, encode_low_state
    from unitree_udp.packet import make_sn, make_version
    hot = LowState()
    hot.header.sn, hot.header.version = make_sn(4, 3), make_version((0, 1, 9), (0, 1, 35))
    for m in hot.motor_state[:12]:
        m.tau_est, m.dq, m.q = 20.0, 20.0, 1.0
    return [encode_low_state(hot)] * 49 + [encode_high_state(HighState())]


class Forger(threading.Thread):
    """Another socket on this machine sending forged states at the bridge's port, in bursts of
    5 every millisecond, until stopped."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(('127.0.0.1', 0))
        self.peer = f'127.0.0.1:{self.sock.getsockname()[1]}'
        self.target, self.sent, self.stop = ('127.0.0.1', port), 0, threading.Event()

    def run(self) -> None:
        packets = forged_states()
        while not self.stop.is_set():
            for _ in range(5):
                try:
                    self.sock.sendto(packets[self.sent % len(packets)], self.target)
                    self.sent += 1
                except OSError:       # nothing listening yet
                    pass
            time.sleep(0.001)
        self.sock.close()


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('trot')
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}

    def one(args):
        name, scenario, extra = args
        out = tmp / name
        forger = None
        if name == 'forged':
            bridge_port = free_port()
            extra = [*extra, '--set', f'go1_udp_bridge.local_port={bridge_port}']
            forger = Forger(bridge_port)
            forger.start()
        try:
            r = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', str(scenario), '--quiet',
                                '--output', str(out), *extra], env=env, capture_output=True,
                               text=True, timeout=900)
        finally:
            if forger is not None:
                forger.stop.set()
                forger.join()
        assert r.returncode == 0, r.stderr[-2000:]
        summary = json.loads((out / 'summary.json').read_text())
        if forger is not None:
            summary['forger'] = {'peer': forger.peer, 'sent': forger.sent, 'stderr': r.stderr}
        return name, (summary, out)

    def udp(port):
        return ['--set', f'go1_udp_endpoint.port={port}',
                '--set', f'go1_udp_bridge.robot_port={port}']
    jobs = [('udp', 'go1_trot_udp', ['--record', *udp(free_port())]),
            ('direct', direct_variant(tmp / 'go1_trot_direct.yaml'), []),
            ('forged', 'go1_trot_udp', udp(free_port()))]
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


def test_forged_states_from_another_socket_do_not_reach_the_go1(runs):
    forged, udp = (runs[k][0] for k in ('forged', 'udp'))
    go1, ref = forged['robots']['go1'], udp['robots']['go1']
    assert not go1['fell'], go1
    gap = np.linalg.norm(np.subtract(go1['base_end'][:2], ref['base_end'][:2]))
    assert gap <= 0.05, f'forged {go1["base_end"]} vs UDP {ref["base_end"]}: {gap:.3f} m'
    br, f = forged['metrics']['go1_udp_bridge'], forged['forger']
    assert br['state'] == 'running' and not br['power_tripped'], br
    assert f['sent'] >= 3000 and br['foreign_datagrams'] >= 3000, (f['sent'], br)
    assert br['states'] >= 4490 and br['crc_errors'] == br['length_errors'] == 0
    # logged: once in full naming the forger, then counts (one per 5 s and one at shutdown)
    lines = [ln for ln in f['stderr'].splitlines() if '[go1_udp_bridge]' in ln
             and ('dropped datagram from' in ln or 'dropped datagram:' in ln)]
    assert re.search(rf'dropped datagram from {f["peer"]} \((807|1087) B\): state is taken only '
                     r'from the robot at 127\.0\.0\.1:\d+$', lines[0]), lines[:3]
    assert len(lines) <= 20, lines             # not a line per datagram
    assert f'({br["foreign_datagrams"]} in all)' in lines[-1], lines[-1]
