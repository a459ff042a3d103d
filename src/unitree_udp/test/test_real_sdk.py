"""The codec against the real SDK (PyPI unitree-legged-sdk 3.8.20231105, module robot_interface,
pinned in tools/requirements-nodeps.txt), over UDP on 127.0.0.1: what the SDK sends is what the
codec encodes, byte for byte, and what the codec encodes the SDK reads back."""
from __future__ import annotations

import random
import socket
import time

import pytest

from unitree_udp.high_level import HighState, decode_high_cmd, encode_high_state
from unitree_udp.low_level import LowCmd, LowState, MotorCmd, encode_low_cmd, encode_low_state

sdk = pytest.importorskip('unitree_legged_sdk.robot_interface')


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


@pytest.fixture
def link():
    """(robot socket, SDK UDP, SDK port) for low level."""
    robot = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    robot.bind(('127.0.0.1', 0))
    robot.settimeout(2.0)
    port = free_port()
    udp = sdk.UDP(0xFF, port, '127.0.0.1', robot.getsockname()[1])
    yield robot, udp, port
    robot.close()


def _deliver(robot, udp, port, packet: bytes, state) -> None:
    robot.sendto(packet, ('127.0.0.1', port))
    time.sleep(0.02)
    udp.Recv()
    udp.GetRecv(state)


def test_sdk_low_cmd_is_the_codecs_byte_for_byte(link):
    robot, udp, _ = link
    rng = random.Random(3)
    cmd = sdk.LowCmd()
    udp.InitCmdData(cmd)
    for k in range(20):
        m = cmd.motorCmd[k]
        m.mode = rng.choice([0x00, 0x0A])
        m.q, m.dq = rng.uniform(-3, 3), rng.uniform(-20, 20)
        m.tau, m.Kp, m.Kd = rng.uniform(-35, 35), rng.uniform(0, 500), rng.uniform(0, 30)
    cmd.reserve = 0x01020304
    udp.SetSend(cmd)
    udp.Send()
    packet, _ = robot.recvfrom(4096)
    mine = LowCmd(motor_cmd=[MotorCmd(m.mode, m.q, m.dq, m.tau, m.Kp, m.Kd)
                             for m in cmd.motorCmd], reserve=0x01020304)
    assert encode_low_cmd(mine) == packet


def test_sdk_reads_the_codecs_low_state(link):
    robot, udp, port = link
    udp.SetSend(sdk.LowCmd())
    udp.Send()
    robot.recvfrom(4096)
    s = LowState(tick=987654, foot_force=(10, 20, 30, 40), foot_force_est=(1, 2, 3, 4))
    s.imu.quaternion, s.imu.gyroscope = (0.5, 0.5, 0.5, 0.5), (0.1, -0.2, 0.3)
    for k in range(12):
        m = s.motor_state[k]
        m.mode, m.q, m.dq, m.tau_est, m.temperature = 0x0A, 0.1 * k, -0.5, k / 4, 30 + k
    s.bms.soc, s.bms.cell_vol = 87, (4128,) * 10
    state = sdk.LowState()
    _deliver(robot, udp, port, encode_low_state(s), state)
    assert state.tick == 987654 and list(state.footForce) == [10, 20, 30, 40]
    assert list(state.footForceEst) == [1, 2, 3, 4]
    assert list(state.imu.quaternion) == [0.5] * 4
    for k in range(12):
        m = state.motorState[k]
        assert m.mode == 0x0A and m.q == pytest.approx(0.1 * k, abs=1e-6)
        assert m.tauEst == k / 4 and m.temperature == 30 + k
    assert state.bms.SOC == 87 and list(state.bms.cell_vol) == [4128] * 10
    # a corrupted CRC: the SDK keeps the previous state
    bad = bytearray(encode_low_state(LowState(tick=5)))
    bad[50] ^= 1
    _deliver(robot, udp, port, bytes(bad), state)
    assert state.tick == 987654


def test_sdk_high_level_both_ways():
    robot = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    robot.bind(('127.0.0.1', 0))
    robot.settimeout(2.0)
    port = free_port()
    udp = sdk.UDP(0xEE, port, '127.0.0.1', robot.getsockname()[1])
    try:
        cmd = sdk.HighCmd()
        udp.InitCmdData(cmd)
        cmd.mode, cmd.velocity, cmd.yawSpeed = 2, [0.3, 0.0], 0.2
        udp.SetSend(cmd)
        udp.Send()
        packet, _ = robot.recvfrom(4096)
        mine, kind = decode_high_cmd(packet)
        assert kind == 'plain' and mine.mode == 2 and mine.velocity == pytest.approx((0.3, 0))
        state = sdk.HighState()
        s = HighState(mode=1, progress=0.25, body_height=0.3, position=(1.0, 2.0, 0.3))
        s.motor_state[4].q = -1.25
        _deliver(robot, udp, port, encode_high_state(s), state)
        assert (state.mode, state.progress, state.bodyHeight) == (1, 0.25, pytest.approx(0.3))
        assert list(state.position) == pytest.approx([1.0, 2.0, 0.3])
        assert state.motorState[4].q == -1.25
    finally:
        robot.close()
