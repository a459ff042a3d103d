"""The README's commands as a user types them: `bin/robozoo` in a subprocess, from the workspace."""
import json
import os
import subprocess
from pathlib import Path

WS = Path(__file__).resolve().parents[1]
ROBOZOO = WS / 'bin' / 'robozoo'


def robozoo(*args, cwd=WS):
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'AMENT_PREFIX_PATH')}
    return subprocess.run([str(ROBOZOO), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


def test_run_writes_summary_and_bag(tmp_path):
    r = robozoo('run', 'talker_listener', '--duration', '1', '--record', '--output', str(tmp_path))
    assert r.returncode == 0, r.stderr
    summary = json.loads((tmp_path / 'summary.json').read_text())
    assert summary['scenario'] == 'talker_listener' and summary['sim_time'] == 1.0
    assert summary['metrics']['listener']['received'] == 10
    assert (tmp_path / 'bag' / 'metadata.yaml').is_file()
    assert 'recorded 20 messages' in r.stdout


def test_errors_are_one_line_with_nonzero_exit(tmp_path):
    for args, fragment in [(('run', 'nope'), "unknown scenario 'nope'"),
                           (('run', 'talker_listener', '--set', 'ghost.x=1'), "no node named"),
                           (('frobnicate',), 'invalid choice')]:
        r = robozoo(*args)
        assert r.returncode != 0
        lines = r.stderr.strip().splitlines()
        assert fragment in lines[-1] and 'Traceback' not in r.stderr, r.stderr


def test_works_from_any_directory(tmp_path):
    r = robozoo('list', cwd=tmp_path)
    assert r.returncode == 0 and 'talker_listener' in r.stdout


def test_bad_xacro_arg_is_one_clear_line(tmp_path):
    sc = tmp_path / 'bad.yaml'
    sc.write_text('world: empty\nrobots:\n  - {name: snake, package: snake_description, '
                  'args: {modules: 0}}\n')
    r = robozoo('run', str(sc), '--duration', '0.1', '--output', str(tmp_path / 'out'))
    assert r.returncode == 2
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith('robozoo: error: snake_description: ') and "arg 'modules'" in line
    assert 'expected an int >= 2' in line and 'Traceback' not in r.stderr
