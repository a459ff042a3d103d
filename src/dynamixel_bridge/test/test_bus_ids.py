"""Issue 25: the ID register (EEPROM) on the emulated bus, driven by dynamixel-sdk over the pty.
A servo whose ID is written answers at its new id at once; a broadcast ID write leaves every
servo on the bus, all at one id, and their statuses collide on the half-duplex wire (the client
sees corrupt or missing statuses), with one warning naming the id and the servos. A failure of
the bus thread is never silent."""
import os
import sys
import time
from pathlib import Path

import dynamixel_sdk as sdk
import pytest

from conftest import emulated
from dynamixel_bridge import instructions as ins
from dynamixel_bridge import protocol1, protocol2
from dynamixel_bridge.emulator.bus import build_bus
from test_golden_packets import exchange

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tests'))
from dxl_clients import (answered, sdk_broadcast_id_write_collides,  # noqa: E402,I100
                         sdk_id_write_readdresses_the_servo)

ID_ADDR = {1: 3, 2: 7}


@pytest.fixture(autouse=True)
def _bus_thread_gets_the_gil():
    """The emulated servos are hardware in another box; here their thread shares the GIL with
    the SDK's busy-polling client: hand it back within 0.5 ms (as the emulator node does), or a
    status waits for Python's 5 ms switch interval a few times and misses the SDK's timeout on a
    loaded machine."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    yield
    sys.setswitchinterval(before)


@pytest.mark.parametrize('protocol', [1, 2])
def test_id_write_answered_from_the_old_id_then_the_new_id(protocol):
    """Through the bus (no pty): the status of the ID write comes from the id it was sent to,
    which is what the host waits for; the next packet is taken at the new id."""
    codec = protocol1 if protocol == 1 else protocol2
    bus = build_bus(protocol, [1, 5])
    write = codec.encode(5, ins.WRITE, bytes([ID_ADDR[protocol]] + [0] * (protocol - 1) + [50]))
    assert exchange(bus, write) == codec.status(5, 0)
    assert exchange(bus, codec.encode(5, ins.PING)) == b''
    s = bus.servos[50]
    extra = b'' if protocol == 1 else s.get('Model Number').to_bytes(2, 'little') + bytes(
        [s.get('Firmware Version')])
    assert exchange(bus, codec.encode(50, ins.PING)) == codec.status(50, 0, extra)
    assert [s.id for s in bus.chain] == [1, 50] and s.key == 5


def test_colliding_statuses_on_the_wire():
    """wire_and: one transmitter reads back unchanged; two identical PING statuses 2 us apart
    at 1 Mbps read garbled; at 57600 baud 2 us is a ninth of a bit and they read clean, as two
    drivers agreeing within a sample would on a real line."""
    from dynamixel_bridge.emulator.bus import wire_and
    status = protocol1.status(7, 0)
    assert wire_and([(0.0, status)], 1_000_000)[0] == status
    garbled, end = wire_and([(0.0, status), (2e-6, status)], 1_000_000)
    assert garbled != status and end == pytest.approx(2e-6 + 60e-6)
    assert wire_and([(0.0, status), (2e-6, status)], 57600)[0] == status
    bus = build_bus(1, list(range(1, 17)))
    assert exchange(bus, protocol1.encode(0xFE, ins.WRITE, bytes([3, 7]))) == b''
    reply = exchange(bus, protocol1.encode(7, ins.PING))
    assert reply and reply != status and bus.collisions == 1


@pytest.mark.parametrize('protocol', [1, 2])
def test_id_write_readdresses_the_servo(protocol):
    with emulated(protocol, ids=range(1, 9)) as (bus, pty):
        sdk_id_write_readdresses_the_servo(pty.path, protocol, 5, 50)
        assert pty.bus_error is None and pty.alive, pty.lines
        assert sorted(s.id for s in bus.chain) == [1, 2, 3, 4, 6, 7, 8, 50]


@pytest.mark.parametrize('protocol', [1, 2])
def test_broadcast_id_write_keeps_every_servo_and_they_collide(protocol):
    with emulated(protocol, ids=range(1, 17)) as (bus, pty):
        sdk_broadcast_id_write_collides(pty.path, protocol, list(range(1, 17)), 7)
        assert len(bus.chain) == 16 and all(s.id == 7 for s in bus.chain)
        warnings = [line for line in pty.lines if 'id 7' in line and 'collide' in line]
        assert len(warnings) == 1, pty.lines
        assert 'shared by 16 servos' in warnings[0] and '1-16' in warnings[0], warnings
        assert pty.bus_error is None and pty.alive, pty.lines


def test_two_servos_at_one_id_both_execute_and_collide():
    """Protocol 1.0: 3 -> 2 puts two servos at id 2: both execute what is sent to id 2 and their
    statuses collide; the other servos answer as before."""
    with emulated(1, ids=range(1, 5)) as (bus, pty):
        port = sdk.PortHandler(pty.path)
        ph = sdk.PacketHandler(1.0)
        try:
            assert port.openPort()
            assert ph.write1ByteTxRx(port, 3, 3, 2) == (sdk.COMM_SUCCESS, 0)
            assert ph.ping(port, 2)[1] in (sdk.COMM_RX_CORRUPT, sdk.COMM_RX_TIMEOUT)
            for _ in range(5):  # a write that got no clean status is sent again, as a host would
                ph.write1ByteTxRx(port, 2, 25, 1)  # LED on: both servos at id 2 take it
                if [s.get('LED') for s in bus.chain] == [0, 1, 1, 0]:
                    break
            assert [s.get('LED') for s in bus.chain] == [0, 1, 1, 0], pty.lines
            assert answered(ph, lambda: ph.ping(port, 1))[1] == sdk.COMM_SUCCESS, pty.lines
        finally:
            port.closePort()
        warnings = [line for line in pty.lines if 'collide' in line]
        assert len(warnings) == 1 and 'id 2 is shared by 2 servos' in warnings[0], pty.lines


@pytest.mark.parametrize('protocol,lock_addr,error', [(1, 47, 0x08), (2, 64, 7)])
def test_id_write_refused_while_eeprom_locked(protocol, lock_addr, error):
    """AX-12A: Lock (47) = 1 locks the EEPROM; XM430: Torque Enable (64) = 1 does. The ID stays."""
    with emulated(protocol, ids=range(1, 5)) as (bus, pty):
        port = sdk.PortHandler(pty.path)
        ph = sdk.PacketHandler(float(protocol))
        try:
            assert port.openPort()
            assert answered(ph, lambda: ph.write1ByteTxRx(port, 2, lock_addr, 1)) == \
                (sdk.COMM_SUCCESS, 0)
            assert answered(ph, lambda: ph.write1ByteTxRx(port, 2, ID_ADDR[protocol], 9)) == \
                (sdk.COMM_SUCCESS, error)
            assert answered(ph, lambda: ph.ping(port, 2))[1] == sdk.COMM_SUCCESS
            assert ph.ping(port, 9)[1] == sdk.COMM_RX_TIMEOUT
        finally:
            port.closePort()


def test_an_emulator_error_is_one_line_naming_the_packet_and_the_bus_goes_on():
    """A servo whose plant cannot serve it (a joints plant given no joint for id 2, what killed
    the bus thread in issue 25): its READ gets no status and one line naming the packet; the
    other servo still answers."""
    from dynamixel_bridge.control_table import DEFAULT_MODEL
    from dynamixel_bridge.emulator.bus import Bus
    from dynamixel_bridge.emulator.plants import JointsPlant
    from dynamixel_bridge.emulator.pty_server import PtyBus
    from dynamixel_bridge.emulator.servo import Servo
    model = DEFAULT_MODEL[1]
    plant = JointsPlant(model, {1: 'joint_1'})
    lines: list[str] = []
    with PtyBus(Bus(1, [Servo(i, model, plant) for i in (1, 2)]), 1_000_000,
                log=lines.append) as pty:
        port = sdk.PortHandler(pty.path)
        ph = sdk.PacketHandler(1.0)
        try:
            assert port.openPort()
            assert ph.read2ByteTxRx(port, 2, 36)[1] == sdk.COMM_RX_TIMEOUT
            assert answered(ph, lambda: ph.ping(port, 1))[1] == sdk.COMM_SUCCESS
            assert answered(ph, lambda: ph.read2ByteTxRx(port, 1, 36))[1] == sdk.COMM_SUCCESS
        finally:
            port.closePort()
        assert pty.alive and pty.errors == 1
    errors = [line for line in lines if 'emulator error' in line]
    assert errors == ['id 2: READ (ff ff 02 04 02 24 02 d1): emulator error KeyError: 2; no '
                      'status sent, the bus goes on serving'], lines


def _kill_serving_loop(pty) -> None:
    """A real failure under the serving loop: its pty master is closed (select: EBADF)."""
    os.close(pty.master)
    deadline = time.monotonic() + 5
    while pty.alive and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_dead_bus_thread_says_so():
    """The serving loop fails (its pty is gone under it): one line says why, ``alive`` is false,
    ``bus_error`` holds the line, and the CLI's wait ends with it (BusDied: exit 1)."""
    from dynamixel_bridge.emulator.cli import BusDied, wait_while_serving
    with emulated(1, ids=range(1, 3)) as (_bus, pty):
        port = sdk.PortHandler(pty.path)
        ph = sdk.PacketHandler(1.0)
        try:
            assert port.openPort()
            assert answered(ph, lambda: ph.ping(port, 1))[1] == sdk.COMM_SUCCESS
            _kill_serving_loop(pty)
            assert not pty.alive and pty.died.is_set()
            assert pty.bus_error and 'bus thread stopped' in pty.bus_error, pty.lines
            assert pty.lines[-1] == pty.bus_error
            with pytest.raises(BusDied, match='bus thread stopped'):
                wait_while_serving(pty)
        finally:
            port.closePort()


def test_the_emulator_command_leaves_scenarios_to_robozoo(capsys):
    """This package knows no scenarios: ``--scenario`` without robozoo's ``attach`` (as
    ``python -m dynamixel_bridge.emulator.cli``) is one line saying who serves it, exit 2."""
    from dynamixel_bridge.emulator.cli import main
    assert main(['--scenario', 'snake_stand', '--quiet']) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ['robozoo dxl-emulator: error: --scenario snake_stand: a bus backed by a '
                   'scenario is served by bin/robozoo dxl-emulator (this command serves '
                   'in-memory servos)']
