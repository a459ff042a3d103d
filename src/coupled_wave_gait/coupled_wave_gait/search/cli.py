"""``gait_search``: run or resume a Nao gait search from the command line.

    gait_search --evaluator my_pkg.sim_eval:SimWalk --out runs/grid1 --budget 2000 --workers 2
    gait_search --strategy cma-es --seed 3 --evaluator ... --out runs/cma1 --budget 600

The evaluator is ``module:attribute``: a callable ``evaluate(WalkParams) -> WalkStatistics`` or a
class whose no-argument instance is one. Re-running the same command resumes the search from its
journal; Ctrl-C stops it cleanly (the candidates in flight are finished and recorded).
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from .runner import run_search
from .space import NAO_WALK_GRID
from .strategies import CmaStrategy, GridStrategy


def load_evaluator(spec: str):
    module, _, attr = spec.partition(':')
    if not module or not attr:
        raise SystemExit(f"gait_search: --evaluator {spec!r}: expected 'module:attribute'")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise SystemExit(f'gait_search: --evaluator {spec!r}: {e}') from None
    return obj() if isinstance(obj, type) else obj


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog='gait_search', description=__doc__.split('\n\n')[0])
    ap.add_argument('--evaluator', required=True, help="'module:attribute' (see above)")
    ap.add_argument('--out', required=True, help='run directory (journal, text files, summary)')
    ap.add_argument('--strategy', choices=('grid', 'cma-es'), default='grid')
    ap.add_argument('--key', type=int, default=2015,
                    help='random-order key of the grid, or seed of CMA-ES')
    ap.add_argument('--budget', type=int, default=None,
                    help='evaluate candidates 0 .. budget-1 (default: all)')
    ap.add_argument('--workers', type=int, default=1)
    ap.add_argument('--sigma0', type=float, default=0.3, help='CMA-ES initial step (of [0, 1])')
    ap.add_argument('--accept-pct', type=float, default=70.0,
                    help='results-file threshold on fitness_pct')
    ap.add_argument('--no-progress', action='store_true')
    a = ap.parse_args(argv)
    strategy = (GridStrategy(NAO_WALK_GRID, a.key) if a.strategy == 'grid'
                else CmaStrategy(NAO_WALK_GRID, a.key, a.sigma0))
    summary = run_search(strategy, load_evaluator(a.evaluator), a.out, budget=a.budget,
                         workers=a.workers, progress=not a.no_progress, accept_pct=a.accept_pct)
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
