"""The bookkeeping of a search, whoever evaluates its candidates: zoo_experiments' ``run_search``
(this process, forked workers or Dask) or the search node (one candidate at a time through the
Walker's services). It journals every result, resumes from the journal and exports the seed's
files at the end.
"""
from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gait_player.walk_evaluation import WalkStatistics
from .export import export_run
from .journal import JOURNAL_NAME, NEW, Journal, JournalError
from .strategies import Candidate


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
