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
import sys
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


class SportClient:
    """The real SDK's high level (``sdk.UDP(HIGHLEVEL)``) against ``go1_udp_sport``."""

    def __init__(self, port: int):
        from unitree_legged_sdk import robot_interface as sdk
        self.udp = sdk.UDP(0xEE, free_port(), '127.0.0.1', port)
        self.cmd, self.state = sdk.HighCmd(), sdk.HighState()
        self.udp.InitCmdData(self.cmd)
        end = time.monotonic() + 30
        while self.state.levelFlag != 0xEE:               # the robot starting up
            assert time.monotonic() < end, 'no HighState'
            self.hold(6, 0.1)

    def hold(self, mode: int, seconds: float, body_height: float = 0.0,
             euler: tuple = (0.0, 0.0, 0.0)) -> None:
        self.cmd.mode, self.cmd.bodyHeight, self.cmd.euler = mode, body_height, list(euler)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(0.002)
            self.udp.Recv()
            self.udp.GetRecv(self.state)
            self.udp.SetSend(self.cmd)
            self.udp.Send()


@pytest.fixture
def sport(tmp_path):
    port = free_port()
    proc = subprocess.Popen([str(WS / 'bin' / 'robozoo'), 'run', 'go1_udp_sport', '--quiet',
                             '--output', str(tmp_path / 'run'), '--duration', '120',
                             '--set', f'go1_udp_sport.port={port}'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield SportClient(port), proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            proc.outputs = proc.communicate(timeout=60)


def test_the_real_sdk_high_level_stand_down_and_not_supported(sport):
    """Sport mode (``go1_udp_sport``): stand up (6), walking (2: not supported, the state says
    so with reserve 1, one log line says it, the robot keeps standing), stand down (5)."""
    client, proc = sport
    state = client.state
    client.hold(6, 1.5)
    assert (state.mode, state.reserve) == (6, 0) and state.bodyHeight > 0.3
    client.hold(2, 0.3)
    assert (state.mode, state.reserve) == (1, 1) and state.bodyHeight > 0.3
    client.hold(5, 2.0)
    assert state.mode == 5 and state.bodyHeight < 0.2
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    said = [ln for ln in err.splitlines() if 'unsupported HighCmd mode 2' in ln]
    assert len(said) == 1 and '(velocity walking)' in said[0] and 'reserve = 1' in said[0], err


def test_the_real_sdk_force_stand_turns_and_lowers_the_trunk(sport):
    """Mode 1 (force stand, comm.h): the trunk takes the HighCmd's roll, pitch and yaw and its
    bodyHeight delta over feet that stay put; beyond comm.h's height range (-0.13 ... 0.03 m) it
    stops at its end (the angle ranges: src/unitree_udp/test/test_body_pose.py). The IMU's rpy and the state's
    bodyHeight show it, and nothing is flagged (reserve 0)."""
    client, _ = sport
    state = client.state
    client.hold(6, 1.5)
    h0, yaw0 = state.bodyHeight, state.imu.rpy[2]
    client.hold(1, 2.0, euler=(0.3, -0.2, 0.25))
    assert (state.mode, state.reserve) == (1, 0)
    roll, pitch, yaw = state.imu.rpy
    assert abs(roll - 0.3) < 0.05 and abs(pitch + 0.2) < 0.05, state.imu.rpy
    assert abs(yaw - yaw0 - 0.25) < 0.05, (yaw0, state.imu.rpy)
    client.hold(1, 2.0, body_height=-0.1)
    assert abs(state.bodyHeight - (h0 - 0.1)) < 0.03 and max(map(abs, state.imu.rpy[:2])) < 0.05
    client.hold(1, 1.5, body_height=-0.5)                    # clamped to comm.h's -0.13 m
    assert abs(state.bodyHeight - (h0 - 0.13)) < 0.03 and state.reserve == 0, (h0, state.bodyHeight)


# URDF limits of the FR hip, thigh, calf (specs/go1.md R1.3)
FR_LIMITS = ((-0.863, 0.863), (-0.686, 4.501), (-2.818, -0.888))


def test_the_real_sdk_at_full_torque_stop_to_stop_never_passes_a_stop(endpoint):
    """Issue 28: through the UDP low-level interface, the FR leg's motors at full torque alone
    (Kp = Kd = 0), flipped every 0.5 s, passed their stops by 0.08-0.12 rad every cycle. Now no
    LowState angle is more than 0.01 rad past a URDF limit, and every joint reaches both stops
    (``src/unitree_udp/examples/sdk_torque_stop_to_stop.py``). LowState comes every 2 ms, every
    second physics step; zoo_sim/test/test_joint_stops.py checks every step of the same command."""
    port, _, _ = endpoint
    script = WS / 'src/unitree_udp/examples/sdk_torque_stop_to_stop.py'
    r = subprocess.run([sys.executable, str(script), '--port', str(port), '--local-port',
                        str(free_port()), '--seconds', '3'], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    seen = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith('{')][-1])
    assert seen['answered_cycles'] >= 900, seen
    for (lo, hi), low, high in zip(FR_LIMITS, seen['low'], seen['high']):
        assert lo - 0.01 <= low <= lo + 0.05 and hi - 0.05 <= high <= hi + 0.01, seen
