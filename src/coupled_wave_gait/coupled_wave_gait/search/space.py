"""Parameter grids: per-parameter levels, mixed-radix indexing, clipping to joint limits, and the
default grid of the Nao walk (specs/nao.md §7, R19).

The thesis gives only the number of levels per parameter (18/62/125/65/12/130/60/6/120/100); the
ranges and steps below are this project's choice. Offsets lie inside the joint ranges of the
naoV40 URDF (left and right intersected, §2.7); amplitude + offset may still reach past a limit, so
such samples are clamped when commanded and counted in the statistics (``limit_hits``). Phases
cover one full cycle of their wave (4π for the knee, 2π for the ankle).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Mapping, Sequence


@dataclass(frozen=True)
class Axis:
    """Levels lo, lo + step, ..., lo + (n-1)·step of one parameter."""
    name: str
    lo: float
    step: float
    n: int
    unit: str = ''

    def __post_init__(self):
        if self.n < 1 or (self.n > 1 and not self.step > 0.0):
            raise ValueError(f"grid axis '{self.name}': expected n >= 1 and step > 0, "
                             f"got n={self.n}, step={self.step}")

    def level(self, k: int) -> float:
        # Rounded so that decimal steps give the decimal values (0.45, not 0.45000000000000007).
        return round(self.lo + k * self.step, 10) + 0.0

    @property
    def hi(self) -> float:
        return self.level(self.n - 1)

    def levels(self) -> list[float]:
        return [self.level(k) for k in range(self.n)]


class GridSpace:
    """The Cartesian grid of its axes, indexed row-major (the last axis varies fastest)."""

    def __init__(self, axes: Sequence[Axis]):
        self.axes = tuple(axes)
        self.names = tuple(a.name for a in self.axes)
        self.size = math.prod(a.n for a in self.axes)

    def values(self, index: int) -> tuple[float, ...]:
        if not 0 <= index < self.size:
            raise IndexError(f'grid index {index} outside [0, {self.size})')
        digits = []
        for a in reversed(self.axes):
            index, k = divmod(index, a.n)
            digits.append(a.level(k))
        return tuple(reversed(digits))

    def bounds(self) -> tuple[tuple[float, float], ...]:
        return tuple((a.lo, a.hi) for a in self.axes)

    def clipped(self, limits: Mapping[str, tuple[float, float]]) -> 'GridSpace':
        """Drop the levels of the named parameters that fall outside [lower, upper]."""
        axes = []
        for a in self.axes:
            if a.name not in limits:
                axes.append(a)
                continue
            lo, hi = limits[a.name]
            inside = [k for k in range(a.n) if lo <= a.level(k) <= hi]
            if not inside:
                raise ValueError(f"grid axis '{a.name}': no level of [{a.lo}, {a.hi}] lies inside "
                                 f"the joint limits [{lo}, {hi}]")
            axes.append(replace(a, lo=a.level(inside[0]), n=len(inside)))
        return GridSpace(axes)

    def describe(self) -> list[dict]:
        return [{'name': a.name, 'lo': a.lo, 'hi': a.hi, 'step': a.step, 'levels': a.n,
                 'unit': a.unit} for a in self.axes]


# Offset ranges allowed by the joints, degrees: naoV40 URDF left pitch limits intersected with the
# right ones (Aldebaran values for RHipPitch/RKneePitch, URDF RAnklePitch), specs/nao.md §2.7.
NAO_OFFSET_LIMITS_DEG = {
    'hip_offset': (math.degrees(-1.53589), math.degrees(0.48398)),
    'knee_offset': (math.degrees(-0.0923279), math.degrees(2.11255)),
    'ankle_offset': (math.degrees(-1.1863), math.degrees(0.922581)),
}

NAO_LEVELS = (18, 62, 125, 65, 12, 130, 60, 6, 120, 100)  # specs/nao.md §7

NAO_WALK_GRID = GridSpace([
    Axis('period_s', 0.30, 0.05, 18, 's'),
    Axis('hip_amplitude', 0.0, 1.0, 62, 'deg'),
    Axis('hip_offset', -62.0, 0.5, 125, 'deg'),
    Axis('knee_amplitude', 0.0, 1.0, 65, 'deg'),
    Axis('knee_phase', -2.0 * math.pi, math.pi / 3.0, 12, 'rad'),
    Axis('knee_offset', 0.0, 0.5, 130, 'deg'),
    Axis('ankle_amplitude', 0.0, 0.5, 60, 'deg'),
    Axis('ankle_phase', -math.pi, math.pi / 3.0, 6, 'rad'),
    Axis('ankle_offset', -59.5, 0.5, 120, 'deg'),
    Axis('balance', 0.0, 0.5, 100, 'deg'),
]).clipped(NAO_OFFSET_LIMITS_DEG)
