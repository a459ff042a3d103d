"""Services between the processes of a run, on ROS 2's service topics.

A request goes out on ``rq/<service>Request`` and the answer comes back on
``rr/<service>Reply``, each sample led by rmw_cyclonedds' request header (the client's 8-byte
id and a sequence number, little-endian, after the CDR encapsulation; rmw_cyclonedds
``serdata.hpp``, ``cdds_request_header_t``). The client id is the calling process's number
in the run.

Caller side: a proxy service in the calling process (on a hidden node ``_robozoo_processes``)
answers the node's client with an ``async`` callback that writes the request and awaits the
reply. Server side: the request is handed to the real service through an in-process client; its
response is written back when the service has answered. Both writes are counted in the
lockstep's orders, so the call and its answer land in the same tick as in-process.
"""
from __future__ import annotations

import struct

from zoo_runtime import messages

from .process_plan import REPLY, REQUEST

_HEADER = struct.Struct('<Qq')  # client id, sequence number
_ENCAPSULATION = 4


def link_services(link, executor, proc: int):
    """Build the proxies of ``link``'s plan; returns the hidden node holding them."""
    from zoo_runtime.embedded.node import Node
    helper = Node('_robozoo_processes', context=link.context,
                  start_parameter_services=False)
    executor.add_node(helper)
    for key, info in link.plan['in'].items():
        if key.startswith(REQUEST):
            _Server(link, helper, key[len(REQUEST):], info['type'])
    for key, info in link.plan['out'].items():
        if key.startswith(REQUEST):
            _Caller(link, helper, key[len(REQUEST):], info['type'], proc)
    return helper


def pack(client: int, seq: int, cdr: bytes) -> bytes:
    """Runtime CDR (with its encapsulation) -> the same with the request header inserted."""
    return cdr[:_ENCAPSULATION] + _HEADER.pack(client, seq) + cdr[_ENCAPSULATION:]


def unpack(data: bytes) -> tuple[int, int, bytes]:
    """-> (client id, sequence number, runtime CDR)."""
    client, seq = _HEADER.unpack_from(data, _ENCAPSULATION)
    return client, seq, data[:_ENCAPSULATION] + data[_ENCAPSULATION + _HEADER.size:]


class _Caller:
    def __init__(self, link, helper, name: str, srv_type: str, proc: int):
        from zoo_runtime.embedded.task import Future
        self._future = Future
        self.link, self.key, self.proc = link, REQUEST + name, proc
        self.response_type = f'{srv_type}_Response'
        self.waiting: dict[int, object] = {}
        self.seq = 0
        helper.create_service(messages.get_service(srv_type), name, self._call)
        link.sinks[REPLY + name] = self._on_reply

    async def _call(self, request, response):
        self.seq += 1
        future = self.waiting[self.seq] = self._future()
        self.link.write(self.key, pack(self.proc, self.seq, messages.serialize(request)))
        return await future

    def _on_reply(self, data: bytes) -> None:
        client, seq, cdr = unpack(data)
        future = self.waiting.pop(seq, None) if client == self.proc else None
        if future is not None:
            future.set_result(messages.deserialize(cdr, self.response_type))


class _Server:
    def __init__(self, link, helper, name: str, srv_type: str):
        self.link, self.reply_key = link, REPLY + name
        self.request_type = f'{srv_type}_Request'
        self.client = helper.create_client(messages.get_service(srv_type), name)
        link.sinks[REQUEST + name] = self._on_request

    def _on_request(self, data: bytes) -> None:
        client, seq, cdr = unpack(data)
        future = self.client.call_async(messages.deserialize(cdr, self.request_type))
        future.add_done_callback(lambda f: self.link.write(
            self.reply_key, pack(client, seq, messages.serialize(f.result()))))
