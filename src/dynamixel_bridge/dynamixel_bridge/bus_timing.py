"""Bus time of one bridge cycle (read every servo's state, write every goal), from packet sizes,
the return delay and the baud rate: the limit the bridge's cycle rate is measured against.

8N1 framing: 10 bit times per byte (spec snake.md §3.2). The servo answers after its Return Delay
Time (2 us per register unit, AX-12A address 5, X-series address 9); a SYNC_WRITE has no status.
Protocol 1.0 (AX-12: no SYNC_READ, BULK_READ is MX-only): one READ per servo, 8 bytes out and
6 + L back. Protocol 2.0: one SYNC_READ (14 + n bytes) and n status packets of 11 + L bytes, each
after its return delay (the servos answer in turn). USB latency is not bus time: see README.
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
