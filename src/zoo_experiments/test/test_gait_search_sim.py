"""The gait search on the real simulator (scenario nao_gait_search, 1 s walks to keep it short):
SIGKILL in the middle and resume gives the same journal as an uninterrupted run with another
worker count (R20, R24); the in-scenario search node, driving the Walker through its services,
journals the same results as the parallel command; the report plots the fitness."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from journaled_cli import child_env, start_until_journaled
from zoo_runtime import EMBEDDED

if not EMBEDDED:
    pytest.skip('runs the scenario in the embedded runtime', allow_module_level=True)

BUDGET = 8
SHORT = ['--set', 'walker.duration=1.0']


def records(out: Path) -> dict:
    lines = (out / 'journal.jsonl').read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    assert len({r['seq'] for r in recs}) == len(recs), 'a candidate was evaluated twice'
    return {r['seq']: r for r in recs}


def search_command(out: Path, workers: int) -> list[str]:
    return [sys.executable, '-m', 'zoo_experiments.gait_search', 'nao_gait_search', *SHORT,
            '--budget', str(BUDGET), '--workers', str(workers), '--out', str(out),
            '--no-progress']


def run_search_command(out: Path, workers: int) -> dict:
    r = subprocess.run(search_command(out, workers), env=child_env(), capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout[r.stdout.index('{'):])


@pytest.fixture(scope='module')
def uninterrupted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp('full')
    summary = run_search_command(out, workers=1)
    assert summary['candidates'] == BUDGET and summary['evaluated_this_run'] == BUDGET
    return out


def test_killed_search_resumes_to_the_uninterrupted_result(tmp_path, uninterrupted):
    out = tmp_path / 'killed'
    proc = start_until_journaled(search_command(out, workers=2), out / 'journal.jsonl', 3)
    os.killpg(proc.pid, signal.SIGKILL)  # the search and its workers
    proc.wait()
    partial = records(out)
    assert 3 <= len(partial) < BUDGET
    resumed = run_search_command(out, workers=2)
    assert resumed['evaluated_this_run'] == BUDGET - len(partial)
    assert records(out) == records(uninterrupted)
    # Real walks: distinct candidates, measured on the simulator, some of them standing.
    stats = [r['stats'] for r in records(out).values()]
    assert len({tuple(r['values']) for r in records(out).values()}) == BUDGET
    assert all(0.9 <= s['sim_time'] <= 1.0 + 1e-9 or s['fallen'] for s in stats)
    assert any(not s['fallen'] for s in stats)

    from zoo_scenario.report import write_report
    assert [p.name for p in write_report(out)] == ['fitness.png']
    assert (out / 'fitness.png').read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


def test_search_node_in_the_scenario_journals_the_same_results(tmp_path, uninterrupted):
    from zoo_scenario.runner import run_scenario
    from zoo_scenario.scenario import apply_overrides, load_scenario

    out = tmp_path / 'node'
    sc = apply_overrides(load_scenario('nao_gait_search'),
                         ['walker.duration=1.0', 'search.budget=4', f'search.output={out}'])
    summary = run_scenario(sc, duration=6.0)
    metrics = summary['metrics']['search']
    assert metrics['state'] == 'done' and metrics['candidates'] == 4
    want = {seq: r for seq, r in records(uninterrupted).items() if seq < 4}
    assert records(out) == want


def test_robust_scoring_keeps_the_worst_of_the_starts(uninterrupted):
    from coupled_wave_gait.nao_wave_walk import WalkParams
    from zoo_experiments.gait_search.evaluator import ScenarioEvaluator

    rec = max(records(uninterrupted).values(), key=lambda r: r['stats']['fitness'])
    params = WalkParams.from_sequence(rec['values'])
    starts = (0.0, 0.04, 0.3)
    robust = ScenarioEvaluator('nao_gait_search', ['walker.duration=1.0'], starts=starts)
    singles = [ScenarioEvaluator('nao_gait_search', ['walker.duration=1.0',
                                                     f'walker.settle_time={s}'])
               for s in starts]
    try:
        worst = robust(params)
        walks = [evaluate(params) for evaluate in singles]
    finally:
        for e in [robust, *singles]:
            e.close()
    assert walks[0].to_dict() | {'id': 0} == rec['stats'] | {'id': 0}  # settle 0: the search's
    assert len({w.fitness for w in walks}) > 1, 'the start instant should matter'
    want = min(walks, key=lambda s: (not s.fallen, s.fitness))
    assert worst.to_dict() | {'id': 0} == want.to_dict() | {'id': 0}


def test_quality_scoring_penalises_the_fitness_and_reports_the_measures(uninterrupted):
    from coupled_wave_gait.nao_wave_walk import WalkParams
    from zoo_experiments.gait_search.evaluator import QualityScoring, ScenarioEvaluator

    rec = max(records(uninterrupted).values(), key=lambda r: r['stats']['fitness'])
    params = WalkParams.from_sequence(rec['values'])
    scored = ScenarioEvaluator('nao_gait_search', ['walker.duration=1.0'],
                               quality=QualityScoring())
    try:
        stats = scored(params)
        again = scored(params)
        measured = scored.last_quality()
    finally:
        scored.close()
    q = stats.quality
    assert q['raw_fitness'] == rec['stats']['fitness']       # the walk is the unscored one
    assert 0.0 < q['factor'] <= 1.0 and stats.fitness == q['raw_fitness'] * q['factor']
    assert q['measured']['samples'] == 1000                   # 1 s at every physics step
    assert set(q['measured']['touchdowns_per_s']) == {'l_ankle', 'r_ankle'}
    assert q['measured']['failures'] == measured.failures()
    assert again.to_dict() == stats.to_dict() | {'id': again.id} and again.quality == q
