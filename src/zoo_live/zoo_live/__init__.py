"""Live view of an embedded run in Foxglove (foxglove-sdk WebSocket server) and its layouts."""
from .server import DEFAULT_PORT, SUBPROTOCOL, LiveError, LiveServer, describe, layout_for

__all__ = ['DEFAULT_PORT', 'SUBPROTOCOL', 'LiveError', 'LiveServer', 'describe', 'layout_for']
