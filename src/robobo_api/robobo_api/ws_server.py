"""A websocket server in its own thread (asyncio + ``websockets``), for the protocol servers: text
frames in go to a thread-safe inbox the node drains on its own (sim-time) timer; frames out are
queued from any thread. No ROS here.

The server survives its clients: a frame that is not text, a handler error or a client that
vanishes mid-send only ends that connection (or nothing), never the server.
"""
from __future__ import annotations

import asyncio
import itertools
import queue
import threading

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

CONNECT, MESSAGE, DISCONNECT = 'connect', 'message', 'disconnect'
MAX_FRAME = 1 << 20  # bytes; robobopy's largest frames are a few hundred bytes
# robobopy's and robobosim's Remote.wsStartup (PyPI robobopy 1.x remotelib.py) start the socket
# thread and only then set CONNECTING, waiting for on_open's CONNECTED: an on_open that runs first
# is overwritten and connect() waits forever on an open connection. The real app answers over
# WiFi; a local server answering within microseconds triggers that race (3 of 18 connects on a
# loaded 2-core machine). The handshake is held this long, so the client has set CONNECTING.
HANDSHAKE_HOLD_S = 0.05


async def _hold_handshake(connection, request) -> None:
    await asyncio.sleep(HANDSHAKE_HOLD_S)


class WsServer:
    def __init__(self, host: str, port: int, name: str = 'ws'):
        self.host, self.port, self.name = host, int(port), name
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()  # (event, conn_id, text)
        self._conns: dict[int, ServerConnection] = {}
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None

    def start(self, timeout: float = 5.0, hint: str = '') -> None:
        """Listen; raises OSError naming the port when it cannot (e.g. already in use), followed
        by ``hint`` (what the user can do about it)."""
        self._thread = threading.Thread(target=self._run, name=f'{self.name}:{self.port}',
                                        daemon=True)
        self._thread.start()
        if not self._started.wait(timeout):
            raise OSError(f'{self.name}: websocket server on {self.host}:{self.port} did not start')
        if self._error is not None:
            raise OSError(f'{self.name}: cannot listen on {self.host}:{self.port} '
                          f'({self._error})' + (f'; {hint}' if hint else '')) from None

    def send(self, conn_id: int | None, text: str) -> None:
        """Queue ``text`` for one connection (None: all); safe from any thread."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._send_now, conn_id, text)
            except RuntimeError:  # the loop closed meanwhile
                pass

    @property
    def connections(self) -> list[int]:
        return list(self._conns)

    def stop(self) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    # -- the server's thread ------------------------------------------------------------------
    def _run(self) -> None:
        self._loop = asyncio.new_event_loop()
        try:
            self._loop.run_until_complete(self._serve())
        except BaseException as exc:  # noqa: BLE001 - reported by start()
            self._error = exc
            self._started.set()
        finally:
            self._loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        async with serve(self._handle, self.host, self.port, max_size=MAX_FRAME,
                         compression=None, ping_interval=None,
                         process_request=_hold_handshake):
            self._started.set()
            await self._stop.wait()

    async def _handle(self, ws: ServerConnection) -> None:
        conn_id = next(self._ids)
        self._conns[conn_id] = ws
        self.inbox.put((CONNECT, conn_id, ''))
        try:
            async for frame in ws:
                self.inbox.put((MESSAGE, conn_id, frame))
        except ConnectionClosed:
            pass
        finally:
            self._conns.pop(conn_id, None)
            self.inbox.put((DISCONNECT, conn_id, ''))

    def _send_now(self, conn_id: int | None, text: str) -> None:
        targets = self._conns.values() if conn_id is None else \
            [c for c in (self._conns.get(conn_id),) if c is not None]
        for ws in list(targets):
            asyncio.ensure_future(self._send_one(ws, text))

    @staticmethod
    async def _send_one(ws: ServerConnection, text: str) -> None:
        try:
            await ws.send(text)
        except ConnectionClosed:
            pass
