"""The bridge between joint commands and a Go1 over UDP, without ROS: SDK v3.8 LowCmd out at the
node's rate, LowState in, the safety layer, the pre-flight check and a command watchdog on the
steady clock (``time.monotonic``; injectable for tests).

States: ``preflight`` (probe commands with every loop off until a valid LowState passes the
checks), ``running``, ``failed`` (nothing more is sent). While running the bridge sends damping
until the first joint command, then the latest command through :class:`Safety`; damping again
when commands stop for ``watchdog_s`` (resumes with the next command) or when the power
protection trips (latched).

The socket: bound to ``local_ip`` ('' = the address this machine sends to ``robot_ip`` from:
127.0.0.1 for a robot on loopback, its 192.168.123.x address for a wired Go1; never the
wildcard), and state is taken only from ``robot_ip``:``robot_port``. A datagram from any other
peer is dropped, counted (``foreign_datagrams``) and logged, rate-limited (the first in full
naming the peer, then a count per period): another program on the machine must not feed the
safety layer (forged LowStates latched the power protection).
"""
from __future__ import annotations

import collections
import dataclasses
import math
import socket
import time
from typing import Callable, Sequence

import numpy as np

from unitree_udp.constants import LOW_STATE_LENGTH, MODE_SERVO, N_LEG_MOTORS
from unitree_udp.joint_map import JointMap
from unitree_udp.low_level import LowCmd, LowState, MotorCmd, decode_low_state, encode_low_cmd
from unitree_udp.packet import DecodeError
from zoo_runtime.rate_limited_log import RateLimitedLog

from .preflight import MIN_FIRMWARE, PreflightError, check_state, no_answer, notes, wrong_size
from .safety import Command, Safety, SafetyConfig

STAMP_WINDOW_US = 1_000_000
# Room for the robot's states while other peers flood the port (their datagrams are dropped only
# once read): 1 MiB asked (Linux doubles it, capped by net.core.rmem_max), ~900 datagrams of
# 807 B; the default 208 KiB lost 12 of 4500 states to 3.6 kHz of forged ones.
RECEIVE_BUFFER = 1 << 20


@dataclasses.dataclass
class BridgeConfig:
    joints: Sequence[str]                   # the ROS side's joint names (any order)
    robot_ip: str = '192.168.123.10'
    robot_port: int = 8007
    local_ip: str = ''                      # '': the address this machine reaches robot_ip from
    local_port: int = 0                     # 0: any
    watchdog_s: float = 0.1
    preflight_timeout_s: float = 1.0
    min_firmware: tuple[int, int, int] = MIN_FIRMWARE
    latency_stamps: bool = True             # put send times in LowCmd.reserve (one host only)
    safety: SafetyConfig = dataclasses.field(default_factory=SafetyConfig)


@dataclasses.dataclass
class BridgeStats:
    sent: int = 0
    received: int = 0
    states: int = 0
    crc_errors: int = 0
    length_errors: int = 0
    head_errors: int = 0
    foreign_datagrams: int = 0              # from another peer than the robot: dropped
    watchdog_trips: int = 0
    damping_cycles: int = 0
    latency_us: collections.deque = dataclasses.field(
        default_factory=lambda: collections.deque(maxlen=20000))


class BridgeCore:
    def __init__(self, config: BridgeConfig, clock: Callable[[], float] = time.monotonic):
        check_times(config)
        self.config = config
        self.clock = clock
        self.log = RateLimitedLog(clock=clock)  # rate-limited lines for the node's log
        self.map = JointMap(config.joints)
        self.safety = Safety(config.safety)
        self.stats = BridgeStats()
        self.state = 'preflight'
        self.error: str | None = None
        self.messages: list[str] = []           # for the node's log
        self.command: Command | None = None
        self.command_at: float | None = None
        self.watchdog_tripped = False
        self.last_state: LowState | None = None
        self.last_sent: Command | None = None
        self.target = (_resolve(config.robot_ip), config.robot_port)
        local = config.local_ip or source_address(self.target)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        except OSError:
            pass                                # the default buffer: still correct, less room
        try:
            self.sock.bind((local, config.local_port))
        except OSError as exc:
            self.sock.close()
            raise ValueError(f'local_ip {local}: cannot bind port {config.local_port} there '
                             f'({exc.strerror or exc}): expected an address of this machine (on '
                             'the robot\'s network)') from None
        self.sock.setblocking(False)
        self.address = self.sock.getsockname()
        self.started_at: float | None = None    # the first cycle (not construction: a lockstep
        self._power_said = False                # run builds every node before it starts)

    def close(self) -> None:
        self.sock.close()

    # -- commands in ------------------------------------------------------------------------------
    def set_command(self, names: Sequence[str], q, dq, tau, kp, kd) -> None:
        """A joint command by name (one value per name; all 12 leg joints expected)."""
        idx = {n: i for i, n in enumerate(names)}
        missing = [n for n in self.map.sdk_names if n not in idx]
        if missing:
            raise ValueError(f'command without joints {missing}')
        order = [idx[n] for n in self.map.sdk_names]
        arrays = [np.asarray(v, dtype=float)[order] for v in (q, dq, tau, kp, kd)]
        self.command = Command(*arrays)
        self.command_at = self.clock()

    # -- one cycle --------------------------------------------------------------------------------
    def cycle(self) -> bytes | None:
        """Build, limit and send this cycle's LowCmd; the bytes sent (None: nothing sent)."""
        if self.state == 'failed':
            return None
        if self.state == 'preflight':
            if self.started_at is None:
                self.started_at = self.clock()
            if self.clock() - self.started_at > self.config.preflight_timeout_s:
                self._fail(no_answer(self.target, self.config.preflight_timeout_s,
                                     self.stats.received, self.stats.foreign_datagrams))
                return None
            return self._send(LowCmd())     # the SDK's InitCmdData: every loop off
        cmd = self._choose()
        return self._send(self._low_cmd(cmd))

    def _choose(self) -> Command:
        damping = Command.damping(self.config.safety.damping_kd)
        if self.command is None or self.safety.power_tripped:
            self.stats.damping_cycles += 1
            return damping
        silent = self.clock() - self.command_at > self.config.watchdog_s
        if silent != self.watchdog_tripped:
            self.watchdog_tripped = silent
            if silent:
                self.stats.watchdog_trips += 1
                self.messages.append(f'watchdog: no command for {self.config.watchdog_s:g} s: '
                                     'damping until commands resume')
            else:
                self.messages.append('watchdog: commands resumed')
        if silent:
            self.stats.damping_cycles += 1
            return damping
        return self.safety.limit(self.command)

    def _low_cmd(self, c: Command) -> LowCmd:
        cmd = LowCmd()
        for k in range(N_LEG_MOTORS):
            cmd.motor_cmd[k] = MotorCmd(MODE_SERVO, float(c.q[k]), float(c.dq[k]),
                                        float(c.tau[k]), float(c.kp[k]), float(c.kd[k]))
        self.last_sent = c
        return cmd

    def _send(self, cmd: LowCmd) -> bytes | None:
        if self.config.latency_stamps:
            cmd.reserve = int(self.clock() * 1e6) & 0xFFFFFFFF
        packet = encode_low_cmd(cmd)
        try:
            self.sock.sendto(packet, self.target)
        except OSError as exc:
            self.messages.append(f'send to {self.target[0]}:{self.target[1]} failed: {exc}')
            return None
        self.stats.sent += 1
        return packet

    # -- states in --------------------------------------------------------------------------------
    def receive(self) -> LowState | None:
        """Every waiting datagram; the newest valid LowState (None: none this time)."""
        newest = None
        while True:
            try:
                data, peer = self.sock.recvfrom(2048)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:   # ICMP port unreachable: the robot is not (yet) there
                continue
            if peer != self.target:
                self.stats.foreign_datagrams += 1
                self.log.event('dropped datagram', f'from {peer[0]}:{peer[1]} ({len(data)} B): '
                               'state is taken only from the robot at '
                               f'{self.target[0]}:{self.target[1]}')
                continue
            self.stats.received += 1
            if self.state == 'preflight' and len(data) != LOW_STATE_LENGTH:
                self._fail(wrong_size(len(data)))
                return None
            try:
                state, _ = decode_low_state(data)
            except DecodeError as exc:
                field = f'{exc.kind}_errors'
                setattr(self.stats, field, getattr(self.stats, field) + 1)
                self.log.event(f'dropped datagram ({exc.kind})', f'from the robot: {exc}')
                continue
            newest = state
        self.log.tick()
        if newest is None or self.state == 'failed':
            return None
        if self.state == 'preflight':
            errors = check_state(newest, self.config.min_firmware)
            if errors:
                self._fail(PreflightError(' '.join(errors)))
                return None
            self.messages += notes(newest)
            self.state = 'running'
        self.stats.states += 1
        self.last_state = newest
        self._latency(newest.reserve)
        tau = np.array([m.tau_est for m in newest.motor_state[:N_LEG_MOTORS]])
        dq = np.array([m.dq for m in newest.motor_state[:N_LEG_MOTORS]])
        if not self.safety.power_check(tau, dq) and not self._power_said:
            self._power_said = True
            self.messages.append(
                f'power protection: {self.safety.last_power_w:.0f} W over '
                f'{self.config.safety.power_level * 100} W (level '
                f'{self.config.safety.power_level}): damping, latched')
        return newest

    def joint_state(self, state: LowState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(q, dq, tauEst) of a LowState in the order of ``config.joints``."""
        motors = state.motor_state[:N_LEG_MOTORS]
        return (self.map.to_robot([m.q for m in motors]), self.map.to_robot([m.dq for m in motors]),
                self.map.to_robot([m.tau_est for m in motors]))

    def _latency(self, reserve: int) -> None:
        age = (int(self.clock() * 1e6) - reserve) & 0xFFFFFFFF
        if self.config.latency_stamps and reserve and age < STAMP_WINDOW_US:
            self.stats.latency_us.append(age)

    def _fail(self, exc: PreflightError) -> None:
        self.state, self.error = 'failed', str(exc)

    # -- results ----------------------------------------------------------------------------------
    def metrics(self) -> dict:
        s = self.stats
        out = {k: v for k, v in dataclasses.asdict(s).items() if k != 'latency_us'}
        sf = self.safety
        out.update(state=self.state, error=self.error, clamped=sf.clamped, rejected=sf.rejected,
                   power_tripped=sf.power_tripped, power_level=self.config.safety.power_level)
        if s.latency_us:
            a = np.array(s.latency_us)
            out.update(state_latency_us_median=float(np.median(a)),
                       state_latency_us_p99=float(np.percentile(a, 99)))
        return out


def check_times(config: BridgeConfig) -> None:
    """0, NaN or inf would switch the watchdog or the pre-flight's wait off without a word."""
    for name in ('watchdog_s', 'preflight_timeout_s'):
        value = getattr(config, name)
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f'{name} = {value}: expected a finite number of seconds > 0')


def _resolve(host: str) -> str:
    try:
        return socket.gethostbyname(host)
    except OSError as exc:
        raise ValueError(f'robot_ip {host!r}: not an address ({exc})') from None


def source_address(target: tuple[str, int]) -> str:
    """The address this machine sends to ``target`` from (the route's source; no packet sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(target)
        except OSError as exc:
            why = exc.strerror or exc
            raise ValueError(f'local_ip: no route to the robot at {target[0]} ({why}): give '
                             'local_ip, this machine\'s address on the robot\'s network (a '
                             'wired Go1: 192.168.123.x)') from None
        return s.getsockname()[0]
