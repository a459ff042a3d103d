"""rclpy.client: ``call_async(request) -> Future`` completed by the client's executor when the
response arrives; ``call()`` blocks and is only valid while another thread spins the node."""
from __future__ import annotations

import threading
import time as _time

from ._msgs import type_name_of
from .inbox import DROPPED, Receiver
from .task import Future

__all__ = ['Client']


class Client(Receiver):
    def __init__(self, node, srv_type, srv_name: str, resolved_name: str, qos_profile,
                 callback_group):
        super().__init__(node)
        self._context = node.context
        self._seq = node.context._seq
        self.srv_type = srv_type
        self._type_name = type_name_of(srv_type)
        # rclpy keeps srv_name as the caller wrote it; service_name is the resolved name.
        self.srv_name = srv_name
        self._resolved = resolved_name
        self.qos_profile = qos_profile
        self.callback_group = callback_group
        self._pending: list[Future] = []
        self._warned_no_server = False

    @property
    def service_name(self) -> str:
        return self._resolved

    @property
    def handle(self):
        return self

    def call_async(self, request) -> Future:
        if not isinstance(request, self.srv_type.Request):
            raise TypeError(f"client '{self._resolved}' expects a {self._type_name} request, got "
                            f'{type(request).__qualname__}')
        if self._destroyed:
            raise RuntimeError(f"client '{self._resolved}' was destroyed")
        future = Future()
        server = self._context._graph.server_for(self._resolved)
        if server is None:
            # As with DDS, a request sent before any server exists is lost.
            if not self._warned_no_server:
                self._warned_no_server = True
                self._node.get_logger().warning(
                    f"request to '{self._resolved}' sent while no service is available: it is "
                    'lost (call wait_for_service() first)')
            return future
        self._pending.append(future)
        future.add_done_callback(self.remove_pending_request)
        server._post((request, self, future), next(self._seq))
        return future

    def call(self, request, timeout_sec: float | None = None):
        """Send a request and block until the response; another thread must spin the node."""
        executor = self._node.executor
        if executor is not None and executor._spin_thread == threading.get_ident():
            raise RuntimeError(
                f"Client.call('{self._resolved}') from the thread that spins its node's executor "
                'would deadlock; use `await client.call_async(req)` in an async callback, or '
                'spin the node in another thread')
        event = threading.Event()
        future = self.call_async(request)
        future.add_done_callback(lambda _f: event.set())
        if not future.done() and not event.wait(timeout_sec):
            self.remove_pending_request(future)
            raise TimeoutError(f"no response from '{self._resolved}' within {timeout_sec} s")
        if future.exception() is not None:
            raise future.exception()
        return future.result()

    def remove_pending_request(self, future: Future) -> None:
        if future in self._pending:
            self._pending.remove(future)

    def service_is_ready(self) -> bool:
        return self._context._graph.server_for(self._resolved) is not None

    def wait_for_service(self, timeout_sec: float | None = None) -> bool:
        """Wait (wall time) for a server; services appear synchronously in-process, so this
        only polls when the server is created by another thread."""
        deadline = None if timeout_sec is None or timeout_sec < 0 else \
            _time.monotonic() + timeout_sec
        while not self.service_is_ready():
            if not self._context.ok():
                return False
            if deadline is not None and _time.monotonic() >= deadline:
                return False
            _time.sleep(0.01)
        return True

    def _execute(self, entry):
        future, response = entry[1]
        if entry[2] < 0 or self._destroyed:
            return DROPPED
        entry[2] = -1
        if not future.done():
            future._set_executor(self._executor)
            future.set_result(response)
        return None

    def destroy(self) -> None:
        self._node.destroy_client(self)

    def _destroy(self) -> None:
        graph = self._context._graph
        graph.remove_endpoint(graph.clients, self._resolved, self)
        self._destroyed = True
        self._parked.clear()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()
