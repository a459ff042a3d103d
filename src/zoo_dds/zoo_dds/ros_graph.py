"""A --processes process, or the bridge node, in the ROS 2 graph: ``ros_discovery_info`` as
rmw_cyclonedds writes it.

ROS 2 learns which nodes a DDS participant holds, and which of its readers and writers belong to
which node, only from ``rmw_dds_common/msg/ParticipantEntitiesInfo`` samples on the DDS topic
``ros_discovery_info``; topics alone come from DDS discovery. Without these samples ``ros2 node
list`` cannot see a process (``ros2 topic list`` can). Upstream, read for this:

- ros2/rmw_cyclonedds ``rmw_cyclonedds_cpp/src/rmw_node.cpp`` (branch jazzy),
  ``rmw_context_impl_s::init``: the writer is KEEP_LAST 1, RELIABLE, TRANSIENT_LOCAL with
  ``avoid_ros_namespace_conventions`` (so the DDS topic is ``ros_discovery_info``, no ``rt/``);
  the participant's USER_DATA is ``enclave=<enclave>;``; ``convert_guid_to_gid`` copies an
  entity's 16-byte DDS GUID into the gid; ``handle_ParticipantEntitiesInfo`` passes each sample
  to the graph cache.
- ros2/rmw_dds_common ``rmw_dds_common/src/graph_cache.cpp``: ``update_participant_entities``
  replaces the participant's node list by the sample's (keyed by ``gid``, the participant's
  GUID); ``get_node_names`` lists the nodes of every participant; a node's publishers and
  subscriptions are the endpoints whose gids its ``writer_gid_seq``/``reader_gid_seq`` hold.
- ros2/rmw_dds_common ``rmw_dds_common/msg/{Gid,NodeEntitiesInfo,ParticipantEntitiesInfo}.msg``
  (jazzy: ``char[16] data``; ``string<=256`` namespace and name).

A DDS reader or writer of a process serves a topic for every node of that process using it, so
its gid is listed under each such node.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from zoo_runtime import introspection, messages

from .process_plan import CLOCK, REPLY, REQUEST
from .qos_map import dds_qos
from .transport import RawWriter

TOPIC = 'ros_discovery_info'
TYPE = 'rmw_dds_common/msg/ParticipantEntitiesInfo'
ENCLAVE_USER_DATA = b'enclave=/;'  # rmw_cyclonedds' participant USER_DATA (default enclave)
_QOS = SimpleNamespace(history='KEEP_LAST', depth=1, reliability='RELIABLE',
                       durability='TRANSIENT_LOCAL')


def gid(entity) -> bytes:
    """The ROS gid of a cyclonedds entity: its 16-byte GUID (convert_guid_to_gid)."""
    return entity.get_guid().bytes


def entities_info(participant_gid: bytes, nodes: list[tuple[str, str, list[bytes],
                                                             list[bytes]]]) -> bytes:
    """The CDR of a ParticipantEntitiesInfo; ``nodes``: (namespace, name, reader gids, writer
    gids) per node."""
    store = messages.typestore()
    Gid = store.types['rmw_dds_common/msg/Gid']
    Node = store.types['rmw_dds_common/msg/NodeEntitiesInfo']
    Info = store.types[TYPE]

    def g(raw: bytes):
        return Gid(data=np.frombuffer(raw, dtype=np.uint8).copy())

    msg = Info(gid=g(participant_gid), node_entities_info_seq=[
        Node(node_namespace=ns, node_name=name, reader_gid_seq=[g(r) for r in readers],
             writer_gid_seq=[g(w) for w in writers]) for ns, name, readers, writers in nodes])
    return bytes(store.serialize_cdr(msg, TYPE, little_endian=True))


def node_entities(context, nodes: list, readers: dict, writers: dict) -> list[tuple]:
    """(namespace, name, reader gids, writer gids) for each of ``nodes`` (runtime nodes). The
    DDS ``readers``/``writers`` are ``{plan key: RawReader/RawWriter}``; a plan key is a topic
    or a service's request/reply key (``rq:``/``rr:`` + name). Each goes under every node that
    uses it in-process (:func:`users`)."""
    snap = introspection.graph_snapshot(context)
    clock_node = next((n for n in nodes if hasattr(n, 'lockstep_physics')), None)
    out = []
    for node in nodes:
        mine = {}
        for side, dds in (('reader', readers), ('writer', writers)):
            mine[side] = [gid(getattr(ep, side)) for key, ep in sorted(dds.items())
                          if any(u is node for u in users(snap, key, side, clock_node))]
        out.append((node.get_namespace(), node.get_name(), mine['reader'], mine['writer']))
    return out


def users(snap, key: str, side: str, clock_node=None) -> list:
    """The nodes behind one DDS reader or writer (``side``) of plan ``key``:

    - a topic: the nodes subscribing (reader) or publishing (writer) it in-process; the
      ``/clock`` writer, fed by the lockstep executor (no node), goes under ``clock_node``, the
      node whose physics drives the lockstep, as the simulator publishes ``/clock`` itself
      under ROS 2 (zoo_sim ``sim_node.py``);
    - a service's request or reply topic: the nodes serving or calling it in-process. rmw lists
      a node's services from its readers of ``rq/*Request`` and its clients from its readers of
      ``rr/*Reply`` (rmw_cyclonedds ``rmw_get_service_names_and_types_by_node``,
      ``rmw_get_client_names_and_types_by_node``). The run's hidden proxy node is no user: it
      is not among the announced nodes."""
    if key.startswith((REQUEST, REPLY)):
        name = key[len(REQUEST):]
        ends = (*snap.services.get(name, ()), *snap.clients.get(name, ()))
        return [e.node for e in ends]
    ends = snap.subscriptions_of(key) if side == 'reader' else snap.publishers_of(key)
    found = [e.node for e in ends if e.node is not None]
    if side == 'writer' and key == CLOCK and not found and clock_node is not None:
        return [clock_node]
    return found


class DiscoveryInfoWriter:
    """A participant's writer of ``ros_discovery_info``: ``write(nodes)`` announces its nodes
    (transient local: late joiners such as a ``ros2`` CLI call get the last sample from the
    writer's history); rmw writes again whenever a node or endpoint is added or removed."""

    def __init__(self, dp) -> None:
        self.dp = dp
        self.writer = RawWriter(dp, '/' + TOPIC, TYPE,
                                dds_qos(_QOS, writer=True, type_hash=messages.rihs01(TYPE)),
                                dds_name=TOPIC)

    def write(self, nodes: list[tuple]) -> None:
        """``nodes``: (namespace, name, reader gids, writer gids) per node."""
        self.writer.write(entities_info(gid(self.dp), nodes))

    def close(self) -> None:
        """Tell the graph the nodes are gone (rmw does on node destruction), then let the
        participant's deletion dispose the rest."""
        try:
            self.write([])
        except Exception:  # noqa: BLE001 - closing anyway; DDS disposes the participant
            pass


class GraphAnnouncer(DiscoveryInfoWriter):
    """A --processes process's nodes, written once its DDS endpoints exist (they do not change
    afterwards) and again on ``update()``."""

    def __init__(self, dp, context, nodes: list, link) -> None:
        super().__init__(dp)
        self.context, self.nodes, self.link = context, list(nodes), link
        self.update()

    def update(self) -> None:
        readers = {**self.link.readers, **self.link.peer_readers}
        self.write(node_entities(self.context, self.nodes, readers, self.link.writers))
