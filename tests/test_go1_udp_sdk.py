"""Acceptance (issue 15): the real unitree_legged_sdk from PyPI (robot_interface, unmodified)
drives the simulated Go1 over UDP on 127.0.0.1. ``bin/robozoo run go1_udp_endpoint_hung`` (paced
at real time) is the robot; ``src/unitree_udp/examples/sdk_position.py``, written like the SDK's
example_position, moves the front-right leg to (0, 1.2, -2.0) with Kp 20, Kd 2 and prints the
last LowState. Wall-clock test: the margins (30 s start-up, >= 60 % of the cycles answered,
0.1 rad) hold on a loaded 2-core machine."""
from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

pytest.importorskip('unitree_legged_sdk.robot_interface')
from go1_udp_clients import (free_port, robozoo_run, sdk_moves_the_front_right_leg,  # noqa: E402
                             wait_for_robot)

WS = Path(__file__).resolve().parents[1]


@pytest.fixture
def endpoint(tmp_path):
    port, out = free_port(), tmp_path / 'run'
    with robozoo_run('go1_udp_endpoint_hung', out, [f'go1_udp_endpoint.port={port}']) as proc:
        wait_for_robot(port)
        yield port, proc, out


def test_the_real_sdk_moves_a_joint_of_the_simulated_go1(endpoint):
    """The check itself is go1_udp_clients.sdk_moves_the_front_right_leg (also run under real ROS
    by tests/ros/test_real_clients_under_ros.py); here the endpoint's own counters too."""
    port, proc, out = endpoint
    sdk_moves_the_front_right_leg(port)
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
