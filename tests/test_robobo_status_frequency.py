"""The Robobo app's status frequencies (issue 27), through robobopy 1.5.0 (PyPI, unmodified):
statuses per second of sim time at every setStatusFrequency level, the app's rules
(robobo_api.status_rates, which cites the Android sources): the base reports every 100 ms from
the start, WHEELS at most every 500 ms; LOW / NORMAL / FAST / MAX set both to 1 s / 333 ms /
100 ms / 10 ms, BAT-BASE to 30 / 20 / 10 / 1 s; IRS leave with the base's statuses (no faster
than the IR plug-ins' 10 Hz). robobopy's High sends "HIGH", which the app ignores."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')

from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import ServedTruth, recording_connect, wait_sim  # noqa: E402

WINDOW_S = 3.0     # sim seconds counted per level
SETTLE_S = 0.6     # after a change: the new timers' first periods

# level (None: as connected), expected statuses per second: WHEELS, IRS (10 Hz: the IR plug-ins)
LEVELS = [(None, 2.0, 10.0), ('LOW', 1.0, 1.0), ('NORMAL', 3.0, 3.0),
          ('HIGH', 3.0, 3.0),          # ignored by the app: NORMAL's rates stay
          ('FAST', 10.0, 10.0), ('MAX', 100.0, 10.0)]


def test_status_updates_per_second_at_each_level():
    from robobopy.utils.StatusFrequency import StatusFrequency
    sent = {'LOW': StatusFrequency.Low, 'NORMAL': StatusFrequency.Normal,
            'HIGH': StatusFrequency.High, 'MAX': StatusFrequency.Max,
            'FAST': SimpleNamespace(value='FAST')}   # the app's name; robobopy has no member
    robot_id = free_robot_id()
    rates = {}
    with ServedRun(robot_id, sim_server=False,
                   node_parameters={'robobo_api': {'camera_rate': 0.0}}) as served:
        truth = ServedTruth(served)
        rob, frames = recording_connect(robot_id, truth)
        rob.moveWheels(30, -30)                       # spin in place: the wheels always turn
        for level, _wheels, _irs in LEVELS:
            if level is not None:
                rob.setStatusFrequency(sent[level])
            wait_sim(truth, SETTLE_S)
            t0 = truth.sim_time()
            wait_sim(truth, WINDOW_S)
            t1 = truth.sim_time()
            seen = [f['name'] for t, f in frames if t0 <= t < t1]
            rates[level] = {n: seen.count(n) / (t1 - t0) for n in ('WHEELS', 'IRS', 'BAT-BASE')}
        errors = [f['value'] for _t, f in frames if f.get('name') == 'ERROR']
        rob.stopMotors()
        rob.disconnect()
    for level, wheels, irs in LEVELS:
        got = rates[level]
        assert got['WHEELS'] == pytest.approx(wheels, rel=0.2, abs=0.4), (level, rates)
        assert got['IRS'] == pytest.approx(irs, rel=0.2, abs=0.4), (level, rates)
    assert rates['MAX']['BAT-BASE'] == pytest.approx(1.0, abs=0.4), rates     # every 1 s
    assert rates['FAST']['BAT-BASE'] <= 1 / WINDOW_S, rates                   # every 10 s
    assert any('HIGH' in e.get('message', '') for e in errors), errors
