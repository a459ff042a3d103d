"""A progress bar over simulated seconds (tqdm on a terminal, silent otherwise).

While the bar is drawn, lines written to stderr (node logs, warnings) go above it instead of
through it (zoo_scenario.console, which the gait search's bar uses too).
"""
from __future__ import annotations

import contextlib
import sys


class ProgressBar:
    def __init__(self, total_s: float, *, enabled: bool = True, label: str = ''):
        self._bar = None
        self._routing = contextlib.ExitStack()
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm
            from zoo_scenario.console import lines_above_bar

            stderr = self._routing.enter_context(lines_above_bar())
            self._bar = tqdm(total=round(total_s, 3), unit='sim s', desc=label, leave=False,
                             file=stderr, bar_format='{desc}: {percentage:3.0f}%|{bar}| '
                             '{n:.1f}/{total:.1f} sim s [{elapsed}<{remaining}, {rate_fmt}]')
        self._t0 = 0.0

    def update(self, t_s: float) -> None:
        if self._bar is not None:
            self._bar.update(round(t_s - self._t0, 3))
            self._t0 = t_s

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.close()
        self._routing.close()
