"""dynamixel-sdk and pypot (PyPI, unmodified) on an emulated Dynamixel bus whose AX-12s are the
simulated snake's joints (Protocol 1.0, ids 1-16, 1 Mbps), written once: tests/
test_dynamixel_emulator_cli.py runs them against ``robozoo dxl-emulator --scenario snake_stand``
(embedded runtime, one process), tests/ros/test_real_clients_under_ros.py against the
``snake_dxl_emulator`` scenario started by the real ``ros2 launch`` (simulator and emulator node as
rclpy processes). Each check takes only the pty's path. The simulation is paced at real time at
best; on a loaded machine (a dozen processes under ROS on 2 cores) it runs slower, so a joint is
given up to SETTLE_S of wall time to reach its goal (at real time it takes 0.1-0.2 s)."""
from __future__ import annotations

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
