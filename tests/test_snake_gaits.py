"""Issue 14 acceptance for the gaits (specs/snake.md R24-R26), on recorded ground truth:
each gait moves the snake the expected way on flat ground and on the heightfield, and the second
(reversed) leg of the R25 protocol goes back; plus one scenario end to end (10 Hz goals, the R20
state log beside the run)."""
import json

import numpy as np
import pytest

from snake_gaits import state_log
from snake_gaits.experiment import run_protocol
from snake_gaits.serpenoid import preset
from zoo_bringup.cli import main

MIN_TRAVEL = 0.1  # m per 4 s leg in the gait's own direction


@pytest.fixture(scope='module')
def runs():
    return {(g, t): run_protocol(preset(g), terrain=t)
            for g in ('linear_progression', 'lateral_rolling', 'sidewinding')
            for t in ('flat', 'heightfield')}


@pytest.mark.parametrize('terrain', ['flat', 'heightfield'])
def test_linear_progression_goes_forward_then_back(runs, terrain):
    fwd, rev = runs['linear_progression', terrain].legs
    assert fwd.along > 2 * MIN_TRAVEL
    assert rev.along < -MIN_TRAVEL


@pytest.mark.parametrize('gait', ['lateral_rolling', 'sidewinding'])
@pytest.mark.parametrize('terrain', ['flat', 'heightfield'])
def test_rolling_and_sidewinding_go_sideways_then_back(runs, gait, terrain):
    fwd, rev = runs[gait, terrain].legs
    assert abs(fwd.across) > 2 * MIN_TRAVEL and abs(fwd.across) > 3 * abs(fwd.along)
    assert np.sign(rev.across) == -np.sign(fwd.across) and abs(rev.across) > 2 * MIN_TRAVEL


def test_plain_modules_progress_too():
    fwd, rev = run_protocol(preset('linear_progression'), variant='plain').legs
    assert fwd.along > 2 * MIN_TRAVEL and rev.along < -2 * MIN_TRAVEL


def test_scenario_runs_the_protocol_and_logs_the_state(tmp_path):
    out = tmp_path / 'out'
    assert main(['run', 'snake_sidewinding', '--set', 'sim.world=snake_terrain', '--output',
                 str(out), '--quiet']) == 0
    summary = json.loads((out / 'summary.json').read_text())
    gait = summary['metrics']['gait']
    assert gait['finished'] and gait['goal_updates'] == 80
    fwd, rev = gait['legs']
    assert abs(fwd['across_m']) > 0.2 and fwd['across_m'] * rev['across_m'] < 0
    cols, data = state_log.read(out / 'state_log.csv')
    assert len(cols) == 168 and len(data) >= 75
    assert np.allclose(np.diff(data[:, 0]), 0.1, atol=1e-6)
