"""The unitree_legged_sdk CRC-32 and its "encryption" (spec go1.md §9.2; free-dog-sdk
``ucl/common.py`` genCrc/encryptCrc).

The SDK feeds the packet as little-endian 32-bit words, MSB first, through CRC-32 with polynomial
0x04C11DB7, init 0xFFFFFFFF, no reflection and no final XOR (CRC-32/MPEG-2 over each word's bytes
in big-endian order), over the first ``len // 4 - 1`` words; the CRC fills the last 4 bytes.
That bitwise loop costs ~2 ms per LowCmd in Python, too slow for 500 Hz both ways, so
:func:`crc32_core` runs it through zlib: bit-reversing every byte turns the unreflected CRC into
the reflected one zlib computes, and the result is bit-reversed back.
"""
from __future__ import annotations

import struct
import zlib

POLY = 0x04C11DB7
ENCRYPT_XOR = 0xEDCAB9DE  # the SDK's "encrypted" CRC: XOR, then the bytes rotated by one
_REV8 = bytes(int(f'{b:08b}'[::-1], 2) for b in range(256))


def _rev32(x: int) -> int:
    return int.from_bytes(x.to_bytes(4, 'little').translate(_REV8), 'big')


def crc32_core(data: bytes) -> int:
    """The SDK's CRC of ``data`` (whole 32-bit little-endian words)."""
    if len(data) % 4:
        raise ValueError(f'crc32_core: {len(data)} bytes is not a whole number of words')
    words = bytearray(data)
    words[0::4], words[1::4], words[2::4], words[3::4] = (data[3::4], data[2::4], data[1::4],
                                                          data[0::4])
    return _rev32(zlib.crc32(bytes(words).translate(_REV8)) ^ 0xFFFFFFFF)


def crc32_core_reference(data: bytes) -> int:
    """The bitwise loop as the SDK describes it (slow; for tests)."""
    crc = 0xFFFFFFFF
    for (word,) in struct.iter_unpack('<I', data):
        for bit in range(32):
            top = (crc >> 31) & 1
            crc = (crc << 1) & 0xFFFFFFFF
            if top ^ ((word >> (31 - bit)) & 1):
                crc ^= POLY
    return crc


def encrypt(crc: int) -> bytes:
    """The 4 stored bytes of an "encrypted" CRC (free-dog-sdk encryptCrc)."""
    b = struct.pack('<I', crc ^ ENCRYPT_XOR)
    return b[1:] + b[:1]


def plain(crc: int) -> bytes:
    return struct.pack('<I', crc)


def packet_crc(packet: bytes | bytearray) -> int:
    """CRC over the first ``len // 4 - 1`` words of a whole packet (its last 4 bytes: the CRC)."""
    n = (len(packet) // 4 - 1) * 4
    return crc32_core(bytes(packet[:n]))


def seal(packet: bytearray, encrypted: bool = False) -> bytearray:
    """Write the packet's CRC into its last 4 bytes (in place) and return it."""
    c = packet_crc(packet)
    packet[-4:] = encrypt(c) if encrypted else plain(c)
    return packet


def check(packet: bytes) -> str | None:
    """'plain' or 'encrypted' when the stored CRC matches, else None."""
    c = packet_crc(packet)
    tail = bytes(packet[-4:])
    if tail == plain(c):
        return 'plain'
    if tail == encrypt(c):
        return 'encrypted'
    return None
