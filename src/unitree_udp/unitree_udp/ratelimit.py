"""Log lines for events that can come at packet rate (dropped datagrams, datagrams from an
unexpected peer, a robot whose client changes), without one line per packet and without losing
any: the first event of a kind is said in full at once; the ones after it within ``period_s``
are counted, and one line per period says how many there were (with the last one's detail);
:meth:`RateLimitedLog.flush` says what is still counted (at shutdown). A kind that was quiet
for a whole period is said in full again. No ROS: the owner drains ``lines`` into its logger.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Callable

PERIOD_S = 5.0


@dataclasses.dataclass
class _Kind:
    total: int = 0
    pending: int = 0               # counted since the last line
    said_at: float | None = None   # when the last line of this kind went out
    last: str = ''


class RateLimitedLog:
    def __init__(self, period_s: float = PERIOD_S, clock: Callable[[], float] = time.monotonic):
        self.period_s = period_s
        self.clock = clock
        self.lines: list[str] = []
        self._kinds: dict[str, _Kind] = {}

    def event(self, kind: str, detail: str) -> None:
        """One event: ``kind`` names what happened ('dropped datagram'), ``detail`` this one
        (peer and reason). The line is ``"<kind> <detail>"``."""
        now = self.clock()
        k = self._kinds.setdefault(kind, _Kind())
        k.total += 1
        if k.pending == 0 and (k.said_at is None or now - k.said_at >= self.period_s):
            self.lines.append(f'{kind} {detail}')
            k.said_at = now
        else:
            k.pending += 1
            k.last = detail
        self.tick(now)

    def tick(self, now: float | None = None) -> None:
        """The count lines that are due (call it now and then, e.g. on every poll)."""
        now = self.clock() if now is None else now
        for kind, k in self._kinds.items():
            if k.pending and now - k.said_at >= self.period_s:
                self._count_line(kind, k, now)

    def flush(self) -> None:
        """Every count still pending, due or not (at shutdown: nothing goes unsaid)."""
        now = self.clock()
        for kind, k in self._kinds.items():
            if k.pending:
                self._count_line(kind, k, now)

    def total(self, kind: str) -> int:
        k = self._kinds.get(kind)
        return k.total if k else 0

    def _count_line(self, kind: str, k: _Kind, now: float) -> None:
        self.lines.append(f'{kind}: {k.pending} more in the last {now - k.said_at:.1f} s '
                          f'({k.total} in all), the last {k.last}')
        k.pending, k.said_at = 0, now

    def drain(self) -> list[str]:
        out, self.lines = self.lines, []
        return out
