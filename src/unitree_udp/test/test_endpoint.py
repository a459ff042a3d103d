"""The endpoint core: motor semantics (servo, PosStopF/VelStopF, damping), the steady-clock
watchdog (a fake clock) and its refusal of values that would switch it off, the last-sender
policy and dropped datagrams (logged once in full, then counted), the index maps and the
sport-mode subset."""
from __future__ import annotations

import math
import socket

import numpy as np
import pytest

from unitree_udp.constants import MODE_DAMPING, MODE_SERVO, POS_STOP_F, VEL_STOP_F
from unitree_udp.endpoint import UdpEndpoint, targets_from_low_cmd
from unitree_udp.high_level import HighCmd
from unitree_udp.joint_map import SDK_JOINT_NAMES, JointMap
from unitree_udp.low_level import LowCmd, MotorCmd, encode_low_cmd
from unitree_udp.sport_mode import STAND, SportMode

URDF = [f'{leg}_{j}_joint' for leg in ('FL', 'FR', 'RL', 'RR') for j in ('hip', 'thigh', 'calf')]


def test_joint_maps_are_explicit():
    m = JointMap(URDF)
    assert SDK_JOINT_NAMES[:3] == ('FR_hip_joint', 'FR_thigh_joint', 'FR_calf_joint')
    robot = m.to_robot(np.arange(12.0))           # SDK motor k carries value k
    assert robot[URDF.index('FR_hip_joint')] == 0 and robot[URDF.index('FL_hip_joint')] == 3
    assert robot[URDF.index('RL_calf_joint')] == 11
    assert (m.to_sdk(robot) == np.arange(12.0)).all()


def test_motor_semantics():
    cmd = LowCmd()
    cmd.motor_cmd[0] = MotorCmd(MODE_SERVO, 0.5, 1.0, 2.0, 20.0, 1.0)
    cmd.motor_cmd[1] = MotorCmd(MODE_SERVO, POS_STOP_F, VEL_STOP_F, 3.0, 20.0, 1.0)  # torque
    cmd.motor_cmd[2] = MotorCmd(MODE_DAMPING, 0.5, 0.0, 5.0, 20.0, 1.0)
    q_now = np.full(12, -0.7)
    t = targets_from_low_cmd(cmd, 3.0, q_now)
    assert (t.q[0], t.dq[0], t.tau[0], t.kp[0], t.kd[0]) == (0.5, 1.0, 2.0, 20.0, 1.0)
    assert (t.q[1], t.kp[1], t.kd[1], t.tau[1]) == (-0.7, 0.0, 0.0, 3.0)
    assert (t.kp[2], t.kd[2], t.tau[2], t.mode[2]) == (0.0, 3.0, 0.0, MODE_DAMPING)
    assert t.mode[0] == MODE_SERVO


def test_watchdog_on_a_steady_clock():
    now = [100.0]
    ep = UdpEndpoint('127.0.0.1', 0, watchdog_s=0.1, clock=lambda: now[0])
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        assert not ep.silent()                       # not armed before the first command
        tx.sendto(encode_low_cmd(LowCmd()), ep.address)
        assert ep.poll() and not ep.silent()
        now[0] += 0.099
        assert not ep.silent()
        now[0] += 0.002
        assert ep.silent() and ep.silent() and ep.stats.watchdog_trips == 1
        tx.sendto(encode_low_cmd(LowCmd()), ep.address)
        assert ep.poll() and not ep.silent()
    finally:
        tx.close()
        ep.close()


@pytest.mark.parametrize('value', [0.0, -1.0, math.nan, math.inf, -math.inf])
def test_a_watchdog_that_would_never_trip_is_refused(value):
    with pytest.raises(ValueError, match=r'watchdog_s = .*: expected a finite number of seconds'):
        UdpEndpoint('127.0.0.1', 0, watchdog_s=value)


def _peer(sock: socket.socket) -> str:
    host, port = sock.getsockname()
    return f'{host}:{port}'


def test_the_last_sender_gets_the_state_and_a_change_is_logged_once_then_counted():
    now = [100.0]
    ep = UdpEndpoint('127.0.0.1', 0, clock=lambda: now[0])
    a, b = (socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2))
    try:
        for s in (a, b):
            s.bind(('127.0.0.1', 0))
        cmd = encode_low_cmd(LowCmd())
        a.sendto(cmd, ep.address)
        assert ep.poll() and ep.client == a.getsockname()
        assert ep.log.drain() == []                  # the first client is no change
        for _ in range(50):                          # two clients alternating
            b.sendto(cmd, ep.address)
            ep.poll()
            a.sendto(cmd, ep.address)
            ep.poll()
        assert ep.client == a.getsockname() and ep.stats.client_changes == 100
        lines = ep.log.drain()
        assert lines == [f'client changed from {_peer(a)} to {_peer(b)} (states go to the '
                         'last sender)'], lines
        now[0] += 5.0
        ep.poll()
        lines = ep.log.drain()
        assert len(lines) == 1 and lines[0].startswith('client changed: 99 more in the last 5.0 s '
                                                       '(100 in all), the last from '), lines
        ep.log.flush()
        assert ep.log.drain() == []
    finally:
        a.close()
        b.close()
        ep.close()


def test_dropped_datagrams_are_logged_in_full_once_then_counted():
    now = [100.0]
    ep = UdpEndpoint('127.0.0.1', 0, clock=lambda: now[0])
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        tx.bind(('127.0.0.1', 0))
        good = bytearray(encode_low_cmd(LowCmd()))
        bad_crc = bytearray(good)
        bad_crc[30] ^= 0xFF
        for _ in range(3):
            for packet in (bytes(bad_crc), bytes(good[:-1]), b'\0\0' + bytes(good[2:])):
                tx.sendto(packet, ep.address)
            ep.poll()
        peer = _peer(tx)
        lines = ep.log.drain()
        assert lines == [f'dropped datagram (crc) from {peer}: LowCmd: CRC mismatch',
                         f'dropped datagram (length) from {peer}: LowCmd: 613 bytes, expected 614',
                         f'dropped datagram (head) from {peer}: LowCmd: head 0000, expected feef'
                         ], lines
        now[0] += 2.0
        ep.poll()
        assert ep.log.drain() == []                  # counted, not yet said
        ep.log.flush()                               # at shutdown
        lines = ep.log.drain()
        assert len(lines) == 3 and all(' 2 more in the last 2.0 s (3 in all), the last from '
                                       f'{peer}: ' in ln for ln in lines), lines
        s = ep.stats
        assert (s.crc_errors, s.length_errors, s.head_errors, s.accepted) == (3, 3, 3, 0)
    finally:
        tx.close()
        ep.close()


def test_sport_mode_stands_and_says_what_it_cannot_do():
    sport = SportMode(ramp_s=1.0)
    q0 = np.zeros(12)
    t = sport.targets(HighCmd(mode=6), q0, 10.0)
    assert sport.mode == 6 and not sport.unsupported and sport.progress == 0.0
    t = sport.targets(HighCmd(mode=6), q0, 11.0)
    assert np.allclose(t.q, np.tile(STAND, 4)) and sport.progress == 1.0
    sport.targets(HighCmd(mode=2), q0, 11.5)          # velocity walking: not here
    assert sport.unsupported and sport.mode == 1
    t = sport.targets(HighCmd(mode=7), q0, 12.0)
    assert (t.mode == MODE_DAMPING).all() and sport.mode == 7
