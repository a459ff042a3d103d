"""The emulated bus: instruction packets in, status packets out (both protocols).

Which servo answers, and what (spec snake.md §8.1-§8.3; DynamixelSDK protocol handlers): a packet
for an id nobody has, a broadcast (except Protocol 2.0 PING and the sync/bulk reads) and anything
unparseable get no answer; a bad checksum/CRC for a known id gets a status with the checksum (P1
bit 4) or CRC (P2 error 3) error. Status Return Level 0 answers PING only, 1 PING and READ.
Protocol 1.0 on the AX-12A: SYNC_WRITE yes; SYNC_READ and BULK_READ are not AX instructions (the
servo stays silent, as broadcasts); REBOOT is an instruction error. Protocol 2.0: SYNC_READ,
SYNC_WRITE, BULK_READ, BULK_WRITE, REBOOT; the FAST_ variants are not emulated (silent).
"""
from __future__ import annotations

import dataclasses

from .. import instructions as ins
from .. import protocol1, protocol2
from ..packets import Garbage, Packet
from .faults import Faults
from .servo import Servo


@dataclasses.dataclass
class Reply:
    """A status packet and the servo's return delay before it."""
    servo_id: int
    data: bytes
    delay_s: float


class Bus:
    def __init__(self, protocol: int, servos: list[Servo], faults: Faults | None = None) -> None:
        self.protocol = protocol
        self.codec = protocol1 if protocol == 1 else protocol2
        self.servos = {s.id: s for s in servos}
        self.faults = faults or Faults()
        self._fault_version = -1
        self.log: list[str] = []  # one line per thing a user may want to know (bad input)

    def decoder(self):
        return self.codec.Decoder()

    def _sync_faults(self) -> None:
        if self.faults.version != self._fault_version:
            self._fault_version = self.faults.version
            for sid, s in self.servos.items():
                s.set_overload(self.faults.has(sid, 'overload'))

    def handle(self, item: Packet | Garbage) -> list[Reply]:
        self._sync_faults()
        if isinstance(item, Garbage):
            self.log.append(f'dropped {item.describe()}')
            s = self.servos.get(item.id) if item.id is not None else None
            if s is None or 'checksum' not in item.reason and 'CRC' not in item.reason:
                return []
            err = ins.P1_CHECKSUM if self.protocol == 1 else ins.P2_CRC
            return self._status(s, err | s.error_byte())
        try:
            replies = self._dispatch(item)
        except (IndexError, ValueError) as exc:  # malformed parameters of a known instruction
            self.log.append(f'id {item.id}: {ins.NAMES.get(item.code, item.code)} with malformed '
                            f'parameters ({exc})')
            s = self.servos.get(item.id)
            err = ins.P1_INSTRUCTION if self.protocol == 1 else ins.P2_DATA_LENGTH
            return self._status(s, err | s.error_byte()) if s else []
        self._reindex()
        return replies

    def _reindex(self) -> None:
        if any(sid != s.id for sid, s in self.servos.items()):  # an ID register was written
            self.servos = {s.id: s for s in self.servos.values()}

    # --- packets
    def _status(self, s: Servo, error: int, params: bytes = b'',
                instruction: int = 0) -> list[Reply]:
        level = s.status_return_level
        if instruction and (level == 0 and instruction != ins.PING or
                            level == 1 and instruction not in (ins.PING, ins.READ)):
            return []
        if self.faults.has(s.id, 'timeout'):
            return []
        data = bytearray(self.codec.status(s.id, error | s.error_byte(), params))
        if self.faults.has(s.id, 'corrupt'):
            data[-1] ^= 0x5A  # checksum / CRC high byte wrong: the host sees a corrupt packet
        return [Reply(s.id, bytes(data), s.return_delay_s)]

    def _addr_len(self, p: bytes) -> tuple[int, int, bytes]:
        """(address, length or first data byte, rest) of READ/WRITE parameters."""
        if self.protocol == 1:
            return p[0], p[1], p[2:]
        return p[0] | p[1] << 8, p[2] | p[3] << 8, p[4:]

    def _dispatch(self, pkt: Packet) -> list[Reply]:
        code, p = pkt.code, pkt.params
        if pkt.id == ins.BROADCAST_ID:
            return self._broadcast(code, p)
        s = self.servos.get(pkt.id)
        if s is None:
            return []
        if code == ins.PING:
            extra = b''
            if self.protocol == 2:
                extra = s.get('Model Number').to_bytes(2, 'little') + bytes(
                    [s.get('Firmware Version')])
            return self._status(s, 0, extra, code)
        if code == ins.READ:
            if len(p) != (2 if self.protocol == 1 else 4):
                raise ValueError(f'{len(p)} parameter bytes')
            addr, length, _ = self._addr_len(p)
            err, data = s.read(addr, length)
            return self._status(s, err, data, code)
        if code in (ins.WRITE, ins.REG_WRITE):
            n = 1 if self.protocol == 1 else 2
            if len(p) <= n:
                raise ValueError(f'{len(p)} parameter bytes')
            addr = p[0] if n == 1 else p[0] | p[1] << 8
            if code == ins.REG_WRITE:
                s.registered = (addr, bytes(p[n:]))
                return self._status(s, 0, b'', code)
            return self._status(s, s.write(addr, bytes(p[n:])), b'', code)
        if code == ins.ACTION:
            self._action(s)
            return self._status(s, 0, b'', code)
        if code == ins.FACTORY_RESET:
            replies = self._status(s, 0, b'', code)
            s.reset()
            return replies
        if code == ins.REBOOT and self.protocol == 2:
            replies = self._status(s, 0, b'', code)
            s.reboot()
            return replies
        self.log.append(f'id {pkt.id}: instruction 0x{code:02X} '
                        f'({ins.NAMES.get(code, "unknown")}) not supported by {s.model.name}')
        err = ins.P1_INSTRUCTION if self.protocol == 1 else ins.P2_INSTRUCTION
        return self._status(s, err, b'', code)

    @staticmethod
    def _action(s: Servo) -> None:
        if s.registered is not None:
            addr, data = s.registered
            s.registered = None
            s.write(addr, data)

    def _broadcast(self, code: int, p: bytes) -> list[Reply]:
        servos = sorted(self.servos.values(), key=lambda s: s.id)
        if code == ins.WRITE:
            addr, _, _ = self._addr_len(p + b'\0\0')
            data = p[1:] if self.protocol == 1 else p[2:]
            for s in servos:
                s.write(addr, bytes(data))
        elif code == ins.ACTION:
            for s in servos:
                self._action(s)
        elif code == ins.SYNC_WRITE:
            self._sync_write(p)
        elif code == ins.PING and self.protocol == 2:
            return [r for s in servos for r in self._dispatch(Packet(s.id, ins.PING, b''))]
        elif code == ins.SYNC_READ and self.protocol == 2:
            addr, length, ids = p[0] | p[1] << 8, p[2] | p[3] << 8, p[4:]
            return self._reads([(i, addr, length) for i in ids])
        elif code == ins.BULK_READ and self.protocol == 2:
            if len(p) % 5:
                raise ValueError(f'{len(p)} parameter bytes, not 5 per servo')
            return self._reads([(p[k], p[k + 1] | p[k + 2] << 8, p[k + 3] | p[k + 4] << 8)
                                for k in range(0, len(p), 5)])
        elif code == ins.BULK_WRITE and self.protocol == 2:
            k = 0
            while k < len(p):
                sid, addr, length = p[k], p[k + 1] | p[k + 2] << 8, p[k + 3] | p[k + 4] << 8
                if k + 5 + length > len(p):
                    raise ValueError('a BULK_WRITE block runs past the packet')
                if sid in self.servos:
                    self.servos[sid].write(addr, bytes(p[k + 5:k + 5 + length]))
                k += 5 + length
        else:
            self.log.append(f'broadcast instruction 0x{code:02X} '
                            f'({ins.NAMES.get(code, "unknown")}): no servo answers it '
                            f'on protocol {self.protocol}.0')
        return []

    def _sync_write(self, p: bytes) -> None:
        if self.protocol == 1:
            addr, length, body = p[0], p[1], p[2:]
        else:
            addr, length, body = p[0] | p[1] << 8, p[2] | p[3] << 8, p[4:]
        block = length + 1
        if length == 0 or len(body) % block:
            raise ValueError(f'{len(body)} data bytes, not {block} per servo')
        for k in range(0, len(body), block):
            s = self.servos.get(body[k])
            if s is not None:
                s.write(addr, bytes(body[k + 1:k + block]))

    def _reads(self, requests: list[tuple[int, int, int]]) -> list[Reply]:
        out = []
        for sid, addr, length in requests:
            s = self.servos.get(sid)
            if s is not None:
                err, data = s.read(addr, length)
                out += self._status(s, err, data, ins.READ)
        return out


def build_bus(protocol: int, ids: list[int], *, model=None, plant=None, baud: int = 1_000_000,
              faults: Faults | None = None) -> Bus:
    """Servos ``ids`` of ``model`` (default: AX-12A on 1.0, XM430-W350 on 2.0) on one bus; the
    plant defaults to the in-memory one."""
    from ..control_table import DEFAULT_MODEL, baud_register
    from .plants import KinematicPlant
    model = model or DEFAULT_MODEL[protocol]
    if model.protocol != protocol:
        raise ValueError(f'{model.name} speaks protocol {model.protocol}.0, not {protocol}.0')
    plant = plant or KinematicPlant(model, ids)
    return Bus(protocol, [Servo(i, model, plant, baud_register(model, baud)) for i in ids], faults)
