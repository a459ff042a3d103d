"""Bus time of one bridge cycle (read every servo's state, write every goal), from packet sizes,
the return delay and the baud rate: the limit the bridge's cycle rate is measured against.

    cycle = (bytes out + bytes in) x 10 / baud + (status packets) x return delay

8N1 framing: 10 bit times per byte (start, 8 data, stop; spec snake.md §3.2). A servo starts its
status packet one Return Delay Time after the end of the instruction (2 us per register unit,
AX-12A address 5, X-series address 9; factory 250 = 500 us); a SYNC_WRITE has no status.
Protocol 1.0 (AX-12: no SYNC_READ, BULK_READ is MX-only, and a half-duplex bus takes no pipelined
requests): per servo a READ of 8 bytes and a status of 6 + L, then one SYNC_WRITE of 8 + n (1 + G)
bytes. Protocol 2.0: one SYNC_READ (14 + n bytes), n statuses of 11 + L bytes (each servo answers
after the previous status plus its return delay), one SYNC_WRITE of 14 + n (1 + G). L: the state
block read (6 bytes at 36 on the AX-12A, 10 at 126 on the XM430), G: the goal (2 or 4 bytes).
16 AX-12As at 1 Mbps: 376 bytes = 3.76 ms + 16 x 500 us = 11.76 ms, 85.0 Hz (test_bus_timing.py
counts the codec's real packets). Not bus time, so not in the limit: the host's turnaround
between a status and the next request, and the USB adapter's latency (the FTDI latency timer
holds received bytes up to 16 ms by default: README).
"""
from __future__ import annotations

import dataclasses

BITS_PER_BYTE = 10
RETURN_DELAY_UNIT_S = 2e-6


@dataclasses.dataclass(frozen=True)
class CycleBudget:
    bytes_out: int
    bytes_in: int
    transactions: int  # status packets waited for
    return_delay_s: float
    baud: int

    @property
    def wire_s(self) -> float:
        return (self.bytes_out + self.bytes_in) * BITS_PER_BYTE / self.baud

    @property
    def cycle_s(self) -> float:
        return self.wire_s + self.transactions * self.return_delay_s

    @property
    def rate_hz(self) -> float:
        return 1.0 / self.cycle_s


def tx_seconds(n_bytes: int, baud: int) -> float:
    return n_bytes * BITS_PER_BYTE / baud


def cycle_budget(protocol: int, n_servos: int, state_len: int, goal_len: int,
                 return_delay_units: int, baud: int) -> CycleBudget:
    delay = return_delay_units * RETURN_DELAY_UNIT_S
    if protocol == 1:
        out = n_servos * 8 + (8 + n_servos * (1 + goal_len))
        back = n_servos * (6 + state_len)
    else:
        out = (14 + n_servos) + (14 + n_servos * (1 + goal_len))
        back = n_servos * (11 + state_len)
    return CycleBudget(out, back, n_servos, delay, baud)
