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


@pytest.mark.parametrize('rtf', [0.0, 1.0, 2.0])
def test_free_run_publishes_clock_after_every_physics_step_at_the_real_time_factor(rtf):
    """One physics step and one /clock message per wall tick: rcl timers skip missed periods, so a
    coarser /clock would slow every faster controller in another process (issue 24 item 3)."""
    s = Stack(real_time_factor=rtf)
    try:
        before = set(s.sim.timers)
        s.sim.run_free()
        (timer,) = set(s.sim.timers) - before
        step = s.sim.physics.step_ns
        assert timer.timer_period_ns == pytest.approx(step / max(rtf, 1.0))
        clocks = []
        s.sim._clock_pub.publish = clocks.append
        ticks = s.sim.physics.sim_ns
        for _ in range(3):
            timer.callback()
        assert s.sim.physics.sim_ns - ticks == 3 * step
        stamps = [c.clock.sec * 1_000_000_000 + c.clock.nanosec for c in clocks]
        assert stamps == [ticks + step, ticks + 2 * step, ticks + 3 * step]
    finally:
        s.close()
