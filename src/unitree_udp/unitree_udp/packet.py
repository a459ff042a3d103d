"""What every SDK packet shares: the 22-byte header, the CRC trailer, decode errors and the
fixed-point fields of the v3.8 "compressed" low-level packets."""
from __future__ import annotations

import dataclasses
import math
import struct

from . import crc
from .constants import HEAD, LOWLEVEL, SN_MODELS, SN_ROBOT_TYPES

HEADER = struct.Struct('<2sBB2I2IH')  # head, levelFlag, frameReserve, SN[2], version[2], bandWidth


class DecodeError(ValueError):
    """A datagram that is not a valid packet; ``kind``: 'length', 'head' or 'crc'."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


@dataclasses.dataclass
class Header:
    head: bytes = HEAD
    level_flag: int = LOWLEVEL
    frame_reserve: int = 0
    sn: tuple[int, int] = (0, 0)
    version: tuple[int, int] = (0, 0)
    band_width: int = 0

    def values(self) -> tuple:
        return (self.head, self.level_flag, self.frame_reserve, *self.sn, *self.version,
                self.band_width)

    @classmethod
    def from_values(cls, v: tuple) -> 'Header':
        return cls(v[0], v[1], v[2], (v[3], v[4]), (v[5], v[6]), v[7])

    # SN and version as free-dog-sdk reads their bytes (ucl/common.py decode_sn, decode_version)
    def robot(self) -> tuple[str, str]:
        b = struct.pack('<2I', *self.sn)
        kind = SN_ROBOT_TYPES.get(b[0], 'UNKNOWN')
        return f'{kind}_{SN_MODELS.get(b[1], "UNKNOWN")}', f'{b[2]}-{b[3]}-{b[4]}[{b[5]}]'

    def versions(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(hardware, software) version triples."""
        b = struct.pack('<2I', *self.version)
        return (b[0], b[1], b[2]), (b[3], b[4], b[5])


def make_sn(robot_type: int, model: int, ident: tuple[int, int, int, int] = (0, 0, 0, 0)
            ) -> tuple[int, int]:
    return struct.unpack('<2I', bytes([robot_type, model, *ident, 0, 0]))


def make_version(hardware: tuple[int, int, int], software: tuple[int, int, int]
                 ) -> tuple[int, int]:
    return struct.unpack('<2I', bytes([*hardware, *software, 0, 0]))


def check_datagram(data: bytes, length: int, name: str) -> str:
    """Length, head and CRC of a received datagram; returns 'plain' or 'encrypted' (the CRC)."""
    if len(data) != length:
        raise DecodeError('length', f'{name}: {len(data)} bytes, expected {length}')
    if data[:2] != HEAD:
        raise DecodeError('head', f'{name}: head {data[:2].hex()}, expected {HEAD.hex()}')
    kind = crc.check(data)
    if kind is None:
        raise DecodeError('crc', f'{name}: CRC mismatch')
    return kind


def fixed(value: float, scale: float, lo: int, hi: int, name: str) -> int:
    """A float as the SDK's fixed-point integer: truncated toward zero like its C cast, but
    saturated at the range (the SDK wraps: 200 N m of tau goes out as -56 N m)."""
    if not math.isfinite(value):
        raise ValueError(f'{name} = {value}: not finite')
    return max(lo, min(hi, int(value * scale)))


I16 = (-32768, 32767)
U16 = (0, 65535)
