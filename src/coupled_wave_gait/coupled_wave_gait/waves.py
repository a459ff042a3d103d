"""Wave shapes of the coupled-wave gait (specs/nao.md §5.3), as functions of the wave's own phase.

Every shape maps a phase ``x`` (already wrapped into ``[0, domain)``), an amplitude ``A`` and an
offset ``S`` to a value, vectorised over ``x``. The oscillator that owns the shape advances ``x`` by
``domain`` per period, so a shape with a 4π domain (the knee) completes its profile once per period
while its sine term runs twice.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

TWO_PI = 2.0 * math.pi
FOUR_PI = 4.0 * math.pi

# Hip pitch: flat top at A + S on (3π/4, π), else (6/11)·A·sin(x) + S.
HIP_FLAT_START = 3.0 * math.pi / 4.0
HIP_FLAT_END = math.pi
HIP_SINE_GAIN = 6.0 / 11.0
# Ramped hip pitch (ours, not the spec's; the generator nao_wave_walk_smooth): the flat top is
# entered by a straight ramp from the sine's crest at x = π/2 instead of a step at 3π/4 (a jump of
# (1 - (6/11)·sin(3π/4))·A, 0.61·A, in one tick, which drove the stance hip into its effort limit
# and rocked the stance foot onto its heel; coupled_wave_gait README, "Gait quality").
HIP_RAMP_START = math.pi / 2.0
HIP_RAMP_LENGTH = HIP_FLAT_START - HIP_RAMP_START

# Knee pitch: 0.22·A·sin(x) + S with a triangular peak to A + S around x = 7π/2 (4π domain).
KNEE_SINE_GAIN = 0.22
KNEE_RAMP_START = 7.0 * math.pi / 2.0 - math.pi / 4.0
KNEE_PEAK = 7.0 * math.pi / 2.0
KNEE_RAMP_END = 7.0 * math.pi / 2.0 + math.pi / 4.0

# Ankle pitch: rise of 2A over [0, 2π/5], then a slow fall of 2A over the remaining 8π/5.
ANKLE_RISE_END = 2.0 * math.pi / 5.0
ANKLE_FALL_LENGTH = 8.0 * math.pi / 5.0

ShapeFn = Callable[[np.ndarray, float, float], np.ndarray]


def sine(x: np.ndarray, a: float, s: float) -> np.ndarray:
    return a * np.sin(x) + s


def hip_pitch(x: np.ndarray, a: float, s: float) -> np.ndarray:
    flat = (x > HIP_FLAT_START) & (x < HIP_FLAT_END)
    return np.where(flat, a + s, HIP_SINE_GAIN * a * np.sin(x) + s)


def hip_pitch_ramped(x: np.ndarray, a: float, s: float) -> np.ndarray:
    flat = (x > HIP_FLAT_START) & (x < HIP_FLAT_END)
    rising = (x > HIP_RAMP_START) & (x <= HIP_FLAT_START)
    y_start = HIP_SINE_GAIN * a + s  # the sine's crest, sin(π/2) = 1
    up = y_start + (x - HIP_RAMP_START) / HIP_RAMP_LENGTH * (a + s - y_start)
    return np.where(flat, a + s, np.where(rising, up, HIP_SINE_GAIN * a * np.sin(x) + s))


def knee_pitch(x: np.ndarray, a: float, s: float) -> np.ndarray:
    base = KNEE_SINE_GAIN * a * np.sin(x) + s
    peak = a + s
    y_start = KNEE_SINE_GAIN * a * math.sin(KNEE_RAMP_START) + s
    y_end = KNEE_SINE_GAIN * a * math.sin(KNEE_RAMP_END) + s
    half = KNEE_PEAK - KNEE_RAMP_START
    rising = (x > KNEE_RAMP_START) & (x <= KNEE_PEAK)
    falling = (x > KNEE_PEAK) & (x <= KNEE_RAMP_END)
    up = y_start + (x - KNEE_RAMP_START) / half * (peak - y_start)
    down = peak + (x - KNEE_PEAK) / half * (y_end - peak)
    return np.where(rising, up, np.where(falling, down, base))


def ankle_pitch(x: np.ndarray, a: float, s: float) -> np.ndarray:
    rise = x / ANKLE_RISE_END * 2.0 * a + (s - a)
    fall = (x - ANKLE_RISE_END) / ANKLE_FALL_LENGTH * (-2.0 * a) + (s + a)
    return np.where(x <= ANKLE_RISE_END, rise, fall)


# The same shapes for one sample in plain floats, given sin(x) (the bank takes the sines of all its
# joints in one numpy call): the Walker's continuous playback evaluates one sample per control
# tick, where numpy's per-call cost dwarfs the arithmetic. Each expression repeats its vectorised
# twin's operations in the same order, so the values are the same to the last bit (tested).
ScalarFn = Callable[[float, float, float, float], float]
KNEE_SIN_RAMP_START = math.sin(KNEE_RAMP_START)
KNEE_SIN_RAMP_END = math.sin(KNEE_RAMP_END)


def sine_at(x: float, sin_x: float, a: float, s: float) -> float:
    return a * sin_x + s


def hip_pitch_at(x: float, sin_x: float, a: float, s: float) -> float:
    if HIP_FLAT_START < x < HIP_FLAT_END:
        return a + s
    return HIP_SINE_GAIN * a * sin_x + s


def hip_pitch_ramped_at(x: float, sin_x: float, a: float, s: float) -> float:
    if HIP_FLAT_START < x < HIP_FLAT_END:
        return a + s
    if HIP_RAMP_START < x <= HIP_FLAT_START:
        y_start = HIP_SINE_GAIN * a + s
        return y_start + (x - HIP_RAMP_START) / HIP_RAMP_LENGTH * (a + s - y_start)
    return HIP_SINE_GAIN * a * sin_x + s


def knee_pitch_at(x: float, sin_x: float, a: float, s: float) -> float:
    half = KNEE_PEAK - KNEE_RAMP_START
    peak = a + s
    if KNEE_RAMP_START < x <= KNEE_PEAK:
        y_start = KNEE_SINE_GAIN * a * KNEE_SIN_RAMP_START + s
        return y_start + (x - KNEE_RAMP_START) / half * (peak - y_start)
    if KNEE_PEAK < x <= KNEE_RAMP_END:
        y_end = KNEE_SINE_GAIN * a * KNEE_SIN_RAMP_END + s
        return peak + (x - KNEE_PEAK) / half * (y_end - peak)
    return KNEE_SINE_GAIN * a * sin_x + s


def ankle_pitch_at(x: float, sin_x: float, a: float, s: float) -> float:
    if x <= ANKLE_RISE_END:
        return x / ANKLE_RISE_END * 2.0 * a + (s - a)
    return (x - ANKLE_RISE_END) / ANKLE_FALL_LENGTH * (-2.0 * a) + (s + a)


@dataclass(frozen=True)
class WaveShape:
    """A named shape, the length of its phase domain (2π, or 4π for the knee) and its one-sample
    form (``at``: x, sin(x), A, S -> value)."""
    name: str
    fn: ShapeFn
    domain: float = TWO_PI
    at: ScalarFn | None = None

    def __call__(self, x: np.ndarray, a: float, s: float) -> np.ndarray:
        return self.fn(np.asarray(x, dtype=float), a, s)


SHAPES: dict[str, WaveShape] = {
    'sine': WaveShape('sine', sine, at=sine_at),
    'hip_pitch': WaveShape('hip_pitch', hip_pitch, at=hip_pitch_at),
    'hip_pitch_ramped': WaveShape('hip_pitch_ramped', hip_pitch_ramped, at=hip_pitch_ramped_at),
    'knee_pitch': WaveShape('knee_pitch', knee_pitch, FOUR_PI, knee_pitch_at),
    'ankle_pitch': WaveShape('ankle_pitch', ankle_pitch, at=ankle_pitch_at),
}
