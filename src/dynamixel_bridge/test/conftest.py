"""An emulated bus on a pty, served by a thread of the test process."""
import contextlib
import os
import tempfile

# hypothesis keeps a cache; not in src/ (the build stamp hashes every file there)
os.environ.setdefault('HYPOTHESIS_STORAGE_DIRECTORY',
                      os.path.join(tempfile.gettempdir(), 'robozoo-hypothesis'))

import pytest

from dynamixel_bridge.emulator.bus import build_bus
from dynamixel_bridge.emulator.pty_server import PtyBus


@contextlib.contextmanager
def emulated(protocol: int, ids=range(1, 5), baud: int = 1_000_000, **kw):
    bus = build_bus(protocol, list(ids), baud=baud)
    lines: list[str] = []
    with PtyBus(bus, baud, log=lines.append, **kw) as pty:
        pty.lines = lines
        yield bus, pty


@pytest.fixture
def p1():
    with emulated(1) as x:
        yield x


@pytest.fixture
def p2():
    with emulated(2) as x:
        yield x
