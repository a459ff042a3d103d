"""``bin/robozoo search``: run or resume a Nao gait search.

    bin/robozoo search nao_gait_search                          # the scenario's settings
    bin/robozoo search nao_gait_search --budget 400 --workers 1 --out runs/a
    bin/robozoo search nao_gait_search --set walker.duration=1.0 --out runs/short
    bin/robozoo search --evaluator my_pkg.mod:MyEval --out runs/b --strategy grid
    bin/robozoo search nao_gait_search --engine dask --workers 2       # Dask LocalCluster
    bin/robozoo search nao_gait_search --cluster tcp://host:8786       # a running Dask cluster

(``python -m zoo_experiments.gait_search ...`` is the same command, with tools/env.sh sourced.)

With a scenario (a name under config/scenarios or a .yaml path), candidates are walked on the
simulator by the scenario's nodes (``ScenarioEvaluator``), and the search settings come from its
``coupled_wave_gait/gait_search`` node; flags override them. ``--evaluator module:attribute`` is a
callable ``evaluate(WalkParams) -> WalkStatistics`` or a class whose no-argument instance is one.
Paths given here (``--out``, a scenario file) are taken from the current directory; the scenario's
own ``output`` from the workspace root.

Engines (``--engine``, :mod:`zoo_experiments.dispatch`): ``process`` (the default) walks the
candidates in forked worker processes (one worker: in this process); ``dask`` in the workers of a
Dask ``LocalCluster`` (``--workers`` processes) or, with ``--cluster ADDRESS``, of a running
cluster. The journal is the same either way (a search may be resumed on the other engine); only
this process writes it.

Re-running the same command resumes the search from its journal (``<out>/journal.jsonl``); one
search at a time per run directory (``<out>/search.lock``: a second is refused with the first's
pid, as two would journal every candidate twice). Ctrl-C stops it cleanly (the candidates in flight are finished and recorded). The journal's header holds
the search's settings and the evaluation's (every node parameter after ``--set``, ``--starts``,
``--quality``...): a run whose settings differ is refused with the first difference named, and
``--restart`` moves the old journal aside (``journal.jsonl.<n>``, never deleted) to start anew.
A journal from before headers held the evaluation settings is resumed only by a run without
``--set`` on the walking nodes and with the scenario's own starts and quality settings (it
cannot be checked, so it is taken to have used those); otherwise it is refused.

Errors (a bad argument, scenario, parameter or journal) print one line ``robozoo search: error:
...`` and exit 2 (``--debug`` shows the traceback instead). Node logs below warnings are hidden
unless ``--verbose``; what is shown is written above the progress bar.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any, Sequence

from coupled_wave_gait.search.journal import JOURNAL_NAME, Journal
from coupled_wave_gait.search.settings import STRATEGIES, SearchSettings, SettingError
from ..command_line import OneLineParser as _Parser, UsageError, run_command
from ..command_line import one_line as _one_line
from ..dispatch import ENGINES, make_engine
from .driver import run_search
from .evaluator import SEARCH_NODE, QualityScoring, ScenarioEvaluator, node_log_level

PROG = 'robozoo search'
# flag of each search setting a flag overrides, in the order they are checked
FLAGS = (('strategy', '--strategy'), ('key', '--key'), ('budget', '--budget'),
         ('workers', '--workers'), ('sigma0', '--sigma0'), ('start', '--start'),
         ('accept_pct', '--accept-pct'), ('starts', '--starts'), ('quality', '--quality'),
         ('quality_margin', '--quality-margin'), ('quality_weight', '--quality-weight'),
         ('quality_walk_weight', '--quality-walk-weight'))
EVALUATION_SETTINGS = ('starts', 'quality', 'quality_margin', 'quality_weight',
                       'quality_walk_weight')


def main(argv: Sequence[str] | None = None) -> int:
    """The command; returns the exit code (0, 2 on an error, 130 on Ctrl-C before the search)."""
    return run_command(PROG, _parser(), _search, argv)


def _search(a: argparse.Namespace) -> int:
    _check_sources(a)
    engine = _engine_name(a)
    settings, name, search_node = scenario_or_default_settings(a.scenario, a.overrides)
    settings = _with_flags(settings, a)
    out = _output_dir(a, settings, name)  # before any work
    with node_log_level(None if a.verbose else 'warn'):
        evaluate, evaluation = _evaluator(a, settings, engine)
        lock = None
        try:
            lock = lock_run_dir(out, f'--out {a.out}' if a.out else
                                f"the scenario's search output {settings.output!r}")
            if a.restart:
                _restart(out)
            summary = run_search(
                settings.make_strategy(), evaluate, out, _engine(a, settings, engine),
                budget=settings.budget or None, workers=settings.worker_count(),
                progress=not a.no_progress and sys.stderr.isatty(),
                accept_pct=settings.accept_pct, evaluation=evaluation,
                legacy_ok=_uses_defaults(a, settings, search_node), note=_note,
                on_ready=lambda: sys.stderr.write(getattr(evaluate, 'build_log', '')))
        finally:
            if isinstance(evaluate, ScenarioEvaluator):
                evaluate.close()
            if lock is not None:
                lock.close()  # releases it
    if a.report:
        from zoo_scenario.report import write_report
        summary['report'] = [str(p) for p in write_report(out)]
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


def _engine(a: argparse.Namespace, settings: SearchSettings, engine: str):
    """None for the default (``process``: run_search forks ``--workers``), else the engine."""
    if engine == 'process':
        return None
    return make_engine(engine, settings.worker_count(), a.cluster, quiet=not a.verbose)


def _engine_name(a: argparse.Namespace) -> str:
    """--engine, dask when only --cluster is given; process with --cluster is refused."""
    if a.cluster is not None:
        if a.engine == 'process':
            raise UsageError(f'--cluster {a.cluster}: needs --engine dask (or no --engine)')
        if '://' not in a.cluster and ':' not in a.cluster:
            raise UsageError(f"--cluster {a.cluster}: expected a scheduler address such as "
                             "'tcp://host:8786'")
        return 'dask'
    return a.engine or 'process'


# -- arguments ----------------------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    ap = _Parser(prog=PROG, description='Run or resume a Nao gait search (see the module doc).')
    ap.add_argument('scenario', nargs='?', help='scenario whose nodes walk the candidates')
    ap.add_argument('--evaluator', help="'module:attribute' instead of a scenario")
    ap.add_argument('--set', dest='overrides', action='append', default=[],
                    metavar='NODE.PARAM=VALUE', help='override a scenario node parameter')
    ap.add_argument('--out', help='run directory (journal, text files, summary); default: '
                    "the scenario's search output, else out/<scenario>")
    ap.add_argument('--restart', action='store_true',
                    help='move the journal in --out aside (journal.jsonl.<n>) and start anew')
    ap.add_argument('--strategy', choices=STRATEGIES)
    ap.add_argument('--key', type=int, help='random-order key of the grid, or seed of CMA-ES')
    ap.add_argument('--budget', type=int, help='evaluate candidates 0 .. budget-1 (0: all)')
    ap.add_argument('--workers', type=int, help='worker processes (default: every core)')
    ap.add_argument('--engine', choices=ENGINES,
                    help="where candidates are walked: 'process' (forked workers, the default) "
                    "or 'dask' (a Dask LocalCluster of --workers processes, or --cluster)")
    ap.add_argument('--cluster', metavar='ADDRESS',
                    help="a running Dask scheduler, e.g. tcp://host:8786 (implies --engine dask; "
                    "its workers walk the candidates)")
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
    ap.add_argument('--no-progress', action='store_true', help='no progress bar')
    ap.add_argument('--verbose', action='store_true', help="show the nodes' INFO logs")
    ap.add_argument('--debug', action='store_true', help='show tracebacks of errors')
    return ap


def _check_sources(a: argparse.Namespace) -> None:
    if (a.scenario is None) == (a.evaluator is None):
        raise UsageError('give a scenario or --evaluator (one of them)')
    if a.evaluator is not None:
        if a.overrides:
            raise UsageError(f'--set {a.overrides[0]}: --set needs a scenario, not --evaluator')
        if not a.out:
            raise UsageError('--out is required with --evaluator')


def _with_flags(settings: SearchSettings, a: argparse.Namespace) -> SearchSettings:
    """``settings`` with the flags given on top, a bad value named by its flag."""
    for name, flag in FLAGS:
        value = getattr(a, name)
        if value is None or value is False:
            continue
        value = tuple(value) if isinstance(value, list) else value
        try:
            settings = settings.updated(**{name: value})
        except SettingError as e:
            shown = ' '.join(f'{v:g}' for v in value) if isinstance(value, tuple) else value
            raise UsageError(f'{flag} {shown}: expected {e.expected}') from None
    if a.out:
        settings = settings.updated(output=str(Path(a.out).resolve()))  # from the cwd
    return settings


def scenario_settings(scenario: str, overrides: list[str]) -> tuple[SearchSettings, str]:
    """The search settings of a scenario (its gait_search node's parameters) and its name."""
    settings, name, _ = scenario_or_default_settings(scenario, overrides)
    return settings, name


def scenario_or_default_settings(scenario: str | None, overrides: list[str]
                                 ) -> tuple[SearchSettings, str | None, str | None]:
    """The scenario's search settings (defaults without a scenario), its name and the name of
    its search node (None: none)."""
    if scenario is None:
        return SearchSettings(), None, None
    from zoo_scenario.scenario import apply_overrides, load_scenario

    sc = apply_overrides(load_scenario(scenario), overrides)
    nodes = [n for n in sc.nodes if (n.package, n.executable) == SEARCH_NODE]
    if len(nodes) > 1:
        raise ValueError(f'{sc.path}: nodes: expected at most one coupled_wave_gait/gait_search '
                         f'node, found {len(nodes)}')
    if not nodes:
        return SearchSettings(), sc.name, None
    node = nodes[0]
    mine = [ov for ov in overrides if ov.partition('.')[0] == node.name]
    _check_search_overrides(node.name, mine)
    try:
        settings = SearchSettings.from_parameters(dict(node.parameters),
                                                  f'{sc.path}: node {node.name!r}')
    except SettingError as e:
        culprit = next((ov for ov in mine if ov.partition('=')[0] == f'{node.name}.{e.name}'),
                       None)
        if culprit is None:
            raise
        raise UsageError(f'--set {culprit}: expected {e.expected}') from None
    return settings, sc.name, node.name


def _check_search_overrides(node: str, overrides: list[str]) -> None:
    import difflib

    known = [f.name for f in fields(SearchSettings)]
    for ov in overrides:
        param = ov.partition('=')[0].partition('.')[2]
        if param not in known and param != 'use_sim_time':
            close = difflib.get_close_matches(param, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f' (known: {", ".join(known)})'
            raise UsageError(f"--set {ov}: node '{node}' has no parameter '{param}'{hint}")


def _output_dir(a: argparse.Namespace, settings: SearchSettings, name: str | None) -> Path:
    """The run directory (shown relative to the cwd when inside it); refuses a file."""
    out = settings.output_dir(f'out/{name}')
    what = f'--out {a.out}' if a.out else f"the scenario's search output {settings.output!r}"
    for p in (out, *out.parents):
        if p.exists():
            if not p.is_dir():
                raise UsageError(f'{what}: {_shown(p)} is a file, not a directory')
            break
    return _shown(out)


LOCK_NAME = 'search.lock'


def lock_run_dir(out: Path, what: str):
    """One search or sweep at a time in a run directory (two would journal every candidate
    twice, and the next resume refuse the journal): an flock on ``<out>/search.lock``, which holds the
    pid of its owner. Returns the open lock file; closing it releases the lock (so does the
    process ending, also by kill -9)."""
    import fcntl
    try:
        out.mkdir(parents=True, exist_ok=True)
        f = open(out / LOCK_NAME, 'a+')
    except OSError as e:
        raise UsageError(f'{what}: cannot use {out} ({e.strerror})') from None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        pid = f.read().strip() or 'unknown'
        f.close()
        raise UsageError(f'{what}: {out} is in use by another search or sweep (pid {pid}); wait '
                         'for it to end, or give another --out') from None
    f.seek(0)
    f.truncate()
    f.write(f'{os.getpid()}\n')
    f.flush()
    return f


def _shown(path: Path) -> Path:
    rel = os.path.relpath(path)
    return Path(rel) if not rel.startswith('..') else Path(path)


# -- evaluation ---------------------------------------------------------------------------------
def _evaluator(a: argparse.Namespace, settings: SearchSettings, engine: str = 'process'
               ) -> tuple[Any, dict]:
    """The evaluator and its settings for the journal's header; a scenario's nodes are built
    here, so that a bad parameter is refused before the search starts."""
    if a.scenario is None:
        if settings.starts or settings.quality:
            raise UsageError('--starts and --quality need a scenario (they use its Walker and '
                             'simulator)')
        return load_evaluator(a.evaluator), {'evaluator': a.evaluator}
    quality = QualityScoring(
        margin=settings.quality_margin, weight=settings.quality_weight,
        walk_weight=settings.quality_walk_weight or None) if settings.quality else None
    evaluate = ScenarioEvaluator(a.scenario, a.overrides, settings.starts, quality)
    try:
        evaluation = evaluate.prepare()
    except BaseException:
        evaluate.close()
        raise
    if settings.worker_count() > 1 or engine != 'process':
        evaluate.close()  # the workers build their own (after the fork, or unpickled)
    return evaluate, evaluation


def load_evaluator(spec: str):
    module, _, attr = spec.partition(':')
    if not module or not attr:
        raise UsageError(f"--evaluator {spec}: expected 'module:attribute'")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise UsageError(f'--evaluator {spec}: {e}') from None
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as e:  # noqa: BLE001 - any failure of the user's class, in one line
            raise UsageError(f'--evaluator {spec}: {attr}() failed: {_one_line(e)}') from None
    if not callable(obj):
        raise UsageError(f'--evaluator {spec}: a {type(obj).__name__}, not callable')
    return obj


def _uses_defaults(a: argparse.Namespace, settings: SearchSettings, search_node: str | None
                   ) -> bool:
    """Whether the run evaluates as the scenario says (no --set on the walking nodes, its own
    starts and quality): what a journal without evaluation settings is taken to have used."""
    if a.scenario is None:
        return True
    if any(ov.partition('.')[0] != search_node for ov in a.overrides):
        return False
    own, _, _ = scenario_or_default_settings(a.scenario, [])
    return all(getattr(own, k) == getattr(settings, k) for k in EVALUATION_SETTINGS)


def _restart(out: Path) -> None:
    moved = Journal(out / JOURNAL_NAME).set_aside()
    if moved is not None:
        _note(f'moved the old journal to {moved}; starting a new one')


# -- output -------------------------------------------------------------------------------------
def _note(line: str) -> None:
    print(f'{PROG}: {line}', file=sys.stderr)


if __name__ == '__main__':
    sys.exit(main())
