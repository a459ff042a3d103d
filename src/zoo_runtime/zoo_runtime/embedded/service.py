"""rclpy.service: ``callback(request, response) -> response``, plain or ``async def``."""
from __future__ import annotations

import inspect

from ._msgs import type_name_of
from .inbox import DROPPED, Receiver

__all__ = ['Service']


class Service(Receiver):
    def __init__(self, node, srv_type, srv_name: str, resolved_name: str, callback,
                 callback_group, qos_profile):
        super().__init__(node)
        self._seq = node.context._seq
        self.srv_type = srv_type
        self._type_name = type_name_of(srv_type)
        # rclpy keeps srv_name as the caller wrote it; service_name is the resolved name.
        self.srv_name = srv_name
        self._resolved = resolved_name
        self.callback = callback
        self.callback_group = callback_group
        self.qos_profile = qos_profile

    @property
    def service_name(self) -> str:
        return self._resolved

    @property
    def handle(self):
        return self

    def _execute(self, entry):
        request, client, future = entry[1]
        if entry[2] < 0 or self._destroyed:
            return DROPPED
        entry[2] = -1
        response = self.callback(request, self.srv_type.Response())
        if inspect.iscoroutine(response) and inspect.iscoroutinefunction(self.callback):
            return self._respond_later(response, client, future)  # (else _respond refuses it)
        self._respond(response, client, future)
        return None

    async def _respond_later(self, pending, client, future) -> None:
        self._respond(await pending, client, future)

    def _respond(self, response, client, future) -> None:
        if not isinstance(response, self.srv_type.Response):
            raise TypeError(f"service '{self._resolved}' callback returned {response!r}; it must "
                            f'return the {self._type_name} response object')
        if not client._destroyed:
            client._post((future, response), next(self._seq))

    def destroy(self) -> None:
        self._node.destroy_service(self)

    def _destroy(self) -> None:
        graph = self._node.context._graph
        graph.remove_endpoint(graph.services, self._resolved, self)
        self._destroyed = True
        self._parked.clear()

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()
