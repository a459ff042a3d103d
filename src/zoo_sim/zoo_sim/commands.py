"""Joint command sanitising: NaN/inf rejected, values beyond a joint's velocity or effort limit
clamped, both counted and summarised in a warning at most once per period of sim time."""
from __future__ import annotations

import math

import numpy as np

# the clip ufunc itself: np.clip's Python wrapper costs more than the check it makes here
_clip = np._core.umath.clip if hasattr(np, '_core') else np.core.umath.clip

WARN_PERIOD_NS = 1_000_000_000


class CommandSanitizer:
    """Limits per joint (inf: unlimited). ``velocity``/``effort`` return the value to apply, or
    None when the command is rejected."""

    def __init__(self, robot: str, joints: list[str], vel_limit: np.ndarray,
                 effort_limit: np.ndarray):
        self.robot = robot
        self.joints = joints
        self.limits = {'velocity': np.asarray(vel_limit, dtype=float),
                       'effort': np.asarray(effort_limit, dtype=float)}
        self.rejected = 0
        self.clamped = 0
        self._pending: dict[str, int] = {}
        self._last_warn_ns: int | None = None
        self._pd_bounds: dict[bytes, tuple] = {}  # joints (bytes of the index) -> PD bounds

    def one(self, kind: str, index: int, value: float) -> float | None:
        limit = self.limits[kind][index]
        if not math.isfinite(value):
            self.rejected += 1
            self._note(f'{self.joints[index]} {kind} {value} rejected')
            return None
        if abs(value) > limit:
            self.clamped += 1
            self._note(f'{self.joints[index]} {kind} {value:g} clamped to ±{limit:g}')
            return math.copysign(limit, value)
        return value

    def many(self, kind: str, index: np.ndarray, values: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """(indices kept, values clamped) for a batch of commands."""
        values = np.asarray(values, dtype=float)
        finite = np.isfinite(values)
        if not finite.all():
            for i in np.flatnonzero(~finite):
                self.rejected += 1
                self._note(f'{self.joints[index[i]]} {kind} {values[i]} rejected')
            index, values = index[finite], values[finite]
        limit = self.limits[kind][index]
        over = np.abs(values) > limit
        if over.any():
            for i in np.flatnonzero(over):
                self.clamped += 1
                self._note(f'{self.joints[index[i]]} {kind} {values[i]:g} clamped to '
                           f'±{limit[i]:g}')
            values = np.clip(values, -limit, limit)
        return index, values

    def pd(self, index: np.ndarray, q: np.ndarray, dq: np.ndarray, kp: np.ndarray,
           kd: np.ndarray, tau: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> tuple:
        """PD commands: a joint with a non-finite field or a negative gain is rejected whole;
        the target angle is clamped into the joint's range, dq and tau to their limits.

        A command with nothing to reject or clamp (every one a walk sends at 250 Hz) is checked
        in ten numpy calls on the stacked fields, with the bounds kept per set of joints; any
        other takes the field-by-field path, which says what it changed."""
        try:
            stacked = np.array((q, dq, kp, kd, tau), dtype=float)
        except ValueError:  # fields of different lengths: the caller's check names them
            stacked = None
        if stacked is not None and stacked.ndim == 2 and np.isfinite(stacked).all() \
                and (stacked[2:4] >= 0.0).all():
            key = index.tobytes()
            bounds = self._pd_bounds.get(key)
            if bounds is None:
                vel, eff = self.limits['velocity'][index], self.limits['effort'][index]
                bounds = self._pd_bounds[key] = (
                    np.array((lower[index], -vel, -eff)), np.array((upper[index], vel, eff)))
            limited = stacked[[0, 1, 4]]
            if (_clip(limited, bounds[0], bounds[1]) == limited).all():
                return index, stacked[0], stacked[1], stacked[2], stacked[3], stacked[4]
        return self._pd_checked(index, q, dq, kp, kd, tau, lower, upper)

    def _pd_checked(self, index, q, dq, kp, kd, tau, lower, upper) -> tuple:
        fields = [np.asarray(f, dtype=float) for f in (q, dq, kp, kd, tau)]
        ok = np.logical_and.reduce([np.isfinite(f) for f in fields])
        ok &= (fields[2] >= 0) & (fields[3] >= 0)
        if not ok.all():
            for i in np.flatnonzero(~ok):
                self.rejected += 1
                self._note(f'{self.joints[index[i]]} pd (q {fields[0][i]:g}, dq {fields[1][i]:g}, '
                           f'kp {fields[2][i]:g}, kd {fields[3][i]:g}, tau {fields[4][i]:g}) '
                           'rejected')
            index, fields = index[ok], [f[ok] for f in fields]
        q, dq, kp, kd, tau = fields
        lo, hi = lower[index], upper[index]
        outside = (q < lo) | (q > hi)
        if outside.any():
            for i in np.flatnonzero(outside):
                self.clamped += 1
                self._note(f'{self.joints[index[i]]} position {q[i]:g} clamped to '
                           f'[{lo[i]:g}, {hi[i]:g}]')
            q = np.clip(q, lo, hi)
        index, dq = self._clamp('velocity', index, dq)
        _, tau = self._clamp('effort', index, tau)
        return index, q, dq, kp, kd, tau

    def _clamp(self, kind: str, index: np.ndarray, values: np.ndarray) -> tuple:
        limit = self.limits[kind][index]
        over = np.abs(values) > limit
        for i in np.flatnonzero(over):
            self.clamped += 1
            self._note(f'{self.joints[index[i]]} {kind} {values[i]:g} clamped to ±{limit[i]:g}')
        return index, np.clip(values, -limit, limit)

    def _note(self, what: str) -> None:
        self._pending[what] = self._pending.get(what, 0) + 1

    def warning(self, now_ns: int) -> str | None:
        """A summary of the commands sanitised since the last one, at most once per period."""
        if not self._pending:
            return None
        if self._last_warn_ns is not None and now_ns - self._last_warn_ns < WARN_PERIOD_NS:
            return None
        self._last_warn_ns = now_ns
        items = sorted(self._pending.items())
        self._pending.clear()
        shown = '; '.join(f'{w}' + (f' (x{n})' if n > 1 else '') for w, n in items[:5])
        more = f'; and {len(items) - 5} more' if len(items) > 5 else ''
        return f'{self.robot}: unsafe joint commands not passed to physics: {shown}{more}'
