"""The Dynamixel bus as a backend of the robot contract (``zoo_sim.robot_interface``):
``--set sim.backend=dynamixel`` runs a scenario's robot on a bus under the simulator's node shell,
with the same topics, services, metrics and recordings as on MuJoCo. Registered in the
``zoo_sim.backends`` entry-point group; its options are ``dynamixel.<name>`` (``PARAMETERS``).

- The robot is its description's, as MuJoCo has it (``zoo_sim.described_robot``): the URDF's
  joints, in order, on servo ids 1..N (``ids``), goals clamped to the URDF's joint limits.
- ``port``: ``emulator`` (default) starts the pty bus emulator in this process, one servo per
  joint (AX-12A on Protocol 1.0) turning toward its goal at its no-load speed; any other value
  is a real port (/dev/ttyUSB0).
- The bus is what the bridge node drives (``bridge_core``, ``sdk_bus``, ``servo_health``): set-up,
  one cycle (read every servo, SYNC_WRITE the goals) at ``rate``, faults and recovery, the
  watchdog (no goals for ``watchdog_s``: hold, or torque off), clamping.
- Features: ``joint_states`` only. A bus does not know where the robot is: base pose and twist are
  NaN (the metrics observer reports them null), no imu, contacts, tf or link poses.
- Commands: goal positions (``RobotInfo.servo_goals``: ``/<robot>/joint_targets``). Velocity and
  effort commands are dropped and counted as rejected, with one warning a second naming them.
- Time: a bus runs on the wall clock. ``advance(n)`` paces sim time to it (scaled by
  ``real_time_factor`` when > 0, else 1) and runs the bus cycles that fall due; a cycle late by
  more than a period is skipped (counted: ``overruns``), never caught up in a burst.
- ``reset``: the joints hold where they are; ``set_pose``: refused with one line (a bus moves
  joints only). ``close``: torque off (``torque_off_on_exit``), the port closed, the emulator
  stopped.
"""
from __future__ import annotations

import math
import re
import sys
import time
from typing import Any, Mapping, Sequence

import numpy as np

from zoo_sim import SimConfigError
from zoo_sim.described_robot import describe

from .bridge_core import BridgeConfig, bus_model, open_core
from .control_table import baud_register
from .sdk_bus import BusError

EMULATOR = 'emulator'
DEFAULT_STEP_S = 0.001  # the worlds' physics step: sim time still advances in 1 ms steps
NOT_MEASURED = np.full(3, math.nan)
ID_RANGE = re.compile(r'^\s*(\d+)\s*(?:-\s*(\d+))?\s*$')  # '7' or '1-16'


class DynamixelBackend:
    features = frozenset({'joint_states'})
    PARAMETERS = {
        'port': (EMULATOR, "serial port of the bus (/dev/ttyUSB0), or 'emulator': the pty "
                           'emulator in this process, one servo per joint'),
        'baud': (1_000_000, 'bus baud rate (8N1)'),
        'protocol': (1, 'Dynamixel protocol: 1 (AX-12A) or 2 (X-series)'),
        'model': ('', "servo model ('': AX-12A on protocol 1, XM430-W350 on 2)"),
        'ids': ('', "servo ids in joint order: '1-16' or '1,3,5-7' ('': 1..N)"),
        'rate': (50.0, 'bus cycles per second: read every servo, SYNC_WRITE the goals'),
        'watchdog_s': (0.5, 'no joint_targets for this long (s): the watchdog action'),
        'watchdog_action': ('hold', 'hold (goals = present positions) | torque_off'),
        'return_delay_us': (-1, "Return Delay Time to set, us (-1: leave the servos')"),
        'latency_timer_ms': (1, "a USB adapter's latency timer to set, ms"),
        'auto_recover': (True, 'torque back on once a faulty servo reads clean again'),
        'torque_off_on_exit': (True, 'torque off when the run ends'),
    }

    @classmethod
    def from_config(cls, config) -> 'DynamixelBackend':
        """The backend registry's constructor (zoo_sim.backends.BackendConfig): one robot."""
        if len(config.robots) != 1:
            names = ', '.join(r.name for r in config.robots)
            raise SimConfigError(f'backend dynamixel: a bus drives one robot, got '
                                 f'{len(config.robots)} ({names})')
        return cls(config.robots[0], dict(config.options), step=config.step or DEFAULT_STEP_S,
                   real_time_factor=config.real_time_factor, world=config.world)

    def __init__(self, spec, options: Mapping[str, Any], *, step: float = DEFAULT_STEP_S,
                 real_time_factor: float = 0.0, world: str | None = None) -> None:
        self.warnings: list[str] = []
        self.notes: list[str] = []  # logged once at start (the node shell: info lines)
        self._events: list[str] = []  # bus events, emulator lines: logged as warnings
        opts = {k: options.get(k, default) for k, (default, _) in self.PARAMETERS.items()}
        described = describe(spec)
        self.info = described.info
        self.info.servo_goals = True
        self.joints = list(self.info.joints)
        n = len(self.joints)
        if world not in (None, 'empty'):
            self.warnings.append(f'world {world}: not used: a Dynamixel bus has no world')
        if opts['protocol'] not in (1, 2):
            raise SimConfigError(f"parameter dynamixel.protocol: expected 1 or 2, got "
                                 f"{opts['protocol']}")
        if opts['watchdog_action'] not in ('hold', 'torque_off'):
            raise SimConfigError("parameter dynamixel.watchdog_action: expected 'hold' or "
                                 f"'torque_off', got {opts['watchdog_action']!r}")
        model = _option('model', lambda: bus_model(int(opts['protocol']), opts['model']))
        baud = int(opts['baud'])
        if baud_register(model, baud) is None:
            raise SimConfigError(f'parameter dynamixel.baud: {model.name} cannot run at {baud}')
        ids = _option('ids', lambda: parse_ids(str(opts['ids']), n))
        rate = float(opts['rate'])
        if not (rate > 0 and math.isfinite(rate)):
            raise SimConfigError(f'parameter dynamixel.rate: expected a rate > 0 Hz, got {rate}')
        self.step_ns = int(round(step * 1e9))
        self.sim_ns = 0
        self.paused = False
        self._rtf = real_time_factor if real_time_factor > 0 else 1.0
        self._period_ns = int(round(1e9 / rate))
        self._next_cycle_ns = 0
        self._origin: tuple[float, int] | None = None  # (wall s, sim ns) that pace each other
        self.port = str(opts['port'])
        self.torque_off_on_exit = bool(opts['torque_off_on_exit'])
        self.emulator = None
        port = self.port
        if port == EMULATOR:
            port = self._start_emulator(model, ids, baud)
        limits = np.clip(described.position_limits, -model.position_range_rad / 2,
                         model.position_range_rad / 2)
        cfg = BridgeConfig(self.joints, limits[:, 0].tolist(), limits[:, 1].tolist(),
                           watchdog_s=float(opts['watchdog_s']),
                           watchdog_action=str(opts['watchdog_action']),
                           return_delay_us=int(opts['return_delay_us']),
                           auto_recover=bool(opts['auto_recover']))
        try:
            self.core, lines = open_core(port, baud, model, ids, cfg,
                                         int(opts['latency_timer_ms']))
        except (BusError, ValueError) as exc:
            self._stop_emulator()
            raise SimConfigError(f'parameter dynamixel.port: {exc}') from None
        self.notes += lines
        self.q, self.dq, self.tau = (np.full(n, math.nan) for _ in range(3))
        self.cycles_skipped = 0
        self._dropped = {'velocity': 0, 'effort': 0}
        self._dropped_said = dict(self._dropped)
        self._cycle()  # the first readings: joint_states before any step

    def _start_emulator(self, model, ids: list[int], baud: int) -> str:
        from .emulator.bus import build_bus
        from .emulator.pty_server import SWITCH_INTERVAL_S, PtyBus
        self._switch_interval = sys.getswitchinterval()  # restored by close()
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        self.emulator = PtyBus(build_bus(model.protocol, ids, model=model, baud=baud), baud,
                               log=lambda line: self._events.append(f'emulator: {line}'))
        self.emulator.start()
        self.notes.append(f'dynamixel: port emulator: {len(ids)} emulated {model.name} (ids '
                          f'{ids[0]}..{ids[-1]}, protocol {model.protocol}.0, {baud} baud) on '
                          f'{self.emulator.path}, in this process (a real bus: '
                          'sim.dynamixel.port=/dev/ttyUSB0)')
        return self.emulator.path

    def _stop_emulator(self) -> None:
        if self.emulator is not None:
            self.emulator.stop()
            self.emulator = None
            sys.setswitchinterval(self._switch_interval)

    # -- the robot -----------------------------------------------------------------------------
    def robot_names(self) -> list[str]:
        return [self.info.name]

    def robot_info(self, robot: str):
        self._check(robot)
        return self.info

    def _check(self, robot: str) -> None:
        if robot != self.info.name:
            raise SimConfigError(f"robot '{robot}': this bus drives '{self.info.name}' only")

    # -- time ----------------------------------------------------------------------------------
    def advance(self, n_steps: int) -> None:
        if self.paused:
            self._origin = None  # paced afresh from where it resumes
        elif n_steps > 0:
            self._run_until(self.sim_ns + n_steps * self.step_ns)

    def step(self, n_steps: int) -> None:
        if n_steps > 0:
            self._run_until(self.sim_ns + n_steps * self.step_ns)

    def _run_until(self, end_ns: int) -> None:
        if self._origin is None:
            self._origin = (time.monotonic(), self.sim_ns)
        while self._next_cycle_ns <= end_ns:
            self._wait_for(self._next_cycle_ns)
            self.sim_ns = max(self.sim_ns, self._next_cycle_ns)
            self._cycle()
            self._next_cycle_ns += self._period_ns
            behind = self._wall_sim_ns() - self._next_cycle_ns
            if behind > self._period_ns:  # a late cycle is skipped, not caught up in a burst
                skipped = behind // self._period_ns
                self.cycles_skipped += skipped
                self._next_cycle_ns += skipped * self._period_ns
        self._wait_for(end_ns)
        self.sim_ns = end_ns

    def _wall_sim_ns(self) -> int:
        wall0, sim0 = self._origin
        return sim0 + int((time.monotonic() - wall0) * self._rtf * 1e9)

    def _wait_for(self, sim_ns: int) -> None:
        wall0, sim0 = self._origin
        delay = wall0 + (sim_ns - sim0) * 1e-9 / self._rtf - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    def _cycle(self) -> None:
        res = self.core.cycle(self.sim_ns * 1e-9)
        self.q[:], self.dq[:], self.tau[:] = res.position, res.velocity, res.effort
        self._events += res.events

    def reset(self) -> None:
        """A bus cannot put the robot back: the joints hold where they are."""
        self.core.hold()
        self._events.append('reset: a Dynamixel bus cannot move the robot back; the joints '
                            'hold where they are')

    def set_pose(self, name: str, xyz: Sequence[float], quat_wxyz: Sequence[float]) -> None:
        line = (f"set_pose {name}: a Dynamixel bus drives joints only, it cannot move the "
                'robot; nothing done')
        self._events.append(line)
        raise SimConfigError(line)

    # -- commands ------------------------------------------------------------------------------
    def servo_goals(self, robot: str, joints: np.ndarray, positions: np.ndarray,
                    stamp_ns: int = 0) -> int:
        """Goal positions (rad) by joint index, sent at the next bus cycle, however late they
        were computed (``stamp_ns``: a real servo takes a goal when written); NaN/inf dropped."""
        problem = self.core.set_targets([self.joints[i] for i in joints], positions.tolist(),
                                        self.sim_ns * 1e-9)
        if problem and self.core.rejected_targets == 1:  # said once; counted in metrics
            self._events.append(f'/{robot}/joint_targets: {problem}')
        return int(np.isfinite(positions).sum())

    def commander(self, robot: str, kind: str):
        def drop(joint: int, value: float) -> bool:
            self._dropped[kind] += 1
            return False
        return drop

    def commands(self, robot: str, joints: np.ndarray, kind: str, values: np.ndarray) -> int:
        self._dropped[kind] += len(joints)
        return 0

    def command_warnings(self, now_ns: int) -> list[str]:
        out, self._events = self._events, []
        for kind, count in self._dropped.items():
            if count > self._dropped_said[kind]:
                out.append(f'/{self.info.name}: {count - self._dropped_said[kind]} {kind} '
                           'commands dropped: a Dynamixel bus takes goal positions only '
                           f'(/{self.info.name}/joint_targets)')
        self._dropped_said = dict(self._dropped)
        return out

    def command_counts(self, robot: str) -> tuple[int, int]:
        return sum(self._dropped.values()) + self.core.rejected_targets, self.core.clamped

    # -- state ---------------------------------------------------------------------------------
    def joint_state(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.q.copy(), self.dq.copy(), self.tau.copy()

    def base_pose(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        return NOT_MEASURED.copy(), np.full(4, math.nan)

    def base_twist(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        return NOT_MEASURED.copy(), NOT_MEASURED.copy()

    def link_poses(self, robot: str) -> tuple[list[str], np.ndarray, np.ndarray]:
        k = len(self.info.links)
        return list(self.info.links), np.full((k, 3), math.nan), np.full((k, 4), math.nan)

    def penetration(self, robot: str) -> float:
        return math.nan

    def imu(self, robot: str):
        raise SimConfigError('a Dynamixel bus has no IMU (features: joint_states)')

    def contacts(self, robot: str):
        raise SimConfigError('a Dynamixel bus has no contact sensors (features: joint_states)')

    def sensor_values(self, robot: str, sensor: Any) -> Any:
        raise SimConfigError('a Dynamixel bus has no sensor plug-ins (features: joint_states)')

    # -- report and end ------------------------------------------------------------------------
    def metrics(self) -> dict:
        out = {'backend': 'dynamixel', 'port': self.port, 'emulator': self.emulator is not None,
               'rate_hz': 1e9 / self._period_ns, 'cycles_skipped': self.cycles_skipped,
               'commands_dropped': dict(self._dropped), **self.core.metrics()}
        if self.emulator is not None:
            out['emulator_errors'] = self.emulator.errors
        return out

    def close(self) -> None:
        core, self.core = getattr(self, 'core', None), None
        if core is not None:
            core.shutdown(self.torque_off_on_exit)
        self._stop_emulator()


def parse_ids(text: str, n: int) -> list[int]:
    """``''`` -> 1..n; ``1-16`` or ``1,3,5-7`` -> those ids, one per joint, distinct, 0..252."""
    if not text.strip():
        return list(range(1, n + 1))
    ids: list[int] = []
    for part in text.split(','):
        found = ID_RANGE.match(part)
        if found is None:
            raise ValueError(f"expected ids like '1-16' or '1,3,5-7', got {text!r}")
        first = int(found[1])
        ids.extend(range(first, int(found[2] or first) + 1))
    if len(ids) != n or len(set(ids)) != n or not all(0 <= i <= 252 for i in ids):
        raise ValueError(f'expected {n} distinct ids within 0..252 (one per joint), got {ids}')
    return ids


def _option(name: str, make):
    """``make()``, its ValueError as one line naming the option."""
    try:
        return make()
    except ValueError as exc:
        raise SimConfigError(f'parameter dynamixel.{name}: {exc}') from None
