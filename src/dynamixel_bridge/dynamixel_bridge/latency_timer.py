"""The USB serial adapter's latency timer (Linux sysfs, FTDI ``ftdi_sio``): the adapter holds
received bytes up to this long before sending them to the host, 16 ms by default, which caps a
request/status round trip at ~16-32 ms per servo: the SDK's #1 rate problem (spec snake.md §3.2,
§8.4; DynamixelSDK issues #330, #288, #302). 1 ms is what ROBOTIS recommends."""
from __future__ import annotations

import os
from pathlib import Path

SYSFS = Path('/sys/bus/usb-serial/devices')


def sysfs_file(port: str, root: Path = SYSFS) -> Path:
    return root / Path(os.path.realpath(port)).name / 'latency_timer'


def ensure_latency_timer(port: str, want_ms: int, root: Path = SYSFS) -> str:
    """Set the latency timer of ``port`` to ``want_ms`` if it is larger; one line saying what
    happened (what to do when it could not be read or set)."""
    path = sysfs_file(port, root)
    fix = f'echo {want_ms} | sudo tee {path}'
    if not path.parent.exists():
        return (f'latency timer: {port} is not a USB serial adapter (no {path.parent}): nothing '
                'to set (a pty or a native UART has none)')
    try:
        now = int(path.read_text().strip())
    except (OSError, ValueError) as exc:
        return (f'latency timer: cannot read {path} ({exc}); if this is an FTDI adapter at the '
                f'16 ms default, every status packet waits up to 16 ms: run `{fix}`')
    if now <= want_ms:
        return f'latency timer: {now} ms on {port}'
    try:
        path.write_text(f'{want_ms}\n')
        if int(path.read_text().strip()) == want_ms:
            return f'latency timer: set {now} -> {want_ms} ms on {port}'
        problem = 'the value did not stick'
    except (OSError, ValueError) as exc:
        problem = str(exc)
    return (f'latency timer: {now} ms on {port} and it could not be set to {want_ms} ms '
            f'({problem}): each status packet may wait {now} ms, the bus rate will be a fraction '
            f'of its limit; run `{fix}` or add a udev rule')
