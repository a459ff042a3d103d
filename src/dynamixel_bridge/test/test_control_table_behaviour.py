"""The in-memory emulated servos honour their control tables (issue 27), driven by the real
clients: Moving Speed / Profile Velocity cap the speed, Torque Limit 0 gives no torque, torque
off ignores goals, Moving and Registered say what is going on. Figures: spec snake.md §8.2
(AX-12A table), §8.3 (XM430 table, 0.229 rpm per velocity unit), §3.5 (59 rpm no-load); the
AX-12A's 0.111 rpm per Moving Speed unit is the e-manual's (control_table.py)."""
import math
import sys
import time
from pathlib import Path

import dynamixel_sdk as sdk
import pytest

from conftest import emulated

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tests'))
from dxl_clients import answered  # noqa: E402,I100

AX_STEP_RAD = math.radians(300) / 1024
X_STEP_RAD = 2 * math.pi / 4096


def _open(pty):
    port = sdk.PortHandler(pty.path)
    assert port.openPort() and port.setBaudRate(1_000_000)
    return port


def _ok(call):
    """The SDK call's value (None for a write), asked again if its status came late (load)."""
    result = answered(None, call, tries=20)
    assert tuple(result[-2:]) == (sdk.COMM_SUCCESS, 0), result
    return result[0] if len(result) == 3 else None


@pytest.mark.parametrize('protocol', [1, 2])
def test_speed_register_caps_the_speed_and_moving_says_so(protocol):
    """AX Moving Speed 50 = 5.55 rpm; XM Profile Velocity 24 = 5.5 rpm: a 0.3 s look at a
    long move finds the servo where that speed puts it, Moving = 1 meanwhile, 0 once there."""
    ph = sdk.PacketHandler(float(protocol))
    if protocol == 1:
        torque, speed_addr, speed, goal_addr, pos_addr, moving_addr = 24, 32, 50, 30, 36, 46
        rad_s, step, start, goal = speed * 0.111 * 2 * math.pi / 60, AX_STEP_RAD, 512, 700
        write, read = ph.write2ByteTxRx, ph.read2ByteTxRx
    else:
        torque, speed_addr, speed, goal_addr, pos_addr, moving_addr = 64, 112, 24, 116, 132, 122
        rad_s, step, start, goal = speed * 0.229 * 2 * math.pi / 60, X_STEP_RAD, 2048, 2500
        write, read = ph.write4ByteTxRx, ph.read4ByteTxRx
    with emulated(protocol) as (bus, pty):
        port = _open(pty)
        try:
            _ok(lambda: ph.write1ByteTxRx(port, 1, torque, 1))
            _ok(lambda: write(port, 1, speed_addr, speed))
            assert _ok(lambda: ph.read1ByteTxRx(port, 1, moving_addr)) == 0
            t0 = time.monotonic()
            _ok(lambda: write(port, 1, goal_addr, goal))
            t1 = time.monotonic()  # the goal was taken between t0 and t1
            time.sleep(0.3)
            t2 = time.monotonic()
            pos = _ok(lambda: read(port, 1, pos_addr))
            t3 = time.monotonic()  # and the position read between t2 and t3
            steps_s = rad_s / step
            assert start + (t2 - t1) * steps_s - 2 <= pos <= start + (t3 - t0) * steps_s + 2
            assert pos < goal - 20
            assert _ok(lambda: ph.read1ByteTxRx(port, 1, moving_addr)) == 1
            _ok(lambda: write(port, 1, speed_addr, 0))  # 0: as fast as the motor goes
            time.sleep(0.4)
            assert _ok(lambda: read(port, 1, pos_addr)) == goal
            assert _ok(lambda: ph.read1ByteTxRx(port, 1, moving_addr)) == 0
        finally:
            port.closePort()


def test_torque_limit_zero_gives_no_torque():
    """AX-12A Torque Limit (34) 0: torque on, yet no force: a goal does not move the servo."""
    ph = sdk.PacketHandler(1.0)
    with emulated(1) as (bus, pty):
        port = _open(pty)
        try:
            _ok(lambda: ph.write1ByteTxRx(port, 2, 24, 1))
            _ok(lambda: ph.write2ByteTxRx(port, 2, 34, 0))
            _ok(lambda: ph.write2ByteTxRx(port, 2, 30, 700))
            time.sleep(0.3)
            assert _ok(lambda: ph.read2ByteTxRx(port, 2, 36)) == 512
            _ok(lambda: ph.write2ByteTxRx(port, 2, 34, 1023))  # torque back: it goes
            time.sleep(0.3)
            assert _ok(lambda: ph.read2ByteTxRx(port, 2, 36)) == 700
        finally:
            port.closePort()


@pytest.mark.parametrize('protocol', [1, 2])
def test_torque_off_ignores_goals(protocol):
    ph = sdk.PacketHandler(float(protocol))
    torque, goal_addr, pos_addr, start, goal = \
        (24, 30, 36, 512, 700) if protocol == 1 else (64, 116, 132, 2048, 2500)
    write, read = (ph.write2ByteTxRx, ph.read2ByteTxRx) if protocol == 1 else \
        (ph.write4ByteTxRx, ph.read4ByteTxRx)
    with emulated(protocol) as (bus, pty):
        port = _open(pty)
        try:
            _ok(lambda: write(port, 3, goal_addr, goal))
            time.sleep(0.3)
            assert _ok(lambda: read(port, 3, pos_addr)) == start
            assert _ok(lambda: ph.read1ByteTxRx(port, 3, torque)) == 0
        finally:
            port.closePort()


@pytest.mark.parametrize('protocol', [1, 2])
def test_registered_reads_1_while_a_reg_write_waits(protocol):
    """AX Registered (44), XM Registered Instruction (69): 1 from REG_WRITE until ACTION."""
    ph = sdk.PacketHandler(float(protocol))
    led, registered = (25, 44) if protocol == 1 else (65, 69)
    with emulated(protocol) as (bus, pty):
        port = _open(pty)
        try:
            assert _ok(lambda: ph.read1ByteTxRx(port, 4, registered)) == 0
            _ok(lambda: ph.regWriteTxRx(port, 4, led, 1, [1]))
            assert _ok(lambda: ph.read1ByteTxRx(port, 4, registered)) == 1
            assert _ok(lambda: ph.read1ByteTxRx(port, 4, led)) == 0
            assert ph.action(port, 4) == sdk.COMM_SUCCESS
            time.sleep(0.01)
            assert _ok(lambda: ph.read1ByteTxRx(port, 4, registered)) == 0
            assert _ok(lambda: ph.read1ByteTxRx(port, 4, led)) == 1
        finally:
            port.closePort()


def test_pypot_is_moving_and_moving_speed():
    """pypot 5.0.2 on AX-12s: `set_moving_speed` caps the speed, `is_moving` is True during
    the move and False after it."""
    import subprocess
    import sys

    import pypot.dynamixel as pd
    emu = subprocess.Popen([sys.executable, '-m', 'dynamixel_bridge.emulator.cli', '--quiet',
                            '--ids', '1-2'], stdout=subprocess.PIPE, stdin=subprocess.PIPE,
                           text=True)
    try:
        path = emu.stdout.readline().strip()
        with pd.DxlIO(path, baudrate=1_000_000, timeout=0.05) as io:
            io.enable_torque([1])
            time.sleep(0.01)
            io.set_moving_speed({1: 33.3})  # deg/s: 5.55 rpm
            time.sleep(0.01)
            io.set_goal_position({1: 30.0})
            time.sleep(0.3)
            assert io.is_moving([1]) == (True,)
            assert io.get_present_position([1])[0] == pytest.approx(0.15 + 0.3 * 33.3, abs=4)
            time.sleep(0.9)
            assert io.is_moving([1]) == (False,)
            assert io.get_present_position([1])[0] == pytest.approx(30.0, abs=0.5)
    finally:
        emu.terminate()
        emu.wait(timeout=10)
