"""IR intensity of a ray bundle (no ROS, no MuJoCo): the Robobo thesis' calibrated law.

IR = sum over the bundle's rays of a * D**b, D in metres (specs/robobo.md 5.2, "Intensity law":
a = 0.124, b = -1.7823, fitted on the real front_c facing white matte paper). One ray at 0.1 m
gives 7.5114, at 0.4 m 0.63485 (R18). Presets (R19): ``thesis`` (default, spec 10 #6) and
``mint`` (MINT's refit a = 0.1288, b = -1.7887; we keep float output, MINT casts to int).
No other material has a sourced calibration, so no other preset exists.

Rays that hit nothing within the range (``dist`` < 0 or > max range) follow ``miss_rule``:
``inf`` (default, spec 10 #12): they contribute nothing, so open space reads low; ``max_range``:
they count as a hit at the maximum range (0.4 m), the rule of a Gazebo ray sensor that reports
misses at its max range. Baselines on open floor are measured and listed in zoo_sim's README.

Contact: the law grows without bound as D -> 0, a real sensor saturates. Every ray closer than
CONTACT_M reads as at CONTACT_M, and a sensor whose window is inside or behind an obstacle
(``contact``) reads that value on every ray: the law's contact value, 16 a CONTACT_M**b (25042
with the thesis law). No source gives the real saturation (spec 12: IR filtering is a known gap);
5 mm is a modelling choice, below the calibrated 5-35 cm, so no calibrated reading moves.
"""
from __future__ import annotations

import numpy as np

PRESETS: dict[str, tuple[float, float]] = {
    'thesis': (0.124, -1.7823),   # spec 5.2 (thesis 6.4.3)
    'mint': (0.1288, -1.7887),    # spec 5.2 (later MINT simulator)
}
MISS_RULES = ('inf', 'max_range')
CONTACT_M = 0.005   # m: the saturation distance (module docstring)


def law(preset: str) -> tuple[float, float]:
    """(a, b) of a preset; a clear error for an unknown one."""
    try:
        return PRESETS[preset]
    except KeyError:
        raise ValueError(f"IR preset '{preset}': expected one of {', '.join(PRESETS)}") from None


def ray_intensity(dist: np.ndarray, a: float, b: float) -> np.ndarray:
    """a * D**b per ray; non-positive or non-finite distances give 0."""
    d = np.asarray(dist, dtype=float)
    ok = np.isfinite(d) & (d > 0)
    out = np.zeros_like(d)
    out[ok] = a * d[ok] ** b
    return out


def intensity(dist: np.ndarray, max_range: float, preset: str = 'thesis',
              miss_rule: str = 'inf', contact: bool = False) -> float:
    """The bundle's intensity for ray distances ``dist`` (m; < 0 = no hit, MuJoCo's mj_ray);
    ``contact``: the window is inside or behind an obstacle, every ray at CONTACT_M."""
    if miss_rule not in MISS_RULES:
        raise ValueError(f"IR miss rule '{miss_rule}': expected one of {', '.join(MISS_RULES)}")
    a, b = law(preset)
    d = np.asarray(dist, dtype=float).copy()
    if contact:
        d[:] = CONTACT_M
    missed = (d < 0) | (d > max_range) | ~np.isfinite(d)
    d[missed] = max_range if miss_rule == 'max_range' else np.inf
    d[d < CONTACT_M] = CONTACT_M
    return float(ray_intensity(d, a, b).sum())
