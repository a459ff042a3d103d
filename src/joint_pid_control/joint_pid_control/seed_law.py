"""The thesis' joint law, reproduced exactly (specs/nao.md §3.1-3.2), for the ``thesis`` preset.

Every update: e = target - measured; v = 10·e + 0.1·(e - e_prev) with the raw per-update
difference (not divided by dt: at a rate of f Hz it is a derivative gain of 0.1/f s); v = 0 when the
target is at or beyond a joint limit; then e_prev = e. No integral, no output clamp (the simulator's
force cap fmax limits the motion). It is faithful only when run at the rate the seed ran it: every
physics step (1 kHz).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

KP = 10.0
KD_PER_UPDATE = 0.1


class SeedLaw:
    def __init__(self, lower: Sequence[float], upper: Sequence[float]):
        self.set_limits(lower, upper)
        self.e_prev = np.zeros(self.lower.size)  # the seed's Init sets the error memory to 0
        self.command = np.zeros(self.lower.size)

    def set_limits(self, lower: Sequence[float], upper: Sequence[float]) -> None:
        self.lower = np.asarray(lower, dtype=float).copy()
        self.upper = np.asarray(upper, dtype=float).copy()

    def reset(self, mask: np.ndarray | None = None) -> None:
        m = slice(None) if mask is None else np.asarray(mask, dtype=bool)
        self.e_prev[m] = 0.0
        self.command[m] = 0.0

    def update(self, target: np.ndarray, measured: np.ndarray, dt: float = 0.0,
               target_velocity: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Velocity commands and the mask of targets at a limit (whose command is 0).
        ``dt`` and ``target_velocity`` are accepted for interface parity and not used."""
        target = np.asarray(target, dtype=float)
        e = target - np.asarray(measured, dtype=float)
        v = KP * e + KD_PER_UPDATE * (e - self.e_prev)
        at_limit = (target >= self.upper) | (target <= self.lower)
        v = np.where(at_limit, 0.0, v)
        self.e_prev = e
        self.command = v
        return v.copy(), at_limit
