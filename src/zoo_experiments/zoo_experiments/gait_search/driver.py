"""Runs a gait search: the candidates go to the dispatcher (:mod:`zoo_experiments.dispatch`:
this process, forked workers or Dask), every result goes to the journal, the run resumes from the
journal, shows live progress and exports the seed's files at the end.

The bookkeeping is coupled_wave_gait's ``SearchSession`` (the search node's too): the journal's
header and records, the resume, the strategy's order and feedback (CMA-ES generations), the budget
and the export. So a search gives the same journal records on any engine and any number of
workers, a journal started on one engine resumes on the other, and Ctrl-C and kills behave the
same: Ctrl-C stops dispatching and records the candidates in flight (with one worker, the
candidate being walked in this process is left to the next run); a kill loses at most those,
which the next run evaluates. Only this process writes the journal; the workers only walk
candidates.

The evaluator is injected: ``evaluate(params) -> WalkStatistics`` (or its dict), where ``params``
is what ``build`` makes of the candidate's values (``WalkParams`` by default); statistics with a
``quality`` attribute (the simulator evaluator's quality scoring) have it journaled with them.
In forked workers the evaluator may hold unpicklable state (a simulator); each worker gets its
own copy. While the bar is drawn, lines written to stderr (node logs, warnings, also from the
workers) go above it (zoo_scenario.console).
"""
from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Callable

from tqdm import tqdm

from coupled_wave_gait.nao_wave_walk import WalkParams
from coupled_wave_gait.search.session import SearchError, SearchSession
from zoo_scenario.console import lines_above_bar

from ..dispatch import InProcessEngine, ItemFailed, ProcessEngine, drive


class _Build:
    """The evaluator as an engine's resident callable: candidate values in, statistics out."""

    def __init__(self, evaluate: Callable[[Any], Any], build: Callable[[tuple], Any]):
        self.evaluate, self.build = evaluate, build

    def __call__(self, values: tuple) -> Any:
        return self.evaluate(self.build(values))

    def close(self) -> None:
        close = getattr(self.evaluate, 'close', None)
        if callable(close):
            close()


def run_search(strategy, evaluate, out_dir: str | os.PathLike, engine=None, *,
               budget: int | None = None, workers: int = 1, progress: bool = True,
               build: Callable[[tuple], Any] = WalkParams.from_sequence,
               accept_pct: float = 70.0, durable: bool = False,
               stop_event: threading.Event | None = None, evaluation: dict | None = None,
               legacy_ok: bool = True, note: Callable[[str], None] | None = None,
               on_ready: Callable[[], None] | None = None) -> dict:
    """Evaluate candidates ``seq < budget`` (all of the strategy's when None) that the journal in
    ``out_dir`` does not hold yet; returns the run summary (also written to summary.json).
    ``engine``: a dispatcher engine, not started yet (started here once the journal is accepted,
    closed at the end; the summary names it); None: ``workers`` forked processes, or this
    process for one. ``evaluation`` and ``legacy_ok``: see ``SearchSession``. ``note`` gets one
    line for each thing the user should know of (a journal repaired after a kill; default:
    stderr). ``on_ready`` is called once the journal is loaded and accepted, before any
    evaluation."""
    named = engine is not None
    if not named:
        if workers < 1:
            raise ValueError(f'search workers: expected >= 1, got {workers}')
        engine = InProcessEngine() if workers == 1 else ProcessEngine(workers)
    note = note or (lambda line: print(line, file=sys.stderr))
    session = SearchSession(strategy, out_dir, budget, accept_pct, durable, evaluation, legacy_ok)
    if on_ready is not None:
        on_ready()
    for line in session.journal.repairs:
        note(line)
    if session.journal.legacy:
        note(f'{session.journal.path}: written before journals recorded the evaluation '
             'settings; resumed on the assumption that it used the same ones as this run')
    t_start = time.monotonic()
    stopping = False
    if named and session.recorded() >= session.total:  # all journaled: no cluster to start
        return _export(session, stopping, t_start, engine)
    with lines_above_bar(progress) as stderr:  # entered before a fork: workers inherit it
        engine.start(_Build(evaluate, build))
        try:
            if named:
                note(f'evaluating on {engine.describe()}')
            bar = tqdm(total=session.total, initial=session.recorded(), unit='cand',
                       file=stderr, disable=not progress, dynamic_ncols=True, smoothing=0.1)
            bar.set_postfix(best=session.best)

            def record(cand, result) -> None:
                session.record(cand, result)
                bar.update(1)
                bar.set_postfix(best=f'{session.best:.3g}')

            try:
                stopping = drive(engine, session.next, record, stop_event,
                                 payload=lambda cand: cand.values)
            except ItemFailed as e:
                cand = e.item
                raise SearchError(f'evaluating candidate {cand.seq} {list(cand.values)} failed: '
                                  f'{type(e.error).__name__}: {e.error}') from e.error
            finally:
                bar.close()
        finally:
            engine.close()
    return _export(session, stopping, t_start, engine if named else None)


def _export(session: SearchSession, stopping: bool, t_start: float, engine) -> dict:
    wall = time.monotonic() - t_start
    extra = {'stopped_early': stopping, 'wall_time_s': wall,
             'candidates_per_s': session.evaluated / wall if wall > 0 else 0.0}
    if engine is not None:
        extra['engine'] = engine.name
    return session.export(extra)
