"""Position control of the pan or the tilt (no ROS): the thesis plugin's rule (spec 4.2) - drive
at +omega or -omega toward the target, omega from the calibrated law, then hold there.

The joints are ODE-style velocity motors (zoo_sim joint_motors) that reach a commanded speed
within a physics step, so the mover lands exactly: on the last control tick before the target it
commands the remaining angle over one tick. Holding = velocity 0 (the motor holds the angle
against gravity within its torque cap, R5), the equivalent of the thesis' equal stops. The
mover also servoes the held angle back (time constant HOLD_TAU_S): zoo_sim's idle motors let the
tilt creep by ~3 deg/s while the base drives (measured; see the README), which the thesis' equal
stops would not allow.

A move that cannot reach its target ends all the same, as a blocking call does on the real robot
(robobopy waits for the UNLOCK with no timeout of its own: remotelib.movePanWait/moveTiltWait).
The app's rule (mintforpeople/robobo-app-ios, Pods/robobo-rob-interface-module-pod/.../remoterob/
RemoteRobModuleImplementation.swift, PanWaitThread/TiltWaitThread): it polls the integer angle
every 75 ms and calls the move blocked once it has not changed for 30 polls (2.25 s), then sends
the UNLOCK. Here: blocked when the angle has moved less than STALL_DEG for STALL_S; and, ours (no
source), a timeout after TIMEOUT_FACTOR times the planned duration plus TIMEOUT_MARGIN_S. The
move then holds where it stopped and reports finished, so its unlock id is published.
"""
from __future__ import annotations

import math
from typing import Sequence

from .motor_laws import pan_tilt_omega

DONE_TOLERANCE_DEG = 0.25
HOLD_TAU_S = 0.05  # s, the hold servo's time constant
STALL_S, STALL_DEG = 30 * 0.075, 1.0   # the app: 30 polls of 75 ms without an integer change
TIMEOUT_FACTOR, TIMEOUT_MARGIN_S = 2.0, 0.5


class AxisMover:
    def __init__(self, coeffs: Sequence[float]):
        self.coeffs = coeffs
        self.target_deg: float | None = None
        self.omega_deg = 0.0          # commanded speed magnitude, deg/s
        self.unlock_id = 0
        self.started_s = 0.0
        self.hold_deg: float | None = None  # the angle held when idle
        self.stalled = False                # the last move ended short (stall or timeout)
        self._elapsed = self._limit_s = 0.0
        self._mark = (0.0, 0.0)             # (elapsed s, angle deg) when it last moved STALL_DEG

    @property
    def moving(self) -> bool:
        return self.target_deg is not None

    def start(self, current_deg: float, target_deg: float, speed: float, now_s: float,
              unlock_id: int = 0, omega_deg: float | None = None) -> float:
        """Begin a move; returns the joint velocity (rad/s) to command now. ``omega_deg``
        (deg/s) replaces the pan/tilt law's speed (a wheel turned by degrees)."""
        self.target_deg = float(target_deg)
        self.omega_deg = abs(omega_deg) if omega_deg is not None else math.degrees(
            pan_tilt_omega(target_deg - current_deg, speed, self.coeffs))
        self.unlock_id = unlock_id
        self.started_s = now_s
        self.stalled, self._elapsed, self._mark = False, 0.0, (0.0, float(current_deg))
        planned_s = abs(target_deg - current_deg) / self.omega_deg if self.omega_deg else 0.0
        self._limit_s = TIMEOUT_FACTOR * planned_s + TIMEOUT_MARGIN_S
        return math.radians(math.copysign(self.omega_deg, target_deg - current_deg))

    def stop(self, hold_deg: float | None = None) -> None:
        """Stop moving and hold ``hold_deg`` (None: the angle at the next update)."""
        self.target_deg, self.hold_deg = None, hold_deg

    def update(self, current_deg: float, dt: float) -> tuple[float, bool]:
        """(joint velocity in rad/s, finished now) for the angle ``current_deg``; ``dt`` (s) is
        the time to the next update."""
        if self.target_deg is None:
            if self.hold_deg is None:
                self.hold_deg = current_deg
            return math.radians((self.hold_deg - current_deg) / HOLD_TAU_S), False
        remaining = self.target_deg - current_deg
        if abs(remaining) <= DONE_TOLERANCE_DEG:
            self.hold_deg, self.target_deg = self.target_deg, None
            return 0.0, True
        if self._blocked(current_deg, dt):  # end short, hold where it stopped
            self.hold_deg, self.target_deg, self.stalled = current_deg, None, True
            return 0.0, True
        step = self.omega_deg * dt
        if abs(remaining) <= step:  # land on the target at the next tick
            return math.radians(remaining / dt), False
        return math.radians(math.copysign(self.omega_deg, remaining)), False

    def _blocked(self, current_deg: float, dt: float) -> bool:
        """Stalled (too little progress over the last window) or out of time."""
        self._elapsed += dt
        if self._elapsed > self._limit_s:
            return True
        since, angle = self._mark
        if abs(current_deg - angle) >= STALL_DEG:
            self._mark = (self._elapsed, current_deg)
            return False
        return self._elapsed - since >= STALL_S
