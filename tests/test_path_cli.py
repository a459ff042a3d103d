"""`robozoo path`: JSON plans and one-line errors (exit 2, no traceback)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from zoo_bringup.cli import main

BIN = Path(__file__).resolve().parents[1] / 'bin' / 'robozoo'


def test_demo_plan_as_json(capsys):
    assert main(['path', 'obstacle_course', '--start', '2', '1', '--goal', '2', '3']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out['cost'] == pytest.approx(6 * 0.2 + 4 * 0.2 * 2 ** 0.5, abs=1e-9)
    assert out['cells'][0] == [10, 5] and out['cells'][-1] == [10, 15]
    assert out['path'][0] == [2.0, 1.0] and out['path'][-1] == [2.0, 3.0]


def test_resolution_and_inflation_options(capsys):
    assert main(['path', 'obstacle_course', '--start', '2', '1', '--goal', '2', '3',
                 '--resolution', '0.1', '--inflation', '0.3']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out['cells'][0] == [20, 10]  # 41 x 41 nodes at 0.1 m


@pytest.mark.parametrize('args, message', [
    (['--start', '2', '1', '--goal', '2', '3.5'],
     'goal (2, 3.5) is inside an obstacle (inflated by the robot half-width)'),
    (['--start', '5', '1', '--goal', '2', '3'], 'start (5, 1) is outside the map [0, 4] x [0, 4]'),
    (['--start', '2', '1', '--goal', '2', 'x'], "argument --goal: 'x' is not a number"),
    (['--start', '2', '1', '--goal', '2', '3', '--resolution', '-1'],
     '--resolution -1: expected a positive number of metres'),
    (['--start', '2', '1', '--goal', '2', '3', '--inflation', 'inf'],
     "argument --inflation: 'inf' is not a finite number"),
])
def test_errors_are_one_line(args, message, capsys):
    try:
        code = main(['path', 'obstacle_course', *args])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert err == f'robozoo path: error: {message}\n'


def test_unknown_world_and_no_path(capsys, tmp_path):
    assert main(['path', 'atlantis', '--start', '1', '1', '--goal', '2', '2']) == 2
    assert capsys.readouterr().err.startswith("robozoo path: error: world 'atlantis' not found")
    world = (Path(__file__).resolve().parents[1] / 'worlds' / 'hoap2_fig7.sdf').read_text()
    walls = ''.join(f'<model name="w{k}"><static>true</static><pose>{x} {y} 0.2 0 0 0</pose>'
                    f'<link name="l"><collision name="c"><geometry><box><size>{sx} {sy} 0.4'
                    '</size></box></geometry></collision></link></model>'
                    for k, (x, y, sx, sy) in enumerate([(0.6, 0.6, 0.8, 0.05),
                                                        (0.6, 0.0, 0.05, 1.2)]))
    (tmp_path / 'closed.sdf').write_text(world.replace('</world>', walls + '</world>'))
    assert main(['path', str(tmp_path / 'closed.sdf'), '--start', '0.2', '0.4', '--goal',
                 '2.6', '2.6', '--inflation', '0']) == 2
    assert capsys.readouterr().err == \
        'robozoo path: error: no path: the goal is not reachable from the start\n'


def test_bin_robozoo_path_runs():
    out = subprocess.run([str(BIN), 'path', 'hoap2_fig7', '--start', '0.4', '1.6', '--goal',
                          '2.8', '1.6'], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)['cost'] == pytest.approx(5 * 0.2 * 2 ** 0.5 + 8 * 0.2)

