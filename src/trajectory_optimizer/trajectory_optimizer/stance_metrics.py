"""Planted feet (issue 28): how a tracked run's feet keep the plan's stances, from the contacts
recorded at every physics step and the tracker's slip per stance. No ROS.

Per planned stance of each foot (the plan's contact schedule, within the plan's 0..T):
- ``contact``: the fraction of the stance's recorded samples with the foot in contact;
- ``breaks``: how often the contact was lost within it (in contact, then not);
- ``force_ratio``: the peak measured vertical force after a 10 ms moving mean, over the plan's
  peak vertical force in that stance;
- ``slip_m``: the tracker's slip of that stance (tracking.SlipMeter.per_stance), if reported.

``BOUNDS`` are the issue's: contact >= 98 % of the stance, at most 2 breaks, force ratio <= 1.5,
slip < 1 cm.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Sequence

import numpy as np

MEAN_S = 0.010  # s: the moving mean of the measured vertical force
BOUNDS = {'contact': 0.98, 'breaks': 2, 'force_ratio': 1.5, 'slip_m': 0.01}


@dataclasses.dataclass
class Stance:
    foot: str
    start: float          # plan time, s
    end: float
    contact: float        # fraction of the samples in contact
    breaks: int
    force_ratio: float    # measured peak (10 ms mean) / planned peak vertical force
    slip_m: float | None


def moving_mean(x: np.ndarray, n: int) -> np.ndarray:
    """Centred moving mean over ``n`` samples along axis 0 (shorter at the ends)."""
    if n <= 1:
        return x
    kernel = np.ones(n)
    pad = np.ones(len(x))
    return np.convolve(x, kernel, 'same') / np.convolve(pad, kernel, 'same')


def stances(feet: Sequence[str], schedule, duration: float, plan_t: np.ndarray,
            plan_fz: np.ndarray, tp: np.ndarray, in_contact: np.ndarray, fz: np.ndarray,
            slip_per_stance: Sequence[Sequence[float]] | None = None) -> list[Stance]:
    """Every planned stance of every foot, measured. ``plan_fz`` (N, F) planned vertical forces
    at ``plan_t``; ``tp`` (C,) plan times of the recorded contacts, ``in_contact`` and ``fz``
    (C, F) in the order of ``feet``."""
    n_mean = max(1, int(round(MEAN_S / float(np.median(np.diff(tp))))))
    out, phases = [], schedule.stances(duration)
    for f, foot in enumerate(feet):
        fz_mean = moving_mean(np.asarray(fz[:, f], float), n_mean)
        slips = list(slip_per_stance[f]) if slip_per_stance is not None else []
        for k, (a, b) in enumerate(phases[f]):
            rec = (tp >= a) & (tp <= b)
            planned = (plan_t >= a) & (plan_t <= b)
            touching = np.asarray(in_contact[rec, f], bool)
            peak_plan = float(plan_fz[planned, f].max()) if planned.any() else math.nan
            out.append(Stance(
                foot, a, b, float(touching.mean()) if touching.size else math.nan,
                int(np.sum(touching[:-1] & ~touching[1:])),
                float(fz_mean[rec].max() / peak_plan) if rec.any() and peak_plan > 0 else math.nan,
                slips[k] if k < len(slips) else None))
    return out


def worst(measured: Sequence[Stance]) -> dict[str, Any]:
    """The worst stance for each figure, and whether all are within ``BOUNDS``."""
    def pick(key, better):
        values = [(getattr(s, key), s) for s in measured
                  if getattr(s, key) is not None and not math.isnan(getattr(s, key))]
        if not values:
            return None, None
        v, s = (min if better == 'high' else max)(values, key=lambda p: p[0])
        return v, f'{s.foot} {s.start:.3g}-{s.end:.3g} s'

    out: dict[str, Any] = {}
    for key, better in (('contact', 'high'), ('breaks', 'low'), ('force_ratio', 'low'),
                        ('slip_m', 'low')):
        out[key], out[key + '_where'] = pick(key, better)
    out['holds'] = {
        'contact': out['contact'] is not None and out['contact'] >= BOUNDS['contact'],
        'breaks': out['breaks'] is not None and out['breaks'] <= BOUNDS['breaks'],
        'force_ratio': out['force_ratio'] is not None and
        out['force_ratio'] <= BOUNDS['force_ratio'],
        'slip_m': out['slip_m'] is not None and out['slip_m'] < BOUNDS['slip_m']}
    out['stances'] = len(measured)
    return out
