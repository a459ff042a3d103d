"""Acceptance (issue 15): the real unitree_legged_sdk from PyPI (robot_interface, unmodified)
drives the simulated Go1 over UDP on 127.0.0.1. ``bin/robozoo run go1_udp_endpoint_hung`` (paced
at real time) is the robot; ``src/unitree_udp/examples/sdk_position.py``, written like the SDK's
example_position, moves the front-right leg to (0, 1.2, -2.0) with Kp 20, Kd 2 and prints the
last LowState. Wall-clock test: the margins (30 s start-up, >= 60 % of the cycles answered,
0.1 rad) hold on a loaded 2-core machine."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip('unitree_legged_sdk.robot_interface')
from unitree_udp.low_level import LowCmd, decode_low_state, encode_low_cmd  # noqa: E402

WS = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_for_robot(port: int, timeout_s: float = 30.0) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(0.2)
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            try:
                s.sendto(encode_low_cmd(LowCmd()), ('127.0.0.1', port))
                decode_low_state(s.recv(2048))
                return
            except (OSError, ValueError):
                continue
    raise AssertionError(f'the simulated Go1 did not answer on port {port}')


@pytest.fixture
def endpoint(tmp_path):
    port = free_port()
    out = tmp_path / 'run'
    proc = subprocess.Popen([str(WS / 'bin' / 'robozoo'), 'run', 'go1_udp_endpoint_hung',
                             '--quiet', '--output', str(out), '--duration', '120',
                             '--set', f'go1_udp_endpoint.port={port}'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_robot(port)
        yield port, proc, out
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)


def test_the_real_sdk_moves_a_joint_of_the_simulated_go1(endpoint):
    port, proc, out = endpoint
    r = subprocess.run([sys.executable, str(WS / 'src/unitree_udp/examples/sdk_position.py'),
                        '--port', str(port), '--local-port', str(free_port()),
                        '--seconds', '3'], capture_output=True, text=True, timeout=60,
                       env={**os.environ})
    assert r.returncode == 0, r.stdout + r.stderr
    state = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith('{')][-1])
    assert state['level'] == 0xFF and state['tick'] > 0
    assert state['answered_cycles'] >= 900                 # of 1500 (60 %)
    assert state['q'][:3] == pytest.approx([0.0, 1.2, -2.0], abs=0.1)   # FR hip, thigh, calf
    assert state['mode'][:3] == [0x0A] * 3
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    ep = json.loads((out / 'summary.json').read_text())['metrics']['go1_udp_endpoint']
    assert ep['accepted'] >= 900 and ep['crc_errors'] == 0 and ep['length_errors'] == 0


def test_the_real_sdk_high_level_stand_down_and_not_supported(tmp_path):
    """Sport mode (``go1_udp_sport``): stand up (6), walking (2: not supported, the state says
    so with reserve 1 and keeps standing), stand down (5)."""
    port = free_port()
    proc = subprocess.Popen([str(WS / 'bin' / 'robozoo'), 'run', 'go1_udp_sport', '--quiet',
                             '--output', str(tmp_path / 'run'), '--duration', '120',
                             '--set', f'go1_udp_sport.port={port}'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    from unitree_legged_sdk import robot_interface as sdk
    try:
        udp = sdk.UDP(0xEE, free_port(), '127.0.0.1', port)
        cmd, state = sdk.HighCmd(), sdk.HighState()
        udp.InitCmdData(cmd)

        def hold(mode: int, seconds: float) -> None:
            cmd.mode = mode
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                time.sleep(0.002)
                udp.Recv()
                udp.GetRecv(state)
                udp.SetSend(cmd)
                udp.Send()
        end = time.monotonic() + 30
        while state.levelFlag != 0xEE:               # the robot starting up
            assert time.monotonic() < end, 'no HighState'
            hold(6, 0.1)
        hold(6, 1.5)
        assert (state.mode, state.reserve) == (6, 0) and state.bodyHeight > 0.3
        hold(2, 0.3)
        assert (state.mode, state.reserve) == (1, 1) and state.bodyHeight > 0.3
        hold(5, 2.0)
        assert state.mode == 5 and state.bodyHeight < 0.2
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
