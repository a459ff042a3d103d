"""A gait search whose candidates are evaluated on an engine (:mod:`.engines`, e.g. Dask).

The bookkeeping is coupled_wave_gait's ``SearchSession``, the same as the multiprocessing path's
(``coupled_wave_gait.search.runner.run_search``): the journal's header and records, the resume,
the strategy's order and feedback (CMA-ES generations), the budget and the export. So a search
gives the same journal records on either engine and any number of workers, a journal started on
one engine resumes on the other, and Ctrl-C and kills behave the same: Ctrl-C stops dispatching
and records the candidates in flight; a kill loses at most those, which the next run evaluates.
Only this process writes the journal; the workers only walk candidates.
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable

from tqdm import tqdm

from coupled_wave_gait.nao_walk import WalkParams
from coupled_wave_gait.search.console import lines_above_bar
from coupled_wave_gait.search.runner import SearchError, SearchSession
from .engines import ItemFailed, drive


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


def run_engine_search(strategy, evaluate, out_dir, engine, *, budget: int | None = None,
                      progress: bool = True,
                      build: Callable[[tuple], Any] = WalkParams.from_sequence,
                      accept_pct: float = 70.0, evaluation: dict | None = None,
                      legacy_ok: bool = True, note: Callable[[str], None] | None = None,
                      on_ready: Callable[[], None] | None = None,
                      stop_event: threading.Event | None = None) -> dict:
    """As ``run_search`` (same arguments and summary), with the candidates walked by ``engine``
    (not started yet: started here, after the journal is accepted, and closed at the end)."""
    note = note or (lambda line: print(line, file=sys.stderr))
    session = SearchSession(strategy, out_dir, budget, accept_pct, False, evaluation, legacy_ok)
    if on_ready is not None:
        on_ready()
    for line in session.journal.repairs:
        note(line)
    if session.journal.legacy:
        note(f'{session.journal.path}: written before journals recorded the evaluation '
             'settings; resumed on the assumption that it used the same ones as this run')
    t_start = time.monotonic()
    stopping = False
    if session.recorded() >= session.total:  # all journaled: no cluster to start
        return _export(session, stopping, t_start, engine)
    with lines_above_bar(progress) as stderr:
        engine.start(_Build(evaluate, build))
        try:
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
                                  f'{e}') from e.error
            finally:
                bar.close()
        finally:
            engine.close()
    return _export(session, stopping, t_start, engine)


def _export(session: SearchSession, stopping: bool, t_start: float, engine) -> dict:
    wall = time.monotonic() - t_start
    return session.export({'stopped_early': stopping, 'wall_time_s': wall,
                           'candidates_per_s': session.evaluated / wall if wall > 0 else 0.0,
                           'engine': engine.name})
