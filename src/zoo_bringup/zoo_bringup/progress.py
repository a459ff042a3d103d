"""A progress bar over simulated seconds (tqdm on a terminal, silent otherwise)."""
from __future__ import annotations

import sys


class ProgressBar:
    def __init__(self, total_s: float, *, enabled: bool = True, label: str = ''):
        self._bar = None
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm
            self._bar = tqdm(total=round(total_s, 3), unit='sim s', desc=label, leave=False,
                             bar_format='{desc}: {percentage:3.0f}%|{bar}| {n:.1f}/{total:.1f} sim s '
                                        '[{elapsed}<{remaining}, {rate_fmt}]')
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
