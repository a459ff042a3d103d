"""The bridge core on the emulated bus: set-up, clamped targets, faults (corrupt packet, timeout,
overload) -> a clear status and torque off on that servo, no crash, recovery when the fault
clears; the P2 reboot; the watchdog; bad input gets one line."""
import math

import pytest

from conftest import emulated
from dynamixel_bridge.bridge_core import BridgeConfig, BridgeCore
from dynamixel_bridge.control_table import DEFAULT_MODEL
from dynamixel_bridge.sdk_bus import BusError, SdkBus

JOINTS = [f'joint_{i}' for i in range(1, 5)]
LIM = math.radians(60)


def make_core(pty, protocol, **cfg):
    bus = SdkBus(pty.path, 1_000_000, DEFAULT_MODEL[protocol], [1, 2, 3, 4])
    bus.open()
    core = BridgeCore(bus, BridgeConfig(JOINTS, [-LIM] * 4, [LIM] * 4, **cfg))
    core.start()
    return core


def run(core, n, t0=0.0, dt=0.02):
    events = []
    for k in range(n):
        events += core.cycle(t0 + k * dt).events
    return events


@pytest.mark.parametrize('protocol', [1, 2])
def test_targets_are_clamped_and_reach_the_servos(protocol):
    with emulated(protocol) as (bus, pty):
        core = make_core(pty, protocol)
        try:
            assert core.set_targets(JOINTS[:2], [0.3, 2.0], 0.0) is None
            run(core, 2)
            m = core.model
            assert bus.servos[1].get('Goal Position') == m.rad_to_position(0.3)
            assert bus.servos[2].get('Goal Position') == m.rad_to_position(LIM)  # clamped
            assert core.clamped == 1 and all(s.torque_on for s in bus.servos.values())
        finally:
            core.shutdown()
        assert not any(s.torque_on for s in bus.servos.values())  # torque off on exit


@pytest.mark.parametrize('kind,words', [('corrupt', 'corrupt status packet'),
                                        ('timeout', 'no status packet (timeout)'),
                                        ('overload', 'overload')])
def test_protocol1_fault_status_torque_off_and_recovery(kind, words):
    with emulated(1) as (bus, pty):
        core = make_core(pty, 1)
        try:
            bus.faults.set(kind, 3)
            events = run(core, 3)
            h = core.health.servos[3]
            assert h.state == 'fault' and words in h.reason, (h, events)
            assert any(f'id 3 (joint_3): {words}' in e and 'torque off' in e for e in events)
            if kind != 'timeout':  # a servo that does not answer cannot be checked
                assert not bus.servos[3].torque_on
            assert all(core.health.servos[i].ok for i in (1, 2, 4))
            bus.faults.clear(3)
            events = run(core, 4, t0=1.0)
            assert h.ok and h.recoveries == 1, events
            assert bus.servos[3].torque_on
            assert core.metrics()['faults'] == 1
        finally:
            core.shutdown()


def test_protocol2_overload_latches_until_reboot():
    with emulated(2) as (bus, pty):
        core = make_core(pty, 2)
        try:
            bus.faults.set('overload', 2)
            events = run(core, 2)
            assert 'hardware alert (overload)' in core.health.servos[2].reason, events
            assert not bus.servos[2].torque_on
            bus.faults.clear(2)
            run(core, 4, t0=1.0)
            assert not core.health.servos[2].ok  # latched in the servo
            ok, msg = core.reboot()
            assert ok and 'rebooted: ids [2]' in msg
            run(core, 4, t0=2.0)
            assert core.health.servos[2].ok and bus.servos[2].torque_on
        finally:
            core.shutdown()


@pytest.mark.parametrize('action', ['hold', 'torque_off'])
def test_watchdog(action):
    with emulated(1) as (bus, pty):
        core = make_core(pty, 1, watchdog_s=0.1, watchdog_action=action)
        try:
            core.set_targets(JOINTS, [0.2] * 4, 0.0)
            events = run(core, 10, dt=0.05)
            assert any('watchdog: no joint_targets' in e for e in events)
            assert all(s.torque_on == (action == 'hold') for s in bus.servos.values())
            core.set_targets(JOINTS, [0.0] * 4, 1.0)
            events = run(core, 1, t0=1.0)
            assert events == ['watchdog: joint_targets again: forwarding']
            assert all(s.torque_on for s in bus.servos.values())
        finally:
            core.shutdown()


def test_bad_input_gets_one_line():
    with emulated(1) as (bus, pty):
        core = make_core(pty, 1)
        try:
            msg = core.set_targets(['joint_1', 'tail'], [0.1, 0.2], 0.0)
            assert msg == ('unknown joints tail (known: joint_1..joint_4): those entries ignored')
            assert 'non-finite' in core.set_targets(['joint_1'], [math.inf], 0.0)
            assert 'message dropped' in core.set_targets(['joint_1'], [], 0.0)
        finally:
            core.shutdown()
    with pytest.raises(BusError, match=r'^port /dev/ttyNOPE0: cannot open it .*plugged in'):
        SdkBus('/dev/ttyNOPE0', 1_000_000, DEFAULT_MODEL[1], [1]).open()
    with emulated(1, ids=[1, 2]) as (bus, pty):
        sdk_bus = SdkBus(pty.path, 1_000_000, DEFAULT_MODEL[1], [1, 2, 7])
        sdk_bus.open()
        core = BridgeCore(sdk_bus, BridgeConfig(['a', 'b', 'c'], [-1] * 3, [1] * 3))
        with pytest.raises(BusError, match='no answer from id 7 '):
            core.start()
        sdk_bus.close()


def test_realtime_priority_is_applied_once_per_thread_with_one_line():
    from dynamixel_bridge.priority import normal_thread
    with emulated(1) as (bus, pty):
        core = make_core(pty, 1, realtime_priority=1)
        try:
            first = run(core, 1)
            assert len(first) == 1 and first[0].startswith('bus thread at ')  # FIFO or refused
            assert run(core, 2) == []
        finally:
            normal_thread()
            core.shutdown()
