"""The bridge without ROS: joint targets in (clamped), one bus cycle (read all, write all),
joint states, health, watchdog, reboot. ``bridge_node`` is its ROS shell.

Set-up (``start``): ping every id (a missing one, silent to PING_ATTEMPTS pings, is an error
naming it), check the model number, set the Return Delay Time if asked (EEPROM: written only when
different, with torque off), take the present positions as goals (no jump), torque on.
Watchdog: when no target came for ``watchdog_s`` the bridge stops forwarding and either holds
(goal = present position, torque on) or turns torque off (``watchdog_action``); new targets
resume it (torque back on first).
A faulty servo (servo_health) gets torque off; on recovery its goal is set to where it is and
torque goes back on (``auto_recover``).
"""
from __future__ import annotations

import dataclasses
import math
import threading
import time

from .bus_timing import cycle_budget
from .control_table import DEFAULT_MODEL, Model, model_by_name
from .latency_timer import ensure_latency_timer
from .priority import realtime_thread
from .sdk_bus import COMM_OK, BusError, SdkBus
from .servo_health import HealthTracker, hardware_error


PING_ATTEMPTS = 3  # at set-up: one lost status (a busy host) is not a missing servo
# before a ping is retried: a status that came late must be in before the retry flushes the
# input, or the SDK takes it for the retry's answer and the retry's for the next READ's
LATE_STATUS_S = 0.05


@dataclasses.dataclass
class BridgeConfig:
    joints: list[str]
    position_min: list[float]  # rad per joint
    position_max: list[float]
    watchdog_s: float = 0.5
    watchdog_action: str = 'hold'  # 'hold' | 'torque_off'
    return_delay_us: int = -1  # -1: leave the servos' setting
    auto_recover: bool = True
    fail_after: int = 2
    recover_after: int = 3
    realtime_priority: int = 0  # > 0: the thread running cycle() at SCHED_FIFO (priority.py)


@dataclasses.dataclass
class CycleResult:
    position: list[float]
    velocity: list[float]
    effort: list[float]
    events: list[str]


class BridgeCore:
    def __init__(self, bus: SdkBus, cfg: BridgeConfig) -> None:
        if cfg.watchdog_action not in ('hold', 'torque_off'):
            raise ValueError(f"watchdog_action {cfg.watchdog_action!r}: expected 'hold' or "
                             "'torque_off'")
        if len(cfg.joints) != len(bus.ids):
            raise ValueError(f'{len(cfg.joints)} joint names for {len(bus.ids)} servo ids')
        self.bus, self.cfg, self.model = bus, cfg, bus.model
        self.ids = list(bus.ids)
        self.index = {j: k for k, j in enumerate(cfg.joints)}
        self.health = HealthTracker(self.model.protocol, self.ids, cfg.joints,
                                    fail_after=cfg.fail_after, recover_after=cfg.recover_after)
        n = len(self.ids)
        self.goal: list[int | None] = [None] * n  # register values to send
        self.present: list[int | None] = [None] * n
        self.last_target_t: float | None = None
        self._rt_thread: int | None = None
        self.watchdog_tripped = False
        self.cycles = 0
        self.clamped = 0
        self.rejected_targets = 0
        self.return_delay_units: int | None = None
        lo_reg, hi_reg = self.model.position_limits()
        self.limits = [(max(self.model.rad_to_position(a), lo_reg),
                        min(self.model.rad_to_position(b), hi_reg))
                       for a, b in zip(cfg.position_min, cfg.position_max)]

    # --- set-up
    def start(self) -> list[str]:
        msgs = []
        missing = []
        for sid in self.ids:
            for _ in range(PING_ATTEMPTS):
                number, comm, _ = self.bus.ping(sid)
                if comm == COMM_OK:
                    break
                time.sleep(LATE_STATUS_S)  # (the next request's flush takes a late status)
            if comm != COMM_OK:
                missing.append(f'{sid} ({self.bus.describe(comm)})')
            elif number != self.model.number:
                raise BusError(f'id {sid}: model number {number}, expected {self.model.number} '
                               f'({self.model.name}); set the model parameter')
        if missing:
            raise BusError(f'{self.bus.port_name}: no answer from id {", ".join(missing)}')
        want = self.cfg.return_delay_us
        for sid in self.ids:
            value, _, _ = self.bus.read(sid, 'return_delay')
            if want >= 0 and value != want // 2:
                self.bus.write(sid, 'torque_enable', 0)
                self.bus.write(sid, 'return_delay', want // 2)
                msgs.append(f'id {sid}: return delay {2 * value} -> {want // 2 * 2} us')
                value = want // 2
            self.return_delay_units = max(self.return_delay_units or 0, value)
        self.bus.return_delay_s = 2e-6 * (self.return_delay_units or 0)
        for sid, r in self.bus.read_states().items():
            k = self.ids.index(sid)
            self.present[k] = r.position if r.ok else None
            if r.ok:
                self.goal[k] = self._clamp(k, r.position)
                self.bus.write(sid, 'goal_position', self.goal[k])
                self.bus.write(sid, 'torque_enable', 1)
        msgs.append(f'{len(self.ids)} {self.model.name} on {self.bus.port_name} at '
                    f'{self.bus.baud} baud, protocol {self.model.protocol}.0, return delay '
                    f'{2 * (self.return_delay_units or 0)} us, torque on, holding position')
        return msgs

    def bus_limit_hz(self) -> float:
        goal = self.model.item('goal_position').size
        return cycle_budget(self.model.protocol, len(self.ids), self.model.state_block[1], goal,
                            self.return_delay_units or 0, self.bus.baud).rate_hz

    # --- commands
    def _clamp(self, k: int, value: int) -> int:
        lo, hi = self.limits[k]
        if not lo <= value <= hi:
            self.clamped += 1
        return max(lo, min(hi, value))

    def set_targets(self, names, positions, now: float) -> str | None:
        """Targets by joint name (rad); returns one line naming what was wrong, or None."""
        if len(positions) != len(names):
            self.rejected_targets += 1
            return f'{len(names)} names but {len(positions)} positions: message dropped'
        unknown = [n for n in names if n not in self.index]
        bad = [n for n, p in zip(names, positions) if not math.isfinite(p)]
        for name, rad in zip(names, positions):
            k = self.index.get(name)
            if k is not None and math.isfinite(rad):
                self.goal[k] = self._clamp(k, self.model.rad_to_position(rad))
        self.last_target_t = now
        problems = []
        if unknown:
            problems.append(f'unknown joints {", ".join(unknown[:4])} (known: '
                            f'{self.cfg.joints[0]}..{self.cfg.joints[-1]})')
        if bad:
            problems.append(f'non-finite positions for {", ".join(bad[:4])}')
        if problems:
            self.rejected_targets += 1
            return '; '.join(problems) + ': those entries ignored'
        return None

    # --- the cycle
    def cycle(self, now: float) -> CycleResult:
        events: list[str] = []
        if self.cfg.realtime_priority > 0 and self._rt_thread != threading.get_ident():
            self._rt_thread = threading.get_ident()  # the executor's thread, set once
            events.append(realtime_thread(self.cfg.realtime_priority))
        self.cycles += 1
        readings = self.bus.read_states()
        pos, vel, eff = [], [], []
        for k, sid in enumerate(self.ids):
            r = readings[sid]
            problem = self.bus.describe(r.comm, r.error) if not r.ok or r.error else ''
            if r.ok and hardware_error(self.model.protocol, r.error) and self.model.protocol == 2:
                hw, comm, _ = self.bus.read(sid, 'hardware_error')  # which hardware error
                problem = _describe_hw(r.error, hw if comm == COMM_OK else 0)
            change = self.health.update(sid, r.ok, r.error, problem)
            if change == 'fault':
                self.bus.write(sid, 'torque_enable', 0)  # best effort: it may not hear it
                events.append(f'id {sid} ({self.cfg.joints[k]}): {problem}: torque off')
            elif change == 'recovered':
                events.append(self._recover(k, sid, r.position))
            if r.ok:
                self.present[k] = r.position
                m = self.model
                pos.append(m.position_to_rad(r.position))
                vel.append(m.velocity_to_rad_s(r.velocity))
                eff.append(m.load_to_effort(r.load))
            else:
                pos.append(math.nan), vel.append(math.nan), eff.append(math.nan)
        events += self._watchdog(now)
        if not self.watchdog_tripped:
            goals = {sid: self.goal[k] for k, sid in enumerate(self.ids)
                     if self.goal[k] is not None and self.health.servos[sid].ok}
            comm = self.bus.write_goals(goals)
            if comm != COMM_OK:
                events.append(f'goal SYNC_WRITE failed: {self.bus.describe(comm)}')
        return CycleResult(pos, vel, eff, events)

    def _recover(self, k: int, sid: int, position: int) -> str:
        h = self.health.servos[sid]
        if not self.cfg.auto_recover:
            h.state, h.reason = 'fault', h.last_problem + ' (cleared; auto_recover off)'
            return f'id {sid}: fault cleared; torque stays off (auto_recover false)'
        self.goal[k] = self._clamp(k, position)
        self.bus.write(sid, 'goal_position', self.goal[k])
        comm, err = self.bus.write(sid, 'torque_enable', 1)
        if comm != COMM_OK:
            h.state = 'fault'
            return f'id {sid}: recovery failed ({self.bus.describe(comm)})'
        return f'id {sid} ({self.cfg.joints[k]}): recovered, holding position, torque on'

    def _watchdog(self, now: float) -> list[str]:
        silent = self.last_target_t is not None and now - self.last_target_t > self.cfg.watchdog_s
        if silent and not self.watchdog_tripped:
            self.watchdog_tripped = True
            if self.cfg.watchdog_action == 'torque_off':
                for sid in self.ids:
                    self.bus.write(sid, 'torque_enable', 0)
            else:
                self.hold()
            return [f'watchdog: no joint_targets for {self.cfg.watchdog_s} s: '
                    + ('torque off' if self.cfg.watchdog_action == 'torque_off'
                       else 'holding position')]
        if not silent and self.watchdog_tripped:
            self.watchdog_tripped = False
            if self.cfg.watchdog_action == 'torque_off':
                for sid in self.ids:
                    if self.health.servos[sid].ok:
                        self.bus.write(sid, 'torque_enable', 1)
            return ['watchdog: joint_targets again: forwarding']
        return []

    def hold(self) -> None:
        """Goals = where the joints are now (the last readings), sent at once."""
        self.goal = list(self.present)
        self.bus.write_goals({sid: self.goal[k] for k, sid in enumerate(self.ids)
                              if self.goal[k] is not None})

    # --- services
    def reboot(self) -> tuple[bool, str]:
        """Protocol 2.0: REBOOT every faulty servo (all if none is), then torque on holding
        position. Protocol 1.0 has no REBOOT for the AX-12A: torque is switched off and on,
        which clears its alarm shutdown once the cause is gone (a power cycle is the rest)."""
        faulty = [i for i, h in self.health.servos.items() if not h.ok] or list(self.ids)
        done, failed = [], []
        for sid in faulty:
            if self.model.protocol == 2:
                comm, _ = self.bus.reboot(sid)
            else:
                comm, _ = self.bus.write(sid, 'torque_enable', 0)
            if comm != COMM_OK:
                failed.append(f'{sid} ({self.bus.describe(comm)})')
                continue
            value, comm, _ = self.bus.read(sid, 'present_position')
            k = self.ids.index(sid)
            if comm == COMM_OK:
                self.goal[k] = self._clamp(k, value)
                self.bus.write(sid, 'goal_position', self.goal[k])
            self.bus.write(sid, 'torque_enable', 1)
            done.append(sid)
        how = 'rebooted' if self.model.protocol == 2 else 'torque cycled (no REBOOT on 1.0)'
        msg = f'{how}: ids {done or "none"}' + (f'; failed: {", ".join(failed)}' if failed else '')
        return not failed, msg

    def shutdown(self, torque_off: bool = True) -> None:
        if torque_off and self.bus.port.is_open:
            for sid in self.ids:
                self.bus.write(sid, 'torque_enable', 0)
        self.bus.close()

    def metrics(self) -> dict:
        hs = self.health.servos.values()
        return {'cycles': self.cycles, 'transactions': self.bus.transactions,
                'comm_errors': sum(h.comm_errors for h in hs),
                'faults': sum(h.faults for h in hs), 'recoveries': sum(h.recoveries for h in hs),
                'faulty_ids': [h.servo_id for h in hs if not h.ok],
                'clamped_targets': self.clamped, 'rejected_targets': self.rejected_targets,
                'watchdog_tripped': self.watchdog_tripped,
                'bus_limit_hz': round(self.bus_limit_hz(), 2)}


def bus_model(protocol: int, name: str = '') -> Model:
    """The servo model on a bus: ``name``, or the protocol's default (AX-12A on 1.0,
    XM430-W350 on 2.0); a ValueError naming what was wrong."""
    if protocol not in (1, 2):
        raise ValueError(f'protocol {protocol}: expected 1 or 2')
    model = model_by_name(name) if name else DEFAULT_MODEL[protocol]
    if model.protocol != protocol:
        raise ValueError(f'model {model.name} speaks protocol {model.protocol}.0, not '
                         f'{protocol}.0')
    return model


def open_core(port: str, baud: int, model: Model, ids: list[int], cfg: BridgeConfig,
              latency_timer_ms: int = 1) -> tuple[BridgeCore, list[str]]:
    """Open the port and set up its servos (:meth:`BridgeCore.start`): the core and the lines
    to log. The bridge node and the Dynamixel backend both start a bus here; the port is
    closed again when the set-up fails."""
    lines = [ensure_latency_timer(port, latency_timer_ms)]
    bus = SdkBus(port, baud, model, ids)
    bus.open()
    try:
        core = BridgeCore(bus, cfg)
        lines += core.start()
    except Exception:
        bus.close()
        raise
    return core, lines


def _describe_hw(error: int, hw: int) -> str:
    from .instructions import describe_error
    return describe_error(2, error, hw)
