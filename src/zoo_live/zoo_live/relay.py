"""The public WebSocket port: accepts both Foxglove subprotocols and relays to the SDK server.

foxglove-sdk 0.30.3 only accepts ``foxglove.sdk.v1`` (its handshake answers anything else with
HTTP 400, and ``start_server`` has no option for it), while the published ws-protocol spec,
``@foxglove/ws-protocol``'s FoxgloveClient and Lichtblick speak ``foxglove.websocket.v1``.
Foxglove states the two are the same protocol under two names (foxglove discussion #1131, cited
by lichtblick-suite/lichtblick PR #819, which accepts both), so each client connection is relayed
frame by frame to the SDK server on a private loopback port, speaking ``foxglove.sdk.v1`` there.
"""
from __future__ import annotations

import threading

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.sync.server import ServerConnection, serve

SDK_SUBPROTOCOL = 'foxglove.sdk.v1'        # what foxglove-sdk 0.30 requires of clients
SPEC_SUBPROTOCOL = 'foxglove.websocket.v1'  # ws-protocol's docs/spec.md, its JS client, Lichtblick
SUBPROTOCOLS = (SDK_SUBPROTOCOL, SPEC_SUBPROTOCOL)


class Relay:
    """Serve ``host:port`` (0: any free one) and relay each connection to ``upstream_url``."""

    def __init__(self, host: str, port: int, upstream_url: str):
        self.upstream_url = upstream_url
        # no compression: frames are relayed as they are, at no extra CPU cost
        self._server = serve(self._handle, host, port, subprotocols=list(SUBPROTOCOLS),
                             compression=None, max_size=None, ping_interval=None)
        self.port = int(self._server.socket.getsockname()[1])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name='zoo_live-relay')
        self._thread.start()

    def _handle(self, client: ServerConnection) -> None:
        try:
            upstream = connect(self.upstream_url, subprotocols=[SDK_SUBPROTOCOL], compression=None,
                               max_size=None, ping_interval=None, proxy=None)
        except OSError:
            return  # the SDK server has stopped: the client's connection just closes
        with upstream:
            back = threading.Thread(target=_pipe, args=(upstream, client), daemon=True,
                                    name='zoo_live-relay-down')
            back.start()
            _pipe(client, upstream)
            upstream.close()
            back.join(timeout=5)

    def close(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=5)


def _pipe(src, dst) -> None:
    """Copy frames (text stays text, binary stays binary) until either side closes."""
    try:
        for frame in src:
            dst.send(frame)
    except ConnectionClosed:
        pass
    finally:
        dst.close()
