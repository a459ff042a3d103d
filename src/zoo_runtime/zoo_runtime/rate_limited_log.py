"""Rate-limited log lines, the workspace's one owner of them: for events that can come at packet
rate (a dropped datagram, a frame refused from a network peer, a DDS sample not from this run),
without one line per event and without losing any.

Per key (any hashable: a kind such as ``'dropped datagram (crc)'``, or a ``(peer, kind)`` pair):
the first event is said at once in full; the ones after it within ``period_s`` are counted, and
one count line per period says how many there were (with the last one's detail), when the next
event of the key or :meth:`RateLimitedLog.tick` finds the period over. A key that was quiet for a
whole period is said in full again. :meth:`~RateLimitedLog.flush` says every count still pending
(at shutdown: nothing goes unsaid); :meth:`~RateLimitedLog.forget` says and drops the keys of a
peer that has gone. So N events of a key in T seconds give at most 2 + T / period_s lines.

What a line says is the owner's: ``full(key, detail)`` and ``count(Count)`` make its text (the
defaults: ``"<key> <detail>"`` and ``"<key>: N more in the last T s (M in all), the last
<detail>"``). Where it goes too: ``emit`` (a logger's ``warning``; per log or per event),
else ``lines``, which the owner drains into its logger. No ROS here; the clock is injectable.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

PERIOD_S = 5.0  # seconds between two lines of one key


@dataclass(frozen=True)
class Count:
    """What a count line is made of."""
    key: Hashable
    n: int           # events since the key's last line, not said
    seconds: float   # since that line
    total: int       # events of the key in all (since it was last forgotten)
    last: Any        # the detail of the last of them


def plain_full(key: Hashable, detail: Any) -> str:
    return f'{key} {detail}'


def plain_count(c: Count) -> str:
    return f'{c.key}: {c.n} more in the last {c.seconds:.1f} s ({c.total} in all), the last {c.last}'


@dataclass
class _Key:
    emit: Callable[[str], None] | None
    said_at: float | None = None   # when the last line of this key went out
    total: int = 0
    pending: int = 0               # counted since that line
    last: Any = None


class RateLimitedLog:
    def __init__(self, period_s: float = PERIOD_S, clock: Callable[[], float] = time.monotonic, *,
                 full: Callable[[Hashable, Any], str] = plain_full,
                 count: Callable[[Count], str] = plain_count,
                 emit: Callable[[str], None] | None = None):
        self.period_s, self.clock = period_s, clock
        self.full, self.count, self.emit = full, count, emit
        self.lines: list[str] = []   # the lines of keys without an emit, for drain()
        self._keys: dict[Hashable, _Key] = {}

    def event(self, key: Hashable, detail: Any, emit: Callable[[str], None] | None = None) -> None:
        """One event of ``key`` (a bounded category: never free text from a peer); ``detail``
        says what this one was. ``emit``: where this key's lines go from now on (default: the
        log's ``emit``, else ``lines``)."""
        now = self.clock()
        k = self._keys.get(key)
        if k is None:
            k = self._keys[key] = _Key(emit)
        elif emit is not None:
            k.emit = emit
        k.total += 1
        if k.pending == 0 and (k.said_at is None or now - k.said_at >= self.period_s):
            k.said_at = now
            self._say(k, self.full(key, detail))
        else:
            k.pending, k.last = k.pending + 1, detail
            if now - k.said_at >= self.period_s:
                self._count_line(key, k, now)

    def tick(self, now: float | None = None) -> None:
        """The count lines that are due (call it now and then, e.g. on every poll)."""
        now = self.clock() if now is None else now
        for key, k in list(self._keys.items()):
            if k.pending and now - k.said_at >= self.period_s:
                self._count_line(key, k, now)

    def flush(self, which: Callable[[Hashable], bool] | None = None) -> None:
        """Every count still pending, due or not (of the keys ``which`` accepts; all by
        default): at shutdown, nothing goes unsaid."""
        now = self.clock()
        for key, k in list(self._keys.items()):
            if k.pending and (which is None or which(key)):
                self._count_line(key, k, now)

    def forget(self, which: Callable[[Hashable], bool]) -> None:
        """The keys ``which`` accepts are done with (e.g. ``lambda key: key[0] == peer`` when a
        peer has gone): say what is still counted for them, then drop them (a later event of
        one is said in full)."""
        self.flush(which)
        for key in [key for key in self._keys if which(key)]:
            del self._keys[key]

    def total(self, key: Hashable) -> int:
        k = self._keys.get(key)
        return k.total if k else 0

    def drain(self) -> list[str]:
        """The lines gathered for keys without an emit, oldest first; they are gone from here."""
        out, self.lines = self.lines, []
        return out

    def _count_line(self, key: Hashable, k: _Key, now: float) -> None:
        line = self.count(Count(key, k.pending, now - k.said_at, k.total, k.last))
        k.pending, k.said_at = 0, now
        self._say(k, line)

    def _say(self, k: _Key, line: str) -> None:
        emit = k.emit or self.emit
        if emit is None:
            self.lines.append(line)
        else:
            emit(line)
