"""Rate-limited warnings for bad input from network peers (issue 25: 20,000 bad frames gave 20,000
lines). The first warning of a kind from a peer is written in full; the ones that follow are
counted, and one line says "N more such frames from <peer> in T s (<kind>), the last: <why>" once a
period has passed (checked on the next warning and by ``tick``) and when the peer goes
(``forget``). A kind that stays quiet for a whole period starts afresh: its next warning is written
in full again. So N bad frames in T seconds give at most 2 + T / period lines per kind and peer.
No ROS here: the caller passes where each line goes (a logger's ``warning``).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

PERIOD_S = 5.0  # wall seconds between the count lines of one peer's kind of bad input


@dataclass
class _Run:
    since: float               # when the full line or the last count line was written
    emit: Callable[[str], None]
    count: int = 0             # warnings since then, not written
    last: str = ''


class RepeatedWarnings:
    def __init__(self, period_s: float = PERIOD_S, clock: Callable[[], float] = time.monotonic):
        self.period_s, self.clock = period_s, clock
        self._runs: dict[tuple[str, str], _Run] = {}

    def warn(self, peer: str, kind: str, why: str, emit: Callable[[str], None]) -> None:
        """``peer`` names the sender (e.g. "client 3 (127.0.0.1:53412)"), ``kind`` is a bounded
        category (a known command name, not free text from the peer), ``why`` the full reason."""
        now = self.clock()
        run = self._runs.get((peer, kind))
        if run is None:
            self._runs[(peer, kind)] = _Run(now, emit)
            emit(f'{peer}: {why}')
            return
        run.count, run.last, run.emit = run.count + 1, why, emit
        if now - run.since >= self.period_s:
            self._say(peer, kind, run, now)

    def tick(self) -> None:
        """Write the counts that are due; a kind quiet for a whole period is forgotten."""
        now = self.clock()
        for (peer, kind), run in list(self._runs.items()):
            if now - run.since >= self.period_s:
                if run.count:
                    self._say(peer, kind, run, now)
                else:
                    del self._runs[(peer, kind)]

    def forget(self, peer: str) -> None:
        """The peer has gone: write what is still counted for it, then forget it."""
        now = self.clock()
        for key in [k for k in self._runs if k[0] == peer]:
            run = self._runs.pop(key)
            if run.count:
                self._say(peer, key[1], run, now)

    def _say(self, peer: str, kind: str, run: _Run, now: float) -> None:
        run.emit(f'{run.count} more such frames from {peer} in {now - run.since:.1f} s ({kind}), '
                 f'the last: {run.last}')
        run.since, run.count = now, 0
