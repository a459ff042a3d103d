"""The app's status rules (robobo_api.status_rates), fed readings on a simulated clock."""
from __future__ import annotations

import pytest

from robobo_api.status_rates import StatusGate


def sends(gate, rule, period_s, seconds, value=lambda k: (k,), name='WHEELS'):
    """How many of the readings arriving every ``period_s`` for ``seconds`` go out."""
    n = round(seconds / period_s)
    return sum(rule(name, k * period_s, value(k)) for k in range(n))


def test_motor_statuses_per_level():
    gate = StatusGate()
    assert sends(gate, gate.motor, 0.05, 2.0) == 4            # from the start: every 500 ms
    for level, base, per_s in (('LOW', 1.0, 1), ('NORMAL', 0.333, 3), ('FAST', 0.1, 10),
                               ('MAX', 0.01, 100)):
        gate = StatusGate()
        assert gate.set_level(level).base == base
        assert sends(gate, gate.motor, base, 3.0) == pytest.approx(3 * per_s, abs=1), level
    gate = StatusGate()
    assert sends(gate, gate.motor, 0.05, 2.0, value=lambda k: (7,)) == 1   # unchanged: once
    with pytest.raises(KeyError):
        gate.set_level('HIGH')


def test_battery_and_phone_sensors():
    gate = StatusGate()
    gate.set_level('MAX')
    assert sends(gate, lambda n, t, _v: gate.battery(n, t), 0.1, 3.0) == 3   # every 1 s
    gate = StatusGate()
    accel = [(0.0, 9.0, 3.0), (0.0, 9.05, 3.0), (0.0, 9.2, 3.0)]
    assert [gate.acceleration(t, a) for t, a in zip((0.0, 0.3, 0.6), accel)] == \
        [True, False, True]                                  # 0.05 < 0.08 m/s^2: not sent
    assert gate.orientation(0.0, (0, -70, 0)) and not gate.orientation(0.1, (0, -60, 0))
    assert gate.orientation(0.2, (0, -60, 0))                # 200 ms, whatever the level
