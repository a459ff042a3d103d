"""The emulated bus: instruction packets in, status packets out (both protocols).

Which servo answers, and what (spec snake.md §8.1-§8.3; DynamixelSDK protocol handlers): a packet
for an id nobody has, a broadcast (except Protocol 2.0 PING and the sync/bulk reads) and anything
unparseable get no answer; a bad checksum/CRC for a known id gets a status with the checksum (P1
bit 4) or CRC (P2 error 3) error. Status Return Level 0 answers PING only, 1 PING and READ.
Protocol 1.0 on the AX-12A: SYNC_WRITE yes; SYNC_READ and BULK_READ are not AX instructions (the
servo stays silent, as broadcasts); REBOOT is an instruction error. Protocol 2.0: SYNC_READ,
SYNC_WRITE, BULK_READ, BULK_WRITE, REBOOT; the FAST_ variants are not emulated (silent).

IDs: a servo acts on the packets for the id in its ID register (EEPROM: locked by Lock on the AX,
by torque on the X). A written ID takes effect at once: the write is answered from the id it was
sent to (the one the host waits for), every later packet is taken at the new id. Servos sharing
an id (after a broadcast ID write, say) all stay on the bus, all act on its packets and all
answer: their statuses collide on the half-duplex wire (``wire_and``: the host reads a garbled
packet, corrupt or none), with one warning naming the id and the servos.
"""
from __future__ import annotations

import dataclasses

from .. import instructions as ins
from .. import protocol1, protocol2
from ..packets import Garbage, Packet
from .faults import Faults
from .servo import Servo


# Servos sharing an id answer together and their statuses collide. Two servos never start in the
# same microsecond: each times its return delay on its own oscillator (0.5 % apart is 2.5 us over
# the default 500 us) after its own firmware's reaction; taken here as COLLISION_SKEW_S per place
# among the answering servos, in chain order (an assumption: no measurement of real AX/X servos).
COLLISION_SKEW_S = 2e-6
OVERSAMPLE = 16  # a UART receiver samples 16 times per bit (16550, FTDI)


def wire_and(parts: list[tuple[float, bytes]], baud: int) -> tuple[bytes, float]:
    """What a UART receiver reads when several transmitters drive the half-duplex line at once.
    ``parts``: (start, bytes) of each, start in seconds; 8N1, LSB first, the line idles high and
    a driven low wins (wired AND: an approximation of two TTL/RS-485 drivers fighting). The
    receiver takes a falling edge as a start bit, checks it at mid-bit, samples 8 data bits and
    the stop bit at mid-bit, then waits for the line to go high before the next start; a byte
    whose stop bit reads low (framing error) is passed as 0x00, as Linux does in raw mode
    (termios without IGNPAR/PARMRK, pyserial's setting). Returns (bytes read, end of the last
    bit in seconds, on the clock of ``parts``)."""
    tick = 1.0 / (baud * OVERSAMPLE)
    bit = OVERSAMPLE
    starts = [round(t / tick) for t, _ in parts]
    base = min(starts)
    length = max(st - base + len(data) * 10 * bit for st, (_, data) in zip(starts, parts))
    line = bytearray(b'\x01') * (length + 11 * bit)  # idle high after the end
    low = bytes(bit)
    for st, (_, data) in zip(starts, parts):
        t = st - base
        for byte in data:
            frame = byte << 1 | 0x200  # start bit 0, data LSB first, stop bit 1
            for i in range(10):
                if not frame >> i & 1:
                    line[t + i * bit:t + (i + 1) * bit] = low
            t += 10 * bit
    out = bytearray()
    pos = 0
    while True:
        edge = line.find(0, pos)
        if edge < 0:
            break
        mid = edge + bit // 2
        if line[mid]:  # a glitch, not a start bit
            pos = line.find(1, edge)
            continue
        byte = 0
        for j in range(8):
            if line[mid + (j + 1) * bit]:
                byte |= 1 << j
        stop = mid + 9 * bit
        out.append(byte if line[stop] else 0)
        pos = line.find(1, stop)
        if pos < 0:
            break
    return bytes(out), (base + length) * tick


def _ranges(ids: list[int]) -> str:
    """[1, 2, 3, 5] -> '1-3, 5'."""
    out: list[list[int]] = []
    for i in sorted(ids):
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return ', '.join(f'{a}-{b}' if b > a else f'{a}' for a, b in out)


@dataclasses.dataclass
class Reply:
    """A status packet and the servo's return delay before it."""
    servo_id: int
    data: bytes
    delay_s: float


class Bus:
    """The servos on one wire, in chain order (``chain``); each acts on the packets for its
    current ID register, so an ID write re-addresses a servo from the next packet on, and servos
    sharing an id all act on its packets and answer together (their statuses collide)."""

    def __init__(self, protocol: int, servos: list[Servo], faults: Faults | None = None,
                 baud: int = 1_000_000) -> None:
        self.protocol = protocol
        self.codec = protocol1 if protocol == 1 else protocol2
        self.chain = list(servos)
        keys = [s.key for s in self.chain]
        if len(set(keys)) != len(keys):
            raise ValueError(f'servo ids {keys}: expected distinct ids on one bus')
        self.baud = baud
        self.faults = faults or Faults()
        self._fault_version = -1
        self.log: list[str] = []  # one line per thing a user may want to know (bad input)
        self.collisions = 0  # status packets garbled by servos sharing an id
        self._shared: dict[int, list[int]] = {}
        self._index()

    @property
    def servos(self) -> dict[int, Servo]:
        """Servo by id; where several share an id, the first on the chain (``at``: all)."""
        return {sid: group[0] for sid, group in self._by_id.items()}

    def at(self, servo_id: int) -> list[Servo]:
        """Every servo whose ID register holds ``servo_id``, in chain order."""
        return self._by_id.get(servo_id, [])

    def _index(self) -> None:
        """Servos by id, after an ID register was written; one warning for each id that a group
        of servos comes to share."""
        by_id: dict[int, list[Servo]] = {}
        for s in self.chain:
            s.id_changed = False
            by_id.setdefault(s.id, []).append(s)
        self._by_id = by_id
        shared = {sid: [s.key for s in g] for sid, g in by_id.items() if len(g) > 1}
        for sid, keys in sorted(shared.items()):
            if self._shared.get(sid) != keys:
                self.log.append(
                    f'id {sid} is shared by {len(keys)} servos (those started as ids '
                    f'{_ranges(keys)}): all of them act on every packet for id {sid} and their '
                    'status packets collide on the half-duplex bus (the host reads them corrupt '
                    'or not at all); one servo per id')
        self._shared = shared

    def decoder(self):
        return self.codec.Decoder()

    def _sync_faults(self) -> None:
        if self.faults.version != self._fault_version:
            self._fault_version = self.faults.version
            for s in self.chain:
                s.set_overload(self.faults.has(s.id, 'overload'))

    def handle(self, item: Packet | Garbage) -> list[Reply]:
        self._sync_faults()
        try:
            return self._handle(item)
        finally:
            if any(s.id_changed for s in self.chain):
                self._index()

    def _handle(self, item: Packet | Garbage) -> list[Reply]:
        if isinstance(item, Garbage):
            self.log.append(f'dropped {item.describe()}')
            group = self.at(item.id) if item.id is not None else []
            if not group or 'checksum' not in item.reason and 'CRC' not in item.reason:
                return []
            err = ins.P1_CHECKSUM if self.protocol == 1 else ins.P2_CRC
            return self._answer(item.id, [r for s in group for r in self._status(s, err)])
        try:
            return self._dispatch(item)
        except (IndexError, ValueError) as exc:  # malformed parameters of a known instruction
            self.log.append(f'id {item.id}: {ins.NAMES.get(item.code, item.code)} with malformed '
                            f'parameters ({exc})')
            err = ins.P1_INSTRUCTION if self.protocol == 1 else ins.P2_DATA_LENGTH
            return self._answer(item.id, [r for s in self.at(item.id)
                                          for r in self._status(s, err, sid=item.id)])

    # --- packets
    def _status(self, s: Servo, error: int, params: bytes = b'',
                instruction: int = 0, sid: int | None = None) -> list[Reply]:
        """The status of servo ``s``, from ``sid``: the id the request was sent to (a servo
        whose ID was just written answers that write from the id it was addressed at, which is
        the one the host waits for; the SDK drops a status of another id)."""
        sid = s.id if sid is None else sid
        level = s.status_return_level
        if instruction and (level == 0 and instruction != ins.PING or
                            level == 1 and instruction not in (ins.PING, ins.READ)):
            return []
        if self.faults.has(sid, 'timeout'):
            return []
        data = bytearray(self.codec.status(sid, error | s.error_byte(), params))
        if self.faults.has(sid, 'corrupt'):
            data[-1] ^= 0x5A  # checksum / CRC high byte wrong: the host sees a corrupt packet
        return [Reply(sid, bytes(data), s.return_delay_s)]

    def _answer(self, sid: int, replies: list[Reply]) -> list[Reply]:
        """The statuses of the servos at ``sid`` as they reach the host: one, or one garbled
        packet where several servos talked at once."""
        if len(replies) <= 1:
            return replies
        self.collisions += 1
        parts = [(r.delay_s + k * COLLISION_SKEW_S, r.data) for k, r in enumerate(replies)]
        data, end = wire_and(parts, self.baud)
        return [Reply(sid, data, max(0.0, end - len(data) * 10 / self.baud))]

    def _addr_len(self, p: bytes) -> tuple[int, int, bytes]:
        """(address, length or first data byte, rest) of READ/WRITE parameters."""
        if self.protocol == 1:
            return p[0], p[1], p[2:]
        return p[0] | p[1] << 8, p[2] | p[3] << 8, p[4:]

    def _dispatch(self, pkt: Packet) -> list[Reply]:
        if pkt.id == ins.BROADCAST_ID:
            return self._broadcast(pkt.code, pkt.params)
        group = self.at(pkt.id)
        replies = [r for k, s in enumerate(group) for r in self._execute(s, pkt, first=k == 0)]
        return self._answer(pkt.id, replies)

    def _execute(self, s: Servo, pkt: Packet, first: bool = True) -> list[Reply]:
        """One servo's part of a packet sent to its id; its status (or none)."""
        code, p, sid = pkt.code, pkt.params, pkt.id
        if code == ins.PING:
            extra = b''
            if self.protocol == 2:
                extra = s.get('Model Number').to_bytes(2, 'little') + bytes(
                    [s.get('Firmware Version')])
            return self._status(s, 0, extra, code, sid)
        if code == ins.READ:
            if len(p) != (2 if self.protocol == 1 else 4):
                raise ValueError(f'{len(p)} parameter bytes')
            addr, length, _ = self._addr_len(p)
            err, data = s.read(addr, length)
            return self._status(s, err, data, code, sid)
        if code in (ins.WRITE, ins.REG_WRITE):
            n = 1 if self.protocol == 1 else 2
            if len(p) <= n:
                raise ValueError(f'{len(p)} parameter bytes')
            addr = p[0] if n == 1 else p[0] | p[1] << 8
            if code == ins.REG_WRITE:
                s.registered = (addr, bytes(p[n:]))
                return self._status(s, 0, b'', code, sid)
            return self._status(s, s.write(addr, bytes(p[n:])), b'', code, sid)
        if code == ins.ACTION:
            self._action(s)
            return self._status(s, 0, b'', code, sid)
        if code == ins.FACTORY_RESET:
            replies = self._status(s, 0, b'', code, sid)
            s.reset()
            return replies
        if code == ins.REBOOT and self.protocol == 2:
            replies = self._status(s, 0, b'', code, sid)
            s.reboot()
            return replies
        if first:
            self.log.append(f'id {sid}: instruction 0x{code:02X} '
                            f'({ins.NAMES.get(code, "unknown")}) not supported by '
                            f'{s.model.name}')
        err = ins.P1_INSTRUCTION if self.protocol == 1 else ins.P2_INSTRUCTION
        return self._status(s, err, b'', code, sid)

    @staticmethod
    def _action(s: Servo) -> None:
        if s.registered is not None:
            addr, data = s.registered
            s.registered = None
            s.write(addr, data)

    def _broadcast(self, code: int, p: bytes) -> list[Reply]:
        if code == ins.WRITE:
            addr, _, _ = self._addr_len(p + b'\0\0')
            data = p[1:] if self.protocol == 1 else p[2:]
            for s in self.chain:
                s.write(addr, bytes(data))
        elif code == ins.ACTION:
            for s in self.chain:
                self._action(s)
        elif code == ins.SYNC_WRITE:
            self._sync_write(p)
        elif code == ins.PING and self.protocol == 2:
            return [r for sid in sorted(self._by_id)
                    for r in self._dispatch(Packet(sid, ins.PING, b''))]
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
                for s in self.at(sid):
                    s.write(addr, bytes(p[k + 5:k + 5 + length]))
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
            for s in self.at(body[k]):
                s.write(addr, bytes(body[k + 1:k + block]))

    def _reads(self, requests: list[tuple[int, int, int]]) -> list[Reply]:
        out = []
        for sid, addr, length in requests:
            replies = []
            for s in self.at(sid):
                err, data = s.read(addr, length)
                replies += self._status(s, err, data, ins.READ, sid)
            out += self._answer(sid, replies)
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
    if len(set(ids)) != len(ids):
        raise ValueError(f'ids {ids}: expected distinct ids (one servo per id on a bus)')
    return Bus(protocol, [Servo(i, model, plant, baud_register(model, baud)) for i in ids], faults,
               baud)
