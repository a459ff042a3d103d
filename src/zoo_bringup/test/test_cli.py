"""User-facing CLI behaviour: listing, and one clear error line (exit 2) for every bad input."""
import pytest

from zoo_bringup.cli import main


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Runs without --output write ./out/...: keep them out of the source tree."""
    monkeypatch.chdir(tmp_path)


def test_list_shows_scenarios_with_descriptions(capsys):
    assert main(['list']) == 0
    line = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith('talker_listener')]
    assert line and 'Talker and listener' in line[0]


def _error(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith('robozoo: error: '), err
    assert 'Traceback' not in err[0]
    return err[0]


def test_unknown_scenario(capsys):
    assert "unknown scenario 'no_such'" in _error(capsys, ['run', 'no_such'])


def test_unknown_node_in_set(capsys):
    msg = _error(capsys, ['run', 'talker_listener', '--set', 'ghost.rate=1'])
    assert "no node named 'ghost'" in msg and 'talker, listener' in msg


def test_wrong_parameter_type_in_set(capsys, tmp_path):
    msg = _error(capsys, ['run', 'talker_listener', '--set', 'talker.rate=fast',
                          '--output', str(tmp_path)])
    assert 'rate' in msg



def test_a_list_mixing_ints_and_floats_names_the_parameter(capsys, tmp_path):
    """ROS 2 parameters are lists of one type: [0, 0, -9.81] is refused with the node, the
    parameter, where it came from and how to write it (was: a TypeError naming nothing)."""
    msg = _error(capsys, ['run', 'go1_stand', '--duration', '0.01', '--set',
                          'sim.gravity=[0,0,-9.81]', '--output', str(tmp_path)])
    assert "node 'sim'" in msg and "parameter 'gravity'" in msg and '--set' in msg
    assert 'write 0.0, not 0' in msg and len(msg.strip().splitlines()) == 1

def test_malformed_parameter_yaml(capsys, tmp_path):
    (tmp_path / 'bad_params.yaml').write_text('talker:\n  ros__parameters: {rate: [1,\n')
    sc = tmp_path / 'sc.yaml'
    sc.write_text('nodes:\n  - {name: talker, package: zoo_bringup, executable: talker, '
                  'parameters: [bad_params.yaml]}\n')
    msg = _error(capsys, ['run', str(sc), '--duration', '0.1', '--output', str(tmp_path)])
    assert 'bad_params.yaml' in msg


def test_unknown_node_executable(capsys, tmp_path):
    sc = tmp_path / 'sc.yaml'
    sc.write_text('nodes:\n  - {name: x, package: zoo_bringup, executable: no_such_node}\n')
    assert "no node executable 'no_such_node'" in _error(capsys, ['run', str(sc)])


def test_bad_duration(capsys):
    assert '--duration -1.0' in _error(capsys, ['run', 'talker_listener', '--duration', '-1'])
