"""Validation of the Robobo's motion commands (no ROS): what the real robot and the thesis
plugins accept, with one clear line for anything refused (spec 4.2, 10 #7-#11, R6, R16).

Error codes in the services' ``error`` field: 0 done, 1 invalid argument (the reason is logged).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

PAN_RANGE = (11, 344)    # degrees, spec 2.1 / 4.2 (thesis; spec 10 #10)
TILT_RANGE = (5, 110)
OK, INVALID = 0, 1


@dataclass(frozen=True)
class WheelsCommand:
    lspeed: float
    rspeed: float
    time_s: float
    unlock_id: int


@dataclass(frozen=True)
class AxisCommand:
    """One of pan / tilt: move to ``target`` degrees at ``speed`` (None: do not move)."""
    target: int
    speed: float | None
    unlock_id: int


def wheels(lspeed: float, rspeed: float, time_ms: float, unlock_id: int,
           strict_unlock: bool = False) -> tuple[WheelsCommand | None, str | None]:
    """A wheel command, or None and why not. Speeds beyond +-100 are clamped (spec 10 #11);
    time must be > 0 ms (spec 10 #7: the thesis divided by it)."""
    for name, v in (('lspeed', lspeed), ('rspeed', rspeed), ('time', time_ms)):
        if not isinstance(v, (int, float)) or not math.isfinite(v):
            return None, f'moveWheels: {name} must be a finite number, got {v!r}'
    if time_ms <= 0:
        return None, f'moveWheels: time must be > 0 ms, got {time_ms}'
    if strict_unlock and unlock_id == 0:
        return None, 'moveWheels: unlockid must be != 0 (strict_unlock_ids is set)'
    clamp = lambda v: max(-100.0, min(100.0, float(v)))  # noqa: E731
    return WheelsCommand(clamp(lspeed), clamp(rspeed), time_ms / 1000.0, int(unlock_id)), None


def axis(name: str, target: int, speed: int, unlock_id: int, current_deg: int,
         strict_unlock: bool = False) -> tuple[AxisCommand | None, str | None]:
    """A pan or tilt command. Out-of-range targets are refused (R6); speed > 100 is clamped, a
    speed <= 0 or a target equal to the current rounded angle means no move (R16; the thesis
    plugin's rule), which is not an error."""
    lo, hi = PAN_RANGE if name == 'pan' else TILT_RANGE
    if not lo <= target <= hi:
        return None, f'movePanTilt: {name} target {target} deg is outside {lo}..{hi}; ignored'
    if strict_unlock and speed > 0 and unlock_id == 0:
        return None, f'movePanTilt: {name} unlock id must be != 0 (strict_unlock_ids is set)'
    if speed <= 0 or target == current_deg:
        return AxisCommand(target, None, unlock_id), None
    return AxisCommand(target, float(min(speed, 100)), unlock_id), None


WHEELS = ('left', 'right', 'both')   # robobopy utils/Wheels.py


@dataclass(frozen=True)
class DegreesCommand:
    """Turn ``wheels`` (joint indices: 0 left, 1 right) by ``degrees`` at ``speed`` (signed)."""
    wheels: tuple[int, ...]
    degrees: float
    speed: float
    unlock_id: int


def wheels_by_degrees(wheel: str, degrees: float, speed: float, unlock_id: int
                      ) -> tuple[DegreesCommand | None, str | None]:
    """A moveWheelsByDegrees command, or None and why not. As the app: the angle's magnitude is
    used, the speed's sign gives the direction (robobo-app-ios MOVEBY-DEGREES); speed beyond
    +-100 is clamped; speed 0 or 0 degrees refused (the move would never end)."""
    if wheel not in WHEELS:
        return None, f'moveWheelsByDegrees: wheel must be one of {", ".join(WHEELS)}, got {wheel!r}'
    for name, v in (('degrees', degrees), ('speed', speed)):
        if not isinstance(v, (int, float)) or not math.isfinite(v) or v == 0:
            return None, f'moveWheelsByDegrees: {name} must be a finite number != 0, got {v!r}'
    joints = {'left': (0,), 'right': (1,), 'both': (0, 1)}[wheel]
    return DegreesCommand(joints, abs(float(degrees)), max(-100.0, min(100.0, float(speed))),
                          int(unlock_id)), None
