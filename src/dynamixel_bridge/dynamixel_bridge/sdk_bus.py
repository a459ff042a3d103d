"""The servos on one bus through dynamixel-sdk (spec snake.md §8.4), without ROS.

Reads: Protocol 1.0 has no SYNC_READ and the AX-12A no BULK_READ (MX-only), so one READ of the
state block (present position, speed, load: 6 bytes at 36) per servo; Protocol 2.0 one SYNC_READ
of 126..135 (current, velocity, position), sent with the SDK's ``syncReadTx`` and each status taken
with ``readRx`` so that each servo's error byte (the hardware alert) is kept, which GroupSyncRead
drops; if a status fails, the remaining servos are read one by one. Writes: SYNC_WRITE of the goal
positions (no status) on both protocols.

Waiting for a status: the SDK's ``rxPacket`` busy-polls the port until the packet is complete.
On 2 cores that spin holds one core while the kernel worker that moves received bytes into the
tty (the same ``flush_to_ldisc`` path for an FTDI adapter as for a pty) waits for the other: a
status then reaches the host milliseconds late under load. The bridge does not spin: Protocol
2.0 sleeps in ``select`` on the port until a status's bytes are all there (or the SDK's packet
timeout), then the SDK's ``readRx`` parses it (CRC, id, error byte) at once. Protocol 1.0 state
reads, 16 round trips in a row, skip the SDK's per-packet Python (``_p1_transaction``): the READ
is built once (``protocol1.encode``, byte-identical to the SDK's, golden-tested) and written on
the SDK's port; the bridge sleeps until just before the status's wire time (it cannot be
complete earlier), polls for WAKE_SPIN_S (a waking thread costs tens of us on a VM), then sleeps
in ``select``; the status is checked here (header, id, length, checksum). Pings, writes,
SYNC_WRITE and reboot stay the SDK's.
"""
from __future__ import annotations

import dataclasses
import os
import select
import termios
import time

import dynamixel_sdk as sdk

from . import instructions as ins
from . import protocol1
from .bus_timing import tx_seconds
from .control_table import Model

COMM_OK = sdk.COMM_SUCCESS
WAKE_SPIN_S = 200e-6  # poll this long around a status's expected arrival before sleeping


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
        addr, length = self._block
        self._status_len = (protocol1.STATUS_OVERHEAD if m.protocol == 1 else 11) + length
        self._read_request = {i: protocol1.encode(i, ins.READ, bytes([addr, length]))
                              for i in self.ids} if m.protocol == 1 else {}
        self.transactions = 0
        self.return_delay_s = 0.0  # the servos' Return Delay Time, once BridgeCore.start has read it
        self._fd = -1
        # the SDK's own status timeout: tx time of the status + 2 latency timers + 2 ms
        self._p1_timeout_s = (10_000.0 / baud * self._status_len + 2 * sdk.LATENCY_TIMER
                              + 2.0) / 1000.0
        self._p1_wire_s = tx_seconds(8 + self._status_len, baud)  # + return_delay_s, below

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
        self._fd = self.port.ser.fileno()

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
        req = self._read_request.get(servo_id)
        if req is None:  # Protocol 2.0 (a fallback after a lost status), or an id added later
            data, comm, err = self.ph.readTxRx(self.port, servo_id, addr, length)
            return self._reading(bytes(data), comm, err)
        return self._p1_transaction(servo_id, req)

    def _p1_transaction(self, servo_id: int, req: bytes) -> Reading:
        """One Protocol 1.0 READ of the state block on the SDK's open port, in as few Python
        steps as possible: every microsecond here adds to each of the 16 round trips of a cycle
        (the SDK's readTxRx costs ~50-90 us more per transaction on this 2-core VM). Same
        semantics as the SDK: input flushed first, its packet timeout, stale bytes before the
        header skipped, COMM_RX_TIMEOUT with no byte, COMM_RX_CORRUPT with a bad checksum,
        length or a partial packet."""
        fd, length, want = self._fd, self._block[1], self._status_len
        termios.tcflush(fd, termios.TCIFLUSH)  # the SDK's clearPort
        try:
            os.write(fd, req)
        except OSError:
            return Reading(sdk.COMM_TX_FAIL)
        t0 = time.perf_counter()
        deadline = t0 + self._p1_timeout_s
        # No status can be complete before its wire time: sleep until just before it, then
        # poll for up to WAKE_SPIN_S (a sleeping thread's wake-up costs tens of us on a VM),
        # then sleep in select (a longer spin would starve the kernel worker that delivers it).
        spin_from = t0 + self._p1_wire_s + self.return_delay_s - WAKE_SPIN_S / 2
        if spin_from > t0:
            time.sleep(spin_from - t0)
        spin_until = time.perf_counter() + WAKE_SPIN_S
        head = bytes((0xFF, 0xFF, servo_id))
        buf = b''
        while True:
            at = buf.find(head)
            if at >= 0 and len(buf) - at >= 4 and len(buf) - at >= buf[at + 3] + 4:
                pkt = buf[at:at + buf[at + 3] + 4]  # as long as its LEN byte says
                if protocol1.checksum(pkt[2:-1]) != pkt[-1]:
                    return Reading(sdk.COMM_RX_CORRUPT)
                if len(pkt) != want:  # an error status without the data (as the SDK reports)
                    return Reading(sdk.COMM_RX_CORRUPT, pkt[4])
                return self._reading(pkt[5:5 + length], COMM_OK, pkt[4])
            now = time.perf_counter()
            if now >= deadline:
                return Reading(sdk.COMM_RX_CORRUPT if buf else sdk.COMM_RX_TIMEOUT)
            if now >= spin_until and not select.select([fd], [], [], deadline - now)[0]:
                continue
            try:
                buf += os.read(fd, 256)  # the SDK's port is non-blocking
            except BlockingIOError:
                pass
            except OSError:
                return Reading(sdk.COMM_RX_FAIL)

    def _wait_for(self, n_bytes: int) -> None:
        """Sleep until ``n_bytes`` are readable or the SDK's packet timeout has passed (the
        SDK's ``readRx`` then parses, or reports the timeout / corrupt packet)."""
        port, ser = self.port, self.port.ser
        fd = ser.fileno()
        while (have := ser.in_waiting) < n_bytes:
            left_s = (port.packet_timeout - port.getTimeSinceStart()) / 1000.0
            if left_s <= 0:
                return
            if have:  # part of it: select would return at once; sleep the rest's wire time
                time.sleep(min(left_s, max(tx_seconds(n_bytes - have, self.baud), 50e-6)))
            elif not select.select([fd], [], [], left_s)[0]:
                return

    def _sync_read(self, ids: list[int]) -> dict[int, Reading]:
        addr, length = self._block
        self.transactions += 1
        comm = self.ph.syncReadTx(self.port, addr, length, list(ids), len(ids), False)
        out: dict[int, Reading] = {}
        if comm != COMM_OK:
            return {i: Reading(comm) for i in ids}
        for k, sid in enumerate(ids):
            self._wait_for(self._status_len)
            data, comm, err = self.ph.readRx(self.port, sid, length)
            if comm != COMM_OK:  # the statuses after a lost one are lost too: one by one,
                out[sid] = Reading(comm)  # once the later servos' statuses are off the wire
                rest = len(ids) - k - 1
                time.sleep(rest * (tx_seconds(self._status_len, self.baud) + self.return_delay_s))
                self.port.clearPort()
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
