"""Real clients from PyPI, unmodified, on the emulated bus: dynamixel-sdk (Protocol 1.0 AX-12A
and 2.0 XM430) and pypot (AX-12 over 1.0): ping, read positions, write goals."""
import time

import dynamixel_sdk as sdk
import pytest

from conftest import emulated


def _port(path):
    port = sdk.PortHandler(path)
    assert port.openPort() and port.setBaudRate(1_000_000)
    return port


@pytest.mark.parametrize('protocol', [1, 2])
def test_dynamixel_sdk_ping_read_write(protocol):
    goal_addr, pos_addr, model = (30, 36, 12) if protocol == 1 else (116, 132, 1020)
    with emulated(protocol) as (bus, pty):
        port = _port(pty.path)
        ph = sdk.PacketHandler(float(protocol))
        try:
            assert ph.ping(port, 2)[:2] == (model, sdk.COMM_SUCCESS)
            assert ph.ping(port, 9)[1] == sdk.COMM_RX_TIMEOUT
            torque = 24 if protocol == 1 else 64
            assert ph.write1ByteTxRx(port, 2, torque, 1) == (sdk.COMM_SUCCESS, 0)
            write = ph.write2ByteTxRx if protocol == 1 else ph.write4ByteTxRx
            goal = 600 if protocol == 1 else 2300
            assert write(port, 2, goal_addr, goal) == (sdk.COMM_SUCCESS, 0)
            sync = sdk.GroupSyncWrite(port, ph, goal_addr, 2 if protocol == 1 else 4)
            for i in (1, 3):
                sync.addParam(i, list(goal.to_bytes(2 if protocol == 1 else 4, 'little')))
            assert sync.txPacket() == sdk.COMM_SUCCESS
            time.sleep(0.6)  # the in-memory servos turn at 59 rpm
            read = ph.read2ByteTxRx if protocol == 1 else ph.read4ByteTxRx
            assert read(port, 2, pos_addr) == (goal, sdk.COMM_SUCCESS, 0)
            assert bus.servos[3].get('Goal Position') == goal
            if protocol == 2:
                group = sdk.GroupSyncRead(port, ph, pos_addr, 4)
                for i in (1, 2, 3):
                    group.addParam(i)
                assert group.txRxPacket() == sdk.COMM_SUCCESS
                assert group.getData(2, pos_addr, 4) == goal
            else:  # SYNC_READ is not there on 1.0: the SDK says so, the bus stays silent
                assert sdk.GroupSyncRead(port, ph, pos_addr, 2).txRxPacket() == \
                    sdk.COMM_NOT_AVAILABLE
        finally:
            port.closePort()


def test_pypot_ax12_scan_read_write():
    """pypot flushes input and output (TCOFLUSH) before every packet: on a pty that discards
    bytes the emulator has not read yet, so after a write without status (SYNC_WRITE) the next
    packet waits a moment; the emulator runs in its own process, as `robozoo dxl-emulator`."""
    import subprocess
    import sys

    import pypot.dynamixel as pd
    emu = subprocess.Popen([sys.executable, '-m', 'dynamixel_bridge.emulator.cli', '--quiet',
                            '--ids', '1-4'], stdout=subprocess.PIPE, stdin=subprocess.PIPE,
                           text=True)
    try:
        path = emu.stdout.readline().strip()
        with pd.DxlIO(path, baudrate=1_000_000, timeout=0.05) as io:
            assert io.scan(range(1, 7)) == [1, 2, 3, 4]
            assert io.get_model([1, 4]) == ('AX-12', 'AX-12')
            assert io.get_present_position([1, 2]) == pytest.approx((0.15, 0.15), abs=0.3)
            io.enable_torque([1, 2])
            time.sleep(0.01)
            io.set_goal_position({1: 30.0, 2: -20.0})
            time.sleep(0.6)
            assert io.get_present_position([1, 2]) == pytest.approx((30.0, -20.0), abs=0.5)
            assert io.get_goal_position([1]) == pytest.approx((30.0,), abs=0.2)
    finally:
        emu.terminate()
        emu.wait(timeout=10)


def test_wrong_baud_rate_gets_no_answer():
    with emulated(1) as (_, pty):
        port = sdk.PortHandler(pty.path)
        port.openPort()
        port.setBaudRate(57600)
        try:
            assert sdk.PacketHandler(1.0).ping(port, 1)[1] == sdk.COMM_RX_TIMEOUT
        finally:
            port.closePort()
        assert any('57600 baud' in line for line in pty.lines)
