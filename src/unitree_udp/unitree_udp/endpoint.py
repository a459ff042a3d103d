"""The simulated Go1's UDP side, without ROS: a socket where the robot listens (the MCU's
192.168.123.10:8007 for low level, the sport controller's .161:8082 for high level; 127.0.0.1 in
tests), decoding commands, counting, logging (rate-limited) and dropping bad datagrams, turning
the latest command into per-motor PD targets, and encoding the state for the last client.

Clients: like a real Go1, the robot takes commands from anyone who reaches its port and answers
the last sender of a valid command; a change of sender is logged (rate-limited: the first in
full, then a count per period) and counted in ``client_changes``.

Motor semantics (SDK order): mode 0x0A (servo) applies tau = Kp (q - q_m) + Kd (dq - dq_m) + tau;
q at PosStopF (>= 1e9; the SDK's Python example uses 1e9) turns the position term off, dq at
VelStopF (>= 16000) the velocity term. Any other mode (0x00 damping, 0x08 overheat, unknown) is
damping with ``damping_kd``. The command watchdog (steady
clock, ``watchdog_s``: finite and > 0, there is no "off") puts every motor in damping when
commands stop.
"""
from __future__ import annotations

import collections
import dataclasses
import math
import socket
import time
from typing import Callable

import numpy as np
from zoo_runtime.rate_limited_log import PERIOD_S, RateLimitedLog

from .constants import MODE_DAMPING, MODE_SERVO, N_LEG_MOTORS, STOP_DQ_MIN, STOP_Q_MIN
from .high_level import HighCmd, decode_high_cmd
from .low_level import LowCmd, decode_low_cmd
from .packet import DecodeError

MAX_DATAGRAM = 2048
STAMP_WINDOW_US = 1_000_000  # a reserve word within 1 s of now is a same-host send stamp


@dataclasses.dataclass
class MotorTargets:
    """Per SDK motor (12): the PD law's inputs and the mode reported back."""
    q: np.ndarray
    dq: np.ndarray
    kp: np.ndarray
    kd: np.ndarray
    tau: np.ndarray
    mode: np.ndarray


def damping(kd: float, q_now: np.ndarray | None = None) -> MotorTargets:
    """kp 0, so the position only has to be valid: where the joints are (the simulator counts a
    target outside the joint range as a clamped command, even without gain)."""
    z = np.zeros(N_LEG_MOTORS)
    q = z.copy() if q_now is None else np.array(q_now, dtype=float)
    return MotorTargets(q, z.copy(), z.copy(), np.full(N_LEG_MOTORS, kd), z.copy(),
                        np.full(N_LEG_MOTORS, MODE_DAMPING, dtype=int))


def targets_from_low_cmd(cmd: LowCmd, damping_kd: float, q_now: np.ndarray) -> MotorTargets:
    """The motor law's inputs for the 12 leg motors of ``cmd``. ``q_now`` (SDK order) stands in
    for a stopped position loop (its gain is 0 then, the value only has to be finite)."""
    t = damping(damping_kd, q_now)
    for k, m in enumerate(cmd.motor_cmd[:N_LEG_MOTORS]):
        if m.mode != MODE_SERVO:
            continue
        q_stop = not abs(m.q) < STOP_Q_MIN   # NaN counts as stopped
        dq_stop = not abs(m.dq) < STOP_DQ_MIN
        t.mode[k] = MODE_SERVO
        t.q[k] = q_now[k] if q_stop else m.q
        t.kp[k] = 0.0 if q_stop else m.kp
        t.dq[k] = 0.0 if dq_stop else m.dq
        t.kd[k] = 0.0 if dq_stop else m.kd
        t.tau[k] = m.tau
    return t


@dataclasses.dataclass
class EndpointStats:
    received: int = 0
    accepted: int = 0
    crc_errors: int = 0
    length_errors: int = 0
    head_errors: int = 0
    encrypted_crc: int = 0        # accepted with free-dog-sdk's "encrypted" CRC
    sent: int = 0
    send_errors: int = 0
    watchdog_trips: int = 0
    client_changes: int = 0       # a valid command from another peer than the last one
    latency_us: collections.deque = dataclasses.field(
        default_factory=lambda: collections.deque(maxlen=20000))

    def as_dict(self) -> dict:
        d = {k: v for k, v in dataclasses.asdict(self).items() if k != 'latency_us'}
        if self.latency_us:
            a = np.array(self.latency_us)
            d.update(cmd_latency_us_median=float(np.median(a)),
                     cmd_latency_us_p99=float(np.percentile(a, 99)))
        return d


class UdpEndpoint:
    """One robot port. ``level``: 'low' takes LowCmd (614 B), 'high' takes HighCmd (129 B)."""

    def __init__(self, host: str, port: int, level: str = 'low', watchdog_s: float = 0.1,
                 clock: Callable[[], float] = time.monotonic, log_period_s: float = PERIOD_S):
        if level not in ('low', 'high'):
            raise ValueError(f"level: expected 'low' or 'high', got {level!r}")
        check_watchdog_s(watchdog_s)
        self.level = level
        self.watchdog_s = watchdog_s
        self.clock = clock
        self.stats = EndpointStats()
        self.log = RateLimitedLog(log_period_s, clock)   # lines for the owner's logger
        self.client: tuple[str, int] | None = None
        self.command: LowCmd | HighCmd | None = None
        self.last_command_at: float | None = None
        self.watchdog_tripped = False
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        # no SO_REUSEADDR: two robots on one UDP port would silently share the datagrams
        self.sock.bind((host, port))
        self.sock.setblocking(False)
        self.address = self.sock.getsockname()

    def close(self) -> None:
        self.sock.close()

    def poll(self) -> bool:
        """Read every waiting datagram; True when a new valid command arrived."""
        new = False
        while True:
            try:
                data, addr = self.sock.recvfrom(MAX_DATAGRAM)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:  # ICMP port unreachable of an earlier send, and the like
                continue
            self.stats.received += 1
            cmd = self._decode(data, addr)
            if cmd is None:
                continue
            self.stats.accepted += 1
            if self.client is not None and addr != self.client:
                self.stats.client_changes += 1
                self.log.event('client changed', f'from {_peer(self.client)} to {_peer(addr)} '
                               '(states go to the last sender)')
            self.command, self.client, new = cmd, addr, True
            now = self.clock()
            self.last_command_at = now
            self._stamp_latency(cmd.reserve, now)
        if new:
            self.watchdog_tripped = False
        self.log.tick()
        return new

    def _decode(self, data: bytes, addr: tuple[str, int]) -> LowCmd | HighCmd | None:
        try:
            cmd, kind = (decode_low_cmd if self.level == 'low' else decode_high_cmd)(data)
        except DecodeError as exc:
            setattr(self.stats, f'{exc.kind}_errors', getattr(self.stats, f'{exc.kind}_errors')
                    + 1)
            self.log.event(f'dropped datagram ({exc.kind})', f'from {_peer(addr)}: {exc}')
            return None
        if kind == 'encrypted':
            self.stats.encrypted_crc += 1
        return cmd

    def _stamp_latency(self, reserve: int, now: float) -> None:
        age = (int(now * 1e6) - reserve) & 0xFFFFFFFF
        if reserve and age < STAMP_WINDOW_US:
            self.stats.latency_us.append(age)

    def silent(self) -> bool:
        """The watchdog: True (and counted once per silence) when commands stopped."""
        if self.last_command_at is None:
            return False
        if self.clock() - self.last_command_at > self.watchdog_s:
            if not self.watchdog_tripped:
                self.watchdog_tripped = True
                self.stats.watchdog_trips += 1
            return True
        return False

    def send(self, packet: bytes) -> bool:
        if self.client is None:
            return False
        try:
            self.sock.sendto(packet, self.client)
        except OSError:
            self.stats.send_errors += 1
            return False
        self.stats.sent += 1
        return True

    def stamp(self) -> int:
        """The send stamp for a state's reserve word (same-host one-way latency)."""
        return int(self.clock() * 1e6) & 0xFFFFFFFF


def check_watchdog_s(value: float) -> None:
    """A watchdog time that trips: NaN, infinity, 0 or less would switch it off without a word
    (the robot would keep executing the last command)."""
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f'watchdog_s = {value}: expected a finite number of seconds > 0 (no '
                         'command for that long puts every motor in damping; there is no off)')


def _peer(addr: tuple[str, int]) -> str:
    return f'{addr[0]}:{addr[1]}'
