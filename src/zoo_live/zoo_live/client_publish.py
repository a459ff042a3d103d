"""Client publish: a Foxglove client's advertised channel is published into the running scenario.

A dashboard teleoperates a robot by publishing on a topic the scenario already has (a
``cmd_vel``-style topic, joint targets): the channel's topic must exist in the run's graph and its
schema name must be that topic's type (``pkg/msg/T`` or ``pkg/T``). Anything else is refused with
one line; the client's messages on a refused channel are dropped. The messages (CDR, the only
encoding offered) are published by a publisher of the context itself, so no node is added.
"""
from __future__ import annotations

from zoo_runtime import introspection, messages
from zoo_runtime.rclpy.qos import QoSProfile

QOS_DEPTH = 10  # rclpy's default depth for a publisher


class ClientPublish:
    """Client channels by (client id, channel id) -> the publisher on their topic."""

    def __init__(self, context, report):
        self.context = context
        self.report = report  # report(line): tell the clients and the user about a refusal
        self._publishers: dict[tuple[int, int], tuple[object, str]] = {}

    def advertise(self, client_id: int, channel) -> bool:
        refusal = self._refusal(channel)
        if refusal:
            self.report(f'live: client channel {channel.topic!r} refused: {refusal}')
            return False
        type_name = introspection.topic_view(self.context, channel.topic).type_name
        pub = introspection.create_context_publisher(self.context, messages.get_message(type_name),
                                                     channel.topic, QoSProfile(depth=QOS_DEPTH))
        self._publishers[(client_id, channel.id)] = (pub, type_name)
        return True

    def _refusal(self, channel) -> str | None:
        if channel.encoding != 'cdr':
            return f"encoding {channel.encoding!r}, expected 'cdr'"
        view = introspection.topic_view(self.context, channel.topic)
        if view is None:
            return 'the run has no such topic (only topics the scenario has can be published)'
        try:
            wanted = messages.type_name_of(messages.get_message(channel.schema_name))
        except Exception:  # an unknown type: UnknownInterfaceError, a malformed name
            wanted = channel.schema_name
        if wanted != view.type_name:
            return f'schema {channel.schema_name!r}, but the topic has type {view.type_name}'
        return None

    def unadvertise(self, client_id: int, channel_id: int) -> None:
        entry = self._publishers.pop((client_id, channel_id), None)
        if entry is not None:
            entry[0].destroy()

    def message(self, client_id: int, channel_id: int, data: bytes) -> None:
        entry = self._publishers.get((client_id, channel_id))
        if entry is None:
            return  # a refused channel
        pub, type_name = entry
        try:
            msg = messages.deserialize(data, type_name)
        except Exception as exc:
            self.report(f'live: a message on {pub.topic_name} is not CDR of {type_name}: {exc}')
            return
        pub.publish(msg)

    def close(self) -> None:
        for pub, _ in self._publishers.values():
            pub.destroy()
        self._publishers.clear()
