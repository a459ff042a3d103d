"""One process's share of a multi-process run on DDS: its publications other processes read go
out as raw CDR on ``rt/<topic>`` (ROS 2 names, types and QoS, as the bridge writes them); the
topics its subscriptions need from other processes come in and are published in-process by a
proxy publisher with the remote writer's QoS, at the lockstep round that says they are there.

Scope: the writers are in the run's partition and in the default one (a ROS 2 tool on the domain
sees and can read what the run writes); the readers of samples from the other processes are in
the run's partition only and take samples only from the run's participants (the GUIDs the
authenticated hand-shake reported): another run on the domain, or a DDS peer, is never
delivered into the lockstep, and what such a writer sends is refused and reported. The readers
of ``peer`` topics (a ROS 2 node's commands) stay in the default partition, open to any peer.

Writes are counted in order (``take_order``: topic ids, :func:`process_plan.topic_table`); a
receiver delivers a round's samples in the writers' order, so delivery does not depend on
which DDS topic's sample arrived first.
"""
from __future__ import annotations

import time
from collections import deque
from types import SimpleNamespace
from typing import Callable

from cyclonedds.core import ReadCondition, WaitSet
from cyclonedds.pub import Publisher
from cyclonedds.qos import Policy, Qos
from cyclonedds.sub import Subscriber
from cyclonedds.util import duration
from zoo_runtime import introspection, messages

from .control import POLL_S
from .idl_types import service_struct
from .names import service_topics
from .process_plan import REPLY, REQUEST
from .qos_map import dds_qos
from .transport import _ANY, RawReader, RawWriter, WriterFilter


def qos_dict(profile) -> dict:
    """The policies a plan needs from a zoo_runtime QoSProfile, as plain strings."""
    return {'history': profile.history.name, 'depth': int(profile.depth),
            'reliability': profile.reliability.name, 'durability': profile.durability.name}


def qos_profile(d: dict):
    """A zoo_runtime QoSProfile back from :func:`qos_dict`."""
    from zoo_runtime.embedded import qos as q
    return q.QoSProfile(history=q.HistoryPolicy[d['history']], depth=d['depth'],
                        reliability=q.ReliabilityPolicy[d['reliability']],
                        durability=q.DurabilityPolicy[d['durability']])


def endpoints(context, nodes: list[str]) -> dict:
    """What the nodes of ``context`` publish, subscribe, serve and call (for the plan)."""
    snap = introspection.graph_snapshot(context)
    out: dict = {'pubs': {}, 'subs': {}, 'nodes': nodes}
    for name, topic in snap.topics.items():
        for kind, ends in (('pubs', topic.publishers), ('subs', topic.subscriptions)):
            ends = [e for e in ends if e.node is not None]
            if ends:
                out[kind][name] = {'type': topic.type_name,
                                   'qos': qos_dict(ends[0].qos_profile)}
    out['services'] = {name: ends[0].type_name for name, ends in snap.services.items() if ends}
    out['clients'] = {name: ends[0].type_name for name, ends in snap.clients.items()
                      if ends and any(e.node is not None for e in ends)}
    return out


class ProcessLink:
    """``executor`` runs the hidden node that holds the service proxies (only when the plan
    has services). ``partition``: the run's DDS partition; ``participants``: the GUIDs of the
    run's participants, the only writers whose samples the readers take; ``refused(where,
    source)`` counts and reports the others."""

    def __init__(self, context, dp, plan: dict, topics: list[str], executor=None,
                 proc: int = 0, *, partition: str, participants: list[str],
                 refused: Callable[[str, str], None]):
        self.context = context
        self.plan = plan
        self.ids = {t: i for i, t in enumerate(topics)}
        self.names = topics
        self.writers: dict[str, RawWriter] = {}
        self.readers: dict[str, RawReader] = {}
        self.proxies: dict[str, object] = {}
        self.sinks: dict[str, Callable[[bytes], None]] = {}  # what to do with a sample taken
        self.pending: dict[str, deque] = {}
        self.order: list[int] = []  # ids of the topics written since take_order()
        self.sent = 0
        self.received = 0
        self._delivering = False
        self._serialize = messages.serialize
        self._helper = None
        self._publisher = Publisher(dp, qos=Qos(Policy.Partition(partitions=[partition, ''])))
        self._subscriber = Subscriber(dp, qos=Qos(Policy.Partition(partitions=[partition])))
        self.accept = WriterFilter(participants, refused)
        for key, info in plan['out'].items():
            self.writers[key] = _open(RawWriter, dp, key, info, info['qos'], writer=True,
                                      publisher=self._publisher)
        self.waitset = WaitSet(dp)
        for key, info in plan['in'].items():
            # KEEP_ALL: every sample a round announces must be there to take (the in-process
            # subscription applies its own KEEP_LAST depth when the proxy publishes)
            reader = _open(RawReader, dp, key, info, dict(info['sub_qos'], history='KEEP_ALL'),
                           writer=False, subscriber=self._subscriber, accept=self.accept)
            self.readers[key] = reader
            self.waitset.attach(ReadCondition(reader.reader, _ANY))
            self.pending[key] = deque()
            if key.startswith((REQUEST, REPLY)):
                continue
            self.proxies[key] = proxy = self._proxy(key, info)
            self.sinks[key] = proxy.publish
        # a ROS 2 node's commands (plan 'peer'): the subscription's own QoS; taken at every tick
        # of this process (deliver_peers), as no lockstep round announces them
        self.peer_readers: dict[str, RawReader] = {}
        for key, info in plan.get('peer', {}).items():
            self.peer_readers[key] = _open(RawReader, dp, key, info, info['qos'], writer=False)
            self.proxies[key] = self._proxy(key, info)
        if any(k.startswith((REQUEST, REPLY)) for k in {*plan['in'], *plan['out']}):
            from .service_link import link_services
            self._helper = link_services(self, executor, proc)
        self._observer = context.add_publish_observer(self._on_publish, set(self.writers))

    def _proxy(self, topic: str, info: dict):
        return introspection.create_context_publisher(
            self.context, messages.get_message(info['type']), topic, qos_profile(info['qos']))

    # -- out ------------------------------------------------------------------------------------
    def _on_publish(self, topic: str, msg) -> None:
        writer = self.writers.get(topic)  # observers see every topic
        if writer is None or self._delivering:  # (a proxy re-publishing: not ours to send)
            return
        self.write(topic, self._serialize(msg))

    def write(self, key: str, cdr: bytes) -> None:
        """Write on a plan key (topic or service request/reply) and count it in the order."""
        self.writers[key].write(cdr)
        self.order.append(self.ids[key])
        self.sent += 1

    def replay_latched(self) -> None:
        """Write the history of transient-local publishers built before the link existed (a
        robot_description published in a constructor)."""
        for topic in self.writers:
            t = introspection.topic_view(self.context, topic)
            for pub in (t.publishers if t is not None else ()):
                if pub.node is not None:
                    for msg in introspection.latched(pub.entity):
                        self._on_publish(topic, msg)

    def take_order(self, wanted: set[int] | None = None) -> list[int]:
        """The ids written since the last call (only ``wanted`` ones, when given)."""
        order, self.order = self.order, []
        return order if wanted is None else [i for i in order if i in wanted]

    def wait_matched(self, timeout_s: float, alive: Callable[[], None]) -> None:
        """Until every writer sees the plan's remote readers and every reader its writers."""
        end = time.monotonic() + timeout_s
        while True:
            missing = [f'{t} (writer {w.matched()}/{self.plan["readers"].get(t, 0)})'
                       for t, w in self.writers.items()
                       if w.matched() < self.plan['readers'].get(t, 0)]
            missing += [f'{t} (reader {r.matched()}/{len(self.plan["in"][t]["from"])})'
                        for t, r in self.readers.items()
                        if r.matched() < len(self.plan['in'][t]['from'])]
            if not missing:
                return
            alive()
            if time.monotonic() > end:
                raise TimeoutError(f'DDS discovery incomplete after {timeout_s:g} s: '
                                   + ', '.join(missing[:5]))
            time.sleep(0.005)

    # -- in -------------------------------------------------------------------------------------
    def deliver(self, orders: dict, timeout_s: float, alive: Callable[[], None],
                before: Callable[[], None] = lambda: None) -> int:
        """Publish in-process what the other processes wrote for us, in their write orders
        (``{proc: [topic ids]}``, processes in ascending order); waits until it has arrived.
        ``before()`` runs first when there is something (the /clock of the tick)."""
        sequence = []
        need: dict[str, int] = {}
        for proc in sorted(orders, key=int):
            for i in orders[proc]:
                topic = self.names[i]
                info = self.plan['in'].get(topic)
                if info is not None and int(proc) in info['from']:
                    sequence.append(topic)
                    need[topic] = need.get(topic, 0) + 1
        if not sequence:
            return 0
        self._take_until(need, timeout_s, alive)
        before()
        self._delivering = True
        try:
            for key in sequence:
                self.sinks[key](self.pending[key].popleft())
        finally:
            self._delivering = False
        self.received += len(sequence)
        return len(sequence)

    def deliver_peers(self, before: Callable[[], None] = lambda: None) -> int:
        """Publish in-process what DDS peers (ROS 2 nodes) wrote on the peer topics since the
        last call; ``before()`` runs first when there is something (the tick's /clock). They
        arrive at whichever tick takes them: a run a peer commands is not deterministic."""
        n = 0
        for key, reader in self.peer_readers.items():
            samples = reader.take(256)
            if samples and not n:
                before()
            self._delivering = True
            try:
                for cdr in samples:
                    self.proxies[key].publish(cdr)
            finally:
                self._delivering = False
            n += len(samples)
        self.received += n
        return n

    def _take_until(self, need: dict[str, int], timeout_s: float, alive) -> None:
        end = None
        while True:
            # every reader, so that the wait below does not return at once for a sample nobody
            # announced (a DDS peer's): it queues up and goes out with a later round
            for key, reader in self.readers.items():
                self.pending[key].extend(reader.take(256))
            if all(len(self.pending[key]) >= n for key, n in need.items()):
                return
            if end is None:
                end = time.monotonic() + timeout_s
            alive()
            if time.monotonic() > end:
                late = {t: f'{len(self.pending[t])}/{n}' for t, n in need.items()
                        if len(self.pending[t]) < n}
                raise TimeoutError(f'samples announced by the lockstep did not arrive in '
                                   f'{timeout_s:g} s: {late}')
            self.waitset.wait(duration(seconds=POLL_S / 10))

    def close(self) -> None:
        try:
            self.context.remove_publish_observer(self._observer)
        except KeyError:
            pass
        for pub in self.proxies.values():
            pub.destroy()
        self.proxies.clear()
        self.sinks.clear()
        if self._helper is not None:
            self._helper.destroy_node()
            self._helper = None
        self.readers.clear()
        self.peer_readers.clear()
        self.writers.clear()


def _open(cls, dp, key: str, info: dict, qos: dict, *, writer: bool, **scope):
    """A RawWriter/RawReader for a plan key: a topic (``rt/<topic>``, the message type) or a
    service's request or reply (``rq/<name>Request`` / ``rr/<name>Reply``, the service's
    request or response type led by the request header). ``scope``: its publisher or
    subscriber and filter (RawWriter/RawReader's keywords)."""
    type_name = info['type']
    if key.startswith((REQUEST, REPLY)):
        service, part = key[3:], 'Request' if key.startswith(REQUEST) else 'Response'
        request_topic, reply_topic = service_topics(service)
        return cls(dp, service, type_name, dds_qos(
            _ns(qos), writer=writer, type_hash=messages.rihs01(f'{type_name}_{part}'),
            ignore_local=not writer),
            dds_name=request_topic if part == 'Request' else reply_topic,
            struct=service_struct(type_name, part), **scope)
    return cls(dp, key, type_name, dds_qos(_ns(qos), writer=writer,
                                           type_hash=messages.rihs01(type_name),
                                           ignore_local=not writer), **scope)


def _ns(q: dict) -> SimpleNamespace:
    """A QoS dict in the shape qos_map.dds_qos reads."""
    return SimpleNamespace(history=q['history'], depth=q['depth'], reliability=q['reliability'],
                           durability=q['durability'])
