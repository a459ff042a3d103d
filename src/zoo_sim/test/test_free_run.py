"""Run standalone (``ros2 run`` / ``ros2 launch``), the simulator paces itself on the wall clock:
``real_time_factor`` 0 must not become a zero-period timer that free-runs ahead of controllers
in other processes (issue 16 item 9)."""
from __future__ import annotations

import time

import pytest

from test_sim_node import Stack


@pytest.fixture(autouse=True)
def test_prefix(monkeypatch):
    from conftest import DATA
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(DATA / 'prefix'))


@pytest.mark.parametrize('rtf', [0.0, 1.0, 2.0])
def test_free_run_publishes_clock_after_every_physics_step_at_the_real_time_factor(rtf):
    """One physics step and one /clock message per wall period: rcl timers skip missed periods,
    so a coarser /clock would slow every faster controller in another process (issue 24 item
    3). The period is the step over the real-time factor (0: real time)."""
    s = Stack(real_time_factor=rtf)
    clocks = []
    try:
        s.sim.run_free()
        s.sim._clock_pub.publish = clocks.append
        step = s.sim.physics.step_ns
        assert s.sim._free_period == pytest.approx(step * 1e-9 / max(rtf, 1.0))
        start = time.monotonic()
        while len(clocks) < 20 and time.monotonic() < start + 10:
            time.sleep(0.005)
    finally:
        s.sim._free_running = False
        s.sim._free_thread.join(2)
        s.close()
    stamps = [c.clock.sec * 1_000_000_000 + c.clock.nanosec for c in clocks]
    assert len(stamps) >= 20
    assert all(b - a == step for a, b in zip(stamps, stamps[1:])), stamps[:5]


def test_sim_time_waits_for_the_scenarios_nodes():
    """Under ros2 launch the simulator holds sim time at 0 until every node of
    start_after_nodes has said it is ready (the embedded lockstep starts them all at t = 0)."""
    from zoo_runtime.interfaces.std_msgs.msg import String
    s = Stack(start_after_nodes=['/nao/walker'], start_timeout=60.0)
    clocks = []
    try:
        s.sim.run_free()
        s.sim._clock_pub.publish = clocks.append
        time.sleep(0.1)
        assert clocks == [] and s.sim.physics.sim_ns == 0
        s.sim._on_node_ready(String(data='/other'))
        time.sleep(0.05)
        assert clocks == []
        s.sim._on_node_ready(String(data='/nao/walker'))
        start = time.monotonic()
        while not clocks and time.monotonic() < start + 10:
            time.sleep(0.005)
        assert clocks
    finally:
        s.sim._free_running = False
        s.sim._free_thread.join(2)
        s.close()
