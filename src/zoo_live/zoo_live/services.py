"""Services: the run's services (the simulator's /sim/reset, /sim/pause, /sim/step, ...) offered
to Foxglove clients, with ``ros2msg`` schemas and CDR requests and responses.

A call goes through a real service client of a helper node (``robozoo_live``, made at the first
call, in no executor of the run) that its own executor spins until the answer comes, so the
service's callback runs where it always does: on the run's executor, between its other callbacks.
"""
from __future__ import annotations

import threading

from foxglove import MessageSchema, Schema, Service, ServiceRequest, ServiceSchema

from zoo_runtime import introspection, messages, rclpy
from zoo_runtime.rclpy.executors import SingleThreadedExecutor

CALL_TIMEOUT_S = 10.0


class Services:
    """The foxglove Services for the run's services, made once per name."""

    def __init__(self, context):
        self.context = context
        self.offered: set[str] = set()
        self._lock = threading.Lock()  # one call at a time through the helper's executor
        self._node = None
        self._executor = None
        self._clients: dict[str, object] = {}

    def new(self) -> list[Service]:
        """Services of the run not offered yet (their names are then in ``offered``)."""
        snap = introspection.graph_snapshot(self.context)
        found = []
        for name, ends in sorted(snap.services.items()):
            if name in self.offered or not ends:
                continue
            self.offered.add(name)
            found.append(self._service(name, ends[0].type_name))
        return found

    def _service(self, name: str, type_name: str) -> Service:
        def part(suffix: str) -> MessageSchema:
            schema = Schema(name=type_name + suffix, encoding='ros2msg',
                            data=messages.msgdef(type_name + suffix).encode())
            return MessageSchema(encoding='cdr', schema=schema)

        def handler(request: ServiceRequest) -> bytes:
            return self.call(name, type_name, request.payload)
        return Service(name, schema=ServiceSchema(type_name, request=part('_Request'),
                                                  response=part('_Response')), handler=handler)

    def call(self, name: str, type_name: str, payload: bytes) -> bytes:
        """Call ``name`` with a CDR request; its CDR response. Raises with one line on failure
        (foxglove answers the client with a serviceCallFailure holding it)."""
        request = messages.deserialize(payload, type_name + '_Request')
        with self._lock:
            if self._node is None:
                self._node = rclpy.create_node('robozoo_live', context=self.context,
                                               enable_rosout=False, start_parameter_services=False)
                self._executor = SingleThreadedExecutor(context=self.context)
                self._executor.add_node(self._node)
            client = self._clients.get(name)
            if client is None:
                client = self._clients[name] = self._node.create_client(
                    messages.get_service(type_name), name)
            future = client.call_async(request)
            self._executor.spin_until_future_complete(future, timeout_sec=CALL_TIMEOUT_S)
        if not future.done():
            raise RuntimeError(f'live: service {name} did not answer within {CALL_TIMEOUT_S:g} s')
        return messages.serialize(future.result())

    def close(self) -> None:
        with self._lock:
            if self._node is not None:
                self._executor.shutdown()
                self._node.destroy_node()
                self._node = None
