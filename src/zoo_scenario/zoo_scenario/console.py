"""Log lines and a progress bar on one terminal, without garbling each other.

While a tqdm bar is drawn on stderr, ``lines_above_bar()`` puts a stand-in in ``sys.stderr`` that
writes every complete line above the bar: in the bar's process through ``tqdm.write`` (which clears
the bar and draws it again), in a process forked from it (a search worker, which has no bar of its
own) by clearing the bar's row first; the parent draws the bar again below at its next update.
Node loggers (zoo_runtime's rclpy.logging) and Python's warnings look ``sys.stderr`` up at every
line, so they follow.
"""
from __future__ import annotations

import contextlib
import io
import os
import sys
from typing import Iterator, TextIO

from tqdm import tqdm

CLEAR_ROW = '\r\x1b[K'  # carriage return, erase to the end of the row


class LinesAboveBar(io.TextIOBase):
    def __init__(self, stream: TextIO):
        self._stream = stream
        self._pid = os.getpid()
        self._partial = ''

    def write(self, s: str) -> int:
        *lines, self._partial = (self._partial + s).split('\n')
        for line in lines:
            self._line(line)
        return len(s)

    def _line(self, line: str) -> None:
        if os.getpid() == self._pid:
            tqdm.write(line, file=self._stream)
        else:  # a forked worker: one write, so that lines of several workers do not interleave
            self._stream.write(CLEAR_ROW + line + '\n')
            self._stream.flush()

    def flush(self) -> None:
        self._stream.flush()

    def close_partial(self) -> None:
        if self._partial:
            self._line(self._partial)
            self._partial = ''

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, 'encoding', 'utf-8')


@contextlib.contextmanager
def lines_above_bar(enabled: bool = True) -> Iterator[TextIO]:
    """Route ``sys.stderr`` above a progress bar inside the block; yields the real stderr, for
    the bar itself. Enter it before forking workers, so that they inherit the routing."""
    real = sys.stderr
    if not enabled:
        yield real
        return
    router = LinesAboveBar(real)
    sys.stderr = router
    try:
        yield real
    finally:
        router.close_partial()
        sys.stderr = real
