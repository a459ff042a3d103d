"""What both protocol decoders yield: a well-formed packet, or bytes that were not one."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Packet:
    """A decoded packet. ``code`` is the instruction of an instruction packet; for a status
    packet it is the error byte (Protocol 1.0) or STATUS 0x55 (Protocol 2.0, whose error byte
    is ``params[0]``). ``params`` is unstuffed."""
    id: int
    code: int
    params: bytes
    raw: bytes = b''


@dataclasses.dataclass(frozen=True)
class Garbage:
    """Bytes dropped while looking for packets, and why; ``id`` when a header was read (a bad
    checksum names the servo it was meant for)."""
    raw: bytes
    reason: str
    id: int | None = None

    def describe(self) -> str:
        who = f' for id {self.id}' if self.id is not None else ''
        head = self.raw[:16].hex(' ')
        more = ' ...' if len(self.raw) > 16 else ''
        return f'{self.reason}{who} ({len(self.raw)} bytes: {head}{more})'


class StreamDecoder:
    """The byte buffer of a streaming packet decoder (protocol1/protocol2.Decoder): bytes wait
    in it until a packet completes; ``flush()`` gives up on a partial one."""

    def __init__(self) -> None:
        self._buf = bytearray()

    @property
    def pending(self) -> int:
        return len(self._buf)

    def flush(self) -> list[Garbage]:
        out = [Garbage(bytes(self._buf), 'incomplete packet (no more bytes came)')] \
            if self._buf else []
        self._buf.clear()
        return out

    def _skip_to_header(self, header: bytes, out: list) -> bool:
        """Drop the bytes before the next ``header`` into ``out`` as garbage; False when no
        header starts in the buffer (a tail that may begin one, e.g. FF, is kept for later)."""
        buf = self._buf
        start = buf.find(header)
        if start < 0:
            keep = next((n for n in range(len(header) - 1, 0, -1)
                         if buf.endswith(header[:n])), 0)
            if len(buf) > keep:
                out.append(Garbage(bytes(buf[:len(buf) - keep]), 'bytes outside a packet'))
            del buf[:len(buf) - keep]
            return False
        if start:
            out.append(Garbage(bytes(buf[:start]), 'bytes outside a packet'))
            del buf[:start]
        return True
