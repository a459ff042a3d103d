"""Joint command sanitising: NaN/inf rejected, values beyond a joint's velocity or effort limit
clamped, both counted and summarised in a warning at most once per period of sim time."""
from __future__ import annotations

import math

import numpy as np

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
