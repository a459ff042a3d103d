"""A cheap analytic stand-in for the simulator, for search tests and trying the search without a
simulator (``--evaluator coupled_wave_gait.search.standin:StandinWalk``): a smooth "distance walked" peaked
at an arbitrary good gait, falls in two corners of the space, and a base path fed through the real
evaluation code, so that statistics, fitness and export are exercised end to end."""
from __future__ import annotations

import math
import time

import numpy as np

from gait_player.walk_evaluation import WalkStatistics, evaluate_path
from coupled_wave_gait.nao_wave_walk import WalkParams

GOOD = np.array([0.6, 20, -25, 30, 0.0, 40, 10, 0.0, -20, 25])
SPAN = np.array([1.0, 60, 60, 64, 12, 64, 30, 6, 60, 50])


class StandinWalk:
    def __init__(self, delay_s: float = 0.0):
        self.delay_s = delay_s

    def __call__(self, p: WalkParams) -> WalkStatistics:
        if self.delay_s:
            time.sleep(self.delay_s)
        v = np.array(p.as_tuple())
        q = float(np.sum(((v - GOOD) / SPAN) ** 2))
        distance = 0.6 * math.exp(-4.0 * q)          # m in 6 s
        drift = 0.05 * math.sin(3.0 * p.knee_phase)  # m sideways
        fall_at = 2.0 if (p.hip_offset < -55.0 or p.balance > 45.0) else None
        t = np.arange(0.0, 6.0 + 1e-9, p.period_s / 18)
        frac = t / 6.0
        z = np.full_like(t, 0.33)
        if fall_at is not None:
            z[t >= fall_at] = 0.1
        path = np.column_stack([distance * frac, drift * frac, z])
        return evaluate_path(t, path, p.period_s)
