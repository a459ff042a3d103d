"""Dynamixel Protocol 2.0 framing (spec snake.md §8.3): ``FF FF FD 00 ID LEN_L LEN_H INST
PARAMS.. CRC_L CRC_H``; LEN counts INST, the (stuffed) parameters and the CRC; CRC-16 with
polynomial 0x8005 (no reflection, initial value 0) over everything before it, as sent (after
stuffing); byte stuffing turns ``FF FF FD`` inside INST+PARAMS into ``FF FF FD FD``. Status
packets have INST 0x55 and the error byte first in the parameters. Facts from DynamixelSDK
python/src/dynamixel_sdk/protocol2_packet_handler.py (updateCRC, addStuffing, removeStuffing).
No ROS imports."""
from __future__ import annotations

from .instructions import STATUS
from .packets import Garbage, Packet, StreamDecoder

HEADER = b'\xff\xff\xfd'
MAX_PACKET = 1024  # bytes (TXPACKET_MAX_LEN / RXPACKET_MAX_LEN)
STATUS_OVERHEAD = 11  # header 4, ID, LEN 2, INST, ERR, CRC 2


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x8005) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_TABLE = _crc_table()


def crc16(data: bytes | bytearray) -> int:
    crc = 0
    for b in data:
        crc = ((crc << 8) ^ _TABLE[((crc >> 8) ^ b) & 0xFF]) & 0xFFFF
    return crc


def stuff(payload: bytes) -> bytes:
    return payload.replace(HEADER, HEADER + b'\xfd') if HEADER in payload else payload


def unstuff(payload: bytes) -> bytes:
    return payload.replace(HEADER + b'\xfd', HEADER)


def encode(dxl_id: int, instruction: int, params: bytes | bytearray = b'') -> bytes:
    body = stuff(bytes([instruction & 0xFF]) + bytes(params))
    length = len(body) + 2
    if length + 7 > MAX_PACKET:
        raise ValueError(f'protocol 2.0 packet of {length + 7} bytes exceeds {MAX_PACKET}')
    head = HEADER + bytes([0, dxl_id & 0xFF, length & 0xFF, length >> 8]) + body
    crc = crc16(head)
    return head + bytes([crc & 0xFF, crc >> 8])


def status(dxl_id: int, error: int, params: bytes | bytearray = b'') -> bytes:
    return encode(dxl_id, STATUS, bytes([error & 0xFF]) + bytes(params))


class Decoder(StreamDecoder):
    """Streaming decoder, as protocol1.Decoder: ``feed`` returns completed packets (unstuffed)
    and dropped garbage; every byte is examined a bounded number of times."""

    def feed(self, data: bytes | bytearray) -> list[Packet | Garbage]:
        buf = self._buf
        buf += data
        out: list[Packet | Garbage] = []
        while buf:
            if not self._skip_to_header(HEADER, out):
                break
            if len(buf) < 7:
                break
            if buf[3] != 0:  # reserved byte; FF FF FD FD is stuffed data, not a header
                out.append(Garbage(bytes(buf[:3]), f'reserved byte 0x{buf[3]:02X} after header'))
                del buf[:3]
                continue
            length = buf[5] | buf[6] << 8
            if length < 3 or length + 7 > MAX_PACKET:
                out.append(Garbage(bytes(buf[:3]), f'impossible length {length}', buf[4]))
                del buf[:3]
                continue
            total = length + 7
            if len(buf) < total:
                break
            raw = bytes(buf[:total])
            del buf[:total]
            if crc16(raw[:-2]) != raw[-2] | raw[-1] << 8:
                out.append(Garbage(raw, 'bad CRC', raw[4]))
                continue
            body = unstuff(raw[7:-2])
            out.append(Packet(raw[4], body[0], body[1:], raw))
        return out
