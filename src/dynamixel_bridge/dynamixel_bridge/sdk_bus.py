"""The servos on one bus through dynamixel-sdk (spec snake.md §8.4), without ROS.

Reads: Protocol 1.0 has no SYNC_READ and the AX-12A no BULK_READ (MX-only), so one READ of the
state block (present position, speed, load: 6 bytes at 36) per servo; Protocol 2.0 one SYNC_READ
of 126..135 (current, velocity, position), sent with the SDK's ``syncReadTx`` and each status taken
with ``readRx`` so that each servo's error byte (the hardware alert) is kept, which GroupSyncRead
drops; if a status fails, the remaining servos are read one by one. Writes: SYNC_WRITE of the goal
positions (no status) on both protocols.
"""
from __future__ import annotations

import dataclasses

import dynamixel_sdk as sdk

from .control_table import Model

COMM_OK = sdk.COMM_SUCCESS


class BusError(RuntimeError):
    """The bus cannot be used (missing port, baud rate refused): one line."""


@dataclasses.dataclass
class Reading:
    comm: int  # dynamixel_sdk COMM_* result
    error: int = 0  # status error byte
    position: int = 0
    velocity: int = 0
    load: int = 0

    @property
    def ok(self) -> bool:
        return self.comm == COMM_OK


class SdkBus:
    def __init__(self, port: str, baud: int, model: Model, ids: list[int]) -> None:
        self.port_name = port
        self.baud = baud
        self.model = model
        self.ids = list(ids)
        self.port = sdk.PortHandler(port)
        self.ph = sdk.PacketHandler(float(model.protocol))
        m = model
        self._goal = m.item('goal_position')
        self._writer = sdk.GroupSyncWrite(self.port, self.ph, self._goal.address, self._goal.size)
        self._block = m.state_block
        self.transactions = 0

    def open(self) -> None:
        try:
            self.port.openPort()
        except Exception as exc:  # serial.SerialException or OSError: name the port
            reason = str(exc).split(': ', 1)[-1] if str(exc) else type(exc).__name__
            raise BusError(f'port {self.port_name}: cannot open it ({reason}); is the adapter '
                           'plugged in, and is the port name right?') from None
        if not self.port.setBaudRate(self.baud):
            self.port.closePort()
            raise BusError(f'port {self.port_name}: baud rate {self.baud} is not one the SDK '
                           'can set')

    def close(self) -> None:
        if self.port.is_open:
            self.port.closePort()

    def describe(self, comm: int, error: int = 0) -> str:
        from .instructions import describe_error
        if comm != COMM_OK:
            return {sdk.COMM_RX_TIMEOUT: 'no status packet (timeout)',
                    sdk.COMM_RX_CORRUPT: 'corrupt status packet (checksum/CRC or length)',
                    }.get(comm, self.ph.getTxRxResult(comm).replace('[TxRxResult] ', ''))
        return describe_error(self.model.protocol, error)

    # --- single transactions
    def ping(self, servo_id: int) -> tuple[int, int, int]:
        self.transactions += 1
        return self.ph.ping(self.port, servo_id)

    def read(self, servo_id: int, name: str) -> tuple[int, int, int]:
        it = self.model.item(name)
        self.transactions += 1
        data, comm, err = self.ph.readTxRx(self.port, servo_id, it.address, it.size)
        value = int.from_bytes(bytes(data), 'little') if comm == COMM_OK else 0
        return value, comm, err

    def write(self, servo_id: int, name: str, value: int) -> tuple[int, int]:
        it = self.model.item(name)
        self.transactions += 1
        data = list((value & ((1 << 8 * it.size) - 1)).to_bytes(it.size, 'little'))
        return self.ph.writeTxRx(self.port, servo_id, it.address, it.size, data)

    def reboot(self, servo_id: int) -> tuple[int, int]:
        self.transactions += 1
        return self.ph.reboot(self.port, servo_id)

    # --- the cycle
    def read_states(self, ids: list[int] | None = None) -> dict[int, Reading]:
        ids = self.ids if ids is None else ids
        if self.model.protocol == 2 and len(ids) > 1:
            return self._sync_read(ids)
        return {i: self._read_one(i) for i in ids}

    def _read_one(self, servo_id: int) -> Reading:
        addr, length = self._block
        self.transactions += 1
        data, comm, err = self.ph.readTxRx(self.port, servo_id, addr, length)
        return self._reading(bytes(data), comm, err)

    def _sync_read(self, ids: list[int]) -> dict[int, Reading]:
        addr, length = self._block
        self.transactions += 1
        comm = self.ph.syncReadTx(self.port, addr, length, list(ids), len(ids), False)
        out: dict[int, Reading] = {}
        if comm != COMM_OK:
            return {i: Reading(comm) for i in ids}
        for k, sid in enumerate(ids):
            data, comm, err = self.ph.readRx(self.port, sid, length)
            if comm != COMM_OK:  # the statuses after a lost one are lost too: one by one
                out[sid] = Reading(comm)
                out.update({i: self._read_one(i) for i in ids[k + 1:]})
                break
            out[sid] = self._reading(bytes(data), comm, err)
        return out

    def _reading(self, data: bytes, comm: int, err: int) -> Reading:
        if comm != COMM_OK or len(data) < self._block[1]:
            return Reading(comm if comm != COMM_OK else sdk.COMM_RX_CORRUPT, err)
        m, base = self.model, self._block[0]

        def field(role: str) -> int:
            it = m.item(role)
            return int.from_bytes(data[it.address - base:it.address - base + it.size], 'little')
        return Reading(comm, err, field('present_position'), field('present_velocity'),
                       field('present_load'))

    def write_goals(self, goals: dict[int, int]) -> int:
        w, size = self._writer, self._goal.size
        w.clearParam()
        for sid, value in goals.items():
            w.addParam(sid, list(int(value).to_bytes(size, 'little')))
        if not goals:
            return COMM_OK
        self.transactions += 1
        return w.txPacket()
