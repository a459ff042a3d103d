"""Gait search throughput through Dask against the multiprocessing path, side by side in one run:
the same search (scenario nao_gait_search, its CMA-ES from its start, BUDGET candidates of
WALK_S-second walks on the simulator) with 2 workers, once through ``run_search``'s forked pool
(``bin/robozoo search --engine process``) and once through a Dask LocalCluster of 2 worker
processes (``--engine dask``), each into a fresh journal.

Candidates/min are counted over the whole run, start-up included (the pool's fork, or the
cluster's spawn and each worker's imports; every worker's scenario build), and steady (from the
2 x workers-th journaled candidate to the last: what a longer search converges to). Both runs
must journal the same candidates and results (checked; exit 1 otherwise).

    python benchmarks/bench_search_engine.py [BUDGET [WALK_S]]     # default 40 candidates, 2 s

Prints a table, then one JSON line: {"bench": "search_engine", "process_per_min": ...,
"dask_per_min": ..., "ratio": ..., "ratio_steady": ..., ...}
"""
from __future__ import annotations

import json
import sys
import tempfile
import threading
import time
from pathlib import Path

BUDGET = int(sys.argv[1]) if len(sys.argv) > 1 else 40
WALK_S = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
WORKERS = 2
WARM = 2 * WORKERS


class JournalWatch:
    """Times of the journal's records as they appear (polled every 5 ms in a thread): the
    steady rate is counted from the WARM-th record on, when every worker has imported, built
    its scenario and walked a candidate."""

    def __init__(self, path: Path):
        self.path, self.times = path, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self):
        self.t0 = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.t_end = time.monotonic()

    def _poll(self) -> None:
        while not self._stop.wait(0.005):
            try:
                n = self.path.read_bytes().count(b'\n') - 1
            except OSError:
                continue
            while len(self.times) < n:
                self.times.append(time.monotonic())

    def rates(self) -> dict:
        whole = 60.0 * BUDGET / (self.t_end - self.t0)
        warm_at = self.times[WARM - 1]
        steady = 60.0 * (BUDGET - WARM) / (self.times[-1] - warm_at)
        return {'wall_s': self.t_end - self.t0, 'warm_s': warm_at - self.t0,
                'per_min': whole, 'steady_per_min': steady}


def setup():
    from zoo_experiments.gait_search.cli import scenario_settings
    from zoo_experiments.gait_search.evaluator import ScenarioEvaluator

    overrides = [f'walker.duration={WALK_S}']
    settings, _ = scenario_settings('nao_gait_search', overrides)
    evaluate = ScenarioEvaluator('nao_gait_search', overrides)
    evaluation = evaluate.prepare()  # as the command does: the driver checks, workers rebuild
    evaluate.close()
    return settings, evaluate, evaluation


def process_run(settings, evaluate, evaluation, out: Path) -> dict:
    from zoo_experiments.gait_search.driver import run_search

    with JournalWatch(out / 'journal.jsonl') as watch:
        run_search(settings.make_strategy(), evaluate, out, budget=BUDGET, workers=WORKERS,
                   progress=False, evaluation=evaluation, note=lambda _: None)
    return watch.rates()


def dask_run(settings, evaluate, evaluation, out: Path) -> dict:
    from zoo_experiments.gait_search.driver import run_search
    from zoo_experiments.dispatch import DaskEngine

    with JournalWatch(out / 'journal.jsonl') as watch:
        run_search(settings.make_strategy(), evaluate, out, DaskEngine(WORKERS),
                          budget=BUDGET, progress=False, evaluation=evaluation,
                          note=lambda _: None)
    return watch.rates()


def records(out: Path) -> set[str]:
    return set((out / 'journal.jsonl').read_text().splitlines()[1:])


def main() -> None:
    from zoo_experiments.gait_search.evaluator import node_log_level

    with node_log_level('error'), tempfile.TemporaryDirectory() as tmp:
        settings, evaluate, evaluation = setup()
        proc = process_run(settings, evaluate, evaluation, Path(tmp) / 'process')
        dask = dask_run(settings, evaluate, evaluation, Path(tmp) / 'dask')
        same = records(Path(tmp) / 'process') == records(Path(tmp) / 'dask')
    print(f'gait search, {BUDGET} candidates of {WALK_S:g} s walks (nao_gait_search CMA-ES), '
          f'{WORKERS} workers')
    print(f'{"path":<34}{"wall s":>8}{"to warm s":>11}{"cand/min":>10}{"steady cand/min":>17}')
    for name, r in (('multiprocessing (forked pool)', proc),
                    ('dask LocalCluster(2 processes)', dask)):
        print(f'{name:<34}{r["wall_s"]:>8.2f}{r["warm_s"]:>11.2f}{r["per_min"]:>10.0f}'
              f'{r["steady_per_min"]:>17.0f}')
    ratio = dask['per_min'] / proc['per_min']
    steady = dask['steady_per_min'] / proc['steady_per_min']
    print(f'dask / multiprocessing: {ratio:.2f}x whole run, {steady:.2f}x steady (from the '
          f'{WARM}th candidate on); same journal records: {same}')
    print(json.dumps({'bench': 'search_engine', 'budget': BUDGET, 'walk_s': WALK_S,
                      'workers': WORKERS, 'process_per_min': round(proc['per_min'], 1),
                      'dask_per_min': round(dask['per_min'], 1),
                      'process_steady_per_min': round(proc['steady_per_min'], 1),
                      'dask_steady_per_min': round(dask['steady_per_min'], 1),
                      'process_warm_s': round(proc['warm_s'], 2),
                      'dask_warm_s': round(dask['warm_s'], 2),
                      'ratio': round(ratio, 3), 'ratio_steady': round(steady, 3),
                      'same_records': same}))
    if not same:
        sys.exit('the two engines journaled different candidates or results')


if __name__ == '__main__':
    main()
