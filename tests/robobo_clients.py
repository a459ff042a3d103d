"""Connecting robobopy/robobosim clients (PyPI, unmodified) in the tests, with a bound on the wait.

``connect()`` of both libraries has a start-up race (robobopy remotelib.py, Remote.wsStartup):
it starts the socket thread, then sets CONNECTING and waits for on_open's CONNECTED; an on_open
that runs first is overwritten and connect() waits forever on an open connection. Our server
holds its handshake (robobo_api.ws_server.HANDSHAKE_HOLD_S) so this should not happen; should a
loaded machine still lose the race, the client is released (its state set to CONNECTED) once its
socket has been open for 0.5 s, and the release is recorded. The libraries' code is not touched.
"""
from __future__ import annotations

import threading
import time

WALL_LIMIT_S = 60.0                 # wall-clock bound on any wait (a hung run fails, not hangs)
RELEASED: list[str] = []            # clients guarded_connect released (the race above)


def guarded_connect(client, what: str, limit_s: float = WALL_LIMIT_S) -> None:
    """``client.connect()`` (robobopy Robobo or robobosim RoboboSim) that cannot hang a test."""
    done = threading.Event()
    threading.Thread(target=lambda: (client.connect(), done.set()), daemon=True).start()
    deadline, open_since = time.time() + limit_s, None
    while not done.wait(0.05):
        assert time.time() < deadline, f'{what}: connect() hangs'
        rem = client.rem
        if rem.ws is not None and rem.ws.sock is not None and rem.ws.sock.connected:
            open_since = open_since or time.time()
            state = type(rem.connectionState)
            if time.time() - open_since > 0.5 and rem.connectionState == state.CONNECTING:
                rem.connectionState = state.CONNECTED
                RELEASED.append(what)
