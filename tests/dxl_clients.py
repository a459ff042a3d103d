"""dynamixel-sdk and pypot (PyPI, unmodified) on an emulated Dynamixel bus whose AX-12s are the
simulated snake's joints (Protocol 1.0, ids 1-16, 1 Mbps), written once: tests/
test_dynamixel_emulator_cli.py runs them against ``robozoo dxl-emulator --scenario snake_stand``
(embedded runtime, one process), tests/ros/test_real_clients_under_ros.py against the
``snake_dxl_emulator`` scenario started by the real ``ros2 launch`` (simulator and emulator node as
rclpy processes). Each check takes only the pty's path. The simulation is paced at real time at
best; on a loaded machine (a dozen processes under ROS on 2 cores) it runs slower, so a joint is
given up to SETTLE_S of wall time to reach its goal (at real time it takes 0.1-0.2 s)."""
from __future__ import annotations

import contextlib
import time

import pytest

SETTLE_S = 10.0


def settle(read, want: list[float], tol: float) -> list[float]:
    """Read until every value is within ``tol`` of ``want`` (at most SETTLE_S), then once more
    0.3 s later (the joint holds there, not just passes): that reading."""
    deadline = time.monotonic() + SETTLE_S
    while time.monotonic() < deadline:
        if all(abs(g - w) <= tol for g, w in zip(read(), want)):
            time.sleep(0.3)
            break
        time.sleep(0.1)
    return read()


def read_positions(ph, port, ids, tries: int = 5) -> list[int]:
    """Present Position of each servo; a READ that fails (a status later than the SDK's packet
    timeout on a loaded machine, or one dropped by the half-duplex bus) is asked again, as a
    client of a real bus would."""
    import dynamixel_sdk as sdk
    out = []
    for i in ids:
        for _ in range(tries):
            value, result, _error = ph.read2ByteTxRx(port, i, 36)
            if result == sdk.COMM_SUCCESS:
                break
            time.sleep(0.01)
        assert result == sdk.COMM_SUCCESS, f'id {i}: {ph.getTxRxResult(result)} {tries} times'
        out.append(value)
    return out


def write_torque_on(ph, port, ids, tries: int = 5) -> None:
    """Torque Enable (24) = 1 on each servo, asked again after a failed transaction (see
    read_positions); the status must then say no error."""
    import dynamixel_sdk as sdk
    for i in ids:
        for _ in range(tries):
            result, error = ph.write1ByteTxRx(port, i, 24, 1)
            if result == sdk.COMM_SUCCESS:
                break
            time.sleep(0.01)
        assert (result, error) == (sdk.COMM_SUCCESS, 0), (i, ph.getTxRxResult(result), error)


def sdk_sync_write_moves_the_snake(path: str) -> None:
    """dynamixel-sdk: the joints at rest read 512 (centre), torque on, a SYNC_WRITE of two goals
    (+-32.8 deg); both joints read them back (within 12 steps, 3.5 deg)."""
    import dynamixel_sdk as sdk
    port = sdk.PortHandler(path)
    ph = sdk.PacketHandler(1.0)
    try:
        assert port.openPort()
        deadline = time.monotonic() + 30
        while True:   # the first joint_states from the simulator fill the present positions
            start = read_positions(ph, port, (2, 4))
            if start == [512, 512] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert start == [512, 512]
        write_torque_on(ph, port, (2, 4))
        sync = sdk.GroupSyncWrite(port, ph, 30, 2)
        sync.addParam(2, [0x70, 0x02])  # 624: +32.8 deg
        sync.addParam(4, [0x90, 0x01])  # 400: -32.8 deg
        assert sync.txPacket() == sdk.COMM_SUCCESS
        now = settle(lambda: read_positions(ph, port, (2, 4)), [624, 400], 12)
        assert now[0] == pytest.approx(624, abs=12) and now[1] == pytest.approx(400, abs=12), now
    finally:
        port.closePort()


@contextlib.contextmanager
def sdk_at_rest(path: str, sid: int):
    """dynamixel-sdk (Protocol 1.0) on ``path`` once servo ``sid`` reads 512 (the first
    joint_states fill the present positions): (sdk, packet handler, port); the port closed after."""
    import dynamixel_sdk as sdk
    port = sdk.PortHandler(path)
    ph = sdk.PacketHandler(1.0)
    try:
        assert port.openPort()
        deadline = time.monotonic() + 30
        while read_positions(ph, port, (sid,)) != [512] and time.monotonic() < deadline:
            time.sleep(0.1)
        yield sdk, ph, port
    finally:
        port.closePort()


def sdk_goal_with_torque_off_waits(path: str) -> None:
    """dynamixel-sdk, torque off (as at power-on, Torque Enable reads 0): a goal write (+32.8
    deg) leaves joint 6 where it is (AX-12A e-manual: no torque, no motion; spec snake.md §8.2);
    torque on, and the servo turns to that goal (within 12 steps), Moving 1 on the way, 0 there."""
    with sdk_at_rest(path, 6) as (sdk, ph, port):
        assert answered(ph, lambda: ph.read1ByteTxRx(port, 6, 24))[::2] == (0, 0)
        assert answered(ph, lambda: ph.write2ByteTxRx(port, 6, 30, 624)) == (sdk.COMM_SUCCESS, 0)
        time.sleep(1.0)
        still = read_positions(ph, port, (6,))
        assert still == [pytest.approx(512, abs=3)], still
        write_torque_on(ph, port, (6,))
        moving = []
        for _ in range(100):  # the goal is taken at the next 10 Hz latch of the simulated AX-12
            moving.append(answered(ph, lambda: ph.read1ByteTxRx(port, 6, 46))[0])
            if moving[-1]:
                break
            time.sleep(0.02)
        now = settle(lambda: read_positions(ph, port, (6,)), [624], 12)
        assert now == [pytest.approx(624, abs=12)], now
        assert 1 in moving, moving  # Moving (46): 1 on the way (pypot's is_moving)
        assert answered(ph, lambda: ph.read1ByteTxRx(port, 6, 46))[0] == 0  # and 0 there


def sdk_push_against_the_stop_overloads(path: str) -> None:
    """dynamixel-sdk: joint 8 (stops at +-60 deg, 512 +- 204) told to go to 900 (+113 deg)
    halts at its stop pushing at its Torque Limit: Present Load reads the limit (1023, CCW), then
    the overload error (bit 5, 0x20) and torque off (Shutdown 36 has the overload bit; e-manual,
    spec snake.md §8.2); torque on again clears the error."""
    with sdk_at_rest(path, 8) as (sdk, ph, port):
        write_torque_on(ph, port, (8,))
        assert answered(ph, lambda: ph.write2ByteTxRx(port, 8, 30, 900)) == (sdk.COMM_SUCCESS, 0)
        loads, error = [], 0
        deadline = time.monotonic() + SETTLE_S
        while not error & 0x20 and time.monotonic() < deadline:
            load, _result, error = answered(ph, lambda: ph.read2ByteTxRx(port, 8, 40))
            loads.append(load)
            time.sleep(0.05)
        assert 1023 in loads and error & 0x20, (loads, error)
        at = read_positions(ph, port, (8,))
        assert at == [pytest.approx(716, abs=6)], at
        assert answered(ph, lambda: ph.read1ByteTxRx(port, 8, 24))[0] == 0
        write_torque_on(ph, port, (8,))  # the push starts again: torque on, no error



def sdk_xm430_push_against_the_stop_overloads(path: str) -> None:
    """dynamixel-sdk, Protocol 2.0 XM430-W350s on the simulated snake: joint 8 (stops at +-60 deg,
    2048 +- 683) told to go to 3000 (+84 deg) halts at its stop with Present Current (126) at the
    Current Limit (1193, 2.69 mA per unit: 3.2 A), then Hardware Error Status (70) has the
    overload bit (0x20; Shutdown 63 default 52 has it), every status its alert bit (0x80), torque is
    off, and the error latches until a REBOOT (X-series e-manual; spec snake.md §8.3)."""
    import dynamixel_sdk as sdk
    port = sdk.PortHandler(path)
    ph = sdk.PacketHandler(2.0)
    try:
        assert port.openPort()
        deadline = time.monotonic() + 30
        while answered(ph, lambda: ph.read4ByteTxRx(port, 8, 132))[0] != 2048:
            assert time.monotonic() < deadline, 'joint 8 never read 2048'
            time.sleep(0.1)
        assert answered(ph, lambda: ph.write1ByteTxRx(port, 8, 64, 1))[-2:] == (sdk.COMM_SUCCESS, 0)
        assert answered(ph, lambda: ph.write4ByteTxRx(port, 8, 116, 3000))[-2] == sdk.COMM_SUCCESS
        currents, error = [], 0
        deadline = time.monotonic() + SETTLE_S
        while not error & 0x80 and time.monotonic() < deadline:
            current, _result, error = answered(ph, lambda: ph.read2ByteTxRx(port, 8, 126))
            currents.append(current)
            time.sleep(0.05)
        assert 1193 in currents and error & 0x80, (currents, error)
        assert answered(ph, lambda: ph.read1ByteTxRx(port, 8, 70))[0] == 0x20
        assert answered(ph, lambda: ph.read1ByteTxRx(port, 8, 64))[0] == 0
        position = answered(ph, lambda: ph.read4ByteTxRx(port, 8, 132))[0]
        assert position == pytest.approx(2048 + 683, abs=12), position
        assert answered(ph, lambda: ph.reboot(port, 8))[-2] == sdk.COMM_SUCCESS
        time.sleep(0.1)
        assert answered(ph, lambda: ph.read1ByteTxRx(port, 8, 70))[0] == 0
    finally:
        port.closePort()

def pypot_torque_off_goal_waits(path: str) -> None:
    """pypot: `disable_torque` then `set_goal_position` (joint 10 to 30 deg) leaves the joint
    where it is (it moved 30.5 deg before issue 27)."""
    import pypot.dynamixel as pd
    with pd.DxlIO(path, baudrate=1_000_000, timeout=0.05) as io:
        start = io.get_present_position([10])[0]
        io.disable_torque([10])
        time.sleep(0.01)
        io.set_goal_position({10: 30.0})
        time.sleep(1.0)
        assert io.get_goal_position([10])[0] == pytest.approx(30.0, abs=0.3)  # it was taken
        assert io.get_present_position([10])[0] == pytest.approx(start, abs=1.0)


AX_SPEED_UNIT_RPM = 0.111  # Moving Speed / Present Speed unit (AX-12A e-manual; spec snake.md §8.2)


def _move_timed(read_pos_speed, goal: int, tol: int = 3) -> tuple[float, list[int]]:
    """Wall seconds until the position is within ``tol`` of ``goal`` (at most SETTLE_S) and the
    speeds read on the way (a slowed simulation only makes the move longer)."""
    t0 = time.monotonic()
    speeds = []
    while time.monotonic() - t0 < SETTLE_S:
        pos, speed = read_pos_speed()
        speeds.append(speed)
        if abs(pos - goal) <= tol:
            break
        time.sleep(0.02)
    return time.monotonic() - t0, speeds


def sdk_moving_speed_caps_the_move(path: str) -> None:
    """dynamixel-sdk: Moving Speed (32) = 50 on joint 12 (50 x 0.111 rpm = 0.581 rad/s), then a goal
    100 steps away (29.3 deg): Present Speed (38) reads at most about 50 on the way and the move takes
    about 0.88 s (it took 0.23 s at the no-load speed before issue 27)."""
    with sdk_at_rest(path, 12) as (sdk, ph, port):
        write_torque_on(ph, port, (12,))
        assert answered(ph, lambda: ph.write2ByteTxRx(port, 12, 32, 50))[-2:] == (sdk.COMM_SUCCESS, 0)
        assert answered(ph, lambda: ph.write2ByteTxRx(port, 12, 30, 612))[-2:] == (sdk.COMM_SUCCESS, 0)

        def read():
            pos = read_positions(ph, port, (12,))[0]
            return pos, answered(ph, lambda: ph.read2ByteTxRx(port, 12, 38))[0] & 0x3FF
        took, speeds = _move_timed(read, 612)
        expected = 100 * (300 / 1024) / (50 * AX_SPEED_UNIT_RPM * 6)  # deg / (deg/s) = 0.88 s
        assert took >= 0.8 * expected, (took, speeds)
        assert 0.7 * 50 <= max(speeds) <= 1.15 * 50, speeds


def sdk_torque_limit_zero_does_not_move(path: str) -> None:
    """dynamixel-sdk: Torque Limit (34) = 0 on joint 14 (no torque: AX-12A e-manual), then a goal
    100 steps away: the joint stays where it was (it moved 152 steps before issue 27)."""
    with sdk_at_rest(path, 14) as (sdk, ph, port):
        write_torque_on(ph, port, (14,))
        assert answered(ph, lambda: ph.write2ByteTxRx(port, 14, 34, 0))[-2:] == (sdk.COMM_SUCCESS, 0)
        assert answered(ph, lambda: ph.write2ByteTxRx(port, 14, 30, 612))[-2:] == (sdk.COMM_SUCCESS, 0)
        time.sleep(1.5)
        assert read_positions(ph, port, (14,)) == [pytest.approx(512, abs=3)]


def pypot_moving_speed_caps_the_move(path: str) -> None:
    """pypot: `set_moving_speed` 30 deg/s on joint 3, then `set_goal_position` 30 deg: the move takes
    about 1 s and `get_present_speed` reads at most about 30 deg/s on the way."""
    import pypot.dynamixel as pd
    from pypot.dynamixel.io.abstract_io import DxlTimeoutError
    with pd.DxlIO(path, baudrate=1_000_000, timeout=0.05) as io:
        def retried(call):  # a status lost on the half-duplex bus of a loaded machine: ask again
            for _ in range(4):
                try:
                    return call()
                except DxlTimeoutError:
                    time.sleep(0.01)
            return call()
        retried(lambda: io.enable_torque([3]))
        time.sleep(0.01)  # pypot's TCOFLUSH before the next packet: see pypot_goal_moves_the_snake
        retried(lambda: io.set_moving_speed({3: 30.0}))
        time.sleep(0.01)
        assert retried(lambda: io.get_moving_speed([3]))[0] == pytest.approx(30.0, abs=1.0)
        retried(lambda: io.set_goal_position({3: 30.0}))
        time.sleep(0.01)
        assert retried(lambda: io.get_goal_position([3]))[0] == pytest.approx(30.0, abs=0.3)

        def read():
            return (retried(lambda: io.get_present_position([3]))[0],
                    abs(retried(lambda: io.get_present_speed([3]))[0]))
        took, speeds = _move_timed(read, 30.0, tol=1.0)
        assert took >= 0.8 * 1.0, (took, speeds)
        assert 0.7 * 30 <= max(speeds) <= 1.15 * 30, speeds

def pypot_goal_moves_the_snake(path: str) -> None:
    """pypot: scan (ids 1, 2, 16 answer; 17 does not), torque on, joint 5 to 25 deg (pypot's
    SYNC_WRITE); it reads within 3 deg of it."""
    import pypot.dynamixel as pd
    with pd.DxlIO(path, baudrate=1_000_000, timeout=0.05) as io:
        assert io.scan([1, 2, 16, 17]) == [1, 2, 16]
        def command() -> None:
            io.enable_torque([5])
            time.sleep(0.01)  # pypot's TCOFLUSH before the next packet: see test_real_clients
            io.set_goal_position({5: 25.0})

        def read() -> list[float]:
            # pypot's controllers write goals in a loop; these writes get no status back, so one
            # lost on the half-duplex bus of a loaded machine is only made good by the next
            now = list(io.get_present_position([5]))
            if abs(now[0] - 25.0) > 3.0:
                command()
            return now
        command()
        now = settle(read, [25.0], 3.0)
        assert now[0] == pytest.approx(25.0, abs=3.0), now



# Control-table facts per protocol for the checks below (spec snake.md §8.2 AX-12A, §8.3 XM430):
# ID address, Present Position (address, size), model number.
_TABLE = {1: (3, 36, 2, 12), 2: (7, 132, 4, 1020)}


def answered(ph, call, tries: int = 5):
    """``call()`` (an SDK TxRx returning (..., result, error)) until it succeeds, at most
    ``tries`` times: a status later than the SDK's packet timeout on a loaded machine is asked
    again, as in read_positions. Returns the last result tuple."""
    import dynamixel_sdk as sdk
    for _ in range(tries):
        got = call()
        if got[-2] == sdk.COMM_SUCCESS:
            break
        time.sleep(0.01)
    return got


def sdk_id_write_readdresses_the_servo(path: str, protocol: int, old: int, new: int) -> None:
    """dynamixel-sdk writes the ID register of servo ``old`` (EEPROM; torque off, as at power-on):
    the write's status comes back from ``old`` (the SDK drops a status of another id; a status
    late on a loaded machine is checked by reading the servo at its new id instead), then the
    servo answers PING and READ at ``new`` and no longer at ``old``, and the bus keeps answering
    (READs again)."""
    import dynamixel_sdk as sdk
    id_addr, pos_addr, size, model = _TABLE[protocol]
    port = sdk.PortHandler(path)
    ph = sdk.PacketHandler(float(protocol))
    read = ph.read2ByteTxRx if size == 2 else ph.read4ByteTxRx
    ok = ph.getTxRxResult(sdk.COMM_SUCCESS)
    try:
        assert port.openPort()
        got = answered(ph, lambda: ph.ping(port, old))
        assert got[:2] == (model, sdk.COMM_SUCCESS), f'ping {old}: {ph.getTxRxResult(got[1])}'
        result, error = ph.write1ByteTxRx(port, old, id_addr, new)
        assert (ph.getTxRxResult(result), error) in ((ok, 0), (
            ph.getTxRxResult(sdk.COMM_RX_TIMEOUT), 0)), \
            f'ID write: {ph.getTxRxResult(result)}, error {error}'
        got = answered(ph, lambda: ph.read1ByteTxRx(port, new, id_addr))
        assert got[:2] == (new, sdk.COMM_SUCCESS), \
            f'ID of {new}: {got[0]}, {ph.getTxRxResult(got[1])}'
        got = answered(ph, lambda: ph.ping(port, new))
        assert got[:2] == (model, sdk.COMM_SUCCESS), f'ping {new}: {ph.getTxRxResult(got[1])}'
        got = ph.ping(port, old)
        assert got[1] == sdk.COMM_RX_TIMEOUT, f'ping {old}: {ph.getTxRxResult(got[1])}'
        for _ in range(3):
            _value, result, error = answered(ph, lambda: read(port, new, pos_addr))
            assert (result, error) == (sdk.COMM_SUCCESS, 0), \
                f'READ of {new}: {ph.getTxRxResult(result)}, error {error}'
    finally:
        port.closePort()


def sdk_broadcast_id_write_collides(path: str, protocol: int, ids: list[int], new: int) -> None:
    """dynamixel-sdk writes ID ``new`` to every servo at once (broadcast 0xFE, no status): all
    of them stay on the bus, all answer to ``new``, and their statuses collide on the half-duplex
    wire: PING and READ of ``new`` come back corrupt or not at all, never as one clean status;
    nobody answers at the old ids any more."""
    import dynamixel_sdk as sdk
    id_addr, pos_addr, size, _model = _TABLE[protocol]
    port = sdk.PortHandler(path)
    ph = sdk.PacketHandler(float(protocol))
    read = ph.read2ByteTxRx if size == 2 else ph.read4ByteTxRx
    garbled = (sdk.COMM_RX_CORRUPT, sdk.COMM_RX_TIMEOUT)
    try:
        assert port.openPort()
        assert ph.write1ByteTxRx(port, sdk.BROADCAST_ID, id_addr, new) == (sdk.COMM_SUCCESS, 0)
        time.sleep(0.01)
        for _ in range(3):
            result = ph.ping(port, new)[1]
            assert result in garbled, f'ping {new}: {ph.getTxRxResult(result)}'
            result = read(port, new, pos_addr)[1]
            assert result in garbled, f'READ of {new}: {ph.getTxRxResult(result)}'
        for i in ids:
            if i != new:
                result = ph.ping(port, i)[1]
                assert result == sdk.COMM_RX_TIMEOUT, f'ping {i}: {ph.getTxRxResult(result)}'
    finally:
        port.closePort()
