"""Helpers of the tests that run a journaled command (search, sweep) in a subprocess and kill it
mid-run: the environment, and starting it until its journal holds some records."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def child_env() -> dict:
    """This interpreter's paths for the child (the installed packages, as pytest sees them)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))


def start_until_journaled(cmd: list[str], journal: Path, records: int,
                          timeout_s: float = 300.0) -> subprocess.Popen:
    """Start ``cmd`` in a session of its own and return once ``journal`` holds its header and
    ``records`` records; the caller kills it. Fails if it ends first or takes too long."""
    proc = subprocess.Popen(cmd, env=child_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_text().count('\n') > records:
            return proc
        time.sleep(0.01)
    ended = proc.poll() is not None
    if not ended:
        os.killpg(proc.pid, 9)
        proc.wait()
    raise AssertionError(f'{cmd[2:4]}: ' + ('ended before it could be killed' if ended else
                                            f'no {records} journal records in {timeout_s} s'))
