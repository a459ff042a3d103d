"""Runs a search: hands candidates to worker processes, journals every result, resumes from the
journal, shows live progress and exports the seed's files at the end.

The evaluator is injected: ``evaluate(params) -> WalkStatistics`` (or its dict), where ``params``
is what ``build`` makes of the candidate's values (``WalkParams`` by default); statistics with a
``quality`` attribute (the simulator evaluator's quality scoring) have it journaled with them.
With several workers the evaluator reaches them by fork, so it may hold unpicklable state (a
simulator); each worker gets its own copy. Results do not depend on the number of workers: every
candidate is evaluated independently and the files are written in candidate order.

Stopping: Ctrl-C (or ``stop_event``) stops dispatching, waits for the candidates in flight in the
workers, records them and exports (with one worker, the candidate being walked in-process is left
to the next run); a kill loses at most the candidates in flight, which the next run evaluates.

Output: the bar shows candidates/s and the best fitness; while it is drawn, lines written to stderr
(node logs, warnings, also from the workers) go above it (:mod:`.console`).
"""
from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tqdm import tqdm

from ..evaluation import WalkStatistics
from ..nao_walk import WalkParams
from .console import lines_above_bar
from .export import export_run
from .forked_pool import call_resident, forked_pool
from .journal import JOURNAL_NAME, NEW, Journal, JournalError
from .strategies import Candidate

Evaluate = Callable[[Any], 'WalkStatistics | dict']

class SearchError(RuntimeError):
    pass


def _as_stats(result: Any, cand: Candidate) -> WalkStatistics:
    if isinstance(result, dict):
        result = WalkStatistics.from_dict(result)
    if not isinstance(result, WalkStatistics):
        raise SearchError(f'evaluator returned {type(result).__name__} for candidate {cand.seq}; '
                          f'expected WalkStatistics or its dict')
    result.id = cand.seq
    return result


@dataclass
class _Batch:
    candidates: list[Candidate]
    fitness: dict[int, float]
    truncated: bool  # cut by the budget: never told to the strategy

    def complete(self) -> bool:
        return len(self.fitness) == len(self.candidates)


class SearchSession:
    """The bookkeeping of one search run, whoever evaluates: the journal in ``out_dir`` (created,
    or checked against the strategy and ``evaluation`` and resumed), the candidates
    ``seq < budget`` still to evaluate in the strategy's order, the strategy's feedback, and the
    export at the end. ``evaluation``: the settings that decide a candidate's fitness (JSON
    values); a journal without them (an older one) is accepted only when ``legacy_ok``."""

    def __init__(self, strategy, out_dir: str | os.PathLike, budget: int | None = None,
                 accept_pct: float = 70.0, durable: bool = False, evaluation: dict | None = None,
                 legacy_ok: bool = True):
        self.strategy, self.budget, self.accept_pct = strategy, budget, accept_pct
        self.out = Path(out_dir)
        self.journal = Journal(self.out / JOURNAL_NAME, durable=durable)
        header = strategy.header()
        if evaluation is not None:  # None: the caller cannot tell, the journal's is not checked
            header['evaluation'] = evaluation
        self.done = self.journal.load(header, legacy_ok)
        self.names = [a.name for a in strategy.space.axes]
        self.evaluated = 0
        self.best = max((r['stats']['fitness'] for r in self._in_budget()), default=None)
        self.exhausted = False
        self._batches = iter(strategy.batches())
        self._open: deque[_Batch] = deque()
        self._batch_of: dict[int, _Batch] = {}
        self._ready: deque[Candidate] = deque()

    @property
    def total(self) -> int:
        return self.budget if self.budget is not None else self.strategy.space.size

    def recorded(self) -> int:
        return sum(1 for _ in self._in_budget())

    def _in_budget(self):
        return (r for s, r in self.done.items() if self.budget is None or s < self.budget)

    def next(self) -> Candidate | None:
        """The next candidate to evaluate, or None: all handed out (``exhausted``), or CMA-ES
        waiting for the results of its open generation."""
        while not self._ready:
            self._tell_complete()
            if self.exhausted or (self.strategy.feedback and self._open):
                return None
            batch = next(self._batches, None)
            keep = [] if batch is None else [
                c for c in batch if self.budget is None or c.seq < self.budget]
            if not keep:
                self.exhausted = True
                return None
            entry = _Batch(keep, {}, len(keep) < len(batch))
            self.exhausted = entry.truncated
            self._open.append(entry)
            for c in keep:
                rec = self.done.get(c.seq)
                if rec is None:
                    self._batch_of[c.seq] = entry
                    self._ready.append(c)
                elif tuple(rec['values']) != c.values:
                    raise JournalError(
                        f'{self.journal.path}:{self.journal.lines[c.seq]}: candidate {c.seq} was '
                        f'{rec["values"]} but this search proposes {list(c.values)} (a journal '
                        f'of another version of the search?); {NEW}')
                else:
                    entry.fitness[c.seq] = rec['stats']['fitness']
        return self._ready.popleft()

    def record(self, cand: Candidate, result: Any) -> WalkStatistics:
        """Journal one evaluated candidate (statistics or their dict; ``id`` becomes the
        candidate's ``seq``)."""
        stats = _as_stats(result, cand)
        rec = {'seq': cand.seq, 'values': list(cand.values), 'info': cand.info,
               'stats': stats.to_dict()}
        quality = getattr(stats, 'quality', None)  # an evaluator's extra record, journaled as is
        if quality is not None:
            rec['quality'] = quality
        self.journal.append(rec)
        self.done[cand.seq] = rec
        self._batch_of.pop(cand.seq).fitness[cand.seq] = stats.fitness
        self.evaluated += 1
        if self.best is None or stats.fitness > self.best:
            self.best = stats.fitness
        self._tell_complete()
        return stats

    def _tell_complete(self) -> None:
        while self._open and self._open[0].complete():
            entry = self._open.popleft()
            if self.strategy.feedback and not entry.truncated:
                self.strategy.tell(entry.candidates,
                                   [entry.fitness[c.seq] for c in entry.candidates])

    def export(self, extra: dict | None = None) -> dict:
        """searches.txt, results.txt and summary.json from the journal; returns the summary."""
        return export_run(self.out, list(self._in_budget()), self.names, self.accept_pct,
                          {'strategy': self.strategy.header()['strategy'],
                           'evaluated_this_run': self.evaluated, **(extra or {})})


def run_search(strategy, evaluate: Evaluate, out_dir: str | os.PathLike, *,
               budget: int | None = None, workers: int = 1, progress: bool = True,
               build: Callable[[tuple], Any] = WalkParams.from_sequence,
               accept_pct: float = 70.0, durable: bool = False,
               stop_event: threading.Event | None = None, evaluation: dict | None = None,
               legacy_ok: bool = True, note: Callable[[str], None] | None = None,
               on_ready: Callable[[], None] | None = None) -> dict:
    """Evaluate candidates ``seq < budget`` (all of the strategy's when None) that the journal in
    ``out_dir`` does not hold yet; returns the run summary (also written to summary.json).
    ``evaluation`` and ``legacy_ok``: see :class:`SearchSession`. ``note`` gets one line for each
    thing the user should know of (a journal repaired after a kill; default: stderr).
    ``on_ready`` is called once the journal is loaded and accepted, before any evaluation."""
    if workers < 1:
        raise ValueError(f'search workers: expected >= 1, got {workers}')
    session = SearchSession(strategy, out_dir, budget, accept_pct, durable, evaluation, legacy_ok)
    if on_ready is not None:
        on_ready()
    _tell_repairs(session.journal, note or _print_note)
    t_start = time.monotonic()
    with lines_above_bar(progress) as stderr:  # entered before the fork: workers inherit it
        pool = _pool(evaluate, workers) if workers > 1 else None
        try:
            bar = tqdm(total=session.total, initial=session.recorded(), unit='cand',
                       file=stderr, disable=not progress, dynamic_ncols=True, smoothing=0.1)
            bar.set_postfix(best=session.best)
            try:
                stopping = _evaluate_all(session, evaluate, build, pool, workers, bar,
                                         stop_event)
            finally:
                bar.close()
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
    wall = time.monotonic() - t_start
    return session.export({'stopped_early': stopping, 'wall_time_s': wall,
                           'candidates_per_s': session.evaluated / wall if wall > 0 else 0.0})


def _print_note(line: str) -> None:
    print(line, file=sys.stderr)


def _tell_repairs(journal: Journal, note: Callable[[str], None]) -> None:
    for line in journal.repairs:
        note(line)
    if journal.legacy:
        note(f'{journal.path}: written before journals recorded the evaluation settings; '
             'resumed on the assumption that it used the same ones as this run')


def _pool(evaluate: Evaluate, workers: int) -> ProcessPoolExecutor:
    return forked_pool(evaluate, workers)


def _submit(evaluate: Evaluate, params: Any, pool: ProcessPoolExecutor | None) -> Future:
    if pool is not None:
        return pool.submit(call_resident, params)
    fut: Future = Future()
    try:
        fut.set_result(evaluate(params))
    except Exception as e:  # surfaced with the candidate below, as from a worker
        fut.set_exception(e)
    return fut


def _evaluate_all(session: SearchSession, evaluate: Evaluate, build: Callable[[tuple], Any],
                  pool: ProcessPoolExecutor | None, workers: int, bar,
                  stop_event: threading.Event | None) -> bool:
    """Dispatch and record until done or stopped (Ctrl-C, ``stop_event``); True when stopped."""
    inflight: dict[Future, Candidate] = {}
    stopping = False
    while True:
        if stop_event is not None and stop_event.is_set():
            stopping = True
        try:
            while not stopping and len(inflight) < 2 * workers:
                cand = session.next()
                if cand is None:
                    break
                inflight[_submit(evaluate, build(cand.values), pool)] = cand
            if not inflight:
                return stopping
            finished, _ = wait(list(inflight), timeout=0.5, return_when=FIRST_COMPLETED)
        except KeyboardInterrupt:  # in-process, the candidate being walked is evaluated next run
            stopping = True
            continue
        for fut in sorted(finished, key=lambda f: inflight[f].seq):
            cand = inflight.pop(fut)
            try:
                result = fut.result()
            except Exception as e:
                raise SearchError(f'evaluating candidate {cand.seq} {list(cand.values)} '
                                  f'failed: {type(e).__name__}: {e}') from e
            session.record(cand, result)
            bar.update(1)
            bar.set_postfix(best=f'{session.best:.3g}')
