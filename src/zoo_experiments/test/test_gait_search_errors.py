"""Nothing lost, nothing silent (issue 10) for the gait search command (``bin/robozoo search``,
in-process ``main([...])``): every bad argument and every bad journal ends in one stderr line
naming the culprit and exit 2, no traceback, the journal left as it was; a journal written with
other evaluation settings is refused with the difference named and kept by ``--restart``; a torn
header is repaired; node INFO logs stay quiet during a search unless --verbose."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from zoo_runtime import EMBEDDED

STANDIN = 'coupled_wave_gait.search.standin:StandinWalk'
SCENARIO = 'nao_gait_search'
SHORT = ['--set', 'walker.duration=0.5']  # half-second walks: the simulator cases stay quick

sim = pytest.mark.skipif(not EMBEDDED, reason='builds the scenario in the embedded runtime')


def run_main(args: list[str], capsys) -> tuple[int, str, str]:
    from zoo_experiments.gait_search.cli import main
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_error_line(code: int, out: str, err: str, fragments: list[str]) -> None:
    assert code == 2, err
    assert 'Traceback' not in err and out == ''
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith('robozoo search: error: '), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# -- bad arguments ------------------------------------------------------------------------------
# name: (argv with {tmp} for a folder and {file} for an existing file, fragments of the line)
BAD_ARGS: dict[str, tuple[list[str], list[str]]] = {
    'neither_scenario_nor_evaluator': (['--out', '{tmp}'], ['give a scenario or --evaluator']),
    'both_scenario_and_evaluator': ([SCENARIO, '--evaluator', STANDIN], ['one of them']),
    'evaluator_without_out': (['--evaluator', STANDIN], ['--out is required']),
    'evaluator_without_colon': (['--evaluator', 'coupled_wave_gait.search.standin', '--out',
                                 '{tmp}'], ["--evaluator coupled_wave_gait.search.standin",
                                            "'module:attribute'"]),
    'evaluator_unknown_module': (['--evaluator', 'no_such_module:X', '--out', '{tmp}'],
                                 ['--evaluator no_such_module:X', 'no_such_module']),
    'evaluator_unknown_attribute': (['--evaluator', 'coupled_wave_gait.search.standin:Nope',
                                     '--out', '{tmp}'], ['standin:Nope', 'Nope']),
    'evaluator_not_callable': (['--evaluator', 'coupled_wave_gait.search.standin:GOOD',
                                '--out', '{tmp}'], ['standin:GOOD', 'not callable']),
    'evaluator_with_quality': (['--evaluator', STANDIN, '--out', '{tmp}', '--quality'],
                               ['--quality', 'need a scenario']),
    'evaluator_with_set': (['--evaluator', STANDIN, '--out', '{tmp}', '--set', 'walker.x=1'],
                           ['--set walker.x=1', 'needs a scenario']),
    'out_is_a_file': (['--evaluator', STANDIN, '--out', '{file}'],
                      ['--out', 'is a file, not a directory']),
    'out_below_a_file': (['--evaluator', STANDIN, '--out', '{file}/run'],
                         ['--out', 'is a file, not a directory']),
    'budget_negative': (['--evaluator', STANDIN, '--out', '{tmp}', '--budget', '-1'],
                        ['--budget -1', 'expected an integer >= 0']),
    'budget_not_a_number': (['--evaluator', STANDIN, '--out', '{tmp}', '--budget', 'abc'],
                            ['--budget', "invalid int value: 'abc'"]),
    'workers_negative': (['--evaluator', STANDIN, '--out', '{tmp}', '--workers', '-2'],
                         ['--workers -2', 'expected an integer >= 0']),
    'strategy_unknown': (['--evaluator', STANDIN, '--out', '{tmp}', '--strategy', 'random'],
                         ['--strategy', "'random'"]),
    'sigma0_zero': (['--evaluator', STANDIN, '--out', '{tmp}', '--sigma0', '0'],
                    ['--sigma0 0', 'expected a number in (0, 1]']),
    'accept_pct_above_100': (['--evaluator', STANDIN, '--out', '{tmp}', '--accept-pct', '150'],
                             ['--accept-pct 150', 'percentage']),
    'start_three_values': (['--evaluator', STANDIN, '--out', '{tmp}', '--start', '1', '2', '3'],
                           ['--start', 'expected 10 arguments']),
    'unknown_flag': (['--evaluator', STANDIN, '--out', '{tmp}', '--budgte', '3'],
                     ['unrecognized arguments: --budgte']),
    'scenario_unknown': (['nao_gait_serch', '--out', '{tmp}'],
                         ["unknown scenario 'nao_gait_serch'", 'nao_gait_search']),
    'scenario_file_missing': (['{tmp}/nope.yaml', '--out', '{tmp}'], ['nope.yaml',
                                                                       'does not exist']),
    'starts_negative': ([SCENARIO, '--out', '{tmp}', '--starts', '-1'],
                        ['--starts -1', 'settle times >= 0 s']),
    'quality_margin_above_1': ([SCENARIO, '--out', '{tmp}', '--quality', '--quality-margin',
                                '1.5'], ['--quality-margin 1.5', '[0, 1)']),
    'set_without_equals': ([SCENARIO, '--out', '{tmp}', '--set', 'walker.duration'],
                           ['--set walker.duration', 'node.parameter=value']),
    'set_unknown_node': ([SCENARIO, '--out', '{tmp}', '--set', 'walkr.duration=1.0'],
                         ['--set walkr.duration=1.0', "no node named 'walkr'"]),
    'set_search_unknown_parameter': ([SCENARIO, '--out', '{tmp}', '--set', 'search.budgte=3'],
                                     ['--set search.budgte=3', "no parameter 'budgte'",
                                      "did you mean 'budget'"]),
    'set_search_wrong_type': ([SCENARIO, '--out', '{tmp}', '--set', 'search.budget=many'],
                              ['--set search.budget=many', 'expected an integer >= 0']),
    'set_mapping_value': ([SCENARIO, '--out', '{tmp}', '--set', 'walker.duration={a: 1}'],
                          ['--set walker.duration={a: 1}', 'mapping']),
    'set_null_value': ([SCENARIO, '--out', '{tmp}', '--set', 'walker.duration=null'],
                       ['--set walker.duration=null', 'got null']),
    'scenario_without_walker': (['talker_listener', '--out', '{tmp}'],
                                ['talker_listener', 'gait_player/player']),
}
# These build the scenario's nodes (about half a second each) before they can tell.
BAD_ARGS_BUILT: dict[str, tuple[list[str], list[str]]] = {
    'set_walker_duration_not_a_number': (
        [SCENARIO, '--out', '{tmp}', '--set', 'walker.duration=abc'],
        ['--set walker.duration=abc', "node 'walker'", "parameter 'duration'", 'expected a double',
         'got a string']),
    'set_walker_parameter_unknown': (
        [SCENARIO, '--out', '{tmp}', '--set', 'walker.durration=1.0'],
        ['--set walker.durration=1.0', "no parameter 'durration'", "did you mean 'duration'"]),
    'set_simulator_parameter_type': (
        [SCENARIO, '--out', '{tmp}', '--set', 'sim.physics_step=fast'],
        ['--set sim.physics_step=fast', "parameter 'physics_step'", 'expected a double']),
    'set_walker_value_rejected': (
        [SCENARIO, '--out', '{tmp}', '--set', 'walker.settle_time=-1.0'],
        ['--set walker.settle_time=-1.0', "parameter 'settle_time' = -1.0", 'expected >= 0 s']),
}


def _argv(template: list[str], tmp_path: Path) -> list[str]:
    file = tmp_path / 'a_file'
    file.write_text('not a directory\n')
    argv = [a.replace('{tmp}', str(tmp_path / 'run')).replace('{file}', str(file))
            for a in template]
    for flag in ('--budget', '--workers'):  # small, should a regression accept the case
        argv += [flag, '1'] if flag not in argv else []
    return argv


@pytest.mark.parametrize('case', sorted(BAD_ARGS))
def test_bad_argument_is_one_line_naming_it(case, tmp_path, capsys):
    argv, fragments = BAD_ARGS[case]
    assert_one_error_line(*run_main(_argv(argv, tmp_path), capsys), fragments)
    assert not (tmp_path / 'run' / 'journal.jsonl').exists()  # refused before any work


@sim
@pytest.mark.parametrize('case', sorted(BAD_ARGS_BUILT))
def test_bad_node_parameter_is_one_line_naming_the_set(case, tmp_path, capsys):
    argv, fragments = BAD_ARGS_BUILT[case]
    assert_one_error_line(*run_main(_argv(argv, tmp_path), capsys), fragments)
    assert not (tmp_path / 'run' / 'journal.jsonl').exists()


def test_the_catalogue_is_large_enough():
    assert len(BAD_ARGS) + len(BAD_ARGS_BUILT) >= 15


# -- bad journals -------------------------------------------------------------------------------
def standin_search(out: Path, budget: int, capsys, *extra: str) -> tuple[int, str, str]:
    return run_main(['--evaluator', STANDIN, '--out', out, '--budget', budget, '--workers', 1,
                     '--no-progress', *extra], capsys)


@pytest.fixture
def journal(tmp_path, capsys) -> Path:
    """A good journal of 4 stand-in candidates (header + 4 lines)."""
    code, _, err = standin_search(tmp_path, 4, capsys)
    assert code == 0, err
    return tmp_path / 'journal.jsonl'


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def _record(line: str, **changes) -> str:
    rec = json.loads(line)
    rec.update(changes)
    return json.dumps({k: v for k, v in rec.items() if v is not None}) + '\n'


# name: (how to spoil the journal's lines, line number and fragments of the error)
BAD_JOURNALS = {
    'garbage_line': (lambda ls: ls[:3] + ['{"seq": 9, oops\n'] + ls[3:], 4, ['not JSON',
                                                                             '{"seq": 9, oops']),
    'duplicate_record': (lambda ls: ls + [ls[2]], 6, ['candidate 1 recorded twice',
                                                      'first on line 3']),
    'nul_line': (lambda ls: ls[:2] + ['\0' * 64 + '\n'] + ls[2:], 3, ['a line of NUL bytes']),
    'empty_line': (lambda ls: ls[:2] + ['\n'] + ls[2:], 3, ['an empty line']),
    'short_record': (lambda ls: ls + ['{"seq": 7}\n'], 6, ['a record without values and stats']),
    'record_missing_stats': (lambda ls: ls + [_record(ls[1], seq=8, stats=None)], 6,
                             ['a record without stats']),
    'record_with_nan': (lambda ls: ls + [_record(ls[1], seq=8).replace('"fitness": ',
                                                                       '"fitness": NaN, "x": ')],
                        6, ['not JSON', 'NaN']),
    'record_fitness_not_a_number': (
        lambda ls: ls + [_record(ls[1], seq=8, stats={'fitness': 'high'})], 6,
        ['record 8', "'fitness' is 'high'"]),
    'record_values_short': (lambda ls: ls + [_record(ls[1], seq=8, values=[1.0, 2.0])], 6,
                            ['record 8', '"values" is not a list of 10 numbers']),
    'record_a_list': (lambda ls: ls + ['[1, 2, 3]\n'], 6, ['a JSON list, not a candidate record']),
    'not_utf8': (lambda ls: ls + ['\udcff\udcfe\n'], 6, ['not UTF-8 text']),
    'second_header': (lambda ls: ls + [ls[0]], 6, ['a second header']),
    'header_not_a_mapping': (lambda ls: ['["header", 1]\n'] + ls[1:], 1,
                             ['not a journal header but a JSON list']),
    'header_value_not_a_mapping': (lambda ls: ['{"header": 5}\n'] + ls[1:], 1,
                                   ['a header that is a JSON number']),
    'header_lost': (lambda ls: ls[1:], 1, ['a record (candidate 0) where the header should be']),
    'torn_header_then_records': (lambda ls: [ls[0][:40] + '\n'] + ls[1:], 1, ['not JSON']),
}


@pytest.mark.parametrize('case', sorted(BAD_JOURNALS))
def test_bad_journal_is_one_line_naming_file_and_line(case, journal, capsys):
    spoil, lineno, fragments = BAD_JOURNALS[case]
    text = ''.join(spoil(_lines(journal)))
    journal.write_bytes(text.encode('utf-8', 'surrogateescape'))
    before = journal.read_bytes()
    code, out, err = standin_search(journal.parent, 6, capsys)
    assert_one_error_line(code, out, err, [f'journal.jsonl:{lineno}: ', *fragments,
                                           'move the journal aside (--restart)'])
    assert journal.read_bytes() == before  # left as it was
    assert code == 2


def test_header_of_another_search_names_the_difference(journal, capsys):
    code, out, err = standin_search(journal.parent, 6, capsys, '--key', '7')
    assert_one_error_line(code, out, err, ['journal.jsonl: written with key=2015, this run has 7',
                                           '--restart'])


def test_journal_that_is_a_directory(tmp_path, capsys):
    (tmp_path / 'journal.jsonl').mkdir()
    assert_one_error_line(*standin_search(tmp_path, 3, capsys),
                          ['journal.jsonl: a directory, not a journal file'])
    assert (tmp_path / 'journal.jsonl').is_dir()


def test_torn_header_alone_is_written_again(journal, capsys):
    header = _lines(journal)[0]
    journal.write_text(header[:37])  # killed while the journal was created
    code, out, err = standin_search(journal.parent, 4, capsys)
    assert code == 0, err
    assert 'journal.jsonl:1: a torn header' in err and 'Traceback' not in err
    lines = _lines(journal)
    assert lines[0] == header and len(lines) == 5
    assert json.loads(out)['evaluated_this_run'] == 4


def test_torn_last_record_is_cut_and_said(journal, capsys):
    lines = _lines(journal)
    journal.write_text(''.join(lines[:-1]) + lines[-1][:25])
    code, out, err = standin_search(journal.parent, 4, capsys)
    assert code == 0 and 'journal.jsonl:5: cut a torn last line' in err
    assert _lines(journal) == lines and json.loads(out)['evaluated_this_run'] == 1


def test_restart_moves_a_bad_journal_aside(journal, capsys):
    journal.write_text(journal.read_text() + 'garbage\n')
    kept = journal.read_text()
    code, out, err = standin_search(journal.parent, 3, capsys, '--restart')
    assert code == 0, err
    assert f'moved the old journal to {journal}.1' in err
    assert Path(f'{journal}.1').read_text() == kept
    assert len(_lines(journal)) == 4


def test_journal_without_evaluation_settings_is_resumed_with_a_note(tmp_path, capsys):
    from coupled_wave_gait.search.session import SearchSession
    from coupled_wave_gait.search.settings import SearchSettings

    SearchSession(SearchSettings().make_strategy(), tmp_path)  # as written before (or the node)
    code, out, err = standin_search(tmp_path, 3, capsys)
    assert code == 0 and 'written before journals recorded the evaluation settings' in err
    assert 'evaluation' not in json.loads(_lines(tmp_path / 'journal.jsonl')[0])['header']


def test_a_second_search_on_the_same_out_is_refused(tmp_path):
    """Two searches on one --out both ran, journaled every candidate twice and the next resume
    refused the journal (issue 25): the second is refused, naming the folder and the first's pid,
    and the journal holds each candidate once."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from journaled_cli import child_env

    (tmp_path / 'slow_standin.py').write_text(
        'from coupled_wave_gait.search.standin import StandinWalk\nSLOW = StandinWalk(0.05)\n')
    env = child_env()
    env['PYTHONPATH'] = os.pathsep.join([str(tmp_path), env['PYTHONPATH']])
    out = tmp_path / 'run'
    cmd = [sys.executable, '-m', 'zoo_experiments.gait_search', '--evaluator', 'slow_standin:SLOW',
           '--out', str(out), '--budget', '400', '--workers', '1', '--no-progress']
    first = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not ((out / 'journal.jsonl').exists() and
                   (out / 'journal.jsonl').read_text().count('\n') > 2):
            assert first.poll() is None and time.monotonic() < deadline, first.stderr.read()
            time.sleep(0.02)
        second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        first_ran_on = first.poll() is None
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGINT)
        first.communicate(timeout=120)
    assert_one_error_line(second.returncode, second.stdout, second.stderr,
                          [f'--out {out}', 'in use by another search', f'pid {first.pid}'])
    assert first_ran_on, 'the first search ended too soon to test this'
    seqs = [json.loads(line)['seq'] for line in _lines(out / 'journal.jsonl')[1:]]
    assert len(seqs) == len(set(seqs)) > 2
    # the first one ended: a resume works, and finds its journal good
    code = subprocess.run([*cmd[:-5], '--budget', str(len(seqs) + 2), '--workers', '1',
                           '--no-progress'], env=env, capture_output=True, text=True,
                          timeout=120)
    assert code.returncode == 0, code.stderr


# -- evaluation settings on the simulator -------------------------------------------------------
def scenario_search(out: Path, capsys, *extra: str, budget: int = 1) -> tuple[int, str, str]:
    return run_main([SCENARIO, '--out', out, '--budget', budget, '--workers', 1, '--no-progress',
                     *extra], capsys)


@sim
def test_other_walker_settings_are_refused_and_restart_keeps_the_journal(tmp_path, capsys):
    code, _, err = scenario_search(tmp_path, capsys, *SHORT)
    assert code == 0, err
    journal = tmp_path / 'journal.jsonl'
    first = journal.read_text()
    header = json.loads(first.splitlines()[0])['header']
    assert header['evaluation']['parameters']['walker.duration'] == 0.5
    assert header['evaluation']['starts'] == [] and header['evaluation']['quality'] == {
        'enabled': False}

    code, out, err = scenario_search(tmp_path, capsys, '--set', 'walker.duration=0.25')
    assert_one_error_line(code, out, err, [
        'journal.jsonl: written with walker.duration=0.5, this run has 0.25', '--restart'])
    code, out, err = scenario_search(tmp_path, capsys, *SHORT, '--starts', '0', '0.1')
    assert_one_error_line(code, out, err, ['written with starts=[], this run has [0.0,0.1]'])
    assert journal.read_text() == first  # refused: nothing appended

    code, out, err = scenario_search(tmp_path, capsys, '--set', 'walker.duration=0.25',
                                     '--restart')
    assert code == 0, err
    assert Path(f'{journal}.1').read_text() == first  # kept, not deleted
    new = json.loads(journal.read_text().splitlines()[0])['header']
    assert new['evaluation']['parameters']['walker.duration'] == 0.25


@sim
def test_old_journal_is_refused_when_the_run_changes_the_evaluation(tmp_path, capsys):
    from coupled_wave_gait.search.session import SearchSession
    from zoo_experiments.gait_search.cli import scenario_settings

    settings, _ = scenario_settings(SCENARIO, [])
    SearchSession(settings.make_strategy(), tmp_path)  # a header without evaluation settings
    before = (tmp_path / 'journal.jsonl').read_text()
    code, out, err = scenario_search(tmp_path, capsys, *SHORT)
    assert_one_error_line(code, out, err, [
        'journal.jsonl:1: written before journals recorded the evaluation settings', '--restart'])
    assert (tmp_path / 'journal.jsonl').read_text() == before


# -- logs and the progress bar ------------------------------------------------------------------
class LoggingStandin:
    """The stand-in, logging per walk as the simulator's nodes do."""

    def __call__(self, params):
        from zoo_runtime import rclpy
        from coupled_wave_gait.search.standin import StandinWalk

        logger = rclpy.logging.get_logger('standin')
        logger.info('walk done')
        logger.warning('a warning to keep')
        return StandinWalk()(params)


INFO = re.compile(r'^\[INFO\]', re.M)


def test_node_info_logs_are_quiet_unless_verbose(tmp_path, capsys):
    evaluator = f'{__name__}:LoggingStandin'
    code, out, err = run_main(['--evaluator', evaluator, '--out', tmp_path / 'a', '--budget', 3,
                               '--workers', 1], capsys)
    assert code == 0 and not INFO.search(err)
    assert err.count('[WARN]') == 3  # warnings are kept
    code, out, err = run_main(['--evaluator', evaluator, '--out', tmp_path / 'b', '--budget', 3,
                               '--workers', 1, '--verbose'], capsys)
    assert code == 0 and len(INFO.findall(err)) == 3


@sim
def test_simulator_search_prints_no_info_logs_and_build_warnings_once(tmp_path, capfd):
    from zoo_experiments.gait_search.cli import main
    code = main([SCENARIO, *SHORT, '--out', str(tmp_path), '--budget', '4', '--workers', '2'])
    out, err = capfd.readouterr()
    assert code == 0, err
    assert not INFO.search(err), err[:2000]
    warnings = [line for line in err.splitlines() if line.startswith('[WARN]')]
    # the model's warnings come from the first build; the workers' builds do not repeat them
    assert len(warnings) == len(set(w.split(']: ', 1)[1] for w in warnings))
    assert json.loads(out)['evaluated_this_run'] == 4


def test_lines_above_bar_in_the_bar_process_and_in_a_worker():
    import io
    from zoo_scenario.console import CLEAR_ROW, LinesAboveBar

    stream = io.StringIO()
    router = LinesAboveBar(stream)
    router.write('[WARN] one')
    assert stream.getvalue() == ''          # a partial line waits for its end
    router.write(' line\n[INFO] two\n')
    assert stream.getvalue() == '[WARN] one line\n[INFO] two\n'
    router._pid = -1                        # as in a forked worker, which has no bar
    router.write('[WARN] from a worker\n')
    assert stream.getvalue().endswith(CLEAR_ROW + '[WARN] from a worker\n')
