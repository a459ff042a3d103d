"""Search settings: the parameters of a scenario's ``coupled_wave_gait/gait_search`` node (the
``nao_gait_search`` scenario holds them) with the command line's flags on top."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .space import NAO_WALK_GRID
from .strategies import CmaStrategy, GridStrategy

STRATEGIES = ('grid', 'cma-es')


class SettingError(ValueError):
    """A bad search setting; ``name``, ``expected`` and ``value`` let a caller say where it came
    from (a flag, a node parameter)."""

    def __init__(self, name: str, expected: str, value: Any, where: str = ''):
        self.name, self.expected, self.value = name, expected, value
        prefix = f'{where}: ' if where else ''
        super().__init__(f'{prefix}search setting {name}: expected {expected}, got {value!r}')


@dataclass(frozen=True)
class SearchSettings:
    strategy: str = 'grid'
    key: int = 2015            # random-order key of the grid, or the seed of CMA-ES
    budget: int = 0            # candidates 0 .. budget-1; 0: the whole strategy
    sigma0: float = 0.3        # CMA-ES initial step, in the box normalised to [0, 1]
    start: tuple[float, ...] = ()  # CMA-ES initial mean (10 values); empty: the box centre
    workers: int = 0           # processes; 0: every core
    accept_pct: float = 70.0   # results-file threshold on fitness_pct
    starts: tuple[float, ...] = ()  # walk each candidate from these settle times, keep the worst
    quality: bool = False      # fitness x the gait-quality penalty (sim_evaluator.QualityScoring)
    quality_margin: float = 0.1  # aim that much inside the acceptance targets
    quality_weight: float = 1.0  # penalty exp(-weight x the relative misses)
    quality_walk_weight: float = 0.0  # weight of the forward and lateral misses; 0: quality_weight
    output: str = ''           # run directory, relative to the workspace root; empty: see below

    def __post_init__(self):
        def bad(name: str, what: str):
            raise SettingError(name, what, getattr(self, name))
        if self.strategy not in STRATEGIES:
            bad('strategy', ' or '.join(STRATEGIES))
        for name in ('key', 'budget', 'workers'):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                bad(name, 'an integer >= 0')
        if not (isinstance(self.sigma0, (int, float)) and 0.0 < self.sigma0 <= 1.0):
            bad('sigma0', 'a number in (0, 1]')
        if self.start and (len(self.start) != len(NAO_WALK_GRID.names) or
                           not all(isinstance(v, (int, float)) and math.isfinite(v)
                                   for v in self.start)):
            bad('start', f'{len(NAO_WALK_GRID.names)} numbers (param1..param10) or empty')
        if not isinstance(self.accept_pct, (int, float)) or not 0.0 <= self.accept_pct <= 100.0:
            bad('accept_pct', 'a percentage')
        if not all(isinstance(v, (int, float)) and v >= 0.0 for v in self.starts):
            bad('starts', 'settle times >= 0 s')
        if not isinstance(self.quality, bool):
            bad('quality', 'true or false')
        if not (isinstance(self.quality_margin, (int, float)) and 0.0 <= self.quality_margin < 1.0):
            bad('quality_margin', 'a number in [0, 1)')
        if not (isinstance(self.quality_weight, (int, float)) and self.quality_weight > 0.0):
            bad('quality_weight', 'a number > 0')
        if not (isinstance(self.quality_walk_weight, (int, float)) and
                self.quality_walk_weight >= 0.0):
            bad('quality_walk_weight', 'a number >= 0')

    @classmethod
    def from_parameters(cls, params: dict[str, Any], where: str) -> 'SearchSettings':
        """From node parameters (``where`` names them in errors); unknown names are refused."""
        known = {f.name for f in fields(cls)}
        params = {k: v for k, v in params.items() if k != 'use_sim_time'}
        unknown = sorted(set(params) - known)
        if unknown:
            raise ValueError(f'{where}: unknown search parameter {unknown[0]!r} '
                             f'(known: {", ".join(sorted(known))})')
        for name in ('start', 'starts'):
            if name in params:
                if not isinstance(params[name], (list, tuple, type(None))):
                    raise SettingError(name, 'a list of numbers', params[name], where)
                params[name] = tuple(params[name] or ())
        try:
            return cls(**params)
        except SettingError as e:
            raise SettingError(e.name, e.expected, e.value, where) from None

    def updated(self, **changes) -> 'SearchSettings':
        """With the given fields replaced (None: keep)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def make_strategy(self):
        if self.strategy == 'grid':
            return GridStrategy(NAO_WALK_GRID, self.key)
        return CmaStrategy(NAO_WALK_GRID, self.key, self.sigma0, start=self.start or None)

    def output_dir(self, default: str) -> Path:
        """``output`` (else ``default``), a relative path taken from the workspace root."""
        from zoo_runtime import workspace_root
        path = Path(self.output or default)
        return path if path.is_absolute() else Path(workspace_root() or Path.cwd()) / path

    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1
