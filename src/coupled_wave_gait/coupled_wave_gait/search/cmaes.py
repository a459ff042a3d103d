"""A small CMA-ES (μ/μ_w, λ) minimiser with ask/tell, after N. Hansen, "The CMA Evolution
Strategy: A Tutorial" (arXiv:1604.00772, default parameters of its Table 1).

Deterministic for a given seed: the random stream is used only by ``ask``, so replaying the same
asks and tells (as a resumed search does from its journal) reproduces the same state exactly.
"""
from __future__ import annotations

import math

import numpy as np


class CMAES:
    def __init__(self, mean: np.ndarray, sigma: float, seed: int, popsize: int | None = None):
        self.mean = np.array(mean, dtype=float)
        n = self.n = self.mean.size
        if n < 1 or not sigma > 0.0:
            raise ValueError(f'CMA-ES: need a non-empty mean and sigma > 0, got n={n}, '
                             f'sigma={sigma}')
        self.sigma = float(sigma)
        self.rng = np.random.Generator(np.random.PCG64(seed))
        self.lam = popsize or 4 + int(3 * math.log(n))
        mu = self.lam // 2
        w = math.log(mu + 0.5) - np.log(np.arange(1, mu + 1))
        self.weights = w / w.sum()
        self.mu_eff = 1.0 / float(np.sum(self.weights ** 2))
        me = self.mu_eff
        self.c_sigma = (me + 2.0) / (n + me + 5.0)
        self.d_sigma = 1.0 + 2.0 * max(0.0, math.sqrt((me - 1.0) / (n + 1.0)) - 1.0) + self.c_sigma
        self.c_c = (4.0 + me / n) / (n + 4.0 + 2.0 * me / n)
        self.c_1 = 2.0 / ((n + 1.3) ** 2 + me)
        self.c_mu = min(1.0 - self.c_1, 2.0 * (me - 2.0 + 1.0 / me) / ((n + 2.0) ** 2 + me))
        self.chi_n = math.sqrt(n) * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n))
        self.p_sigma = np.zeros(n)
        self.p_c = np.zeros(n)
        self.C = np.eye(n)
        self.B = np.eye(n)
        self.D = np.ones(n)
        self.generation = 0
        self._y: np.ndarray | None = None

    def ask(self) -> np.ndarray:
        """λ candidate points, one per row."""
        z = self.rng.standard_normal((self.lam, self.n))
        self._y = z @ (self.B * self.D).T
        return self.mean + self.sigma * self._y

    def tell(self, f: np.ndarray) -> None:
        """Objective values (lower is better) of the points of the last ``ask``, in order."""
        if self._y is None:
            raise RuntimeError('CMA-ES: tell() without a preceding ask()')
        f = np.asarray(f, dtype=float)
        if f.shape != (self.lam,) or not np.all(np.isfinite(f)):
            raise ValueError(f'CMA-ES: expected {self.lam} finite objective values, got {f}')
        n = self.n
        order = np.argsort(f, kind='stable')[: self.weights.size]
        y_sel = self._y[order]
        y_w = self.weights @ y_sel
        self.mean = self.mean + self.sigma * y_w
        inv_sqrt_c = self.B @ np.diag(1.0 / self.D) @ self.B.T
        cs = self.c_sigma
        self.p_sigma = (1 - cs) * self.p_sigma + math.sqrt(cs * (2 - cs) * self.mu_eff) * (
            inv_sqrt_c @ y_w)
        self.generation += 1
        ps_norm = float(np.linalg.norm(self.p_sigma))
        h_sigma = ps_norm / math.sqrt(1 - (1 - cs) ** (2 * self.generation)) < \
            (1.4 + 2.0 / (n + 1)) * self.chi_n
        cc = self.c_c
        self.p_c = (1 - cc) * self.p_c + h_sigma * math.sqrt(cc * (2 - cc) * self.mu_eff) * y_w
        rank_mu = (y_sel.T * self.weights) @ y_sel
        self.C = ((1 - self.c_1 - self.c_mu) * self.C
                  + self.c_1 * (np.outer(self.p_c, self.p_c)
                                + (1 - h_sigma) * cc * (2 - cc) * self.C)
                  + self.c_mu * rank_mu)
        self.sigma *= math.exp((cs / self.d_sigma) * (ps_norm / self.chi_n - 1.0))
        self.C = (self.C + self.C.T) / 2.0
        eigvals, self.B = np.linalg.eigh(self.C)
        self.D = np.sqrt(np.maximum(eigvals, 1e-20))
        self._y = None
