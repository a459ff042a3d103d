"""The Robobo's calibrated motor laws (no ROS): specs/robobo.md section 4.

Wheels (spec 4.1, R12): theta = A(P) t + B(P) with cubic A, B of the speed percentage P; the
joint turns at the constant mean speed omega(P, t) = sign(P) [A(|P|) + B(|P|) / t] deg/s for the
commanded t seconds (float, sim time), P clamped to [-100, 100], P = 0 gives 0.
Pan / tilt (spec 4.2, R14, R15): the same theta = A t + B model fitted on move times, so the time
to move |dtheta| degrees is t = (|dtheta| - B) / A and the commanded speed
omega = |dtheta| A / (|dtheta| - B) deg/s. Default coefficients: ``robot``, fitted on the real
robot's times (issue 28; ``pan_tilt_fit``), the thesis' Table 9 fit kept as ``thesis``.
Wheel motor (``WheelMotor``): a first-order lag toward the law's speed; the default since issue 28
(0.1 s, which changes R12's default: real motors have lag, and the instant step makes the wheels
skid).
"""
from __future__ import annotations

import math
from typing import Sequence

# (a, b, c, d, e, f, g, h): A = aP^3 + bP^2 + cP + d, B = eP^3 + fP^2 + gP + h
WHEEL_PRESETS: dict[str, tuple[float, ...]] = {
    # spec 4.1 Table 8 (the thesis' documented fit; spec 10 #5 default)
    'thesis': (-0.00005, 0.00522, 6.35708, 51.36677, -0.00033, 0.04285, -2.06405, -17.69727),
    # spec 4.1, the thesis code's coefficients (upstream david-casal/robobo_gazebo)
    'code': (-4.625e-5, 5.219e-3, 6.357, 51.37, -3.253e-4, 4.285e-2, -2.064, -17.70),
    # spec 4.1, the MINT refit (upstream mintforpeople/robobo-gazebo-simulator move_wheels.cpp)
    'mint': (1.646e-6, -2.850e-3, 6.649, 51.14, -2.912e-4, 4.647e-2, -1.339, -12.25),
}
# ``robot``: pan_tilt_fit.fit_law on the real robot's times (real_robot.PAN_S / TILT_S, the
# thesis' Tables 12 and 13 as issue 28 gives them), printed by ``python -m robobo_api.pan_tilt_fit``
PAN_PRESETS: dict[str, tuple[float, ...]] = {   # spec 4.2 Table 9 and the code's digits
    'robot': (-8.94582e-05, 0.0122437, 0.578445, 8.52613, 0.000151702, -0.0200675, 0.233319, 0.0),
    'thesis': (-0.00003, 0.00388, 0.84747, 8.05468, -0.00002, 0.00106, -0.33034, -0.89074),
    'code': (-3.06e-5, 3.877e-3, 0.84747, 8.05468, -1.99e-5, 1.064e-3, -0.33034, -0.89074),
}
TILT_PRESETS: dict[str, tuple[float, ...]] = {
    'robot': (3.94551e-05, -0.00394638, 0.455217, 3.60061, -2.66949e-05, 0.00105648, -0.0239996,
              0.0),
    'thesis': (0.00001, -0.00260, 0.48094, 3.18153, -0.00009, 0.01233, -0.54953, 4.73795),
    'code': (1.409e-5, -2.598e-3, 0.4809, 3.182, -8.84e-5, 1.233e-2, -0.5495, 4.738),
}
SPEED_LIMIT = 100


def preset(table: dict[str, tuple[float, ...]], name: str, what: str) -> tuple[float, ...]:
    try:
        return table[name]
    except KeyError:
        raise ValueError(f"{what} preset '{name}': expected one of {', '.join(table)}") from None


def cubic_ab(coeffs: Sequence[float], p: float) -> tuple[float, float]:
    """(A, B) at speed percentage ``p`` (>= 0): deg/s and deg."""
    a, b, c, d, e, f, g, h = coeffs
    return a * p**3 + b * p**2 + c * p + d, e * p**3 + f * p**2 + g * p + h


def clamp_speed(p: float) -> float:
    return max(-SPEED_LIMIT, min(SPEED_LIMIT, p))


def wheel_omega(p: float, t: float, coeffs: Sequence[float] = WHEEL_PRESETS['thesis']) -> float:
    """Joint speed (rad/s) for ``moveWheels`` at speed ``p`` for ``t`` > 0 seconds (R12)."""
    if t <= 0 or not math.isfinite(t):
        raise ValueError(f'wheel time must be a positive number of seconds, got {t!r}')
    p = clamp_speed(p)
    if p == 0:
        return 0.0
    a, b = cubic_ab(coeffs, abs(p))
    return math.copysign(math.radians(a + b / t), p)


def wheel_angle_deg(p: float, t: float, coeffs: Sequence[float] = WHEEL_PRESETS['thesis']) -> float:
    """The formula's wheel angle theta = omega t in degrees (spec 4.1 table)."""
    return math.degrees(wheel_omega(p, t, coeffs)) * t


def wheel_degrees_omega(p: float, degrees: float,
                        coeffs: Sequence[float] = WHEEL_PRESETS['thesis']) -> float:
    """Wheel speed (deg/s, >= 0) for turning ``degrees`` at speed ``p``: that of the timed move
    the law says covers that angle (theta = A t + B, so t = (degrees - B) / A), so a move by
    degrees and the timed move of the same angle take the same time."""
    p = clamp_speed(p)
    if p == 0:
        return 0.0
    a, b = cubic_ab(coeffs, abs(p))
    t = (abs(degrees) - b) / a
    return a + b / t if t > 0 else a


class WheelMotor:
    """The wheel motor (issue 28's default; R12's optional model): each wheel's speed follows
    its target (the law's) with a first-order lag of ``tau`` seconds, which starts and stops with
    the same lag, so a timed move turns the wheel by exactly the law's angle (the lag lost at the
    start is run on at the end).

    Stepped at the start of each command period (the node's 2 ms timer) with the period's
    expected length, it commands the response's exact mean speed over it. What the held
    commands fell behind the response or ran ahead of it (a period longer than expected, a target
    changed between steps: a move starts when its request comes, ends when it was due) is kept
    and made up over ``tau``: spread, because a spike made up in one period makes wheels skid."""
    SETTLED_RAD_S = 1e-4      # within this of the target the motor has settled

    def __init__(self, tau: float, wheels: int = 2):
        if not tau > 0 or not math.isfinite(tau):
            raise ValueError(f'wheel motor time constant: expected > 0 s, got {tau}')
        self.tau = tau
        self.wheels = wheels
        self.reset()

    def reset(self) -> None:
        self.target = [0.0] * self.wheels     # rad/s, the law's speed
        self.speed = [0.0] * self.wheels      # rad/s, the response's at ``self.t``
        self.behind = [0.0] * self.wheels     # rad, the response's angle minus the commanded one
        self.commanded = [0.0] * self.wheels  # rad/s, held since ``self.t``
        self.t: float | None = None           # s, sim time the state is at

    @property
    def settled(self) -> bool:
        """Speed and angle caught up with the target: the command is the target until it
        changes."""
        return all(abs(v - t) < self.SETTLED_RAD_S and abs(b) < self.SETTLED_RAD_S * self.tau
                   for v, t, b in zip(self.speed, self.target, self.behind))

    def set_target(self, target: Sequence[float], at: float) -> None:
        """The law's speeds from sim time ``at`` on (a step already past ``at`` keeps its time)."""
        self._advance(at if self.t is None else max(at, self.t))
        self.target = [float(v) for v in target]

    def step(self, now: float, period: float) -> list[float]:
        """The speeds to command (rad/s) from sim time ``now`` for about ``period`` seconds."""
        self._advance(now)
        if self.settled:
            self.speed, self.behind = list(self.target), [0.0] * self.wheels
            self.commanded = list(self.target)
        else:
            decay = math.exp(-period / self.tau)
            mean = self.tau / period * (1.0 - decay)
            self.commanded = [t + (v - t) * mean + b / self.tau
                              for v, t, b in zip(self.speed, self.target, self.behind)]
        return list(self.commanded)

    def _advance(self, now: float) -> None:
        if self.t is None or now < self.t:  # the first step, or the clock went back (a reset)
            self.t = now
        dt = now - self.t
        if dt == 0.0:
            return
        decay = math.exp(-dt / self.tau)
        for k, target in enumerate(self.target):
            gap = self.speed[k] - target
            self.behind[k] += target * dt + gap * self.tau * (1.0 - decay) - self.commanded[k] * dt
            self.speed[k] = target + gap * decay
        self.t = now


def pan_tilt_time(delta_deg: float, speed: float, coeffs: Sequence[float]) -> float:
    """Formula move time (s) for |delta| degrees at ``speed`` in (0, 100] (spec 4.2 table)."""
    a, b = cubic_ab(coeffs, min(speed, SPEED_LIMIT))
    return (abs(delta_deg) - b) / a


def pan_tilt_omega(delta_deg: float, speed: float, coeffs: Sequence[float]) -> float:
    """Commanded speed (rad/s, >= 0) to move |delta| degrees at ``speed`` (R14, R15)."""
    if delta_deg == 0:
        return 0.0
    return math.radians(abs(delta_deg) / pan_tilt_time(delta_deg, speed, coeffs))
