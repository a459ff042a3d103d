"""Issue 4 acceptance: every robot rests stably at its nominal pose for 10 s with its joints held by
the simulator's joint motors, judged on summary.json as `robozoo run <robot>_stand` writes it."""
import json

import pytest

from zoo_bringup.cli import main

ROBOTS = ['nao', 'hoap2', 'robobo', 'go1', 'snake']


@pytest.fixture(scope='module')
def summaries(tmp_path_factory):
    out = {}
    for robot in ROBOTS:
        d = tmp_path_factory.mktemp(robot)
        assert main(['run', f'{robot}_stand', '--duration', '10', '--output', str(d),
                     '--quiet']) == 0
        out[robot] = json.loads((d / 'summary.json').read_text())
    return out


@pytest.mark.parametrize('robot', ROBOTS)
def test_robot_stands_still_for_10_s(summaries, robot):
    s = summaries[robot]
    r = s['robots'][robot]
    assert s['sim_time'] == pytest.approx(10.0)
    assert not r['fell']
    assert r['drift_xyz'] < 0.01, f"{robot} drifted {r['drift_xyz'] * 1e3:.1f} mm"
    assert r['max_tilt_change_deg'] < 1.0, f"{robot} tilted {r['max_tilt_change_deg']:.2f} deg"
    assert r['max_penetration'] < 0.005


def test_robobo_sits_still_without_command(summaries):
    """The original Robobo model drifted by itself; ours must not (base < 1 mm, heading < 0.2 deg)."""
    r = summaries['robobo']['robots']['robobo']
    assert r['drift_xyz'] < 0.001
    assert abs(r['yaw_change_deg']) < 0.2
