"""Per-solve wall-time budget and iteration limit for a built casadi/IPOPT solver."""
from __future__ import annotations

import time


class IterationLimits:
    """Per-solve budget and iteration limit without rebuilding the solver: IPOPT's options are
    fixed when casadi builds it, so IPOPT holds generous ceilings and this iteration callback
    stops it at the limits of the current solve (``arm``)."""

    def __init__(self, nx: int, ng: int, n_p: int):
        import casadi as ca

        outer = self

        class _Callback(ca.Callback):
            def __init__(self):
                ca.Callback.__init__(self)
                self.construct('iteration_limits', {})

            def get_n_in(self):
                return ca.nlpsol_n_out()

            def get_n_out(self):
                return 1

            def get_name_in(self, i):
                return ca.nlpsol_out(i)

            def get_name_out(self, i):
                return 'ret'

            def get_sparsity_in(self, i):
                name = ca.nlpsol_out(i)
                sizes = {'f': 1, 'x': nx, 'lam_x': nx, 'g': ng, 'lam_g': ng, 'p': n_p,
                         'lam_p': n_p}
                return ca.Sparsity.dense(sizes[name]) if name in sizes else ca.Sparsity(0, 0)

            def eval(self, arg):
                return [outer.tick()]

        self.callback = _Callback()
        self.arm(40.0, 3000)

    def arm(self, budget_s: float, max_iter: int) -> None:
        self.budget_s, self.max_iter = budget_s, max_iter
        self.t0 = time.perf_counter()
        self.calls = 0
        self.hit: str | None = None

    def tick(self) -> int:
        self.calls += 1  # the first call is iteration 0
        if self.calls - 1 >= self.max_iter:
            self.hit = 'Maximum_Iterations_Exceeded'
        elif time.perf_counter() - self.t0 >= self.budget_s:
            self.hit = 'Maximum_WallTime_Exceeded'
        return 1 if self.hit else 0
