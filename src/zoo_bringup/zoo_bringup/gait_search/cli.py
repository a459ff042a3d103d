"""``python -m zoo_bringup.gait_search``: run or resume a Nao gait search.

    python -m zoo_bringup.gait_search nao_gait_search                 # the scenario's settings
    python -m zoo_bringup.gait_search nao_gait_search --budget 400 --workers 1 --out runs/a
    python -m zoo_bringup.gait_search --evaluator my_pkg.mod:MyEval --out runs/b --strategy grid

With a scenario (a name under config/scenarios or a .yaml path), candidates are walked on the
simulator by the scenario's nodes (``ScenarioEvaluator``), and the search settings come from its
``coupled_wave_gait/gait_search`` node; flags override them. ``--evaluator module:attribute`` is a
callable ``evaluate(WalkParams) -> WalkStatistics`` or a class whose no-argument instance is one.
Re-running the same command resumes the search from its journal; Ctrl-C stops it cleanly (the
candidates in flight are finished and recorded).
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from coupled_wave_gait.search.runner import run_search
from coupled_wave_gait.search.settings import STRATEGIES, SearchSettings
from .evaluator import SEARCH_NODE, QualityScoring, ScenarioEvaluator


def load_evaluator(spec: str):
    module, _, attr = spec.partition(':')
    if not module or not attr:
        raise SystemExit(f"gait_search: --evaluator {spec!r}: expected 'module:attribute'")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise SystemExit(f'gait_search: --evaluator {spec!r}: {e}') from None
    return obj() if isinstance(obj, type) else obj


def scenario_settings(scenario: str, overrides: list[str]) -> tuple[SearchSettings, str]:
    """The search settings of a scenario (its gait_search node's parameters) and its name."""
    from ..scenario import apply_overrides, load_scenario

    sc = apply_overrides(load_scenario(scenario), overrides)
    nodes = [n for n in sc.nodes if (n.package, n.executable) == SEARCH_NODE]
    if len(nodes) > 1:
        raise ValueError(f'{sc.path}: nodes: expected at most one coupled_wave_gait/gait_search '
                         f'node, found {len(nodes)}')
    params = nodes[0].parameters if nodes else {}
    where = f'{sc.path}: node {nodes[0].name!r}' if nodes else str(sc.path)
    return SearchSettings.from_parameters(dict(params), where), sc.name


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog='python -m zoo_bringup.gait_search',
                                 description=__doc__.split('\n\n')[0])
    ap.add_argument('scenario', nargs='?', help='scenario whose nodes walk the candidates')
    ap.add_argument('--evaluator', help="'module:attribute' instead of a scenario")
    ap.add_argument('--set', dest='overrides', action='append', default=[],
                    metavar='NODE.PARAM=VALUE', help='override a scenario node parameter')
    ap.add_argument('--out', help='run directory (journal, text files, summary); default: '
                    "the scenario's search output, else out/<scenario>")
    ap.add_argument('--strategy', choices=STRATEGIES)
    ap.add_argument('--key', type=int, help='random-order key of the grid, or seed of CMA-ES')
    ap.add_argument('--budget', type=int, help='evaluate candidates 0 .. budget-1 (0: all)')
    ap.add_argument('--workers', type=int, help='worker processes (default: every core)')
    ap.add_argument('--sigma0', type=float, help='CMA-ES initial step (of [0, 1])')
    ap.add_argument('--start', type=float, nargs=10, metavar='P',
                    help='CMA-ES initial mean, param1..param10')
    ap.add_argument('--accept-pct', type=float, help='results-file threshold on fitness_pct')
    ap.add_argument('--starts', type=float, nargs='+', metavar='S',
                    help='walk each candidate from these settle times (s), keep the worst walk')
    ap.add_argument('--quality', action='store_true',
                    help='record every walk at every physics step and multiply its fitness by a '
                    'penalty for missing the gait-quality targets')
    ap.add_argument('--quality-margin', type=float, metavar='M',
                    help='aim this much inside the targets (default 0.1: 10 %%)')
    ap.add_argument('--quality-weight', type=float, metavar='W',
                    help='penalty exp(-W x the relative misses) (default 1)')
    ap.add_argument('--quality-walk-weight', type=float, metavar='W',
                    help='weight of the forward and lateral misses (default: --quality-weight)')
    ap.add_argument('--report', action='store_true', help='write PNG plots into the run directory')
    ap.add_argument('--no-progress', action='store_true')
    return ap


def main(argv=None) -> int:
    a = _parser().parse_args(argv)
    if (a.scenario is None) == (a.evaluator is None):
        raise SystemExit('gait_search: give a scenario or --evaluator (one of them)')
    try:
        if a.scenario is not None:
            settings, name = scenario_settings(a.scenario, a.overrides)
        else:
            settings, name = SearchSettings(), None
        settings = settings.updated(
            strategy=a.strategy, key=a.key, budget=a.budget, workers=a.workers, sigma0=a.sigma0,
            accept_pct=a.accept_pct, start=tuple(a.start) if a.start else None,
            starts=tuple(a.starts) if a.starts else None, quality=a.quality or None,
            quality_margin=a.quality_margin, quality_weight=a.quality_weight,
            quality_walk_weight=a.quality_walk_weight,
            output=str(Path(a.out).resolve()) if a.out else None)  # a flag: from the cwd
    except ValueError as e:
        raise SystemExit(f'gait_search: {e}') from None
    if name is None and not settings.output:
        raise SystemExit('gait_search: --out is required with --evaluator')
    out = settings.output_dir(f'out/{name}')
    if a.scenario is not None:
        quality = QualityScoring(
            margin=settings.quality_margin, weight=settings.quality_weight,
            walk_weight=settings.quality_walk_weight or None) if settings.quality else None
        evaluate = ScenarioEvaluator(a.scenario, a.overrides, settings.starts, quality)
    elif settings.starts or settings.quality:
        raise SystemExit('gait_search: --starts and --quality need a scenario (they use its '
                         'Walker and simulator)')
    else:
        evaluate = load_evaluator(a.evaluator)
    summary = run_search(settings.make_strategy(), evaluate, out,
                         budget=settings.budget or None, workers=settings.worker_count(),
                         progress=not a.no_progress, accept_pct=settings.accept_pct)
    if a.report:
        from ..report import write_report
        summary['report'] = [str(p) for p in write_report(out)]
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main())
