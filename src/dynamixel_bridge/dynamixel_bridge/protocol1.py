"""Dynamixel Protocol 1.0 framing (spec snake.md §8.1): ``FF FF ID LEN INSTR P1..PN CHK`` with
LEN = N + 2 and CHK = ~(ID + LEN + INSTR + sum(P)) & 0xFF; status packets carry the error byte in
the instruction's place. Facts from DynamixelSDK
python/src/dynamixel_sdk/protocol1_packet_handler.py.
No ROS imports: the emulator, the bridge's tests and the fuzz test use it directly."""
from __future__ import annotations

from .packets import Garbage, Packet, StreamDecoder

HEADER = b'\xff\xff'
MAX_PACKET = 250  # bytes, header to checksum (TXPACKET_MAX_LEN / RXPACKET_MAX_LEN)
STATUS_OVERHEAD = 6  # FF FF ID LEN ERR CHK


def checksum(body: bytes | bytearray) -> int:
    """``body`` = ID, LEN, INSTR/ERR and the parameters."""
    return ~sum(body) & 0xFF


def encode(dxl_id: int, code: int, params: bytes | bytearray = b'') -> bytes:
    """One packet; ``code`` is the instruction (or, for a status packet, the error byte)."""
    body = bytes([dxl_id & 0xFF, len(params) + 2, code & 0xFF]) + bytes(params)
    if len(body) + 3 > MAX_PACKET:
        raise ValueError(f'protocol 1.0 packet of {len(body) + 3} bytes exceeds {MAX_PACKET}')
    return HEADER + body + bytes([checksum(body)])


def status(dxl_id: int, error: int, params: bytes | bytearray = b'') -> bytes:
    return encode(dxl_id, error, params)


class Decoder(StreamDecoder):
    """Streaming decoder: ``feed(bytes)`` returns the packets (and dropped garbage) completed so
    far; a partial packet waits for more bytes (``pending``), ``flush()`` drops it. Each byte is
    examined a bounded number of times, so no input can make it loop."""

    def feed(self, data: bytes | bytearray) -> list[Packet | Garbage]:
        buf = self._buf
        buf += data
        out: list[Packet | Garbage] = []
        while buf:
            if not self._skip_to_header(HEADER, out):
                break
            if len(buf) < 4:
                break
            if buf[2] == 0xFF:  # FF FF FF: the first FF was noise or padding
                out.append(Garbage(bytes(buf[:1]), 'extra 0xFF before a header'))
                del buf[:1]
                continue
            length = buf[3]
            if length < 2 or length + 4 > MAX_PACKET:
                out.append(Garbage(bytes(buf[:2]), f'impossible length {length}', buf[2]))
                del buf[:2]
                continue
            total = length + 4
            if len(buf) < total:
                break
            raw = bytes(buf[:total])
            del buf[:total]
            if raw[-1] != checksum(raw[2:-1]):
                out.append(Garbage(raw, 'bad checksum', raw[2]))
                continue
            out.append(Packet(raw[2], raw[4], raw[5:-1], raw))
        return out
