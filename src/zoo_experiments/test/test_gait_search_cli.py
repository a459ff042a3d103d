"""The gait search's command line (``bin/robozoo search``, ``python -m zoo_experiments.gait_search``):
runs, resumes, reads the scenario's search settings; with coupled_wave_gait's analytic stand-in
evaluator. Bad input: test_gait_search_errors.py."""
import json
from pathlib import Path

import pytest

from coupled_wave_gait.search.strategies import CmaStrategy

STANDIN = 'coupled_wave_gait.search.standin:StandinWalk'


def records(out):
    lines = (Path(out) / 'journal.jsonl').read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    assert len({r['seq'] for r in recs}) == len(recs), 'a candidate was evaluated twice'
    return {r['seq']: r for r in recs}


def test_command_line_runs_and_resumes(tmp_path):
    from zoo_experiments.gait_search.cli import main
    args = ['--evaluator', STANDIN, '--out', str(tmp_path),
            '--no-progress']
    assert main(args + ['--budget', '12']) == 0
    assert main(args + ['--budget', '20']) == 0
    summary = json.loads((tmp_path / 'summary.json').read_text())
    assert summary['candidates'] == 20 and summary['evaluated_this_run'] == 8
    assert sorted(records(tmp_path)) == list(range(20))
    assert main(['--evaluator', 'coupled_wave_gait.search.standin', '--out', str(tmp_path)]) == 2


def test_search_settings_from_the_scenario_and_their_errors(tmp_path):
    from zoo_experiments.gait_search.cli import scenario_settings
    from coupled_wave_gait.search.settings import SearchSettings

    settings, name = scenario_settings('nao_gait_search', ['search.budget=5'])
    assert name == 'nao_gait_search' and settings.budget == 5
    strategy = settings.make_strategy()
    assert isinstance(strategy, CmaStrategy) and strategy.header()['start'] == list(settings.start)
    assert settings.output_dir('unused').parts[-3:] == ('out', 'nao_gait_search', 'search')
    assert SearchSettings(output=str(tmp_path)).output_dir('x') == tmp_path
    assert settings.updated(budget=None, key=9).key == 9
    assert settings.updated(budget=None).budget == 5                  # None: keep
    with pytest.raises(ValueError, match="where: unknown search parameter 'budgte'"):
        SearchSettings.from_parameters({'budgte': 3}, 'where')
    with pytest.raises(ValueError, match='setting start: expected 10 numbers'):
        SearchSettings.from_parameters({'start': [0.6, 1.0]}, 'where')
    with pytest.raises(ValueError, match='setting strategy: expected grid or cma-es'):
        SearchSettings(strategy='random')


def test_quality_needs_a_scenario(tmp_path, capsys):
    from zoo_experiments.gait_search.cli import main
    assert main(['--evaluator', STANDIN, '--out', str(tmp_path), '--quality',
                 '--no-progress']) == 2
    assert 'need a scenario' in capsys.readouterr().err
