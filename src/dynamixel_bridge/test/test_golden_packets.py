"""R12's golden packets, byte-exact (spec snake.md §12.2 R12, §8.1, §8.3): requests and the
emulator's answers, through the bus (no pty) and once through the pty with its timing."""
import os
import select
import time

from dynamixel_bridge import instructions as ins
from dynamixel_bridge import protocol1, protocol2
from dynamixel_bridge.emulator.bus import build_bus

H = bytes.fromhex


def exchange(bus, request: bytes) -> bytes:
    dec = bus.decoder()
    return b''.join(r.data for item in dec.feed(request) for r in bus.handle(item))


def test_r12_protocol1_golden_packets():
    bus = build_bus(1, list(range(1, 17)))
    # ping id 1 -> status, no error
    assert protocol1.encode(1, ins.PING) == H('ffff010201fb')
    assert exchange(bus, H('ffff010201fb')) == H('ffff010200fc')
    # write goal 512 to id 3 (address 30, 2 bytes little-endian)
    assert protocol1.encode(3, ins.WRITE, bytes([30, 0x00, 0x02])) == H('ffff0305031e0002d4')
    assert exchange(bus, H('ffff0305031e0002d4')) == H('ffff030200fa')
    assert bus.servos[3].get('Goal Position') == 512
    # read present position of id 1 (address 36, 2 bytes): 512 at power-on
    assert exchange(bus, H('ffff0104022402d2')) == H('ffff0104000002f8')
    # bad checksum: not executed, a status with the checksum error bit (0x10)
    assert exchange(bus, H('ffff0305031e0001d4')) == H('ffff030210ea')
    assert bus.servos[3].get('Goal Position') == 512
    # broadcast 254: executed, no status reply
    assert exchange(bus, protocol1.encode(0xFE, ins.WRITE, bytes([25, 1]))) == b''
    assert all(s.get('LED') == 1 for s in bus.servos.values())
    # an id nobody has: silence
    assert exchange(bus, protocol1.encode(40, ins.PING)) == b''


def test_protocol1_sync_write_and_missing_instructions():
    bus = build_bus(1, [1, 2])
    sync = protocol1.encode(0xFE, ins.SYNC_WRITE, bytes([30, 2, 1, 0x10, 0x01, 2, 0x20, 0x02]))
    assert exchange(bus, sync) == b''
    assert [bus.servos[i].get('Goal Position') for i in (1, 2)] == [0x110, 0x220]
    # AX-12A: no SYNC_READ, no BULK_READ (broadcast: silence); REBOOT is an instruction error
    assert exchange(bus, protocol1.encode(0xFE, ins.SYNC_READ, bytes([36, 2, 1, 2]))) == b''
    assert exchange(bus, protocol1.encode(0xFE, ins.BULK_READ, bytes([0, 2, 1, 36]))) == b''
    assert exchange(bus, protocol1.encode(1, ins.REBOOT)) == protocol1.status(1, 0x40)


def test_protocol2_golden_packets():
    # e-manual examples: ping id 1, and an XL430's status (model 1060 = 0x0406, firmware 0x26)
    assert protocol2.encode(1, ins.PING) == H('fffffd0001030001194e')
    assert protocol2.status(1, 0, H('060426')) == H('fffffd000107005500060426655d')
    bus = build_bus(2, [1, 2])
    assert exchange(bus, H('fffffd0001030001194e')) == protocol2.status(1, 0, H('fc032d'))
    # write goal 2048 to id 2 (address 116, 4 bytes), read it back from present position
    write = protocol2.encode(2, ins.WRITE, H('7400') + (2048).to_bytes(4, 'little'))
    assert exchange(bus, write) == protocol2.status(2, 0)
    read = protocol2.encode(2, ins.READ, H('8400') + H('0400'))
    assert exchange(bus, read) == protocol2.status(2, 0, (2048).to_bytes(4, 'little'))
    # bad CRC -> CRC error (3); sync read: one status per id, in order
    bad = bytearray(read)
    bad[-1] ^= 1
    assert exchange(bus, bytes(bad)) == protocol2.status(2, ins.P2_CRC)
    sync = protocol2.encode(0xFE, ins.SYNC_READ, H('8400') + H('0400') + bytes([1, 2]))
    assert exchange(bus, sync) == (protocol2.status(1, 0, (2048).to_bytes(4, 'little')) +
                                   protocol2.status(2, 0, (2048).to_bytes(4, 'little')))


def test_protocol2_byte_stuffing_round_trip():
    params = H('fffffd') + H('00ff')
    pkt = protocol2.encode(7, ins.WRITE, params)
    assert H('fffffdfd') in pkt[7:]  # stuffed in the payload
    assert int.from_bytes(pkt[5:7], 'little') == len(pkt) - 7
    (got,) = protocol2.Decoder().feed(pkt)
    assert (got.id, got.code, got.params) == (7, ins.WRITE, params)


def test_pty_answer_never_comes_before_the_wire_time(p1):
    """Honest timing: whatever the pty's compensation, a status never reaches the client before
    its last byte would be off a 1 Mbps wire (load can only make it later)."""
    bus, pty = p1
    fd = os.open(pty.path, os.O_RDWR | os.O_NOCTTY)
    wire = (8 + 8) * 10 / 1e6 + 500e-6  # 16 bytes at 1 Mbps + the 500 us return delay
    try:
        req = protocol1.encode(1, ins.READ, bytes([36, 2]))
        for _ in range(20):
            t0 = time.perf_counter()
            os.write(fd, req)
            got = b''
            while len(got) < 8 and select.select([fd], [], [], 1.0)[0]:
                got += os.read(fd, 64)
            dt = time.perf_counter() - t0
            assert got == protocol1.status(1, 0, (512).to_bytes(2, 'little'))
            assert dt >= wire, f'status after {dt * 1e6:.1f} us, the wire needs {wire * 1e6:.0f}'
    finally:
        os.close(fd)


def test_pipelined_requests_collide_as_on_a_half_duplex_bus(p1):
    """An AX-12 bus has no arbitration: a READ sent while servo 1 answers garbles both; the
    emulator drops it and says so (no fake speed from pipelining)."""
    bus, pty = p1
    fd = os.open(pty.path, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, protocol1.encode(1, ins.READ, bytes([36, 2])) +
                 protocol1.encode(2, ins.READ, bytes([36, 2])))
        got = b''
        while select.select([fd], [], [], 0.1)[0]:
            got += os.read(fd, 64)
    finally:
        os.close(fd)
    assert got == protocol1.status(1, 0, (512).to_bytes(2, 'little'))  # id 2 never answers
    assert pty.collisions == 1
    assert any('id 2: READ sent while a status packet was on the wire' in line
               for line in pty.lines)
