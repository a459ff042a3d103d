"""A public view of the embedded world (``zoo_runtime.embedded``) for the workspace's tools:
the run's graph, a transient-local publisher's latched messages, publishers a context owns, a
node's declared parameters. What the siblings (zoo_dds, zoo_live, zoo_scenario) need, so that
none reads a private attribute of zoo_runtime.

Embedded only: under real ROS 2 the graph is the rmw's (``Node.get_publishers_info_by_topic``
and friends) and none of this applies.

```python
from zoo_runtime import introspection
snap = introspection.graph_snapshot(context)
for name, topic in snap.topics.items():
    topic.type_name, [e.node for e in topic.publishers], topic.subscriptions
for pub in snap.publishers_of('/robot_description'):
    introspection.latched(pub.entity)   # the messages a late subscriber would get
```
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ['Endpoint', 'TopicView', 'GraphSnapshot', 'graph_snapshot', 'topic_view', 'latched',
           'create_context_publisher', 'declared_parameters', 'parameter_origins',
           'allows_undeclared_parameters']


@dataclass(frozen=True)
class Endpoint:
    """One publisher, subscription, service or client of the graph."""
    entity: object  # the Publisher, Subscription, Service or Client itself
    node: object | None  # its node; None for one the context owns (the lockstep's /clock,
    #                      a publisher made by create_context_publisher)
    type_name: str  # 'pkg/msg/T' (topics) or 'pkg/srv/T' (services, clients)
    qos_profile: object | None  # None for services and clients


@dataclass(frozen=True)
class TopicView:
    name: str
    type_name: str
    publishers: tuple[Endpoint, ...]
    subscriptions: tuple[Endpoint, ...]


@dataclass(frozen=True)
class GraphSnapshot:
    """The graph at one instant (taken under the graph's lock; later changes do not show)."""
    topics: dict[str, TopicView]
    services: dict[str, tuple[Endpoint, ...]]
    clients: dict[str, tuple[Endpoint, ...]]

    def publishers_of(self, topic: str) -> tuple[Endpoint, ...]:
        t = self.topics.get(topic)
        return () if t is None else t.publishers

    def subscriptions_of(self, topic: str) -> tuple[Endpoint, ...]:
        t = self.topics.get(topic)
        return () if t is None else t.subscriptions


def _endpoint(entity, type_name: str, qos: bool) -> Endpoint:
    return Endpoint(entity, entity._node, type_name,
                    entity.qos_profile if qos else None)


def graph_snapshot(context) -> GraphSnapshot:
    """Every topic of ``context`` (an embedded Context) with its publishers and subscriptions,
    and every service and client, each endpoint with its node."""
    graph = context._graph
    with graph.lock:
        topics = {name: topic_view(context, name) for name in graph.topics}
        services = {name: tuple(_endpoint(e, e._type_name, False) for e in ends)
                    for name, ends in graph.services.items()}
        clients = {name: tuple(_endpoint(e, e._type_name, False) for e in ends)
                   for name, ends in graph.clients.items()}
    return GraphSnapshot(topics, services, clients)


def topic_view(context, topic: str) -> TopicView | None:
    """One topic of ``context`` as :func:`graph_snapshot` gives it (None if it has no
    endpoint), without the cost of the whole graph."""
    graph = context._graph
    with graph.lock:
        t = graph.topics.get(topic)
        if t is None:
            return None
        return TopicView(topic, t.type_name,
                         tuple(_endpoint(e, t.type_name, True) for e in t.publishers),
                         tuple(_endpoint(e, t.type_name, True) for e in t.subscriptions))


def latched(publisher) -> list:
    """The messages a transient-local ``publisher`` keeps for late-joining subscriptions, oldest
    first (a copy); ``[]`` for a volatile one."""
    history = getattr(publisher, '_history', None)
    return list(history) if history else []


def create_context_publisher(context, msg_type, topic: str, qos_profile):
    """A publisher that belongs to ``context`` and no node (a proxy for messages that come from
    elsewhere, as the lockstep's /clock), in the graph at once. ``destroy()`` removes it."""
    from .embedded.publisher import Publisher
    pub = Publisher(None, msg_type, topic, qos_profile, context=context)
    context._graph.add_publisher(pub)
    return pub


# -- parameters ---------------------------------------------------------------------------------
def declared_parameters(node) -> list[str]:
    """The names of the parameters ``node`` has declared (and those auto-declared from its
    overrides), sorted."""
    return sorted(node._parameters)


def parameter_origins(node) -> dict[str, str]:
    """Where each override given to ``node`` came from (a parameter file, the command line),
    by parameter name; overrides for parameters the node never declares included."""
    return dict(getattr(node, '_override_origins', {}))


def allows_undeclared_parameters(node) -> bool:
    """Whether ``node`` was made with ``allow_undeclared_parameters=True``."""
    return bool(getattr(node, '_allow_undeclared_parameters', True))
