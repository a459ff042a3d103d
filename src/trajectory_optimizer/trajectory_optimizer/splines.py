"""Cubic Hermite node splines, TOWR's parameterisation (R3.1).

A spline is a chain of cubic polynomials between nodes; a node holds a position and a velocity
(ethz-adrl/towr towr/src/polynomial.cc, CubicHermitePolynomial; towr/src/node_spline.cc). The
phase-based layouts of feet and forces follow towr/src/nodes_variables_phase_based.cc: foot
motion is one constant polynomial per stance phase and ``n`` polynomials per swing phase; force
is the reverse (zero and constant in swing, ``n`` polynomials per stance phase).

The functions here work on numbers (numpy) and on casadi expressions alike, because the
Hermite weights are plain arithmetic in the local time s and the duration T.
"""
from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

def hermite_weights(s, T, deriv: int = 0):
    """Weights (w_p0, w_v0, w_p1, w_v1) of the value (deriv 0), first (1) or second (2) time
    derivative at local time s of the cubic through (p0, v0) at 0 and (p1, v1) at T."""
    u = s / T
    if deriv == 0:
        return (2 * u**3 - 3 * u**2 + 1, T * (u**3 - 2 * u**2 + u), -2 * u**3 + 3 * u**2,
                T * (u**3 - u**2))
    if deriv == 1:
        return ((6 * u**2 - 6 * u) / T, 3 * u**2 - 4 * u + 1, (6 * u - 6 * u**2) / T,
                3 * u**2 - 2 * u)
    if deriv == 2:
        return ((12 * u - 6) / T**2, (6 * u - 4) / T, (6 - 12 * u) / T**2, (6 * u - 2) / T)
    raise ValueError(f'derivative order {deriv} not in 0..2')


def base_poly_durations(total: float, dt: float) -> list[float]:
    """TOWR's Parameters::GetBasePolyDurations: dt-long polynomials, the last one shorter."""
    out, left = [], total
    while left > 1e-10:
        out.append(min(dt, left))
        left -= dt
    return out


def discretization(total: float, dt: float) -> np.ndarray:
    """Constraint times of TOWR's TimeDiscretizationConstraint: 0, dt, ..., floor(T/dt)*dt and T,
    without the duplicate T that upstream adds when dt divides T."""
    k = int(np.floor(total / dt + 1e-9))
    t = np.arange(k + 1) * dt
    if total - t[-1] > 1e-9:
        t = np.append(t, total)
    t[-1] = min(t[-1], total)
    return t


def locate(t: np.ndarray, durations: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """(polynomial index, local time) of global times t; at a junction the earlier polynomial,
    as TOWR's Spline::GetSegmentID (towr/src/spline.cc)."""
    ends = np.cumsum(durations)
    starts = ends - np.asarray(durations)
    idx = np.minimum(np.searchsorted(ends, np.asarray(t) - 1e-10), len(ends) - 1)
    return idx, np.asarray(t) - starts[idx]


def selection(t: np.ndarray, durations: Sequence[float], deriv: int) -> tuple[np.ndarray, ...]:
    """Dense matrices (S_p, S_v), each (n_nodes, len(t)), such that the spline's ``deriv`` at the
    times t is ``P @ S_p + V @ S_v`` for node positions P and velocities V (dim x n_nodes)."""
    idx, s = locate(t, durations)
    T = np.asarray(durations)[idx]
    wp0, wv0, wp1, wv1 = hermite_weights(s, T, deriv)
    n_nodes = len(durations) + 1
    sp, sv = np.zeros((n_nodes, len(t))), np.zeros((n_nodes, len(t)))
    cols = np.arange(len(t))
    sp[idx, cols] += wp0
    sp[idx + 1, cols] += wp1
    sv[idx, cols] += wv0
    sv[idx + 1, cols] += wv1
    return sp, sv


@dataclasses.dataclass(frozen=True)
class PolyInfo:
    phase: int
    n_in_phase: int
    constant: bool


def phase_polys(n_phases: int, first_constant: bool, n_changing: int) -> list[PolyInfo]:
    """TOWR's BuildPolyInfos: constant and changing phases alternate; a changing phase has
    ``n_changing`` polynomials, a constant one a single polynomial."""
    out, constant = [], first_constant
    for phase in range(n_phases):
        out += [PolyInfo(phase, 1, True)] if constant else \
            [PolyInfo(phase, n_changing, False)] * n_changing
        constant = not constant
    return out


def poly_durations(polys: list[PolyInfo], phase_durations: Sequence) -> list:
    """Polynomial durations from phase durations (numbers or casadi expressions)."""
    return [phase_durations[p.phase] / p.n_in_phase for p in polys]


def constant_node(polys: list[PolyInfo], node: int) -> bool:
    """A node touching a constant polynomial (NodesVariablesPhaseBased::IsConstantNode)."""
    adjacent = [node - 1, node] if 0 < node < len(polys) else [min(node, len(polys) - 1)]
    return any(polys[k].constant for k in adjacent)


def evaluate(P: np.ndarray, V: np.ndarray, durations: Sequence[float], t: np.ndarray,
             deriv: int) -> np.ndarray:
    """Numeric spline values (len(t), dim) from node positions and velocities (n_nodes, dim)."""
    sp, sv = selection(np.asarray(t, dtype=float), durations, deriv)
    return sp.T @ P + sv.T @ V
