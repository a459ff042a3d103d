"""Injectable faults per servo id: ``timeout`` (no status packet), ``corrupt`` (a status packet
with a wrong checksum/CRC), ``overload`` (the overload error, torque off). Set and cleared at any
time from any thread (tests, the CLI's stdin commands)."""
from __future__ import annotations

import threading

KINDS = ('timeout', 'corrupt', 'overload')


class FaultError(ValueError):
    pass


class Faults:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active: dict[int, set[str]] = {}
        self.version = 0  # bumped on every change: the bus re-applies overloads

    def set(self, kind: str, servo_id: int) -> None:
        if kind not in KINDS:
            raise FaultError(f'unknown fault {kind!r} (known: {", ".join(KINDS)})')
        with self._lock:
            self._active.setdefault(servo_id, set()).add(kind)
            self.version += 1

    def clear(self, servo_id: int | None = None, kind: str | None = None) -> None:
        with self._lock:
            for sid in ([servo_id] if servo_id is not None else list(self._active)):
                kinds = self._active.get(sid, set())
                kinds.discard(kind) if kind else kinds.clear()
            self.version += 1

    def has(self, servo_id: int, kind: str) -> bool:
        with self._lock:
            return kind in self._active.get(servo_id, ())

    def describe(self) -> str:
        with self._lock:
            on = [f'{k} {i}' for i, ks in sorted(self._active.items()) for k in sorted(ks)]
        return ', '.join(on) or 'none'


def parse_command(line: str, faults: Faults) -> str:
    """``timeout 3`` | ``corrupt 3`` | ``overload 3`` | ``clear [id]`` | ``status``; returns the
    reply line. Raises FaultError with one line naming what was wrong."""
    words = line.split()
    if not words:
        return ''
    cmd, args = words[0].lower(), words[1:]
    try:
        ids = [int(a) for a in args]
    except ValueError:
        raise FaultError(f'{line.strip()!r}: expected a servo id (integer), got '
                         f'{" ".join(args)!r}') from None
    if cmd == 'status':
        return f'faults: {faults.describe()}'
    if cmd == 'clear':
        for sid in ids or [None]:
            faults.clear(sid)
        return f'faults: {faults.describe()}'
    if cmd not in KINDS or len(ids) < 1:
        raise FaultError(f'{line.strip()!r}: expected "<{"|".join(KINDS)}> <id>...", '
                         '"clear [id]" or "status"')
    for sid in ids:
        faults.set(cmd, sid)
    return f'faults: {faults.describe()}'
