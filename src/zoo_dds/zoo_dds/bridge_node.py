"""``zoo_dds/dds_bridge``: a running scenario's topics on DDS under ROS 2's names.

Out: each topic of ``publish`` is subscribed in-process as raw CDR and written to DDS topic
``rt/<topic>`` with type ``<pkg>::msg::dds_::<Type>_`` and the QoS of the topic's in-process
publisher mapped as rmw_cyclonedds does (:mod:`.qos_map`). In: each topic of ``subscribe`` is
read from DDS every ``poll_period`` s of sim time and published in-process (the QoS of the
in-process subscription). A topic is ``/name`` (its type taken from the in-process graph, once
the topic exists) or ``/name:pkg/msg/Type``; ``{robot}`` expands to the ``robot`` parameter.

Time: DDS peers live on wall time. Run the scenario paced (``physics: {real_time_factor: 1.0}``
or ``--real-time-factor 1``); unpaced, the bridge still works but warns once with the measured
sim/wall ratio (stamps and /clock then run fast, commands arrive at sparser sim times). Under
real ROS 2 the rmw already puts every topic on DDS: the node then only says so and does nothing.
"""
from __future__ import annotations

import time

from zoo_runtime import EMBEDDED, introspection, messages, parameter_schema, rclpy
from zoo_runtime.entry import spin_node

from .names import dds_topic, dds_type, split_type
from .qos_map import dds_qos

Node = rclpy.node.Node
QoSProfile = rclpy.qos.QoSProfile
SCHEMA = parameter_schema.load('zoo_dds', 'dds_bridge')
DEFAULT_PUBLISH = SCHEMA.entries['publish'].default      # the schema's, for --processes
DEFAULT_SUBSCRIBE = SCHEMA.entries['subscribe'].default
PACE_CHECK_S = 2.0     # sim seconds before the paced/unpaced verdict
UNPACED_RATIO = 1.5    # sim/wall above this: warn


def parse_entry(entry: str, robot: str) -> tuple[str, str | None]:
    """``'/t'`` or ``'/t:pkg/msg/T'`` (``{robot}`` expanded) -> (topic, type or None)."""
    topic, _, type_name = entry.replace('{robot}', robot).partition(':')
    dds_topic(topic)  # validates
    if type_name:
        split_type(type_name)
    return topic, type_name or None


def _strings(p: dict, name: str) -> list[str]:
    """A string-list parameter that may also be empty (``[]`` has no element type in ROS)."""
    value = p[name]
    if isinstance(value, (bytes, bytearray)) and not value:
        return []
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(f'dds_bridge: parameter {name} = {value!r}: expected a list of topics')
    return list(value)


class DdsBridge(Node):
    def __init__(self, **kwargs):
        super().__init__('dds_bridge', **kwargs)
        p = SCHEMA.declare(self)
        robot, domain, config = p['robot'], p['domain_id'], p['cyclonedds_uri']
        self.poll_period = p['poll_period']
        out = [parse_entry(e, robot) for e in _strings(p, 'publish')]
        into = [parse_entry(e, robot) for e in _strings(p, 'subscribe')]
        both = {t for t, _ in out} & {t for t, _ in into}
        if both:
            raise ValueError(f'dds_bridge: {", ".join(sorted(both))} in both publish and '
                             'subscribe (would echo back and forth)')
        self.sent: dict[str, int] = {}
        self.received: dict[str, int] = {}
        self.ratio: float | None = None
        if not EMBEDDED:
            self.get_logger().info('under ROS 2 the rmw already publishes every topic on DDS '
                                   '(rt/<topic>): the bridge does nothing')
            return
        from .transport import domain_id_from_env, participant
        self.domain_id = domain if domain >= 0 else domain_id_from_env()
        self.dp = participant(self.domain_id, config)
        self._pending_out = dict(out)
        self._pending_in = dict(into)
        self._readers: list = []  # (topic, RawReader, in-process publisher)
        self._writers: dict = {}
        self._pace0: tuple[float, int] | None = None
        from .ros_graph import DiscoveryInfoWriter
        self._graph = DiscoveryInfoWriter(self.dp)  # `ros2 node list` sees the bridge
        self._announced: int | None = None  # how many endpoints the last announcement held
        self._resolve_topics()
        self.create_timer(self.poll_period, self._poll)
        self.get_logger().info(
            f'DDS domain {self.domain_id}: out {", ".join(t for t, _ in out) or "-"}; in '
            f'{", ".join(t for t, _ in into) or "-"} (as rt/<topic>)')

    # -- topics ---------------------------------------------------------------------------------
    def _inside(self, topic: str, kind: str) -> tuple[str | None, object | None]:
        """(type, QoS of the first in-process publisher/subscription) of ``topic``."""
        t = introspection.topic_view(self.context, topic)
        if t is None:
            return None, None
        ends = [e for e in getattr(t, kind) if e.node is not self]
        return t.type_name, (ends[0].qos_profile if ends else None)

    def _resolve_topics(self) -> None:
        self._add_resolved()
        if self._announced != len(self._writers) + len(self._readers):
            self._announce()

    def _announce(self) -> None:
        """This node with its DDS readers and writers on ros_discovery_info (as rmw does when
        an endpoint is added)."""
        from .ros_graph import gid
        self._announced = len(self._writers) + len(self._readers)
        self._graph.write([(self.get_namespace(), self.get_name(),
                            [gid(r.reader) for _, r, _ in self._readers],
                            [gid(w.writer) for w in self._writers.values()])])

    def _add_resolved(self) -> None:
        for topic, type_name in list(self._pending_out.items()):
            found, qos = self._inside(topic, 'publishers')
            type_name = type_name or found
            if type_name is None:
                continue
            del self._pending_out[topic]
            self._add_out(topic, type_name, qos or QoSProfile(depth=10))
        for topic, type_name in list(self._pending_in.items()):
            found, qos = self._inside(topic, 'subscriptions')
            type_name = type_name or found
            if type_name is None:
                continue
            del self._pending_in[topic]
            self._add_in(topic, type_name, qos or QoSProfile(depth=10))

    def _add_out(self, topic: str, type_name: str, qos) -> None:
        from .transport import RawWriter
        writer = RawWriter(self.dp, topic, type_name,
                           dds_qos(qos, writer=True, type_hash=messages.rihs01(type_name)))
        self._writers[topic] = writer
        self.sent[topic] = 0
        write, sent = writer.write, self.sent

        def forward(cdr: bytes) -> None:
            write(cdr)
            sent[topic] += 1

        msg_type = messages.get_message(type_name)
        self.create_subscription(msg_type, topic, forward, qos, raw=True)
        self.get_logger().debug(f'{topic} -> {dds_topic(topic)} ({dds_type(type_name)})')

    def _add_in(self, topic: str, type_name: str, qos) -> None:
        from .transport import RawReader
        reader = RawReader(self.dp, topic, type_name,
                           dds_qos(qos, writer=False, type_hash=messages.rihs01(type_name),
                                   ignore_local=True))
        pub = self.create_publisher(messages.get_message(type_name), topic, qos)
        self._readers.append((topic, reader, pub))
        self.received[topic] = 0

    # -- polling --------------------------------------------------------------------------------
    def _poll(self) -> None:
        if self._pending_out or self._pending_in:
            self._resolve_topics()
        for topic, reader, pub in self._readers:
            for cdr in reader.take():
                try:
                    pub.publish(cdr)
                except Exception as exc:  # a malformed sample must not end the run
                    self.get_logger().warning(f'{dds_topic(topic)}: undecodable sample '
                                              f'({exc}); dropped', throttle_duration_sec=1.0)
                    continue
                self.received[topic] += 1
        self._check_pace()

    def _check_pace(self) -> None:
        now = self.get_clock().now().nanoseconds
        if self._pace0 is None:
            self._pace0 = (time.monotonic(), now)
            return
        if self.ratio is not None:
            return
        wall0, sim0 = self._pace0
        if now - sim0 < PACE_CHECK_S * 1e9:
            return
        self.ratio = (now - sim0) / 1e9 / max(time.monotonic() - wall0, 1e-9)
        if self.ratio > UNPACED_RATIO:
            self.get_logger().warning(
                f'sim time runs {self.ratio:.1f}x wall time (unpaced run): DDS peers see '
                'stamps and /clock run fast and their commands land at sparser sim times; '
                'pace it with physics: {real_time_factor: 1.0} or --real-time-factor 1')
        for topic in {**self._pending_out, **self._pending_in}:
            self.get_logger().warning(f'{topic}: no such topic in the scenario yet (no type); '
                                      'give it as /topic:pkg/msg/Type')

    def robozoo_metrics(self) -> dict:
        return {'domain_id': getattr(self, 'domain_id', None), 'sent': dict(self.sent),
                'received': dict(self.received), 'sim_to_wall': self.ratio}

    def destroy_node(self) -> None:
        dp = getattr(self, 'dp', None)
        if dp is not None:
            self._graph.close()
            self._readers.clear()
            self._writers.clear()
            from .transport import close
            close(dp)
            self.dp = None
        super().destroy_node()


def main(args=None) -> None:
    spin_node(DdsBridge, args)
