"""The search journal's repairs and refusals (issue 10, "nothing lost, nothing silent"): what a kill
leaves is repaired and said, everything else is refused with file:line and left as it is; the
evaluation settings in the header; a stop by Ctrl-C inside an in-process evaluation."""
import json
from pathlib import Path

import pytest

from coupled_wave_gait.search.journal import Journal, JournalError, differences
from coupled_wave_gait.search.session import SearchSession
from zoo_experiments.gait_search.driver import run_search
from coupled_wave_gait.search.space import NAO_WALK_GRID
from coupled_wave_gait.search.standin import StandinWalk
from coupled_wave_gait.search.strategies import GridStrategy

EVAL = {'scenario': 'x', 'parameters': {'walker.duration': 6.0, 'sim.seed': 0}, 'starts': [],
        'quality': {'enabled': False}}


def search(out, budget=4, evaluation=None, legacy_ok=True, notes=None):
    return run_search(GridStrategy(NAO_WALK_GRID, 2015), StandinWalk(), out, budget=budget,
                      progress=False, evaluation=evaluation, legacy_ok=legacy_ok,
                      note=(notes.append if notes is not None else lambda line: None))


def lines(out) -> list[str]:
    return (Path(out) / 'journal.jsonl').read_text().splitlines(keepends=True)


def test_torn_header_alone_is_rewritten_and_said(tmp_path):
    search(tmp_path, 2)
    header = lines(tmp_path)[0]
    (tmp_path / 'journal.jsonl').write_text(header[:30])
    notes = []
    assert search(tmp_path, 2, notes=notes)['evaluated_this_run'] == 2
    assert lines(tmp_path)[0] == header and len(lines(tmp_path)) == 3
    assert any(':1: a torn header' in n for n in notes)


def test_empty_journal_gets_its_header(tmp_path):
    (tmp_path / 'journal.jsonl').write_text('')
    search(tmp_path, 1)
    assert json.loads(lines(tmp_path)[0])['header']['strategy'] == 'grid'


def test_torn_header_with_records_after_it_is_refused_at_line_1(tmp_path):
    search(tmp_path, 2)
    ls = lines(tmp_path)
    (tmp_path / 'journal.jsonl').write_text(ls[0][:30] + '\n' + ''.join(ls[1:]))
    with pytest.raises(JournalError, match=r'journal.jsonl:1: not JSON'):
        search(tmp_path, 2)


def test_whole_last_record_without_newline_is_kept(tmp_path):
    search(tmp_path, 3)
    text = (tmp_path / 'journal.jsonl').read_text()
    (tmp_path / 'journal.jsonl').write_text(text.rstrip('\n'))
    notes = []
    assert search(tmp_path, 3, notes=notes)['evaluated_this_run'] == 0
    assert (tmp_path / 'journal.jsonl').read_text() == text
    assert any('added the missing newline' in n for n in notes)


def test_a_tail_that_no_kill_leaves_is_refused_not_cut(tmp_path):
    search(tmp_path, 3)
    j = tmp_path / 'journal.jsonl'
    j.write_text(j.read_text() + 'notes by hand')
    with pytest.raises(JournalError, match=r"journal.jsonl:5: not JSON .*'notes by hand'"):
        search(tmp_path, 3)
    assert j.read_text().endswith('notes by hand')


def test_evaluation_settings_are_checked_with_the_difference_named(tmp_path):
    search(tmp_path, 2, evaluation=EVAL)
    assert json.loads(lines(tmp_path)[0])['header']['evaluation'] == EVAL
    other = {**EVAL, 'parameters': {'walker.duration': 1.0, 'sim.seed': 0}}
    with pytest.raises(JournalError, match=r'journal.jsonl: written with walker.duration=6.0, '
                                           r'this run has 1.0; use another --out, or --restart'):
        search(tmp_path, 3, evaluation=other)
    search(tmp_path, 3, evaluation=EVAL)                # the same settings resume
    search(tmp_path, 3)                                 # a caller without them: not checked


def test_journal_without_evaluation_settings(tmp_path):
    search(tmp_path, 2)                                 # an older journal, or the search node's
    notes = []
    search(tmp_path, 3, evaluation=EVAL, notes=notes)   # accepted for a run on the defaults
    assert any('written before journals recorded the evaluation settings' in n for n in notes)
    with pytest.raises(JournalError, match=r'journal.jsonl:1: written before journals recorded '
                                           r'the evaluation settings.*--restart'):
        search(tmp_path, 3, evaluation=EVAL, legacy_ok=False)


def test_differences_read_as_settings():
    old = {'strategy': 'grid', 'key': 1, 'space': [{'name': 'a', 'levels': 3}],
           'evaluation': EVAL}
    new = {'strategy': 'grid', 'key': 1, 'space': [{'name': 'a', 'levels': 4}],
           'evaluation': {**EVAL, 'quality': {'enabled': True, 'margin': 0.1},
                          'starts': [0.0, 0.1]}}
    assert differences(old, new) == ['space[0].levels=3, this run has 4',
                                     'starts=[], this run has [0.0,0.1]',
                                     'quality.enabled=false, this run has true',
                                     'no quality.margin, this run has 0.1']
    assert differences(old, old) == []


def test_set_aside_never_overwrites(tmp_path):
    j = Journal(tmp_path / 'journal.jsonl')
    assert j.set_aside() is None
    for n in (1, 2):
        (tmp_path / 'journal.jsonl').write_text(f'journal {n}\n')
        assert j.set_aside() == tmp_path / f'journal.jsonl.{n}'
    assert (tmp_path / 'journal.jsonl.1').read_text() == 'journal 1\n'
    assert (tmp_path / 'journal.jsonl.2').read_text() == 'journal 2\n'


def test_values_that_the_strategy_does_not_propose_are_named_by_line(tmp_path):
    search(tmp_path, 3)
    ls = lines(tmp_path)
    rec = json.loads(ls[2])
    rec['values'][0] += 0.05
    (tmp_path / 'journal.jsonl').write_text(ls[0] + ls[1] + json.dumps(rec) + '\n' + ls[3])
    with pytest.raises(JournalError, match=r'journal.jsonl:3: candidate 1 was .* but this '
                                           r'search proposes'):
        search(tmp_path, 3)


def test_ctrl_c_inside_an_in_process_evaluation_stops_cleanly(tmp_path):
    calls = []

    def interrupted_at_the_third(p):
        calls.append(p)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return StandinWalk()(p)
    summary = run_search(GridStrategy(NAO_WALK_GRID, 2015), interrupted_at_the_third, tmp_path,
                         budget=6, progress=False)
    assert summary['stopped_early'] and summary['candidates'] == 2
    assert (tmp_path / 'summary.json').exists()
    assert search(tmp_path, 6)['evaluated_this_run'] == 4


def test_session_of_the_search_node_shares_a_journal_without_evaluation(tmp_path):
    search(tmp_path, 2, evaluation=EVAL)
    session = SearchSession(GridStrategy(NAO_WALK_GRID, 2015), tmp_path, 4)
    assert session.recorded() == 2
