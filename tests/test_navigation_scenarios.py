"""The dynamic HOAP-2 on the demo map (issue 13 acceptance, spec hoap2.md R26): ground truth and
MuJoCo's contact list decide, not the navigator's own account."""
from __future__ import annotations

import json
import math

import mujoco
import numpy as np
import pytest

from zoo_scenario.runner import ScenarioRun, run_scenario
from zoo_scenario.scenario import apply_overrides, load_scenario


def test_demo_walk_reaches_the_goal_without_touching_anything(tmp_path):
    sc = load_scenario('hoap2_navigation')
    run = ScenarioRun(sc)
    ph = run.physics
    m, d = ph.model, ph.data
    robot = ph.robots['hoap2'].geom_mask
    obstacles = np.zeros(m.ngeom, dtype=bool)
    for name in ('pole/link/collision', 'marker/link/collision'):
        obstacles[m.geom(name).id] = True
    touches = []

    def contact_check():
        g = d.contact.geom[:d.ncon]
        hit = (robot[g[:, 0]] & obstacles[g[:, 1]]) | (robot[g[:, 1]] & obstacles[g[:, 0]])
        if hit.any():
            touches.append(ph.sim_ns)
    ph.observers.append(contact_check)  # after every step call (at most 10 ms of physics)
    try:
        run.run()
        summary = run.summary(run.wall_time)
        run.write_node_outputs(tmp_path)
    finally:
        run.close()
    nav = summary['metrics']['navigator']
    hoap2 = summary['robots']['hoap2']
    assert touches == []
    assert nav['status'] == 'reached' and nav['goal_reached'] is True
    end = hoap2['base_end']
    assert math.dist(end[:2], (2.0, 3.0)) <= 0.15  # the simulator's ground truth
    assert nav['final_distance_to_goal_m'] == pytest.approx(math.dist(end[:2], (2.0, 3.0)),
                                                            abs=2e-3)
    assert hoap2['fell'] is False and nav['falls'] == 0
    assert nav['min_clearance_m'] + 0.075 >= 0.225  # torso centre to pole centre (R26)
    assert nav['max_turn_rad'] <= 0.7854 and nav['time_s'] <= 600.0
    assert nav['planned_path_length_m'] == pytest.approx(6 * 0.2 + 4 * 0.2 * math.sqrt(2))
    assert (tmp_path / 'navigation.png').stat().st_size > 10_000
    log = (tmp_path / 'navigation_log.csv').read_text().splitlines()
    assert log[0].startswith('time,x,y,yaw,waypoint,cross_track,correction,command')
    assert log[-1].endswith('reached,')


def test_unreachable_goal_stands_still_with_a_clear_status(tmp_path):
    sc = apply_overrides(load_scenario('hoap2_navigation'), ['navigator.goal=[2.0, 3.5]'])
    summary = run_scenario(sc, duration=3.0, output=tmp_path)
    nav = summary['metrics']['navigator']
    assert nav['status'] == 'no_path' and nav['goal_reached'] is False
    assert nav['reason'] == 'goal (2, 3.5) is inside an obstacle (inflated by the robot ' \
        'half-width)'
    assert nav['forward_steps'] == 0 and summary['robots']['hoap2']['drift_xy'] < 0.005
    assert json.loads((tmp_path / 'summary.json').read_text())['files'] == \
        ['navigation.png', 'navigation_log.csv']
