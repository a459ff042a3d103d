"""A websocket server in its own thread (asyncio + ``websockets``), for the protocol servers:
frames in are parsed in this thread by the node's ``parse`` (bounded: robobo_api.rrap_codec caps
the size first) and go, parsed, to a thread-safe inbox the node drains on its own (sim-time)
timer; frames out are queued from any thread. No ROS here.

Inbox items: ``(CONNECT, conn_id, peer)`` with peer "host:port", ``(MESSAGE, conn_id, parsed)``
where parsed is what ``parse`` returned or the exception it raised (a frame over MAX_FRAME, which
websockets refuses by closing the connection, comes as FrameTooBig), ``(DISCONNECT, conn_id,
peer)``. While the inbox holds INBOX_HIGH items the connections are not read (TCP pushes back on
a client that floods).

The server survives its clients: a frame that is not text, a handler error or a client that
vanishes mid-send only ends that connection (or nothing), never the server.
"""
from __future__ import annotations

import asyncio
import itertools
import queue
import threading
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

CONNECT, MESSAGE, DISCONNECT = 'connect', 'message', 'disconnect'
# bytes; websockets closes a connection that sends a larger frame (without reading it). The
# protocol's own cap (rrap_codec.MAX_COMMAND) is lower: those frames are refused, the connection
# kept
MAX_FRAME = 1 << 20
INBOX_HIGH = 2000    # items; reading pauses above it until the node has drained
TAKE_MAX = 500       # items one take() returns: a flood cannot hold the node's loop
# robobopy's and robobosim's Remote.wsStartup (PyPI robobopy 1.x remotelib.py) start the socket
# thread and only then set CONNECTING, waiting for on_open's CONNECTED: an on_open that runs first
# is overwritten and connect() waits forever on an open connection. The real app answers over
# WiFi; a local server answering within microseconds triggers that race (3 of 18 connects on a
# loaded 2-core machine). The handshake is held this long, so the client has set CONNECTING.
HANDSHAKE_HOLD_S = 0.05


async def _hold_handshake(connection, request) -> None:
    await asyncio.sleep(HANDSHAKE_HOLD_S)


class FrameTooBig(ValueError):
    """A frame over MAX_FRAME: websockets closed the connection (the message names the size)."""


def _peer(ws: ServerConnection) -> str:
    addr = ws.remote_address
    if isinstance(addr, tuple) and len(addr) >= 2:
        return f'{addr[0]}:{addr[1]}'
    return str(addr)


class WsServer:
    def __init__(self, host: str, port: int, name: str = 'ws',
                 parse: Callable[[bytes], object] = bytes):
        """``parse`` turns a frame's bytes (text or binary frame, not decoded) into what the node
        handles; it runs in the server's thread and must be bounded."""
        self.host, self.port, self.name = host, int(port), name
        self.parse = parse
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()  # (event, conn_id, payload)
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

    def take(self, limit: int = TAKE_MAX) -> list[tuple[str, int, object]]:
        """Up to ``limit`` inbox items, oldest first (the node's poll; the rest wait for the
        next one)."""
        items = []
        for _ in range(limit):
            try:
                items.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        return items

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
        conn_id, peer = next(self._ids), _peer(ws)
        self._conns[conn_id] = ws
        self.inbox.put((CONNECT, conn_id, peer))
        try:
            while True:
                while self.inbox.qsize() > INBOX_HIGH:
                    await asyncio.sleep(0.01)
                frame = await ws.recv(decode=False)
                try:
                    parsed = self.parse(frame)
                except Exception as exc:  # noqa: BLE001 - refused: the node says why
                    parsed = exc
                self.inbox.put((MESSAGE, conn_id, parsed))
        except ConnectionClosed as exc:
            if exc.sent is not None and exc.sent.code == CloseCode.MESSAGE_TOO_BIG:
                self.inbox.put((MESSAGE, conn_id, FrameTooBig(
                    f'{exc.sent.reason or "frame too big"} (websocket limit); connection closed')))
        finally:
            self._conns.pop(conn_id, None)
            self.inbox.put((DISCONNECT, conn_id, peer))

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


def serve_events(server: 'WsServer', peers: dict, warnings, on_connect, on_frame,
                 on_disconnect=None) -> None:
    """One poll of a Robobo server's loop (both servers have the same): drain ``server``'s
    events, naming each client by its address in ``peers`` (``client <n> (<host:port>)``);
    a client that goes has what ``warnings`` (a RateLimitedLog keyed (peer, kind)) still counts
    for it said, then is forgotten; the counts that are due are said."""
    for event, conn, payload in server.take():
        if event == CONNECT:
            peers[conn] = f'client {conn} ({payload})'
            on_connect(conn)
        elif event == DISCONNECT:
            if on_disconnect is not None:
                on_disconnect(conn)
            peer = peers.pop(conn, f'client {conn}')
            warnings.forget(lambda key: key[0] == peer)
        elif event == MESSAGE:
            on_frame(conn, payload)
    warnings.tick()
