"""Where candidates come from: the seed's random-order grid, or CMA-ES (the thesis' future work).

A strategy hands out batches of numbered candidates. Sequence numbers are a pure function of the
strategy's settings (and, for CMA-ES, of the results told so far), which is what lets a resumed
search skip exactly the candidates its journal already holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

import cma
import numpy as np

from .cmaes import CMAES
from .permutation import KeyedPermutation
from .space import GridSpace


@dataclass(frozen=True)
class Candidate:
    seq: int                      # position in the search order; also the candidate id
    values: tuple[float, ...]     # parameter values in the space's order
    info: dict = field(default_factory=dict)


class GridStrategy:
    """Every grid point once, in the order of a keyed permutation of the grid index."""
    feedback = False

    def __init__(self, space: GridSpace, key: int):
        self.space, self.key = space, int(key)
        self._perm = KeyedPermutation(space.size, self.key)

    def header(self) -> dict:
        return {'strategy': 'grid', 'key': self.key, 'space': self.space.describe()}

    def batches(self) -> Iterator[list[Candidate]]:
        for seq in range(self.space.size):
            index = self._perm(seq)
            yield [Candidate(seq, self.space.values(index), {'index': index})]

    def tell(self, batch: Sequence[Candidate], fitness: Sequence[float]) -> None:
        pass


class CmaStrategy:
    """CMA-ES (pycma, see :mod:`.cmaes`) maximising fitness in the box of the space's bounds,
    searched in coordinates normalised to [0, 1]. pycma's ``BoundTransform`` keeps every candidate
    inside the box. The header names the pycma version: another version may propose other
    candidates, so its journal is not resumed."""
    feedback = True

    def __init__(self, space: GridSpace, seed: int, sigma0: float = 0.3,
                 popsize: int | None = None, start: Sequence[float] | None = None):
        self.space, self.seed, self.sigma0 = space, int(seed), float(sigma0)
        b = np.array(space.bounds(), dtype=float)
        self._lo, self._span = b[:, 0], np.where(b[:, 1] > b[:, 0], b[:, 1] - b[:, 0], 1.0)
        self.start = None if start is None else [float(v) for v in start]
        x0 = np.full(len(b), 0.5) if start is None else (np.asarray(start) - self._lo) / self._span
        n = len(b)
        self.es = CMAES(x0, self.sigma0, self.seed, popsize, bounds=([0.0] * n, [1.0] * n))

    def header(self) -> dict:
        return {'strategy': 'cma-es', 'engine': f'pycma {cma.__version__}', 'seed': self.seed,
                'sigma0': self.sigma0, 'popsize': self.es.lam, 'start': self.start,
                'space': self.space.describe()}

    def batches(self) -> Iterator[list[Candidate]]:
        lam = self.es.lam
        while True:
            g = self.es.generation
            x = np.clip(self.es.ask(), 0.0, 1.0)  # inside already; the clip guards rounding
            values = self._lo + x * self._span
            yield [Candidate(g * lam + j, tuple(float(v) for v in values[j]), {'generation': g})
                   for j in range(lam)]

    def tell(self, batch: Sequence[Candidate], fitness: Sequence[float]) -> None:
        self.es.tell(-np.asarray(fitness, dtype=float))  # pycma minimises
