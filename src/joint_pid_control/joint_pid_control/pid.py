"""A PID position loop with a velocity output for many joints at once (one numpy call per tick).

Semantics follow control_toolbox's Pid (specs/ros_stack.md §2.2-2.3): cmd = p + i + d terms, the
integral accumulates Ki·e·dt *after* the output is computed, is skipped while |e| <= error_deadband
and is clamped to [i_clamp_min, i_clamp_max]; the output is clamped to [u_clamp_min, u_clamp_max];
anti-windup by back-calculation or conditional integration. Differences, on purpose:
- the derivative acts on the measurement, not the error (no derivative kick on target steps), and
  passes a first-order low-pass filter with time constant ``derivative_filter_time_constant``;
- ``feedforward_gain`` multiplies the target *velocity* and is added before the output clamp (so
  anti-windup sees it), since the command here is a velocity;
- targets are first clamped into the joint's position limits.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .params import Gains

NONE, BACK_CALCULATION, CONDITIONAL = 0, 1, 2
# the clip ufunc np.clip ends in, called directly (np.clip's dispatch costs four times the
# ufunc on a few dozen joints; float arrays with both bounds: the same call, the same bits)
_clip = np._core.umath.clip if hasattr(np, '_core') else np.core.umath.clip
_STRATEGY_CODE = {'none': NONE, 'back_calculation': BACK_CALCULATION,
                  'conditional_integration': CONDITIONAL}


def tracking_time_constant(g: Gains) -> float:
    """Tt of back-calculation: as given, else sqrt(Kd/Ki) when Kd != 0, else Kp/Ki."""
    if g.tracking_time_constant > 0.0:
        return g.tracking_time_constant
    if g.i == 0.0:
        return math.inf
    tt = math.sqrt(g.d / g.i) if g.d != 0.0 else g.p / g.i
    return tt if tt > 0.0 else math.inf


class JointPid:
    def __init__(self, gains: Sequence[Gains], lower: Sequence[float], upper: Sequence[float]):
        self.n = len(gains)
        self.set_gains(gains)
        self.set_limits(lower, upper)
        self.i_term = np.zeros(self.n)
        self.d_filtered = np.zeros(self.n)
        self.command = np.zeros(self.n)
        self._prev_meas = np.zeros(self.n)
        self._have_prev = np.zeros(self.n, dtype=bool)
        self._all_prev = False  # _have_prev.all(), kept as a bool

    def set_gains(self, gains: Sequence[Gains]) -> None:
        """New gains; the controller state (integral, filter) is kept."""
        if len(gains) != self.n:
            raise ValueError(f'PID: expected {self.n} gain sets, got {len(gains)}')
        col = lambda key: np.array([getattr(g, key) for g in gains], dtype=float)  # noqa: E731
        self.kp, self.ki, self.kd = col('p'), col('i'), col('d')
        self.u_max, self.u_min = col('u_clamp_max'), col('u_clamp_min')
        self.i_max, self.i_min = col('i_clamp_max'), col('i_clamp_min')
        self.deadband, self.kff = col('error_deadband'), col('feedforward_gain')
        self.tf = col('derivative_filter_time_constant')
        self.tt = np.array([tracking_time_constant(g) for g in gains])
        self.strategy = np.array([_STRATEGY_CODE[g.antiwindup_strategy] for g in gains])
        # what update() would otherwise recompute from the gains at every tick
        self._back = (self.strategy == BACK_CALCULATION) & (self.ki != 0.0)
        self._any_back = bool(self._back.any())
        self._tt_finite = np.isfinite(self.tt)
        self._conditional = self.strategy == CONDITIONAL
        self._dt_terms = None  # (dt, alpha, dt * ki) of the last dt

    def set_limits(self, lower: Sequence[float], upper: Sequence[float]) -> None:
        self.lower = np.asarray(lower, dtype=float).copy()
        self.upper = np.asarray(upper, dtype=float).copy()
        if self.lower.shape != (self.n,) or self.upper.shape != (self.n,):
            raise ValueError(f'PID: expected {self.n} lower and upper limits')

    def reset(self, mask: np.ndarray | None = None) -> None:
        """Forget integral, derivative history and last command (all joints, or where ``mask``)."""
        m = np.ones(self.n, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
        self.i_term[m] = 0.0
        self.d_filtered[m] = 0.0
        self.command[m] = 0.0
        self._have_prev[m] = False
        self._all_prev = self._all_prev and not m.any()

    def update(self, target: np.ndarray, measured: np.ndarray, dt: float,
               target_velocity: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Velocity commands for this tick and the mask of targets clamped into the limits.

        ``dt <= 0`` returns the previous command unchanged (as control_toolbox does for 0)."""
        target = np.asarray(target, dtype=float)
        tgt = _clip(target, self.lower, self.upper)
        clamped = tgt != target
        if dt <= 0.0:
            return self.command.copy(), clamped
        meas = np.asarray(measured, dtype=float)
        e = tgt - meas

        # Per tick this runs once for all joints; numpy's per-call cost dominates on a few dozen
        # joints, so what does not change the result is skipped: terms of the gains and dt are
        # kept (_dt_terms), np.where with an all-true mask is its first operand, and the
        # back-calculation and saturation terms are only formed where some joint has them.
        terms = self._dt_terms
        if terms is None or terms[0] != dt:
            terms = self._dt_terms = (dt, dt / (self.tf + dt), dt * self.ki)
        _, alpha, dt_ki = terms
        all_prev = self._all_prev
        raw = (meas - self._prev_meas) / dt
        if not all_prev:
            raw = np.where(self._have_prev, raw, 0.0)
        filtered = self.d_filtered + alpha * (raw - self.d_filtered)
        self.d_filtered = filtered if all_prev else np.where(self._have_prev, filtered, 0.0)
        self._prev_meas = meas.copy()
        if not all_prev:
            self._have_prev[:] = True
            self._all_prev = True

        u_unsat = self.kp * e + self.i_term - self.kd * self.d_filtered
        if target_velocity is not None:
            u_unsat = u_unsat + self.kff * np.asarray(target_velocity, dtype=float)
        u = _clip(u_unsat, self.u_min, self.u_max)

        di = dt_ki * e
        if self._any_back:
            back = dt * np.where(self._tt_finite, (u - u_unsat) / self.tt, 0.0)
            di = np.where(self._back, di + back, di)
        saturated = u_unsat != u
        if saturated.any():
            saturated_outward = saturated & (e * u_unsat > 0.0)
            di = np.where(self._conditional & saturated_outward, 0.0, di)
        di = np.where(np.abs(e) > self.deadband, di, 0.0)
        self.i_term = _clip(self.i_term + di, self.i_min, self.i_max)
        self.command = u
        return u.copy(), clamped
