"""Serpenoid gaits of the two-plane pitch-yaw snake (specs/snake.md §6.2, R24).

theta_i(t) = A_odd  sin(d w t + i W_odd)      + C    (i odd: pitch joints with first_axis pitch)
theta_i(t) = A_even sin(d w t + i W_even + D) + C    (i even: yaw joints)

Seven parameters (A_odd, A_even, W_odd, W_even, w, D, C) plus the direction d = +-1 (reversing
negates w, spec §6.2). Amplitudes in degrees, spatial frequencies in degrees per joint index,
temporal frequency in Hz. The three core gaits of the thesis are presets:

- linear progression: a travelling wave in the pitch plane only (A_even = 0);
- lateral rolling: equal amplitudes, spatial frequency 0, D = 90 deg;
- sidewinding: travelling waves in both planes, the same spatial frequency, D = 90 deg.

Every target is within +-60 deg (R24): parameters whose |A| + |C| exceed it are refused.
:class:`Serpenoid` implements coupled_wave_gait's ``GaitGenerator`` protocol (joints, period,
sampled and continuous targets, limit violations).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Mapping

import numpy as np

JOINT_LIMIT_DEG = 60.0  # spec §2.2, R3
SAMPLE_INTERVAL = 0.1   # s: the angle file's and the AX-12 goals' 10 Hz (spec §3.4, R10)
GAITS = ('linear_progression', 'lateral_rolling', 'sidewinding')


class GaitError(ValueError):
    """Gait parameters that cannot be played; the message names the parameter."""


@dataclasses.dataclass(frozen=True)
class SerpenoidParams:
    amplitude_odd: float      # deg
    amplitude_even: float     # deg
    spatial_odd: float        # deg of phase per joint index
    spatial_even: float       # deg of phase per joint index
    frequency: float          # Hz
    phase_offset: float       # deg, D between the planes
    offset: float = 0.0       # deg, C on every joint
    direction: int = 1        # +1 or -1 (reverse: negated temporal frequency)

    def check(self) -> None:
        if self.direction not in (1, -1):
            raise GaitError(f'direction: expected 1 or -1, got {self.direction}')
        if not self.frequency > 0:
            raise GaitError(f'frequency: expected > 0 Hz, got {self.frequency}')
        for name in ('amplitude_odd', 'amplitude_even'):
            peak = abs(getattr(self, name)) + abs(self.offset)
            if peak > JOINT_LIMIT_DEG + 1e-9:
                raise GaitError(f'{name} {getattr(self, name):g} + offset {self.offset:g} deg '
                                f'reaches {peak:g} deg, beyond the +-{JOINT_LIMIT_DEG:g} deg '
                                'joint range')
        for f in dataclasses.fields(self):
            if not math.isfinite(getattr(self, f.name)):
                raise GaitError(f'{f.name}: not a finite number')

    def reversed(self) -> 'SerpenoidParams':
        return dataclasses.replace(self, direction=-self.direction)


# Presets: no values survive (spec §6.1), so these were chosen on the simulator (README, "How
# the presets were chosen"): the 0.5-1 Hz keep the fastest joint (2 pi f A) at <= 3.9 rad/s,
# inside the AX-12's 6.18 rad/s, with 10-20 goal samples per period at 10 Hz.
PRESETS: dict[str, SerpenoidParams] = {
    'linear_progression': SerpenoidParams(35.0, 0.0, 30.0, 0.0, 1.0, 0.0),
    'lateral_rolling': SerpenoidParams(10.0, 10.0, 0.0, 0.0, 0.5, 90.0),
    'sidewinding': SerpenoidParams(10.0, 30.0, 30.0, 30.0, 0.5, 90.0),
}


def preset(gait: str, **overrides) -> SerpenoidParams:
    if gait not in PRESETS:
        raise GaitError(f"gait '{gait}': expected one of {', '.join(GAITS)}")
    params = dataclasses.replace(PRESETS[gait], **overrides)
    params.check()
    return params


class Serpenoid:
    """Joint targets of a serpenoid gait for joints ``joint_1`` ... ``joint_n``."""

    def __init__(self, params: SerpenoidParams, modules: int = 16, first_axis: str = 'pitch'):
        params.check()
        if first_axis not in ('pitch', 'yaw'):
            raise GaitError(f"first_axis: expected pitch or yaw, got '{first_axis}'")
        self.params = params
        self.joints = tuple(f'joint_{i}' for i in range(1, modules + 1))
        self.period = 1.0 / params.frequency
        index = np.arange(1, modules + 1)
        odd = index % 2 == 1
        # 'odd' parameters drive the pitch joints: with first_axis yaw those are the even ones
        pitch = odd if first_axis == 'pitch' else ~odd
        p = params
        self._amp = np.radians(np.where(pitch, p.amplitude_odd, p.amplitude_even))
        self._phase = np.radians(np.where(pitch, index * p.spatial_odd,
                                          index * p.spatial_even + p.phase_offset))
        self._offset = math.radians(p.offset)
        self._omega = p.direction * 2 * math.pi * p.frequency

    @property
    def sample_interval(self) -> float:
        return SAMPLE_INTERVAL

    def continuous_rad(self, elapsed: float) -> np.ndarray:
        return self._amp * np.sin(self._omega * elapsed + self._phase) + self._offset

    def continuous_list(self, elapsed: float) -> list[float]:
        return self.continuous_rad(elapsed).tolist()

    def sample_rad(self, k: int) -> np.ndarray:
        return self.continuous_rad(k * SAMPLE_INTERVAL)

    def limit_violations(self, limits: Mapping[str, tuple[float, float]]) -> dict[str, int]:
        n = max(1, int(round(self.period / SAMPLE_INTERVAL)))
        samples = np.array([self.sample_rad(k) for k in range(n)])
        out = {}
        for j, name in enumerate(self.joints):
            lo, hi = limits.get(name, (-math.inf, math.inf))
            out[name] = int(((samples[:, j] < lo - 1e-12) | (samples[:, j] > hi + 1e-12)).sum())
        return out
