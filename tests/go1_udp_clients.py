"""The real unitree_legged_sdk (PyPI, unmodified) and raw SDK-format packets against the simulated
Go1's UDP endpoint, written once: tests/test_go1_udp_sdk.py and tests/test_go1_udp_watchdog.py run
them against ``bin/robozoo run`` (embedded runtime, one process), tests/ros/
test_real_clients_under_ros.py against the same scenarios started by the real ``ros2 launch``
(simulator and endpoint as rclpy processes). Each check takes only the endpoint's UDP port.

Wall-clock checks: the margins (30 s start-up, >= 60 % of the cycles answered, 0.1 rad, the
watchdog's 0.1 s + 0.4 s) hold on a loaded 2-core machine."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from unitree_udp.low_level import LowCmd, MotorCmd, decode_low_state, encode_low_cmd
from unitree_udp.packet import DecodeError

WS = Path(__file__).resolve().parents[1]
STAND = (0.0, 0.67, -1.3)
WATCHDOG_S, MARGIN_S = 0.1, 0.4
SDK_SECONDS = 3.0                 # sdk_position.py: 1500 cycles of 2 ms


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def robozoo_run(scenario: str, out: Path, sets: list[str], duration: float = 120,
                seed: int | None = None):
    """Our side embedded: ``bin/robozoo run <scenario>`` paced at real time; Ctrl-C at the end
    (robozoo run then writes ``out/summary.json``; its (stdout, stderr) are then
    ``proc.outputs``)."""
    args = [str(WS / 'bin' / 'robozoo'), 'run', scenario, '--quiet', '--output', str(out),
            '--duration', str(duration)]
    if seed is not None:
        args += ['--seed', str(seed)]
    for s in sets:
        args += ['--set', s]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            proc.outputs = proc.communicate(timeout=60)


def wait_for_robot(port: int, timeout_s: float = 30.0) -> None:
    """A zero LowCmd until a LowState comes back (the robot is up)."""
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


def sdk_moves_the_front_right_leg(port: int) -> dict:
    """``src/unitree_udp/examples/sdk_position.py`` (the SDK's example_position): the front-right
    leg to (0, 1.2, -2.0) with Kp 20, Kd 2 in 1 s, held for 2 s; its last LowState, checked."""
    r = subprocess.run([sys.executable, str(WS / 'src/unitree_udp/examples/sdk_position.py'),
                        '--port', str(port), '--local-port', str(free_port()),
                        '--seconds', str(SDK_SECONDS)], capture_output=True, text=True,
                       timeout=60, env={**os.environ})
    assert r.returncode == 0, r.stdout + r.stderr
    state = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith('{')][-1])
    assert state['level'] == 0xFF and state['tick'] > 0
    assert state['answered_cycles'] >= 900, state          # of 1500 (60 %)
    for got, want in zip(state['q'][:3], (0.0, 1.2, -2.0)):  # FR hip, thigh, calf
        assert abs(got - want) <= 0.1, state['q'][:3]
    assert state['mode'][:3] == [0x0A] * 3
    return state


def stand_cmd() -> bytes:
    cmd = LowCmd()
    for k in range(12):
        cmd.motor_cmd[k] = MotorCmd(0x0A, STAND[k % 3], 0.0, 0.0, 60.0, 3.0)
    return encode_low_cmd(cmd)


def silence_means_damping(port: int, watchdog_s: float = WATCHDOG_S,
                          margin_s: float = MARGIN_S) -> float:
    """Stream LowCmds (hold the stand pose) for 0.5 s, stop, and time the first LowState whose
    motors all report mode 0 (damping): within the endpoint's watchdog (``watchdog_s``, steady
    clock) + ``margin_s``. Returns the time it took."""
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
        took = damped_at - silent_at
        assert took <= watchdog_s + margin_s, f'damping after {took:.3f} s'
        return took
    finally:
        s.close()


def sdk_imu_readings(port: int, n: int = 600, timeout_s: float = 30.0) -> dict[int, tuple]:
    """The real SDK (low level) sends InitCmdData (mode 0x0A, stopped loops: no torque) and
    reads LowState.imu until ``n`` distinct states: {tick: (gyroscope, accelerometer)}."""
    from unitree_legged_sdk import robot_interface as sdk
    udp = sdk.UDP(0xFF, free_port(), '127.0.0.1', port)
    cmd, state = sdk.LowCmd(), sdk.LowState()
    udp.InitCmdData(cmd)
    readings, end = {}, time.monotonic() + timeout_s
    while len(readings) < n:
        assert time.monotonic() < end, f'{len(readings)} of {n} LowStates in {timeout_s} s'
        time.sleep(0.002)
        udp.Recv()
        udp.GetRecv(state)
        if state.tick:
            readings[state.tick] = (tuple(state.imu.gyroscope), tuple(state.imu.accelerometer))
        udp.SetSend(cmd)
        udp.Send()
    return readings


def sdk_stands_up(port: int, kp: float = 20.0, kd: float = 2.0, seconds: float = 3.0) -> dict:
    """The low-level stand-up, example_position style on all 12 motors: read the collapsed
    angles, interpolate every joint to the stand (0, 0.67, -1.3) in 1 s with ``kp``, ``kd``, hold;
    the commanded and the last measured angles, tauEst and foot forces (SDK order)."""
    from unitree_legged_sdk import robot_interface as sdk
    udp = sdk.UDP(0xFF, free_port(), '127.0.0.1', port)
    cmd, state = sdk.LowCmd(), sdk.LowState()
    udp.InitCmdData(cmd)
    q_init, q_cmd, t_next = [0.0] * 12, [0.0] * 12, time.monotonic()
    for motiontime in range(1, int(seconds / 0.002) + 1):
        t_next += 0.002
        time.sleep(max(0.0, t_next - time.monotonic()))
        udp.Recv()
        udp.GetRecv(state)
        if motiontime < 10:
            q_init = [state.motorState[j].q for j in range(12)]
        rate = min(max((motiontime - 10) / 500.0, 0.0), 1.0)
        for j in range(12):
            m = cmd.motorCmd[j]
            q_cmd[j] = q_init[j] * (1 - rate) + STAND[j % 3] * rate
            m.q, m.dq, m.tau = q_cmd[j], 0.0, 0.0
            m.Kp, m.Kd = (kp, kd) if motiontime >= 10 else (0.0, 0.0)
        udp.SetSend(cmd)
        udp.Send()
    return {'q_cmd': q_cmd, 'q': [state.motorState[j].q for j in range(12)],
            'tau': [state.motorState[j].tauEst for j in range(12)],
            'foot_force': list(state.footForce)}
