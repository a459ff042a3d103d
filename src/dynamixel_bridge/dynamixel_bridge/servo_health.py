"""Each servo's health from its readings: comm failures and hardware error bits -> a fault (the
bridge turns that servo's torque off), clean readings again -> recovery (no ROS).

A fault: ``fail_after`` consecutive failed transactions (timeout, corrupt status), or a hardware
error bit at once (P1: input voltage, overheating, overload; P2: the alert bit). Recovery:
``recover_after`` consecutive clean readings. The X-series hardware error latches in the servo
until a reboot, so there recovery needs the reboot service.
"""
from __future__ import annotations

import dataclasses

from . import instructions as ins

P1_HARDWARE = ins.P1_VOLTAGE | ins.P1_OVERHEAT | ins.P1_OVERLOAD


@dataclasses.dataclass
class ServoHealth:
    servo_id: int
    joint: str
    state: str = 'ok'  # 'ok' | 'fault'
    reason: str = ''
    fails: int = 0  # consecutive failed transactions
    clean: int = 0  # consecutive clean readings while in fault
    faults: int = 0
    recoveries: int = 0
    comm_errors: int = 0
    last_problem: str = ''

    @property
    def ok(self) -> bool:
        return self.state == 'ok'


def hardware_error(protocol: int, error: int) -> bool:
    return bool(error & (P1_HARDWARE if protocol == 1 else ins.P2_ALERT))


class HealthTracker:
    def __init__(self, protocol: int, ids: list[int], joints: list[str], *, fail_after: int = 2,
                 recover_after: int = 3) -> None:
        self.protocol = protocol
        self.fail_after = fail_after
        self.recover_after = recover_after
        self.servos = {i: ServoHealth(i, j) for i, j in zip(ids, joints)}

    def update(self, servo_id: int, comm_ok: bool, error: int, problem: str) -> str | None:
        """Returns 'fault' when the servo just entered a fault, 'recovered' when it just left
        one, else None."""
        h = self.servos[servo_id]
        if not comm_ok:
            h.comm_errors += 1
            h.fails += 1
            h.clean = 0
            h.last_problem = problem
            if h.ok and h.fails >= self.fail_after:
                return self._fault(h, problem)
            return None
        h.fails = 0
        if hardware_error(self.protocol, error):
            h.clean = 0
            h.last_problem = problem
            return self._fault(h, problem) if h.ok else None
        if not h.ok:
            h.clean += 1
            if h.clean >= self.recover_after:
                h.state, h.reason, h.clean = 'ok', '', 0
                h.recoveries += 1
                return 'recovered'
        return None

    @staticmethod
    def _fault(h: ServoHealth, problem: str) -> str:
        h.state, h.reason, h.clean = 'fault', problem, 0
        h.faults += 1
        return 'fault'
