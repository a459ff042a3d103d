"""CMA-ES by pycma (``cma`` on PyPI, N. Hansen's reference implementation) behind the small
ask/tell interface the search uses.

Deterministic for a given seed, whatever else the process does: pycma draws its normal deviates
from the global ``numpy.random`` unless given a ``randn``; here it gets its own PCG64 stream, so
another user of the global generator (an in-process scenario run seeds it) cannot shift the
candidates. The stream is used only by ``ask``, so replaying the same asks and tells (as a resumed
search does from its journal) reproduces the same candidates bit for bit.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import cma
import numpy as np

QUIET = {'verbose': -10,   # no console output, and no cma_signals.in read from the cwd
         'verb_log': 0,    # no outcmaes/ files: the search has its own journal
         'verb_disp': 0}


class _Normal:
    """pycma's ``randn(lam, N)`` from a private generator (a class, not a lambda: picklable)."""

    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def __call__(self, *shape: int) -> np.ndarray:
        return self.rng.standard_normal(shape)


class CMAES:
    """Minimise with pycma's ``CMAEvolutionStrategy`` (its default parameters; popsize
    4 + ⌊3 ln n⌋ unless given). ``bounds`` = (lower, upper) uses pycma's ``BoundTransform``: every
    asked point lies inside the box."""

    def __init__(self, mean: np.ndarray, sigma: float, seed: int, popsize: int | None = None,
                 bounds: tuple[Sequence[float], Sequence[float]] | None = None):
        x0 = np.array(mean, dtype=float)
        if x0.ndim != 1 or x0.size < 1 or not sigma > 0.0:
            raise ValueError(f'CMA-ES: need a non-empty mean and sigma > 0, got n={x0.size}, '
                             f'sigma={sigma}')
        opts = dict(QUIET, randn=_Normal(int(seed)), seed=math.nan)  # nan: leave numpy alone
        if popsize:
            opts['popsize'] = int(popsize)
        if bounds is not None:
            opts['bounds'] = [list(map(float, bounds[0])), list(map(float, bounds[1]))]
        self.es = cma.CMAEvolutionStrategy(x0, float(sigma), opts)
        self.n = x0.size
        self.lam = int(self.es.popsize)
        self._x: list[np.ndarray] | None = None

    @property
    def generation(self) -> int:
        """Generations told so far."""
        return int(self.es.countiter)

    @property
    def mean(self) -> np.ndarray:
        """The distribution mean (pycma's genotype: before any bounds transform)."""
        return np.asarray(self.es.mean, dtype=float)

    @property
    def sigma(self) -> float:
        return float(self.es.sigma)

    def ask(self) -> np.ndarray:
        """λ candidate points, one per row."""
        self._x = self.es.ask()
        return np.array(self._x, dtype=float)

    def tell(self, f: Sequence[float]) -> None:
        """Objective values (lower is better) of the points of the last ``ask``, in order."""
        if self._x is None:
            raise RuntimeError('CMA-ES: tell() without a preceding ask()')
        f = np.asarray(f, dtype=float)
        if f.shape != (self.lam,) or not np.all(np.isfinite(f)):
            raise ValueError(f'CMA-ES: expected {self.lam} finite objective values, got {f}')
        self.es.tell(self._x, f.tolist())  # the asked arrays: pycma finds their genotypes
        self._x = None
