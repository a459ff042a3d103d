"""A bank of per-joint oscillators tied together by phase couplings.

A primary :class:`Oscillator` has its own wave shape, amplitude, offset, phase and period. A
:class:`Coupling` derives a joint from a primary one (the "leader"): same shape, amplitude, offset
and period, its phase shifted, its value optionally mirrored (gain -1) and offset. This is how one
leg or arm is written out and the other follows with half a period of delay or a sign flip.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from .waves import WaveShape


@dataclass(frozen=True)
class Oscillator:
    """value(t) = shape(wrap(domain·t/period + phase, domain), amplitude, offset).

    ``phase`` is in the shape's phase units (radians of its domain, so π is half a period for a
    2π shape and a quarter period for the 4π knee shape)."""
    joint: str
    shape: WaveShape
    amplitude: float
    offset: float
    phase: float
    period: float

    def __post_init__(self):
        if not self.period > 0.0:
            raise ValueError(f"oscillator '{self.joint}': period must be > 0 s, got {self.period}")

    def value(self, cycles: np.ndarray, shift: float = 0.0) -> np.ndarray:
        """Value after ``cycles`` periods (t/period). Taking the cycle count rather than t keeps the
        phase of a sample at t = i·T/n exactly domain·i/n + phase: a sample that lands on a branch
        boundary of the shape is then classified as in exact arithmetic, whatever T is."""
        d = self.shape.domain
        # Python-style modulo into [0, domain): negative phases wrap upwards (specs/nao.md §11.14).
        x = np.mod(d * cycles + (self.phase + shift), d)
        return self.shape(x, self.amplitude, self.offset)


@dataclass(frozen=True)
class Coupling:
    """joint(t) = gain · leader(t with phase + phase_shift) + offset_shift."""
    joint: str
    leader: str
    phase_shift: float = 0.0
    gain: float = 1.0
    offset_shift: float = 0.0


class OscillatorBank:
    """Evaluates all joints at once; columns follow ``joints`` (primaries, then couplings, in the
    order given unless ``order`` names them explicitly)."""

    def __init__(self, oscillators: Iterable[Oscillator], couplings: Iterable[Coupling] = (),
                 order: Sequence[str] | None = None):
        self._primary = {o.joint: o for o in oscillators}
        self._coupled = {c.joint: c for c in couplings}
        names = list(self._primary) + list(self._coupled)
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"oscillator bank: joints defined twice: {', '.join(dup)}")
        for c in self._coupled.values():
            if c.leader not in self._primary:
                raise ValueError(f"coupling '{c.joint}': leader '{c.leader}' is not a primary "
                                 f"oscillator (have {', '.join(self._primary) or 'none'})")
        if order is not None:
            if sorted(order) != sorted(names):
                raise ValueError(f"oscillator bank: order {list(order)} must list exactly the "
                                 f"joints {names}")
            names = list(order)
        self.joints: tuple[str, ...] = tuple(names)
        self._groups = self._group_by_shape()
        self._columns = [self._column(name) for name in self.joints]
        self._phase_terms = [(period, shape.domain, phase)
                             for _, shape, _, _, phase, period, _, _ in self._columns]
        self._value_terms = [(shape.at, amplitude, offset, gain, offset_shift)
                             for _, shape, amplitude, offset, _, _, gain, offset_shift
                             in self._columns]
        self._scalar = all(shape.at is not None for _, shape, *_ in self._columns)

    def _column(self, name: str) -> tuple:
        """(joint, shape, amplitude, offset, phase, period, gain, offset_shift) of one column; the
        phase includes a coupling's shift, added as the grouped path adds it."""
        if name in self._primary:
            o, shift, gain, offset_shift = self._primary[name], 0.0, 1.0, 0.0
        else:
            c = self._coupled[name]
            o, shift, gain, offset_shift = (self._primary[c.leader], c.phase_shift, c.gain,
                                            c.offset_shift)
        return (name, o.shape, o.amplitude, o.offset, o.phase + shift, o.period, gain,
                offset_shift)

    def _group_by_shape(self) -> list[tuple]:
        """The columns by wave shape, with their parameters as arrays, so that a call evaluates
        each shape once for all its joints (the Walker's continuous playback calls the bank at
        every control tick). Per element the arithmetic is the per-joint one, so the values are
        the same to the last bit."""
        by_shape: dict[str, list] = {}
        for k, name in enumerate(self.joints):
            _, shape, *params = self._column(name)
            by_shape.setdefault(shape.name, []).append((k, shape, *params))
        groups = []
        for rows in by_shape.values():
            cols, shapes, *arrays = zip(*rows)
            groups.append((np.array(cols), shapes[0], *(np.array(a, dtype=float)
                                                        for a in arrays)))
        return groups

    def values(self, t) -> np.ndarray:
        """Joint values at times ``t`` (s, scalar or 1-D): shape (len(t), n_joints)."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        return self._evaluate(lambda period: t[:, None] / period, t.size)

    def value_list(self, t: float) -> list[float]:
        """``values(t)[0]`` as a list of floats, for one time ``t`` (s): the same numbers to the
        last bit (tested), several times cheaper. The phases and shapes run in plain floats in the
        grouped path's order of operations (Python's float ``%`` is numpy's ``mod``), the sines
        of all joints in one numpy call (math.sin may differ from numpy's sin in the last bit).
        Banks with a shape that has no one-sample form take the grouped path."""
        if not self._scalar:
            return self.values(t)[0].tolist()
        t = float(t)
        xs = [(d * (t / period) + phase) % d for period, d, phase in self._phase_terms]
        sines = np.sin(xs).tolist()
        return [gain * at(x, sin_x, amplitude, offset) + offset_shift
                for x, sin_x, (at, amplitude, offset, gain, offset_shift)
                in zip(xs, sines, self._value_terms)]

    def values_at_cycles(self, cycles) -> np.ndarray:
        """Joint values after ``cycles`` periods of every oscillator (for banks sampled on a grid of
        their common period, e.g. i/18)."""
        cycles = np.atleast_1d(np.asarray(cycles, dtype=float))
        return self._evaluate(lambda period: np.broadcast_to(cycles[:, None],
                                                             (cycles.size, period.size)),
                              cycles.size)

    def _evaluate(self, cycles_of, n: int) -> np.ndarray:
        out = np.empty((n, len(self.joints)))
        for cols, shape, amplitude, offset, phase, period, gain, offset_shift in self._groups:
            d = shape.domain
            # Python-style modulo into [0, domain): negative phases wrap upwards (§11.14).
            x = np.mod(d * cycles_of(period) + phase, d)
            out[:, cols] = gain * shape.fn(x, amplitude, offset) + offset_shift
        return out
