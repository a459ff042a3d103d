"""The search runner (specs/nao.md R20, R23, R24): journal, resume, kill -9, parallel workers,
CMA-ES, and the seed's text formats; with an analytic stand-in for the simulator."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from gait_player.walk_evaluation import WalkStatistics
from coupled_wave_gait.search.export import result_text, searches_text
from coupled_wave_gait.search.journal import Journal, JournalError
from coupled_wave_gait.search.session import SearchError
from zoo_experiments.gait_search.driver import run_search
from coupled_wave_gait.search.space import NAO_WALK_GRID, Axis, GridSpace
from coupled_wave_gait.search.strategies import CmaStrategy, GridStrategy
from coupled_wave_gait.search.standin import StandinWalk



def records(out):
    lines = (Path(out) / 'journal.jsonl').read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    assert len({r['seq'] for r in recs}) == len(recs), 'a candidate was evaluated twice'
    return {r['seq']: r for r in recs}


def grid_run(out, budget, workers=1, evaluate=None, key=2015):
    return run_search(GridStrategy(NAO_WALK_GRID, key), evaluate or StandinWalk(), out,
                      budget=budget, workers=workers, progress=False)


def test_resume_after_a_stop_equals_an_uninterrupted_run(tmp_path):
    full = grid_run(tmp_path / 'full', 120)
    grid_run(tmp_path / 'split', 45)
    resumed = grid_run(tmp_path / 'split', 120)
    assert resumed['evaluated_this_run'] == 75
    assert records(tmp_path / 'split') == records(tmp_path / 'full')
    assert sorted(records(tmp_path / 'full')) == list(range(120))
    for name in ('searches.txt', 'results.txt'):
        assert (tmp_path / 'split' / name).read_text() == (tmp_path / 'full' / name).read_text()
    assert resumed['best'] == full['best']
    again = grid_run(tmp_path / 'split', 120)  # nothing left to do
    assert again['evaluated_this_run'] == 0 and again['candidates'] == 120


def test_results_do_not_depend_on_the_number_of_workers(tmp_path):
    one = grid_run(tmp_path / 'one', 60, workers=1)
    two = grid_run(tmp_path / 'two', 60, workers=2)
    assert records(tmp_path / 'one') == records(tmp_path / 'two')
    assert one['best'] == two['best'] and one['fallen'] == two['fallen']


STRATEGIES = {'grid': 'GridStrategy(NAO_WALK_GRID, 2015)',
              'cma-es': 'CmaStrategy(NAO_WALK_GRID, seed=11, sigma0=0.25)'}


@pytest.mark.parametrize('name', sorted(STRATEGIES))
def test_search_survives_kill_9_and_resumes_without_loss_or_repeat(tmp_path, name):
    out = tmp_path / 'killed'
    script = tmp_path / 'search.py'
    script.write_text(textwrap.dedent(f'''
        from zoo_experiments.gait_search.driver import run_search
        from coupled_wave_gait.search.space import NAO_WALK_GRID
        from coupled_wave_gait.search.strategies import CmaStrategy, GridStrategy
        from coupled_wave_gait.search.standin import StandinWalk
        run_search({STRATEGIES[name]}, StandinWalk(delay_s=0.02), {str(out)!r},
                   budget=200, workers=2, progress=False)
    '''))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, str(script)], env=env, start_new_session=True)
    journal = out / 'journal.jsonl'
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if journal.exists() and journal.read_text().count('\n') > 60:
                break
            time.sleep(0.02)
        assert proc.poll() is None, 'the search ended before it could be killed'
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the search and its workers: its own process group
        proc.wait()
    partial = records(out)
    assert 60 <= len(partial) < 200

    def run(path, workers):
        return run_search(eval(STRATEGIES[name]), StandinWalk(), path, budget=200,
                          workers=workers, progress=False)
    summary = run(out, 2)
    assert summary['evaluated_this_run'] == 200 - len(partial)
    run(tmp_path / 'full', 1)
    assert records(out) == records(tmp_path / 'full')


def test_torn_last_line_is_cut_and_the_candidate_evaluated_again(tmp_path):
    grid_run(tmp_path / 'a', 10)
    j = tmp_path / 'a' / 'journal.jsonl'
    text = j.read_text()
    j.write_text(text[: len(text) - 40])  # kill in the middle of the last record's write
    assert len(records_without_torn(j)) == 9
    summary = grid_run(tmp_path / 'a', 10)
    assert summary['evaluated_this_run'] == 1
    grid_run(tmp_path / 'b', 10)
    assert records(tmp_path / 'a') == records(tmp_path / 'b')


def records_without_torn(path):
    lines = path.read_text().split('\n')
    return [x for x in lines[1:-1]]


def test_journal_refuses_another_search_and_corruption(tmp_path):
    grid_run(tmp_path / 'a', 5, key=1)
    with pytest.raises(JournalError, match='written with key=1, this run has 2'):
        grid_run(tmp_path / 'a', 5, key=2)
    j = tmp_path / 'a' / 'journal.jsonl'
    lines = j.read_text().splitlines(keepends=True)
    j.write_text(''.join(lines[:2] + ['{not json\n'] + lines[2:]))
    with pytest.raises(JournalError, match=r'journal.jsonl:3: not JSON'):
        Journal(j).load(GridStrategy(NAO_WALK_GRID, 1).header())
    j.write_text(''.join(lines[:3] + lines[2:3]))
    with pytest.raises(JournalError, match=r'journal.jsonl:4: candidate .* recorded twice'):
        Journal(j).load(GridStrategy(NAO_WALK_GRID, 1).header())


def test_evaluator_failure_names_the_candidate_and_keeps_the_journal(tmp_path):
    calls = []

    def flaky(p):
        calls.append(p)
        if len(calls) == 4:
            raise FloatingPointError('physics exploded')
        return StandinWalk()(p)
    with pytest.raises(SearchError, match=r'evaluating candidate 3 .* physics exploded'):
        grid_run(tmp_path, 10, evaluate=flaky)
    assert sorted(records(tmp_path)) == [0, 1, 2]


def test_small_grid_is_visited_completely_once(tmp_path):
    space = GridSpace([Axis(n, 0.0, 1.0, 1) for n in NAO_WALK_GRID.names[1:]])
    space = GridSpace([Axis('period_s', 0.5, 0.1, 3)] + list(space.axes[:7]) +
                      [Axis('ankle_offset', -20.0, 5.0, 4), Axis('balance', 10.0, 10.0, 2)])
    summary = run_search(GridStrategy(space, 3), StandinWalk(), tmp_path, progress=False)
    recs = records(tmp_path)
    assert summary['candidates'] == space.size == 24
    assert sorted(tuple(r['values']) for r in recs.values()) == \
        sorted(space.values(i) for i in range(24))


def test_seed_text_formats():
    rec = {'seq': 4129, 'values': [0.6, 0.0, -100.0, 30.0, 2.0, 40.0, 20.0, -3.0, -75.0, 0.0]}
    assert searches_text([rec]) == ('Search#4129\nparam1:0.6\nparam2:0\nparam3:-100\nparam4:30\n'
                                    'param5:2\nparam6:40\nparam7:20\nparam8:-3\nparam9:-75\n'
                                    'param10:0\n')
    s = WalkStatistics(id=354717, sim_time=6.0, x0=0, y0=-1e-9, z0=33.5, x1=200, y1=0, z1=33.5,
                       distance=200.0, deviation=0.0001, fallen=False, fitness_pct=100.0)
    assert result_text(s).splitlines() == [
        'Search_id#354717', 'Simulation time: 6.000 s', 'Origin: (0.00 cm, 0.00 cm, 33.50 cm)',
        'End: (200.00 cm, 0.00 cm, 33.50 cm)', 'Distance: 200.00 cm', 'Desviation: 0.0001 cm',
        'Fallen: 0', 'Fitness: 100.0%']


def test_results_file_keeps_only_standing_candidates_above_70_percent(tmp_path):
    summary = grid_run(tmp_path, 150)
    recs = records(tmp_path)
    stats = [WalkStatistics.from_dict(r['stats']) for r in recs.values()]
    keep = sorted(s.id for s in stats if not s.fallen and s.fitness_pct > 70.0)
    text = (tmp_path / 'results.txt').read_text()
    ids = [int(line.split('#')[1]) for line in text.splitlines() if line.startswith('Search_id#')]
    assert ids == keep
    assert summary['accepted'] == len(keep)
    assert summary['fallen'] == sum(s.fallen for s in stats) > 0
    assert summary['fall_rate'] == pytest.approx(summary['fallen'] / 150)
    best = max(stats, key=lambda s: s.fitness)
    assert summary['best']['id'] == best.id and summary['best']['fitness'] == best.fitness
    assert summary['best']['params'] == dict(zip(NAO_WALK_GRID.names, recs[best.id]['values']))
    assert (tmp_path / 'searches.txt').read_text().count('Search#') == 150


def test_cma_es_beats_the_grid_and_resumes_exactly(tmp_path):
    def cma():
        return CmaStrategy(NAO_WALK_GRID, seed=11, sigma0=0.25)
    full = run_search(cma(), StandinWalk(), tmp_path / 'full', budget=200, progress=False)
    # 73 stops in the middle of a generation
    run_search(cma(), StandinWalk(), tmp_path / 'split', budget=73, progress=False)
    run_search(cma(), StandinWalk(), tmp_path / 'split', budget=200, progress=False)
    assert records(tmp_path / 'split') == records(tmp_path / 'full')
    grid = grid_run(tmp_path / 'grid', 200)
    assert full['best']['fitness'] > 1.5 * grid['best']['fitness']
    lo, hi = np.array(NAO_WALK_GRID.bounds()).T
    for r in records(tmp_path / 'full').values():  # candidates stay inside the box
        assert np.all(np.array(r['values']) >= lo) and np.all(np.array(r['values']) <= hi)


def test_a_journal_of_the_hand_written_cma_es_is_refused(tmp_path):
    """Before pycma the header had no engine; its candidates differ, so it is not resumed."""
    run_search(CmaStrategy(NAO_WALK_GRID, seed=11), StandinWalk(), tmp_path, budget=3,
               progress=False)
    j = tmp_path / 'journal.jsonl'
    lines = j.read_text().splitlines()
    header = json.loads(lines[0])
    assert header['header']['engine'].startswith('pycma ')
    del header['header']['engine']
    j.write_text('\n'.join([json.dumps(header)] + lines[1:]) + '\n')
    with pytest.raises(JournalError, match='engine'):
        run_search(CmaStrategy(NAO_WALK_GRID, seed=11), StandinWalk(), tmp_path, budget=3,
                   progress=False)


class _QualityStandin(StandinWalk):
    """The stand-in with a quality record attached, as the quality-scored evaluator returns."""

    def __call__(self, p):
        stats = super().__call__(p)
        stats.quality = {'factor': 0.5, 'raw_fitness': stats.fitness}
        stats.fitness *= 0.5
        return stats


def test_quality_records_are_journaled_and_the_resume_is_unchanged(tmp_path):
    full = grid_run(tmp_path / 'full', 20, evaluate=_QualityStandin())
    grid_run(tmp_path / 'split', 8, evaluate=_QualityStandin())
    resumed = grid_run(tmp_path / 'split', 20, workers=2, evaluate=_QualityStandin())
    assert resumed['evaluated_this_run'] == 12
    recs = records(tmp_path / 'split')
    assert recs == records(tmp_path / 'full') and resumed['best'] == full['best']
    for r in recs.values():
        assert r['quality'] == {'factor': 0.5, 'raw_fitness': 2 * r['stats']['fitness']}
    grid_run(tmp_path / 'plain', 3)                         # without: no quality key
    assert all('quality' not in r for r in records(tmp_path / 'plain').values())


def test_quality_settings_are_checked():
    from coupled_wave_gait.search.settings import SearchSettings

    s = SearchSettings(quality=True, quality_margin=0.2, quality_weight=2.0,
                       quality_walk_weight=10.0)
    assert s.quality and s.updated(quality_margin=None).quality_margin == 0.2
    for bad in ({'quality': 1}, {'quality_margin': 1.0}, {'quality_weight': 0.0},
                {'quality_walk_weight': -1.0}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            SearchSettings(**bad)
