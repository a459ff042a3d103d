"""The bridge core against a scripted robot on 127.0.0.1: pre-flight (answers, right mode,
firmware), the steady-clock watchdog (fake clock), CRC errors counted and dropped, out-of-range
commands clamped on the wire, power protection; the bind address and state taken only from the
robot (a stranger's datagrams counted and logged, rate-limited)."""
from __future__ import annotations

import dataclasses
import math
import socket

import numpy as np
import pytest

from unitree_udp.high_level import HighState, encode_high_state
from unitree_udp.low_level import LowState, decode_low_cmd, encode_low_state
from unitree_udp.packet import make_sn, make_version
from unitree_udp_bridge.bridge_core import BridgeConfig, BridgeCore
from unitree_udp_bridge.safety import SafetyConfig

URDF = [f'{leg}_{j}_joint' for leg in ('FL', 'FR', 'RL', 'RR') for j in ('hip', 'thigh', 'calf')]


class Robot:
    """A socket playing the robot: reads LowCmds, answers what the test says."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(('127.0.0.1', 0))
        self.sock.settimeout(1.0)
        self.port = self.sock.getsockname()[1]
        self.client = None

    def take(self):
        data, self.client = self.sock.recvfrom(4096)
        return decode_low_cmd(data)[0]

    def answer(self, packet: bytes) -> None:
        self.sock.sendto(packet, self.client)


def go1_state(firmware=(0, 1, 35), **kw) -> LowState:
    s = LowState(**kw)
    s.header.sn = make_sn(4, 3)
    s.header.version = make_version((0, 1, 9), firmware)
    return s


@pytest.fixture
def robot():
    r = Robot()
    yield r
    r.sock.close()


def make(robot, now, **kw) -> BridgeCore:
    cfg = BridgeConfig(URDF, robot_ip='127.0.0.1', robot_port=robot.port, **kw)
    return BridgeCore(cfg, clock=lambda: now[0])


def start(core: BridgeCore, robot: Robot, state: LowState | None = None) -> None:
    core.cycle()
    robot.take()
    robot.answer(encode_low_state(state or go1_state()))
    for _ in range(100):
        if core.receive() is not None:
            break
    assert core.state == 'running', core.error


def test_preflight_passes_and_names_the_robot(robot):
    now = [0.0]
    core = make(robot, now)
    start(core, robot)
    assert any('Go1_EDU' in m and 'firmware 0.1.35' in m for m in core.messages)


def test_preflight_without_an_answer_says_where_it_looked(robot):
    now = [0.0]
    core = make(robot, now, preflight_timeout_s=1.0)
    core.cycle()
    now[0] = 1.5
    assert core.cycle() is None and core.state == 'failed'
    assert f'no LowState from 127.0.0.1:{robot.port} within 1 s' in core.error
    assert '192.168.123.10:8007' in core.error


def test_preflight_recognises_sport_mode(robot):
    now = [0.0]
    core = make(robot, now)
    core.cycle()
    robot.take()
    robot.answer(encode_high_state(HighState()))
    for _ in range(100):
        core.receive()
        if core.state == 'failed':
            break
    assert 'HighState (1087 B)' in core.error and 'sport-mode' in core.error


def test_preflight_rejects_old_firmware(robot):
    now = [0.0]
    core = make(robot, now)
    core.cycle()
    robot.take()
    robot.answer(encode_low_state(go1_state(firmware=(0, 1, 20))))
    for _ in range(100):
        core.receive()
        if core.state == 'failed':
            break
    assert 'firmware v0.1.20 is older than v0.1.35' in core.error


def test_watchdog_damps_a_silent_stream_and_resumes(robot):
    now = [0.0]
    core = make(robot, now, watchdog_s=0.1)
    start(core, robot)
    core.cycle()
    assert robot.take().motor_cmd[0].kp == 0      # damping before the first command
    core.set_command(URDF, *(np.zeros(12),) * 2, np.zeros(12), np.full(12, 30.0),
                     np.ones(12))
    core.cycle()
    assert robot.take().motor_cmd[0].kp == 30
    now[0] += 0.101
    core.cycle()
    sent = robot.take()
    assert sent.motor_cmd[0].kp == 0 and sent.motor_cmd[0].kd == 3.0
    assert core.stats.watchdog_trips == 1 and 'watchdog: no command' in core.messages[-1]
    core.set_command(URDF, *(np.zeros(12),) * 2, np.zeros(12), np.full(12, 30.0), np.ones(12))
    core.cycle()
    assert robot.take().motor_cmd[0].kp == 30


def test_crc_errors_are_counted_logged_and_dropped(robot):
    now = [0.0]
    core = make(robot, now)
    start(core, robot)
    bad = bytearray(encode_low_state(go1_state(tick=7)))
    bad[100] ^= 0x40
    robot.answer(bytes(bad))
    robot.answer(encode_low_state(go1_state(tick=8)))
    got = None
    for _ in range(100):
        got = core.receive() or got
        if got is not None:
            break
    assert got.tick == 8 and core.stats.crc_errors == 1
    assert core.log.drain() == ['dropped datagram (crc) from the robot: LowState: CRC mismatch']


def test_out_of_range_commands_are_clamped_on_the_wire(robot):
    now = [0.0]
    core = make(robot, now, safety=SafetyConfig(kp_max=400))
    start(core, robot)
    q = np.full(12, 9.0)
    core.set_command(URDF, q, np.full(12, 1e3), np.full(12, 500.0), np.full(12, 1e4),
                     np.full(12, 50.0))
    core.cycle()
    sent = robot.take()
    fr_thigh, fl_calf = sent.motor_cmd[1], sent.motor_cmd[5]
    assert fr_thigh.q == pytest.approx(2.966) and fl_calf.q == pytest.approx(-0.837)
    assert fr_thigh.tau == pytest.approx(23.7, abs=1 / 256) and fl_calf.tau == pytest.approx(
        35.55, abs=1 / 256)
    assert fr_thigh.kp == 400 and fr_thigh.kd == 20 and fl_calf.dq == pytest.approx(20.06)
    assert core.safety.clamped == 60


def test_power_protection_damps_and_latches(robot):
    now = [0.0]
    core = make(robot, now, safety=SafetyConfig(power_level=1))
    start(core, robot)
    core.set_command(URDF, *(np.zeros(12),) * 2, np.zeros(12), np.full(12, 30.0), np.ones(12))
    hot = go1_state()
    for m in hot.motor_state[:12]:
        m.tau_est, m.dq = 5.0, 5.0          # 12 x 25 W = 300 W > 100 W
    for _ in range(6):
        robot.answer(encode_low_state(dataclasses.replace(hot)))
        for _ in range(100):
            if core.receive() is not None:
                break
    core.cycle()
    assert robot.take().motor_cmd[0].kp == 0 and core.safety.power_tripped
    assert any('power protection' in m for m in core.messages)


def test_the_bridge_binds_the_address_it_reaches_the_robot_from(robot):
    now = [0.0]
    core = make(robot, now)                       # local_ip '': the route's source address
    assert core.sock.getsockname()[0] == '127.0.0.1'
    core.close()
    core = make(robot, now, local_ip='127.0.0.1')
    assert core.sock.getsockname()[0] == '127.0.0.1'
    core.close()


def test_a_local_address_that_is_not_this_machines_is_refused_in_one_line(robot):
    with pytest.raises(ValueError, match=r'^local_ip 192\.0\.2\.1: cannot bind'):
        make(robot, [0.0], local_ip='192.0.2.1')  # TEST-NET-1: no host has it


@pytest.mark.parametrize('field', ['watchdog_s', 'preflight_timeout_s'])
@pytest.mark.parametrize('value', [0.0, -1.0, math.nan, math.inf])
def test_times_that_would_never_trip_are_refused(robot, field, value):
    with pytest.raises(ValueError, match=rf'^{field} = .*expected a finite number of seconds > 0'):
        make(robot, [0.0], **{field: value})


def hot_state() -> LowState:
    hot = go1_state()
    for m in hot.motor_state[:12]:
        m.tau_est, m.dq = 20.0, 20.0        # 12 x 400 W: over every power level
    return hot


def test_state_is_taken_only_from_the_robot_and_strangers_are_logged_then_counted(robot):
    now = [0.0]
    core = make(robot, now, safety=SafetyConfig(power_level=10))
    stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        stranger.bind(('127.0.0.1', 0))
        peer = '127.0.0.1:%d' % stranger.getsockname()[1]
        bridge = core.sock.getsockname()
        core.cycle()
        robot.take()
        stranger.sendto(encode_high_state(HighState()), bridge)   # would fail the pre-flight
        assert core.receive() is None and core.state == 'preflight'
        assert core.log.drain() == [
            f'dropped datagram from {peer} (1087 B): state is taken only from the robot at '
            f'127.0.0.1:{robot.port}']
        start(core, robot)
        core.set_command(URDF, *(np.zeros(12),) * 2, np.zeros(12), np.full(12, 30.0),
                         np.ones(12))
        for _ in range(50):
            stranger.sendto(encode_low_state(hot_state()), bridge)
            assert core.receive() is None
        core.cycle()
        assert robot.take().motor_cmd[0].kp == 30 and not core.safety.power_tripped
        assert core.stats.foreign_datagrams == 51 and core.stats.states == 1
        assert core.log.drain() == []                # counted, not said again within 5 s
        now[0] += 5.0
        core.receive()
        lines = core.log.drain()
        assert lines == [f'dropped datagram: 50 more in the last 5.0 s (51 in all), the last from '
                         f'{peer} (807 B): state is taken only from the robot at '
                         f'127.0.0.1:{robot.port}'], lines
    finally:
        stranger.close()
