"""Runs a search: hands candidates to worker processes, journals every result, resumes from the
journal, shows live progress and exports the seed's files at the end.

The evaluator is injected: ``evaluate(params) -> WalkStatistics`` (or its dict), where ``params``
is what ``build`` makes of the candidate's values (``WalkParams`` by default). With several workers
the evaluator reaches them by fork, so it may hold unpicklable state (a simulator); each worker
gets its own copy. Results do not depend on the number of workers: every candidate is evaluated
independently and the files are written in candidate order.

Stopping: Ctrl-C (or ``stop_event``) stops dispatching, waits for the candidates in flight, records
them and exports; a kill loses at most the candidates in flight, which the next run evaluates.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Callable

from tqdm import tqdm

from ..evaluation import WalkStatistics
from ..nao_walk import WalkParams
from .export import export_run
from .journal import Journal
from .strategies import Candidate

Evaluate = Callable[[Any], 'WalkStatistics | dict']

_EVALUATE: Evaluate | None = None  # the evaluator inside a worker process


class SearchError(RuntimeError):
    pass


def _watch_parent(ppid: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != ppid:  # the search process died (e.g. kill -9): do not linger
            os._exit(1)


def _worker_init(evaluate: Evaluate, ppid: int) -> None:
    global _EVALUATE
    _EVALUATE = evaluate
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    threading.Thread(target=_watch_parent, args=(ppid,), daemon=True).start()


def _worker_eval(params: Any) -> Any:
    return _EVALUATE(params)


def _noop() -> None:
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


def run_search(strategy, evaluate: Evaluate, out_dir: str | os.PathLike, *,
               budget: int | None = None, workers: int = 1, progress: bool = True,
               build: Callable[[tuple], Any] = WalkParams.from_sequence,
               accept_pct: float = 70.0, durable: bool = False,
               stop_event: threading.Event | None = None) -> dict:
    """Evaluate candidates ``seq < budget`` (all of the strategy's when None) that the journal in
    ``out_dir`` does not hold yet; returns the run summary (also written to summary.json)."""
    if workers < 1:
        raise ValueError(f'search workers: expected >= 1, got {workers}')
    out = Path(out_dir)
    journal = Journal(out / 'journal.jsonl', durable=durable)
    done = journal.load(strategy.header())
    names = [a.name for a in strategy.space.axes]
    pool = None
    if workers > 1:
        pool = ProcessPoolExecutor(workers, mp_context=get_context('fork'),
                                   initializer=_worker_init, initargs=(evaluate, os.getpid()))
        pool.submit(_noop).result()  # fork every worker now, before tqdm starts its thread

    def submit(cand: Candidate) -> Future:
        params = build(cand.values)
        if pool is not None:
            return pool.submit(_worker_eval, params)
        fut: Future = Future()
        try:
            fut.set_result(evaluate(params))
        except Exception as e:  # surfaced with the candidate below, as from a worker
            fut.set_exception(e)
        return fut

    in_budget = [r for s, r in done.items() if budget is None or s < budget]
    best = max((r['stats']['fitness'] for r in in_budget), default=None)
    bar = tqdm(total=budget if budget is not None else strategy.space.size, initial=len(in_budget),
               unit='cand', disable=not progress, dynamic_ncols=True, smoothing=0.1)
    bar.set_postfix(best=best)
    batches = iter(strategy.batches())
    open_batches: deque[_Batch] = deque()
    batch_of: dict[int, _Batch] = {}
    inflight: dict[Future, Candidate] = {}
    exhausted = stopping = False
    evaluated = 0
    t_start = time.monotonic()
    try:
        while True:
            if stop_event is not None and stop_event.is_set():
                stopping = True
            while (not exhausted and not stopping and len(inflight) < 2 * workers
                   and not (strategy.feedback and open_batches)):
                batch = next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                keep = [c for c in batch if budget is None or c.seq < budget]
                if not keep:
                    exhausted = True
                    break
                entry = _Batch(keep, {}, len(keep) < len(batch))
                exhausted = entry.truncated
                open_batches.append(entry)
                for c in keep:
                    rec = done.get(c.seq)
                    if rec is None:
                        batch_of[c.seq] = entry
                        inflight[submit(c)] = c
                    elif tuple(rec['values']) != c.values:
                        raise SearchError(f'{journal.path}: candidate {c.seq} was {rec["values"]} '
                                          f'but the strategy now proposes {list(c.values)}')
                    else:
                        entry.fitness[c.seq] = rec['stats']['fitness']
            while open_batches and open_batches[0].complete():
                entry = open_batches.popleft()
                if strategy.feedback and not entry.truncated:
                    strategy.tell(entry.candidates,
                                  [entry.fitness[c.seq] for c in entry.candidates])
            if not inflight:
                if exhausted or stopping:
                    break
                continue  # everything pulled so far was in the journal: pull on
            try:
                finished, _ = wait(list(inflight), timeout=0.5, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:
                stopping = True
                continue
            for fut in sorted(finished, key=lambda f: inflight[f].seq):
                cand = inflight.pop(fut)
                try:
                    stats = _as_stats(fut.result(), cand)
                except SearchError:
                    raise
                except Exception as e:
                    raise SearchError(f'evaluating candidate {cand.seq} {list(cand.values)} '
                                      f'failed: {type(e).__name__}: {e}') from e
                rec = {'seq': cand.seq, 'values': list(cand.values), 'info': cand.info,
                       'stats': stats.to_dict()}
                journal.append(rec)
                done[cand.seq] = rec
                batch_of.pop(cand.seq).fitness[cand.seq] = stats.fitness
                evaluated += 1
                if best is None or stats.fitness > best:
                    best = stats.fitness
                bar.update(1)
                bar.set_postfix(best=f'{best:.3g}')
    finally:
        bar.close()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    wall = time.monotonic() - t_start
    records = [r for s, r in done.items() if budget is None or s < budget]
    return export_run(out, records, names, accept_pct, {
        'strategy': strategy.header()['strategy'], 'evaluated_this_run': evaluated,
        'stopped_early': stopping, 'wall_time_s': wall,
        'candidates_per_s': evaluated / wall if wall > 0 else 0.0})
