"""Run standalone (``ros2 run`` / ``ros2 launch``), the simulator paces itself on the wall clock:
``real_time_factor`` 0 must not become a zero-period timer that free-runs ahead of controllers
in other processes (issue 16 item 9)."""
from __future__ import annotations

import pytest

from test_sim_node import Stack


@pytest.fixture(autouse=True)
def test_prefix(monkeypatch):
    from conftest import DATA
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(DATA / 'prefix'))


@pytest.mark.parametrize('rtf, period', [(0.0, 0.01), (1.0, 0.01), (2.0, 0.01)])
def test_free_run_is_paced_at_the_real_time_factor(rtf, period):
    s = Stack(real_time_factor=rtf)
    try:
        before = set(s.sim.timers)
        s.sim.run_free(wall_period=0.01)
        (timer,) = set(s.sim.timers) - before
        assert timer.timer_period_ns * 1e-9 == pytest.approx(period)
        ticks = s.sim.physics.sim_ns
        timer.callback()
        assert (s.sim.physics.sim_ns - ticks) * 1e-9 == pytest.approx(period * max(rtf, 1.0))
    finally:
        s.close()
