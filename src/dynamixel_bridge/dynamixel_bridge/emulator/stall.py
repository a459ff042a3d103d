"""A servo held short of its goal (against a mechanical stop, or a load it cannot lift).

AX-12A: its compliance curve (spec snake.md §3.5, Fig. 4.2) is saturated beyond margin + slope:
the motor pushes at the Torque Limit, so Present Load reads the limit (bit 10 = CW, spec §8.2 /
e-manual). XM430: its position controller saturates at the Current Limit (38), so Present Current
(126, signed) reads that limit; X_SATURATED_STEPS is where we take it to saturate (an assumption:
the e-manual gives the gains, not the error at which the output saturates). Pushing there without
getting anywhere for OVERLOAD_AFTER_S is the e-manual's overload ("the current load cannot be
controlled by the set Torque" / "persistent load that exceeds maximum output"): AX error bit 5,
X Hardware Error Status bit 5, and torque off when the Shutdown register has the overload bit (AX
default 36 and X default 52 have it). The e-manuals give no time; 0.5 s is an assumption.
Stalled = the position stays within STALL_STEPS of where the push began.
"""
from __future__ import annotations

OVERLOAD_AFTER_S = 0.5  # assumption: the e-manual names no time
STALL_STEPS = 2  # position units the pushing servo may still creep (sensor noise)
X_SATURATED_STEPS = 20  # assumption: 1.8 deg of error saturates the XM430's position controller
CW_BIT = 0x400


class StallWatch:
    def __init__(self, clock) -> None:
        """``clock``: the plant's (sim time for simulated joints: a slowed simulation must not
        look stalled)."""
        self._clock = clock
        self._since: float | None = None
        self._at = 0

    def update(self, servo, position: int) -> tuple[int | None, bool]:
        """(the load/current register while pushing at the limit or None, overload now)."""
        err = servo.get('Goal Position') - position
        if servo.model.protocol == 1:
            limit = servo.get('Torque Limit')
            side = 'CCW' if err > 0 else 'CW'
            saturated = abs(err) > servo.get(f'{side} Compliance Margin') + \
                servo.get(f'{side} Compliance Slope')
            load = limit | (CW_BIT if err < 0 else 0)
        else:
            limit = servo.get('Current Limit')
            saturated = abs(err) > X_SATURATED_STEPS
            load = limit if err > 0 else -limit  # signed; stored as two's complement
        if not (servo.torque_on and limit and saturated):
            self._since = None
            return None, False
        now = self._clock()
        if self._since is None or abs(position - self._at) > STALL_STEPS:
            self._since, self._at = now, position
            return None, False
        return load, now - self._since >= OVERLOAD_AFTER_S
