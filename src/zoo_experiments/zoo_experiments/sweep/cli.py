"""``bin/robozoo sweep``: run a scenario over a grid of its parameters and tabulate the metrics.

    bin/robozoo sweep go1_trot_earth --set sim.gravity=[0.0,0.0,-9.80665],[0.0,0.0,-3.72111] \\
        --set plan_tracker.playback_speed=0.8,1.0 --duration 4
    bin/robozoo sweep nao_walk --set walker.duration=2.0,4.0 --metric nao.drift_xy
    bin/robozoo sweep go1_trot_earth --set ... --cluster tcp://host:8786   # a running Dask cluster

Each ``--set NODE.PARAM=a,b,c`` is an axis (values split at the commas outside brackets and
quotes, each taken as ``robozoo run --set NODE.PARAM=a`` takes it: a YAML value, the node and
parameter names checked, a close match suggested); the sweep runs every combination (the last
``--set`` varying fastest) for ``--duration`` sim seconds with ``--seed``, as ``robozoo run`` would
run it, and prints a table of the metrics; ``<out>/sweep.csv`` and ``sweep.json`` hold them all,
``sweep.png`` plots the shown ones against the first axis.

The points are journaled (``<out>/journal.jsonl``, written by this process only): re-running the
same command resumes (the points done are not run again); Ctrl-C stops it cleanly (the points in
flight are finished and recorded); a kill loses at most the points in flight, which the next run
runs. A point is known by its settings, so a grid grown by a value (or with a bad value fixed)
runs only its new points. A journal of another scenario, duration, seed or scenario parameters
is refused with the first difference named; ``--restart`` moves it aside. Engines as for ``robozoo search``: ``process`` (forked
workers, the default), ``dask`` (a LocalCluster of ``--workers`` processes), ``--cluster ADDRESS``.

Errors print one line ``robozoo sweep: error: ...`` and exit 2 (``--debug``: the traceback).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Sequence

from ..command_line import OneLineParser as _Parser, UsageError, run_command
from ..command_line import one_line as _one_line
from ..gait_search.cli import _shown, lock_run_dir
from ..dispatch import ENGINES, ItemFailed, drive, make_engine
from ..gait_search.evaluator import node_log_level
from zoo_scenario.scenario import (ScenarioError, apply_overrides, is_positive_number,
                                   load_scenario, node_specs)
from . import table as tables
from .grid import parse_axes, points
from .records import JOURNAL_NAME, sweep_journal
from .point import PointRunner

PROG = 'robozoo sweep'


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(PROG, _parser(), _sweep, argv)


def _parser() -> argparse.ArgumentParser:
    ap = _Parser(prog=PROG, description=__doc__,
                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('scenario', help='scenario name (config/scenarios/<name>.yaml) or a .yaml path')
    ap.add_argument('--set', dest='axes', action='append', default=[],
                    metavar='NODE.PARAM=A,B,...', help='an axis of the grid (repeat for more)')
    ap.add_argument('--duration', type=float, help="sim seconds per point (default: the "
                    "scenario's)")
    ap.add_argument('--seed', type=int, help="random seed (default: the scenario's)")
    ap.add_argument('--metric', action='append', default=[], metavar='NAME',
                    help='a column of the table, e.g. go1.drift_xy (default: the metrics that '
                    'differ between the points)')
    ap.add_argument('--out', help='output folder (journal, sweep.csv/json/png); default '
                    'out/<scenario>/sweep')
    ap.add_argument('--restart', action='store_true',
                    help='move the journal in --out aside (journal.jsonl.<n>) and start anew')
    ap.add_argument('--workers', type=int, help='worker processes (default: every core)')
    ap.add_argument('--engine', choices=ENGINES, help="'process' (default) or 'dask'")
    ap.add_argument('--cluster', metavar='ADDRESS',
                    help='a running Dask scheduler, e.g. tcp://host:8786 (implies --engine dask)')
    ap.add_argument('--no-progress', action='store_true', help='no progress bar')
    ap.add_argument('--verbose', action='store_true', help="show the nodes' INFO logs")
    ap.add_argument('--debug', action='store_true', help='show tracebacks of errors')
    return ap


def _sweep(a: argparse.Namespace) -> int:
    from ..gait_search.cli import _engine_name

    engine_name = _engine_name(a)
    if not a.axes:
        raise UsageError('give at least one --set NODE.PARAM=A,B,...')
    if a.workers is not None and a.workers < 1:
        raise UsageError(f'--workers {a.workers}: expected an integer >= 1')
    sc = load_scenario(a.scenario)
    duration = sc.duration if a.duration is None else a.duration
    if not is_positive_number(duration):
        raise UsageError(f'--duration {duration}: expected a positive, finite number of sim '
                         'seconds')
    seed = sc.seed if a.seed is None else a.seed
    axes = parse_axes(a.axes, sc)
    grid = points(axes)
    out = _output_dir(a, sc.name)
    # What a point's result depends on besides its --set list: a journal of other values is
    # refused. The grid is not in it: a point is known by its settings, so a grown or changed
    # grid reuses the points it shares with the journal's.
    header = {'sweep': {'scenario': sc.name, 'duration': duration, 'seed': seed,
                        'parameters': {f'{s.name}.{k}': v for s in node_specs(sc)
                                       for k, v in sorted(s.parameters.items())}}}
    with node_log_level(None if a.verbose else 'warn'):
        _check_builds(sc, grid[0], seed)  # unknown parameter names: before any work
        # one sweep per --out, as one search (two journal every point twice); released at exit
        lock = lock_run_dir(out, f'--out {a.out}' if a.out else str(out))  # noqa: F841
        journal = sweep_journal(out / JOURNAL_NAME)
        if a.restart:
            moved = journal.set_aside()
            if moved is not None:
                _note(f'moved the old journal to {moved}; starting a new one')
        done = {point_key(r['set']): r for r in journal.load(header).values()}
        for line in journal.repairs:
            _note(line)
        todo = [i for i, p in enumerate(grid) if point_key(p) not in done]
        workers = min(a.workers or os.cpu_count() or 1, max(1, len(todo)))
        stopped, wall = False, 0.0
        if todo:
            engine = make_engine(engine_name, workers, a.cluster, quiet=not a.verbose)
            stopped, wall = _run(engine, PointRunner(sc, duration, seed), journal, done, grid,
                                 todo, a)
    records = [done[point_key(p)] for p in grid if point_key(p) in done]  # in grid order
    table = tables.rows(axes, records)
    tables.check_metrics(a.metric, tables.known_metrics(table, axes))
    shown = tables.shown_metrics(table, axes, a.metric)
    print(tables.format_table(table, axes, shown))
    files = tables.write_files(out, table, axes, records, header['sweep'])
    png = tables.plot(out, table, axes, shown)
    print(f'{len(records)} of {len(grid)} points' + (' (stopped early: run the same command '
                                                   'to go on)' if stopped else '')
          + (f', {wall:.1f} s wall this run' if wall else ''))
    for path in files + ([png] if png else []):
        print(f'  {path.suffix[1:]}: {path}')
    return 0


def _run(engine, runner: PointRunner, journal, done: dict, grid, todo, a):
    from tqdm import tqdm
    from zoo_scenario.console import lines_above_bar

    progress = not a.no_progress and sys.stderr.isatty()
    next_seq = max((r['seq'] for r in done.values()), default=-1) + 1  # records in run order
    t0 = time.monotonic()
    with lines_above_bar(progress) as stderr:
        engine.start(runner)
        try:
            _note(f'running {len(todo)} point{"s" if len(todo) > 1 else ""} on '
                  f'{engine.describe()}')
            bar = tqdm(total=len(grid), initial=len(grid) - len(todo), unit='point',
                       file=stderr, disable=not progress, dynamic_ncols=True, smoothing=0.1)

            def record(i: int, summary: dict) -> None:
                nonlocal next_seq
                rec = {'seq': next_seq, 'set': grid[i], 'summary': summary}
                journal.append(rec)
                next_seq += 1
                done[point_key(grid[i])] = rec
                bar.update(1)

            try:
                stopped = drive(engine, iter(todo), record, payload=lambda i: grid[i])
            except ItemFailed as e:
                raise ScenarioError(f'point {e.item} ({" ".join(grid[e.item])}): '
                                    f'{_one_line(e.error)}') from e.error
            finally:
                bar.close()
        finally:
            engine.close()
    return stopped, time.monotonic() - t0


def point_key(overrides: list[str]) -> tuple[str, ...]:
    """A point's identity: its --set list in any order."""
    return tuple(sorted(overrides))


def _check_builds(sc, overrides: list[str], seed: int) -> None:
    """Build the first point's nodes once: an unknown parameter name (or a bad value) is
    refused before the sweep starts, in the runner's words (node, parameter, close match)."""
    from zoo_scenario.runner import ScenarioRun

    run = ScenarioRun(apply_overrides(sc, overrides), seed=seed)
    run.close()


def _output_dir(a: argparse.Namespace, name: str) -> Path:
    if a.out:
        out = Path(a.out)
    else:
        from zoo_runtime import workspace_root
        out = Path(workspace_root() or Path.cwd()) / 'out' / name / 'sweep'
    for p in (out, *out.parents):
        if p.exists():
            if not p.is_dir():
                raise UsageError(f'--out {a.out or out}: {_shown(p)} is a file, not a directory')
            break
    return _shown(out)


def _note(line: str) -> None:
    print(f'{PROG}: {line}', file=sys.stderr)


if __name__ == '__main__':
    sys.exit(main())
