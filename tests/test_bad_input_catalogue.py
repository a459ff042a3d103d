"""Bad input as a user gives it (issue 10): `bin/robozoo` in a subprocess, from another directory.

Every bad case exits non-zero with ONE stderr line that names the culprit (file and field, flag,
node and parameter, topic) and no traceback. The legal cases at the end do what the README says.
The cases run in parallel (each is its own process), so the catalogue costs a few seconds.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

WS = Path(__file__).resolve().parents[1]
ROBOZOO = WS / 'bin' / 'robozoo'
NODE = '{name: talker, package: zoo_bringup, executable: talker}'
NAO = '{name: nao, package: nao_description}'

# name: (scenario file text or None, argv with {sc} for the file and {tmp} for a folder,
#        fragments the one error line must hold)
BAD: dict[str, tuple[str | bytes | None, list[str], list[str]]] = {
    # --- scenario files
    'yaml_malformed': ('nodes: [\n  {name: x\n', ['run', '{sc}'], ['sc.yaml:', 'malformed YAML']),
    'empty_file': ('', ['run', '{sc}'], ['sc.yaml', 'empty']),
    'only_description': ('description: hi\n', ['run', '{sc}'], ['sc.yaml', 'nothing to run']),
    'top_is_list': ('- a\n- b\n', ['run', '{sc}'], ['sc.yaml', "'<top>'", 'mapping']),
    'unknown_top_field': (f'robts: []\nnodes: [{NODE}]\n', ['run', '{sc}'], ["'robts'"]),
    'robots_mapping': ('robots: {name: robobo, package: robobo_description}\n', ['run', '{sc}'],
                       ["'robots'", 'expected a list', 'got a mapping']),
    'nodes_mapping': (f'nodes: {NODE}\n', ['run', '{sc}'], ["'nodes'", 'expected a list']),
    'robot_without_package': ('robots: [{name: nao}]\n', ['run', '{sc}'],
                              ["'robots[0]'", 'package']),
    'robot_unknown_field': ('robots: [{name: nao, package: nao_description, colour: red}]\n',
                            ['run', '{sc}'], ["'robots[0].colour'"]),
    'extends_unknown': ('extends: go1_trot_earht\n', ['run', '{sc}'],
                        ['sc.yaml', "'extends'", "unknown scenario 'go1_trot_earht'",
                         'did you mean go1_trot_earth']),
    'extends_cycle': ('extends: sc.yaml\n', ['run', '{sc}'],
                      ['sc.yaml', "'extends'", 'closes a cycle (sc.yaml -> sc.yaml)']),
    'robot_twice': (f'robots: [{NAO}, {NAO}]\n', ['run', '{sc}'], ["'robots[1].name'", 'twice']),
    'robot_pose_short': ('robots: [{name: nao, package: nao_description, pose: [0, 0]}]\n',
                         ['run', '{sc}'], ["'robots[0].pose'", '[x, y, z, roll, pitch, yaw]']),
    'robot_initial_positions_list': (
        'robots: [{name: nao, package: nao_description, initial_positions: [1, 2]}]\n',
        ['run', '{sc}'], ["'robots[0].initial_positions'"]),
    'robot_unknown_package': ('robots: [{name: r, package: no_such_description}]\n',
                              ['run', '{sc}', '--duration', '0.01'], ['no_such_description']),
    'robot_unknown_xacro_arg': ('robots: [{name: nao, package: nao_description, '
                                'args: {fot_mu: 0.3}}]\n', ['run', '{sc}', '--duration', '0.01'],
                                ['fot_mu']),
    'world_missing': ('world: no_such_world\n', ['run', '{sc}', '--duration', '0.01'],
                      ['no_such_world']),
    'gravity_two_numbers': (f'gravity: [0, 0]\nrobots: [{NAO}]\n', ['run', '{sc}'],
                            ["'gravity'", '3 numbers']),
    'node_without_executable': ('nodes: [{name: x, package: zoo_bringup}]\n', ['run', '{sc}'],
                                ["'nodes[0]'", 'executable']),
    'node_twice': (f'nodes: [{NODE}, {NODE}]\n', ['run', '{sc}'], ["'nodes[1].name'", 'twice']),
    'node_unknown_field': ('nodes: [{name: t, package: zoo_bringup, executable: talker, '
                           'prams: {}}]\n', ['run', '{sc}'], ["'nodes[0].prams'"]),
    'node_unknown_executable': ('nodes: [{name: t, package: zoo_bringup, executable: talkr}]\n',
                                ['run', '{sc}'], ["'talkr'", 'did you mean zoo_bringup/talker']),
    'node_parameters_number': ('nodes: [{name: t, package: zoo_bringup, executable: talker, '
                               'parameters: 5}]\n', ['run', '{sc}'],
                               ["'nodes[0].parameters'", 'int']),
    'node_remappings_list': ('nodes: [{name: t, package: zoo_bringup, executable: talker, '
                             'remappings: [a, b]}]\n', ['run', '{sc}'],
                             ["'nodes[0].remappings'", 'mapping']),
    'node_parameter_unknown': ('nodes: [{name: t, package: zoo_bringup, executable: talker, '
                               'parameters: {rat: 2.0}}]\n', ['run', '{sc}', '--duration', '0.1'],
                               ["node 't'", "no parameter 'rat'", 'sc.yaml: nodes[0].parameters',
                                "did you mean 'rate'"]),
    'node_parameter_type': ('nodes: [{name: t, package: zoo_bringup, executable: talker, '
                            'parameters: {rate: fast}}]\n', ['run', '{sc}', '--duration', '0.1'],
                            ["node 't'", "parameter 'rate'", 'sc.yaml: nodes[0].parameters',
                             'expected a double', 'got a string']),
    'params_file_missing': ('nodes: [{name: t, package: zoo_bringup, executable: talker, '
                            'parameters: [nope.yaml]}]\n', ['run', '{sc}'],
                            ['nope.yaml', 'not found']),
    'params_file_unknown_parameter': (
        'nodes: [{name: t, package: zoo_bringup, executable: talker, '
        'parameters: [params.yaml]}]\n', ['run', '{sc}', '--duration', '0.1'],
        ["no parameter 'colour'", 'params.yaml']),
    'params_file_key_twice': (
        'nodes: [{name: t, package: zoo_bringup, executable: talker, '
        'parameters: [twice.yaml]}]\n', ['run', '{sc}', '--duration', '0.1'],
        ['twice.yaml:4', "parameter 'rate' is given twice"]),
    'duration_negative': (f'duration: -1\nnodes: [{NODE}]\n', ['run', '{sc}'],
                          ["'duration'", 'positive']),
    'duration_inf': (f'duration: .inf\nnodes: [{NODE}]\n', ['run', '{sc}'],
                     ["'duration'", 'finite', 'inf']),
    'duration_nan': (f'duration: .nan\nnodes: [{NODE}]\n', ['run', '{sc}'],
                     ["'duration'", 'finite', 'nan']),
    'duration_text': (f'duration: ten\nnodes: [{NODE}]\n', ['run', '{sc}'],
                      ["'duration'", "'ten'"]),
    'seed_float': (f'seed: 1.5\nnodes: [{NODE}]\n', ['run', '{sc}'], ["'seed'", 'integer']),
    'physics_step_zero': (f'physics: {{step: 0}}\nnodes: [{NODE}]\n', ['run', '{sc}'],
                          ["'physics.step'", 'positive']),
    'physics_step_negative': (f'physics: {{step: -0.001}}\nnodes: [{NODE}]\n', ['run', '{sc}'],
                              ["'physics.step'"]),
    'physics_rtf_negative': (f'physics: {{real_time_factor: -1}}\nnodes: [{NODE}]\n',
                             ['run', '{sc}'], ["'physics.real_time_factor'"]),
    'physics_unknown_field': (f'physics: {{stp: 0.001}}\nnodes: [{NODE}]\n', ['run', '{sc}'],
                              ["'physics.stp'"]),
    'physics_not_mapping': (f'physics: 0.001\nnodes: [{NODE}]\n', ['run', '{sc}'],
                            ["'physics'", 'mapping']),
    'record_not_list': (f'record: /demo/chatter\nnodes: [{NODE}]\n', ['run', '{sc}'],
                        ["'record'", 'list of topic names']),
    'scenario_file_missing': (None, ['run', 'no_such_dir/sc.yaml'], ['no_such_dir/sc.yaml',
                                                                     'does not exist']),
    'scenario_name_typo': (None, ['run', 'talker_listner'], ["'talker_listner'",
                                                             'did you mean talker_listener']),
    'show_unknown': (None, ['show', 'nope'], ["unknown scenario 'nope'"]),
    # --- command line
    'cli_unknown_command': (None, ['frobnicate'], ["'frobnicate'"]),
    'cli_unknown_flag': (None, ['run', 'talker_listener', '--frobnicate'], ['--frobnicate']),
    'cli_seed_text': (None, ['run', 'talker_listener', '--seed', 'abc'], ['--seed', "'abc'"]),
    'duration_flag_negative': (None, ['run', 'talker_listener', '--duration', '-1'],
                               ['--duration -1.0', 'positive']),
    'duration_flag_zero': (None, ['run', 'talker_listener', '--duration', '0'],
                           ['--duration 0.0']),
    'duration_flag_nan': (None, ['run', 'talker_listener', '--duration', 'nan'],
                          ['--duration nan', 'finite']),
    'duration_flag_inf': (None, ['run', 'talker_listener', '--duration', 'inf'],
                          ['--duration inf', 'finite']),
    'dds_peers_without_processes': (None, ['run', 'talker_listener', '--dds-peers', 'host-b'],
                                    ['--dds-peers', 'only with --processes']),
    'dds_interfaces_markup': (None, ['run', 'talker_listener', '--processes',
                                     '--dds-interfaces', 'eth0"/><x'],
                              ['--dds-interfaces', 'eth0"/><x', 'expected interface names']),
    'rtf_flag_negative': (None, ['run', 'talker_listener', '--real-time-factor', '-2'],
                          ['--real-time-factor -2.0']),
    'rtf_flag_nan': (None, ['run', 'talker_listener', '--real-time-factor', 'nan'],
                     ['--real-time-factor nan']),
    'set_parameter_typo': (None, ['run', 'talker_listener', '--set', 'talker.rat=20.0'],
                           ["node 'talker'", "no parameter 'rat'", '--set talker.rat=20.0',
                            "did you mean 'rate'"]),
    'set_sim_unknown': (None, ['run', 'nao_stand', '--set', 'sim.frobnicate=1'],
                        ["node 'sim'", "'frobnicate'", '--set sim.frobnicate=1']),
    'set_sim_no_simulator': (None, ['run', 'talker_listener', '--set', 'sim.x=1'],
                             ["no node named 'sim'"]),
    'set_type_text': (None, ['run', 'talker_listener', '--set', 'talker.rate=fast'],
                      ["node 'talker'", "parameter 'rate'", '--set talker.rate=fast',
                       'expected a double', 'got a string']),
    'set_type_integer': (None, ['run', 'talker_listener', '--set', 'talker.rate=20'],
                         ["node 'talker'", '--set talker.rate=20', 'write 20.0']),
    'set_sim_type': (None, ['run', 'nao_stand', '--set', 'sim.world=1'],
                     ["node 'sim'", "parameter 'world'", '--set sim.world=1', 'string']),
    'set_unknown_node': (None, ['run', 'talker_listener', '--set', 'talkr.rate=1.0'],
                         ["no node named 'talkr'", "did you mean 'talker'"]),
    'set_null': (None, ['run', 'talker_listener', '--set', 'talker.rate=null'],
                 ['--set talker.rate=null', 'got null']),
    'set_mapping': (None, ['run', 'talker_listener', '--set', 'talker.rate={a: 1}'],
                    ['--set talker.rate={a: 1}', 'mapping']),
    'node_parameter_null': ('nodes: [{name: t, package: zoo_bringup, executable: talker, '
                            'parameters: {rate: null}}]\n', ['run', '{sc}'],
                            ["'nodes[0].parameters'", "'rate'", 'null']),
    'set_no_dot': (None, ['run', 'talker_listener', '--set', 'rate=1.0'],
                   ['--set rate=1.0', 'node.parameter=value']),
    'set_no_value': (None, ['run', 'talker_listener', '--set', 'talker.rate'],
                     ['--set talker.rate', 'node.parameter=value']),
    'output_is_file': (None, ['run', 'talker_listener', '--output', '{tmp}/a_file'],
                       ['--output', 'a_file', 'is a file']),
    'output_holds_run': (None, ['run', 'talker_listener', '--output', '{tmp}/earlier'],
                         ['--output', 'earlier', 'holds an earlier run', '--overwrite']),
    'record_relative_topic': (None, ['run', 'talker_listener', '--record', 'demo/chatter'],
                              ['--record demo/chatter', 'absolute']),
    'record_limit_negative': (None, ['run', 'talker_listener', '--record',
                                     '--record-max-mb', '-5'], ['--record-max-mb -5.0']),
    'record_limit_without_record': (None, ['run', 'talker_listener', '--record-max-mb', '5'],
                                    ['--record-max-mb', 'add --record']),
    'viewer_without_simulator': (None, ['run', 'talker_listener', '--viewer', '--output',
                                        '{tmp}/v'], ['--viewer', 'no simulator']),
    # --- issue 25: accepted silently, or unclear, before
    'binary_file': (b'\x89PNG\r\n\x1a\n\x00\x00\xff\xfe', ['run', '{sc}'],
                    ['sc.yaml', 'not a text file', 'offset']),
    'duplicate_key': (f'duration: 1.0\nnodes: [{NODE}]\nduration: 2.0\n', ['run', '{sc}'],
                      ['sc.yaml:3', "key 'duration' is given twice", 'line 1']),
    'gravity_nan': ('world: empty\ngravity: [0, 0, .nan]\n', ['run', '{sc}'],
                    ["'gravity[2]'", 'finite', 'nan']),
    'gravity_out_of_range': ('world: empty\ngravity: [0, 0, -1.0e+9]\n', ['run', '{sc}'],
                             ["'gravity[2]'", '[-1000, 1000]', '-1000000000.0']),
    'gravity_exponent_as_text': ('world: empty\ngravity: [0, 0, -1e9]\n', ['run', '{sc}'],
                                 ["'gravity[2]'", '[-1000, 1000]', "'-1e9'", 'string']),
    'robot_pose_nan': ('robots: [{name: nao, package: nao_description, '
                       'pose: [0, 0, .nan, 0, 0, 0]}]\n', ['run', '{sc}'],
                       ["'robots[0].pose'", 'finite']),
    'robot_initial_position_nan': ('robots: [{name: nao, package: nao_description, '
                                   'initial_positions: {HeadYaw: .nan}}]\n', ['run', '{sc}'],
                                   ["'robots[0].initial_positions.HeadYaw'", 'finite']),
    'robot_initial_position_beyond_limit': (
        'robots: [{name: nao, package: nao_description, initial_positions: {HeadYaw: 10.0}}]\n',
        ['run', '{sc}', '--duration', '0.01'],
        ["robot 'nao'", 'initial_positions: HeadYaw = 10', "joint's limits [-2.08"]),
    'robot_package_is_a_path': ('robots: [{name: r, package: ../../..}]\n', ['run', '{sc}'],
                                ["'robots[0].package'", 'a package name', "'../../..'"]),
    'physics_step_longer_than_run': (f'duration: 0.2\nphysics: {{step: 0.5}}\nnodes: [{NODE}]\n',
                                     ['run', '{sc}'], ["'physics.step' 0.5 s",
                                                       'longer than the run (0.2 s)']),
    'seed_negative': (f'seed: -5\nnodes: [{NODE}]\n', ['run', '{sc}'],
                      ["'seed'", 'non-negative integer', '-5']),
    'seed_flag_negative': (None, ['run', 'talker_listener', '--seed', '-5'],
                           ['--seed -5', 'non-negative integer']),
    'seed_flag_negative_simulator': (None, ['run', 'nao_stand', '--seed', '-5'],
                                     ['--seed -5', 'non-negative integer']),
    'record_relative_topic_in_file': (f'record: [demo/chatter]\nnodes: [{NODE}]\n',
                                      ['run', '{sc}', '--record'],
                                      ["'record[0]'", 'absolute topic name', "'demo/chatter'"]),
    'report_without_robot': (None, ['run', 'talker_listener', '--report', '--output',
                                    '{tmp}/r'], ['--report', "'talker_listener'", 'no robot']),
    'use_sim_time_false': (None, ['run', 'talker_listener', '--set',
                                  'talker.use_sim_time=false'],
                           ["node 'talker'", "'use_sim_time' = false",
                            '--set talker.use_sim_time=false', 'simulated time', 'expected true']),
    # a bad value over an earlier run with --overwrite: refused, the earlier run untouched
    'set_rate_zero_over_earlier_run': (None, ['run', 'talker_listener', '--output',
                                              '{tmp}/earlier', '--overwrite', '--set',
                                              'talker.rate=0.0'],
                                       ["node 'talker'", "parameter 'rate' = 0.0",
                                        '--set talker.rate=0.0', 'finite rate > 0 Hz']),
    'set_rate_inf_over_earlier_run': (None, ['run', 'talker_listener', '--record', '--output',
                                             '{tmp}/earlier', '--overwrite', '--set',
                                             'talker.rate=.inf'],
                                      ["parameter 'rate' = inf", 'finite rate > 0 Hz']),
    'set_rate_nan': (None, ['run', 'talker_listener', '--set', 'talker.rate=.nan'],
                     ["node 'talker'", "parameter 'rate' = nan", '--set talker.rate=.nan']),
    'set_rate_negative': (None, ['run', 'talker_listener', '--set', 'talker.rate=-5.0'],
                          ["parameter 'rate' = -5.0", 'finite rate > 0 Hz']),
    # --- gait search and quality (the search's own catalogue:
    # zoo_experiments/test/test_gait_search_errors)
    'search_out_is_file': (None, ['search', 'nao_gait_search', '--out', '{tmp}/a_file'],
                           ['--out', 'a_file', 'is a file']),
    'search_set_type': (None, ['search', 'nao_gait_search', '--set', 'walker.duration=abc',
                               '--out', '{tmp}/s'], ["node 'walker'", "'duration'",
                                                     '--set walker.duration=abc']),
    'search_budget_negative': (None, ['search', 'nao_gait_search', '--budget', '-3', '--out',
                                      '{tmp}/s'], ['--budget -3']),
    'quality_unknown_parameter': (None, ['quality', 'nao_walk', '--set', 'walker.x=1'],
                                  ["no parameter 'x'", '--set walker.x=1']),
    # --- bags
    'bag_repair_missing': (None, ['bag', 'repair', '{tmp}/no_bag'], ['no_bag']),
    'bag_info_of_a_file': (None, ['bag', 'info', '{tmp}/a_file'], ['a_file']),
    'bag_info_of_a_run_folder': (None, ['bag', 'info', '{tmp}/earlier'], ['earlier']),
    'bag_report_missing': (None, ['bag', 'report', '{tmp}/no_bag'], ['no_bag']),
}


def robozoo(*args, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}
    return subprocess.run([str(ROBOZOO), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def _prepare(tmp: Path, text: str | bytes | None) -> None:
    if isinstance(text, bytes):
        (tmp / 'sc.yaml').write_bytes(text)
    elif text is not None:
        (tmp / 'sc.yaml').write_text(text)
    (tmp / 'params.yaml').write_text('t:\n  ros__parameters: {rate: 2.0, colour: red}\n')
    (tmp / 'twice.yaml').write_text('t:\n  ros__parameters:\n    rate: 2.0\n    rate: 5.0\n')
    (tmp / 'a_file').write_text('a user file\n')
    (tmp / 'earlier').mkdir()
    (tmp / 'earlier' / 'summary.json').write_text('{"an": "earlier run"}\n')


@pytest.fixture(scope='module')
def results(tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess, Path]]:
    def one(name: str):
        text, argv, _ = BAD[name]
        tmp = tmp_path_factory.mktemp(name)
        _prepare(tmp, text)
        argv = [a.replace('{sc}', str(tmp / 'sc.yaml')).replace('{tmp}', str(tmp)) for a in argv]
        return name, (robozoo(*argv, cwd=tmp), tmp)
    # pytest makes its base folder on first use, and two threads making it at once make two (the
    # first module of a session: all 74 cases errored once in a clean run); make it here
    tmp_path_factory.getbasetemp()
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return dict(pool.map(one, BAD))


def test_the_catalogue_is_large_enough():
    assert len(BAD) + len(LEGAL) >= 60


@pytest.mark.parametrize('name', list(BAD))
def test_bad_input_is_one_clear_line(results, name):
    r, tmp = results[name]
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert 'Traceback' not in r.stderr
    errors = [ln for ln in lines if re.match(r'robozoo( \w+)?: error: ', ln)]
    others = [ln for ln in lines if not ln.startswith(('[INFO]', '[WARN]'))]  # node logs
    assert len(errors) == 1 and others == errors, lines
    for fragment in BAD[name][2]:
        assert fragment in errors[0], (fragment, errors[0])
    # nothing of the user's was touched, nothing was created
    assert (tmp / 'a_file').read_text() == 'a user file\n'
    assert (tmp / 'earlier' / 'summary.json').read_text() == '{"an": "earlier run"}\n'
    assert sorted(p.name for p in (tmp / 'earlier').iterdir()) == ['summary.json']
    made = ['a_file', 'earlier', 'params.yaml', 'twice.yaml']
    assert sorted(p.name for p in tmp.iterdir()) == sorted(
        made + ['sc.yaml'] * (BAD[name][0] is not None))


# --- legal input: does what the README says ------------------------------------------------
LEGAL = ['record_silent_topic_warns', 'report_without_record', 'relative_paths_from_cwd',
         'default_output_is_fresh', 'overwrite_keeps_user_files', 'set_legal_override']


def test_record_silent_topic_warns(tmp_path):
    r = robozoo('run', 'talker_listener', '--duration', '0.5', '--record', '/no_such_topic',
                '/demo/chatter', '--output', 'o', '--quiet', cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == ('robozoo: warning: --record /no_such_topic: nothing was '
                                'recorded (no node publishes it)')
    summary = json.loads((tmp_path / 'o' / 'summary.json').read_text())
    assert summary['recorded']['/demo/chatter'] == 5 and summary['warnings']


def test_report_without_record(tmp_path):
    """--report plots this run: it records the default topics itself."""
    r = robozoo('run', 'nao_stand', '--duration', '0.3', '--report', '--output', 'o', '--quiet',
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / 'o' / 'bag' / 'metadata.yaml').is_file()
    assert (tmp_path / 'o' / 'nao_trajectory.png').is_file()


def test_relative_paths_from_cwd(tmp_path):
    (tmp_path / 'mine').mkdir()
    (tmp_path / 'mine' / 'sc.yaml').write_text(f'duration: 0.2\nnodes: [{NODE}]\n')
    r = robozoo('run', 'mine/sc.yaml', '--output', 'res', '--quiet', cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / 'res' / 'summary.json').is_file()
    assert not (WS / 'out' / 'sc').exists()


def test_default_output_is_fresh(tmp_path):
    """Without --output every run gets its own folder; `latest` points at the newest."""
    folders = []
    for _ in range(2):
        r = robozoo('run', 'talker_listener', '--duration', '0.2', '--quiet', cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        folders.append(Path(r.stdout.split('summary: ')[1].strip()).parent)
    assert folders[0] != folders[1] and all(f.parent == tmp_path / 'out' / 'talker_listener'
                                            for f in folders)
    assert (tmp_path / 'out' / 'talker_listener' / 'latest').resolve() == folders[1].resolve()


def test_overwrite_keeps_user_files(tmp_path):
    out = tmp_path / 'o'
    assert robozoo('run', 'talker_listener', '--duration', '0.2', '--record', '--output', 'o',
                   '--quiet', cwd=tmp_path).returncode == 0
    (out / 'notes.txt').write_text('mine')
    r = robozoo('run', 'talker_listener', '--duration', '0.3', '--record', '--output', 'o',
                '--overwrite', '--quiet', cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (out / 'notes.txt').read_text() == 'mine'
    assert json.loads((out / 'summary.json').read_text())['sim_time'] == pytest.approx(0.3)
    assert sorted(p.name for p in out.iterdir()) == ['bag', 'notes.txt', 'summary.json']


def test_set_legal_override(tmp_path):
    r = robozoo('run', 'talker_listener', '--duration', '1', '--set', 'talker.rate=20.0',
                '--output', 'o', '--quiet', cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / 'o' / 'summary.json').read_text())[
        'metrics']['talker']['sent'] == 20


if __name__ == '__main__':  # the counts the README gives
    print(f'{len(BAD)} bad inputs (one error line, exit 2), {len(LEGAL)} legal cases')
