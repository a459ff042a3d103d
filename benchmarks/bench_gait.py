"""Gait evaluation throughput: wall seconds per evaluated 6 s Nao walk on one core, and candidates
per minute with every core, on the simulator through the search's evaluator (scenario
nao_gait_search: simulator + joint PID + Walker, one build per process, reset between walks).

The candidate is the searched wave walk (config/nao_walk_params.yaml, scenario nao_wave_walk),
which stands for its full 6 s, so every evaluation costs a whole candidate; a real search is
cheaper per candidate because falls end early, which the last row shows (the first candidates of
the scenario's CMA-ES search).
The seed (Gazebo 5, ICE, wall-clock playback) needed about 7 s per candidate (specs/nao.md §7).

Prints a table, then one JSON line: {"bench": "gait", "s_per_candidate_1core": ...,
"candidates_per_min_all_cores": ..., "cores": ..., "speedup_vs_seed": ..., ...}
Target (issue 5): s_per_candidate_1core <= 0.5.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import tempfile
import time
from pathlib import Path

import yaml

SEED_S_PER_CANDIDATE = 7.0  # specs/nao.md §7: "about 7 s per simulation on average"
TARGET_S_PER_CANDIDATE = 0.5
WALKS_PER_CORE = 6
SEARCH_CANDIDATES = 20
WS = Path(__file__).resolve().parents[1]


def shipped_params() -> list[float]:
    data = yaml.safe_load((WS / 'config' / 'nao_walk_params.yaml').read_text())
    return data['/**/walker']['ros__parameters']['params']


def shipped_overrides() -> list[str]:
    """The shipped walk's other Walker settings (generator, playback mode, ramp), as --set."""
    data = yaml.safe_load((WS / 'config' / 'nao_walk_params.yaml').read_text())
    return [f'walker.{k}={v}' for k, v in data['/**/walker']['ros__parameters'].items()
            if k != 'params']


def timed_walks(n: int, barrier=None) -> tuple[float, list]:
    """Build the evaluator (one warm-up walk), then time ``n`` walks of the shipped gait."""
    from coupled_wave_gait.nao_wave_walk import WalkParams
    from zoo_experiments.gait_search.evaluator import ScenarioEvaluator

    params = WalkParams.from_sequence(shipped_params())
    evaluate = ScenarioEvaluator('nao_gait_search', shipped_overrides())
    evaluate(params)
    if barrier is not None:
        barrier.wait()
    t0 = time.perf_counter()
    stats = [evaluate(params) for _ in range(n)]
    wall = time.perf_counter() - t0
    evaluate.close()
    return wall, stats


def solver_iterations() -> tuple[float, float]:
    """(mean, 95th percentile) Newton iterations per physics step of one walk of the shipped gait
    (recorded through the simulator's step_observers, outside the timed walks)."""
    import numpy as np
    from coupled_wave_gait.nao_wave_walk import WalkParams
    from zoo_experiments.gait_search.evaluator import ScenarioEvaluator

    evaluate = ScenarioEvaluator('nao_gait_search', shipped_overrides())
    params = WalkParams.from_sequence(shipped_params())
    evaluate(params)
    physics = evaluate._run.physics
    iterations: list[int] = []
    physics.step_observers.append(lambda: iterations.append(int(physics.data.solver_niter[0])))
    evaluate(params)
    evaluate.close()
    return float(np.mean(iterations)), float(np.percentile(iterations, 95))


def _worker(n: int, barrier, queue) -> None:
    wall, stats = timed_walks(n, barrier)
    queue.put((time.perf_counter(), len(stats)))


def all_cores(cores: int) -> float:
    """Candidates per minute with one process per core, builds excluded."""
    ctx = mp.get_context('fork')
    barrier, queue = ctx.Barrier(cores + 1), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(WALKS_PER_CORE, barrier, queue))
             for _ in range(cores)]
    for p in procs:
        p.start()
    barrier.wait()
    t0 = time.perf_counter()
    done = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    wall = max(t for t, _ in done) - t0
    return sum(n for _, n in done) / wall * 60.0


def search_rate(cores: int) -> tuple[float, int]:
    """A real search's candidates per minute (falls included), with every core."""
    from zoo_experiments.gait_search.driver import run_search
    from coupled_wave_gait.search.settings import SearchSettings
    from zoo_experiments.gait_search.evaluator import ScenarioEvaluator
    from zoo_scenario.scenario import load_scenario

    sc = load_scenario('nao_gait_search')
    node = next(n for n in sc.nodes if n.executable == 'gait_search')
    settings = SearchSettings.from_parameters(dict(node.parameters), 'nao_gait_search')
    with tempfile.TemporaryDirectory() as out:
        s = run_search(settings.make_strategy(), ScenarioEvaluator('nao_gait_search'), out,
                       budget=SEARCH_CANDIDATES, workers=cores, progress=False)
    return s['candidates_per_s'] * 60.0, s['fallen']


def main() -> None:
    cores = os.cpu_count() or 1
    wall, stats = timed_walks(WALKS_PER_CORE)
    per_candidate = wall / WALKS_PER_CORE
    walk = stats[0]
    assert all(s.to_dict() | {'id': 0} == walk.to_dict() | {'id': 0} for s in stats), \
        'repeated evaluations of one candidate differ'
    per_min = all_cores(cores)
    search_per_min, fallen = search_rate(cores)
    iters_mean, iters_p95 = solver_iterations()
    result = {'bench': 'gait', 's_per_candidate_1core': round(per_candidate, 3),
              'candidates_per_min_all_cores': round(per_min, 1), 'cores': cores,
              'speedup_vs_seed': round(SEED_S_PER_CANDIDATE / per_candidate, 1),
              'sim_rtf_1core': round(walk.sim_time / per_candidate, 1),
              'search_candidates_per_min_all_cores': round(search_per_min, 1),
              'solver_iterations_mean': round(iters_mean, 2),
              'solver_iterations_p95': round(iters_p95, 1),
              'target_s_per_candidate': TARGET_S_PER_CANDIDATE}
    print(f'Nao gait evaluation: the shipped walk ({walk.sim_time:g} s, '
          f'{(walk.x1 - walk.x0) / 100:.2f} m forward, fallen {walk.fallen}), scenario '
          f'nao_gait_search, {cores} cores')
    print(f'  {"":40s}{"value":>12s}')
    print(f'  {"wall s per 6 s candidate, 1 core":40s}{per_candidate:12.3f}  '
          f'(target <= {TARGET_S_PER_CANDIDATE}, seed ~{SEED_S_PER_CANDIDATE:g})')
    print(f'  {"speed-up over the seed":40s}{SEED_S_PER_CANDIDATE / per_candidate:12.1f}x')
    print(f'  {"simulated / wall time, 1 core":40s}{walk.sim_time / per_candidate:12.1f}x')
    print(f'  {f"candidates per minute, {cores} cores":40s}{per_min:12.1f}')
    print(f'  {f"search candidates/min, {cores} cores":40s}{search_per_min:12.1f}  '
          f'(first {SEARCH_CANDIDATES} CMA-ES candidates, {fallen} fell)')
    print(f'  {"Newton iterations per step, mean / p95":40s}{iters_mean:12.2f} / {iters_p95:.0f}')
    print(json.dumps(result))


if __name__ == '__main__':
    main()
