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

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tests'))
from dxl_clients import sdk_broadcast_id_write_collides, sdk_id_write_readdresses_the_servo  # noqa: E402,I100

ID_ADDR = {1: 3, 2: 7}


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
            ph.write1ByteTxRx(port, 2, 25, 1)  # LED on: both servos at id 2 take it
            assert [s.get('LED') for s in bus.chain] == [0, 1, 1, 0]
            assert ph.ping(port, 1)[1] == sdk.COMM_SUCCESS  # the others answer as ever
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
            assert ph.write1ByteTxRx(port, 2, lock_addr, 1) == (sdk.COMM_SUCCESS, 0)
            assert ph.write1ByteTxRx(port, 2, ID_ADDR[protocol], 9) == (sdk.COMM_SUCCESS, error)
            assert ph.ping(port, 2)[1] == sdk.COMM_SUCCESS
            assert ph.ping(port, 9)[1] == sdk.COMM_RX_TIMEOUT
        finally:
            port.closePort()


def test_a_dead_bus_thread_says_so():
    """The serving loop fails (its pty is gone under it): one line says why, ``alive`` is false
    and ``bus_error`` holds the line (what the CLI and the node exit non-zero with)."""
    with emulated(1, ids=range(1, 3)) as (_bus, pty):
        port = sdk.PortHandler(pty.path)
        ph = sdk.PacketHandler(1.0)
        try:
            assert port.openPort()
            assert ph.ping(port, 1)[1] == sdk.COMM_SUCCESS
            os.close(pty.master)
            deadline = time.monotonic() + 5
            while pty.alive and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not pty.alive and pty.died.is_set()
            assert pty.bus_error and 'bus thread stopped' in pty.bus_error, pty.lines
            assert pty.lines[-1] == pty.bus_error
        finally:
            port.closePort()
