"""The in-process ROS graph of one context: nodes, topics (with their publishers and
subscriptions) and services. Publishers hold a precomputed tuple of the subscriptions they
connect to, recomputed here whenever an endpoint appears or goes, so publishing never takes a
lock."""
from __future__ import annotations

import threading

from .exceptions import NodeNameNonExistentError
from .qos import _incompatible_policy
from .topic_endpoint_info import TopicEndpointInfo, TopicEndpointTypeEnum

__all__ = ['Graph', 'Topic']


class Topic:
    __slots__ = ('name', 'type_name', 'publishers', 'subscriptions')

    def __init__(self, name: str, type_name: str):
        self.name = name
        self.type_name = type_name
        self.publishers: list = []
        self.subscriptions: list = []


class Graph:
    def __init__(self):
        self.lock = threading.RLock()
        self.nodes: list = []
        self.topics: dict[str, Topic] = {}
        self.services: dict[str, list] = {}
        self.clients: dict[str, list] = {}
        # bumped on every change of endpoints (and of the context's publish observers), so that
        # Publisher.get_subscription_count can cache its answer between changes
        self.version = 0

    # -- topics ---------------------------------------------------------------------------------
    def _topic_for(self, name: str, type_name: str, what: str) -> Topic:
        topic = self.topics.get(name)
        if topic is None:
            topic = self.topics[name] = Topic(name, type_name)
        elif topic.type_name != type_name:
            raise TypeError(f"topic '{name}' carries {topic.type_name}; cannot add a {what} of "
                            f'{type_name}')
        return topic

    def add_publisher(self, pub) -> None:
        with self.lock:
            topic = self._topic_for(pub.topic_name, pub._type_name, 'publisher')
            topic.publishers.append(pub)
            self.version += 1
            for sub in topic.subscriptions:
                self._warn_if_incompatible(pub, sub)
            self._rewire(topic)

    def add_subscription(self, sub) -> None:
        with self.lock:
            topic = self._topic_for(sub.topic_name, sub._type_name, 'subscription')
            topic.subscriptions.append(sub)
            self.version += 1
            for pub in topic.publishers:
                self._warn_if_incompatible(pub, sub)
            self._rewire(topic)
            for pub in topic.publishers:
                if sub in pub._targets and pub._history is not None and sub._wants_history:
                    for msg in list(pub._history):
                        sub._deliver(msg, next(sub._seq))

    def remove_publisher(self, pub) -> None:
        with self.lock:
            topic = self.topics.get(pub.topic_name)
            if topic is not None and pub in topic.publishers:
                topic.publishers.remove(pub)
                self.version += 1
                pub._targets = ()
                self._drop_if_unused(topic)

    def remove_subscription(self, sub) -> None:
        with self.lock:
            topic = self.topics.get(sub.topic_name)
            if topic is not None and sub in topic.subscriptions:
                topic.subscriptions.remove(sub)
                self.version += 1
                self._rewire(topic)
                self._drop_if_unused(topic)

    def _drop_if_unused(self, topic: Topic) -> None:
        if not topic.publishers and not topic.subscriptions:
            del self.topics[topic.name]

    @staticmethod
    def _rewire(topic: Topic) -> None:
        for pub in topic.publishers:
            pub._targets = tuple(sub for sub in topic.subscriptions
                                 if _incompatible_policy(pub.qos_profile, sub.qos_profile) is None)

    @staticmethod
    def _warn_if_incompatible(pub, sub) -> None:
        policy = _incompatible_policy(pub.qos_profile, sub.qos_profile)
        if policy is None:
            return
        if sub._node is not None:
            sub._node.get_logger().warning(
                f"New publisher discovered on topic '{sub.topic_name}', offering incompatible "
                f'QoS. No messages will be received from it. Last incompatible policy: {policy}')
        if pub._node is not None:
            pub._node.get_logger().warning(
                f"New subscription discovered on topic '{pub.topic_name}', requesting "
                f'incompatible QoS. No messages will be sent to it. Last incompatible policy: '
                f'{policy}')

    def topic_names_and_types(self) -> list[tuple[str, list[str]]]:
        with self.lock:
            return sorted((name, [t.type_name]) for name, t in self.topics.items())

    def count(self, topic: str, kind: str) -> int:
        with self.lock:
            t = self.topics.get(topic)
            return 0 if t is None else len(getattr(t, kind))

    # -- services -------------------------------------------------------------------------------
    def add_endpoint(self, table: dict, name: str, entity) -> None:
        with self.lock:
            table.setdefault(name, []).append(entity)

    def remove_endpoint(self, table: dict, name: str, entity) -> None:
        with self.lock:
            entities = table.get(name)
            if entities and entity in entities:
                entities.remove(entity)
                if not entities:
                    del table[name]

    def server_for(self, name: str):
        """The service that answers calls to ``name`` (the first one created)."""
        servers = self.services.get(name)
        return servers[0] if servers else None

    def service_names_and_types(self) -> list[tuple[str, list[str]]]:
        with self.lock:
            return sorted((name, sorted({s._type_name for s in servers}))
                          for name, servers in self.services.items())

    # -- per node (rclpy's get_*_names_and_types_by_node) -------------------------------------
    def names_and_types_by_node(self, kind: str, node_name: str, namespace: str
                                ) -> list[tuple[str, list[str]]]:
        """``kind``: publishers, subscriptions, services or clients of the node; a node not in
        the graph raises as rclpy does."""
        with self.lock:
            if not any(n.get_name() == node_name and n.get_namespace() == namespace
                       for n in self.nodes):
                what = {'publishers': 'publisher', 'subscriptions': 'subscriber',
                        'services': 'service', 'clients': 'client'}[kind]
                raise NodeNameNonExistentError(
                    f'cannot get {what} names and types for nonexistent node: '
                    f'{namespace.rstrip("/")}/{node_name}')
            found: dict[str, set] = {}
            if kind in ('publishers', 'subscriptions'):
                for name, topic in self.topics.items():
                    if any(_of(e, node_name, namespace) for e in getattr(topic, kind)):
                        found.setdefault(name, set()).add(topic.type_name)
            else:
                for name, entities in getattr(self, kind).items():
                    for e in entities:
                        if _of(e, node_name, namespace):
                            found.setdefault(name, set()).add(e._type_name)
            return sorted((name, sorted(types)) for name, types in found.items())

    def endpoints_info(self, topic: str, kind: str) -> list:
        """rclpy's get_publishers_info_by_topic / get_subscriptions_info_by_topic."""
        endpoint_type = (TopicEndpointTypeEnum.PUBLISHER if kind == 'publishers'
                         else TopicEndpointTypeEnum.SUBSCRIPTION)
        with self.lock:
            t = self.topics.get(topic)
            return [] if t is None else [
                TopicEndpointInfo(e._node.get_name(), e._node.get_namespace(), t.type_name,
                                  endpoint_type, e.qos_profile)
                for e in getattr(t, kind) if e._node is not None]


def _of(entity, node_name: str, namespace: str) -> bool:
    node = entity._node
    return node is not None and node.get_name() == node_name and \
        node.get_namespace() == namespace
