"""What the SDK examples share: their command line and the SDK's low-level loop (a LowState in,
a LowCmd out every 2 ms on the steady clock, as the SDK's examples run it), around the real
unitree_legged_sdk (PyPI ``unitree-legged-sdk``, module ``robot_interface``), unmodified. Only
the SDK is imported, so that an example also runs beside a real Go1 without this workspace."""
from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

from unitree_legged_sdk import robot_interface as sdk

LOWLEVEL = 0xFF
DT = 0.002  # s: the SDK examples' 500 Hz


def parser(doc: str) -> argparse.ArgumentParser:
    """The options every example takes (the robot's address, our port, how long)."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument('--ip', default='127.0.0.1')
    p.add_argument('--port', type=int, default=8007)
    p.add_argument('--local-port', type=int, default=8080)
    p.add_argument('--seconds', type=float, default=3.0)
    return p


def low_level(args: argparse.Namespace) -> tuple[sdk.UDP, sdk.LowCmd, sdk.LowState]:
    """A low-level UDP link to ``args.ip:args.port`` and its initialised command and state."""
    udp = sdk.UDP(LOWLEVEL, args.local_port, args.ip, args.port)
    cmd, state = sdk.LowCmd(), sdk.LowState()
    udp.InitCmdData(cmd)
    return udp, cmd, state


def cycles(udp: sdk.UDP, cmd: sdk.LowCmd, state: sdk.LowState, seconds: float) -> Iterator[int]:
    """``seconds`` of 2 ms cycles: each yields its number (1, 2, ...) once the latest LowState is
    in ``state``, and sends ``cmd`` as the caller left it."""
    t_next = time.monotonic()
    for motiontime in range(1, int(seconds / DT) + 1):
        t_next += DT
        time.sleep(max(0.0, t_next - time.monotonic()))
        udp.Recv()
        udp.GetRecv(state)
        yield motiontime
        udp.SetSend(cmd)
        udp.Send()
