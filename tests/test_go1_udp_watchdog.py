"""A silent command stream puts the simulated Go1 in damping within its watchdog time: stream
LowCmds (hold the stand pose) to ``go1_udp_endpoint`` for 0.5 s, stop, and time the first
LowState whose motors report mode 0 (damping). The endpoint's watchdog is 0.1 s of steady clock;
the bound is 0.1 s + 0.4 s for a loaded 2-core machine (the state comes every 2 ms of a sim paced
at real time)."""
from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

from unitree_udp.low_level import LowCmd, MotorCmd, decode_low_state, encode_low_cmd
from unitree_udp.packet import DecodeError

WS = Path(__file__).resolve().parents[1]
STAND = (0.0, 0.67, -1.3)
WATCHDOG_S, MARGIN_S = 0.1, 0.4


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def stand_cmd() -> bytes:
    cmd = LowCmd()
    for k in range(12):
        cmd.motor_cmd[k] = MotorCmd(0x0A, STAND[k % 3], 0.0, 0.0, 60.0, 3.0)
    return encode_low_cmd(cmd)


def test_silence_means_damping_within_the_watchdog(tmp_path):
    port = free_port()
    proc = subprocess.Popen([str(WS / 'bin' / 'robozoo'), 'run', 'go1_udp_endpoint', '--quiet',
                             '--output', str(tmp_path / 'run'), '--duration', '120',
                             '--set', f'go1_udp_endpoint.port={port}',
                             '--set', f'go1_udp_endpoint.watchdog_s={WATCHDOG_S}'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(0.05)
    try:
        packet, modes, end = stand_cmd(), None, time.monotonic() + 30
        while modes != [0x0A] * 12:                   # the robot is up and servoing
            assert time.monotonic() < end, 'no answer from the simulated Go1'
            s.sendto(packet, ('127.0.0.1', port))
            try:
                modes = [m.mode for m in decode_low_state(s.recv(2048))[0].motor_state[:12]]
            except (OSError, DecodeError):
                pass
        t_stream = time.monotonic() + 0.5
        while time.monotonic() < t_stream:
            s.sendto(packet, ('127.0.0.1', port))
            time.sleep(0.002)
        silent_at = time.monotonic()
        damped_at = None
        while time.monotonic() < silent_at + 5:
            try:
                state, _ = decode_low_state(s.recv(2048))
            except (OSError, DecodeError):
                continue
            if all(m.mode == 0 for m in state.motor_state[:12]):
                damped_at = time.monotonic()
                break
        assert damped_at is not None, 'the robot never went to damping'
        assert damped_at - silent_at <= WATCHDOG_S + MARGIN_S
    finally:
        s.close()
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
