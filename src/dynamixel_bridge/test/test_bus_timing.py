"""The bus limit the bridge is measured against (bus_timing.cycle_budget): its byte counts are
those of the packets the bridge really sends and gets, counted from the codec, and the rate
follows 10 bits per byte (8N1) plus one return delay per status packet."""
import pytest

from dynamixel_bridge import instructions as ins
from dynamixel_bridge import protocol1, protocol2
from dynamixel_bridge.bus_timing import cycle_budget
from dynamixel_bridge.control_table import DEFAULT_MODEL

IDS = list(range(1, 17))


def packets(protocol: int) -> tuple[int, int]:
    """(bytes out, bytes in) of one bridge cycle: read every state block, SYNC_WRITE the goals."""
    m = DEFAULT_MODEL[protocol]
    addr, length = m.state_block
    goal = m.item('goal_position')
    body = b''.join(bytes([i]) + (512).to_bytes(goal.size, 'little') for i in IDS)
    if protocol == 1:  # one READ per servo (no SYNC_READ / BULK_READ on the AX-12A)
        out = sum(len(protocol1.encode(i, ins.READ, bytes([addr, length]))) for i in IDS)
        back = sum(len(protocol1.status(i, 0, bytes(length))) for i in IDS)
        out += len(protocol1.encode(ins.BROADCAST_ID, ins.SYNC_WRITE,
                                    bytes([goal.address, goal.size]) + body))
    else:
        le = lambda v: v.to_bytes(2, 'little')  # noqa: E731
        out = len(protocol2.encode(ins.BROADCAST_ID, ins.SYNC_READ,
                                   le(addr) + le(length) + bytes(IDS)))
        back = sum(len(protocol2.status(i, 0, bytes(length))) for i in IDS)
        out += len(protocol2.encode(ins.BROADCAST_ID, ins.SYNC_WRITE,
                                    le(goal.address) + le(goal.size) + body))
    return out, back


@pytest.mark.parametrize('protocol, limit_hz', [(1, 85.03), (2, 79.37)])
def test_cycle_budget_counts_the_real_packets(protocol, limit_hz):
    m = DEFAULT_MODEL[protocol]
    b = cycle_budget(protocol, 16, m.state_block[1], m.item('goal_position').size, 250,
                     1_000_000)
    assert (b.bytes_out, b.bytes_in) == packets(protocol)
    wire = (b.bytes_out + b.bytes_in) * 10 / 1e6  # 8N1: start + 8 data + stop bits
    assert b.cycle_s == pytest.approx(wire + 16 * 500e-6)  # 16 status packets, 500 us each
    assert b.rate_hz == pytest.approx(limit_hz, abs=0.01)
