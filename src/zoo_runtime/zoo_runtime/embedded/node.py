"""rclpy.node.Node for the embedded runtime: entities, names, parameters, clock, graph queries.

Topic and service names are expanded (relative, ``~/private``, ``{node}``) and then remapped with
the node's ``cli_args`` rules first and the context's global rules second; ``__node:=`` and
``__ns:=`` rename the node. Every node declares ``use_sim_time`` (bool, default False); when true
its clock follows /clock.
"""
from __future__ import annotations

import time as _time
from typing import Iterator

from .arguments import first_match, parse_arguments, remap_name
from .callback_groups import CallbackGroup, MutuallyExclusiveCallbackGroup
from .client import Client
from .clock import Clock, ROSClock
from .context import Context, get_default_context
from .exceptions import NotInitializedException
from .guard_condition import GuardCondition
from .logging import RcutilsLogger, get_logger
from .names import (expand_topic_name, fully_qualified_node_name, logger_name,
                    normalize_namespace, validate_node_name)
from .node_parameters import NodeParameters
from .parameter_files import resolve_overrides
from .publisher import Publisher
from .qos import QoSProfile, as_profile, qos_profile_services_default
from .service import Service
from .subscription import Subscription
from .time_source import TimeSource
from .timer import Rate, Timer

__all__ = ['Node']


class Node(NodeParameters):
    def __init__(self, node_name: str, *, context: Context | None = None,
                 cli_args: list[str] | None = None, namespace: str | None = None,
                 use_global_arguments: bool = True, enable_rosout: bool = True,
                 rosout_qos_profile=None, start_parameter_services: bool = True,
                 parameter_overrides=None, allow_undeclared_parameters: bool = False,
                 automatically_declare_parameters_from_overrides: bool = False,
                 enable_logger_service: bool = False):
        self._context = get_default_context() if context is None else context
        if not self._context.ok():
            raise NotInitializedException('cannot create node')
        validate_node_name(node_name)
        namespace = normalize_namespace(namespace)
        local = parse_arguments(cli_args)
        local.apply_log_levels()
        global_args = self._context._arguments if use_global_arguments else None
        self._rule_sets = [local.remaps] + ([global_args.remaps] if global_args else [])
        rule = first_match(self._rule_sets, 'node', node_name)
        name = rule.replacement if rule else node_name
        rule = first_match(self._rule_sets, 'ns', node_name)
        self._name = name
        self._namespace = rule.replacement if rule else namespace
        self._logger = get_logger(logger_name(self._namespace, self._name))

        sections = (global_args.parameters if global_args else []) + local.parameters
        overrides = resolve_overrides(sections, self.get_fully_qualified_name())
        for p in parameter_overrides or ():
            overrides[p.name] = (p.value, 'parameter_overrides')
        self._init_parameters(overrides, allow_undeclared_parameters,
                              automatically_declare_parameters_from_overrides)

        self._executor = None
        self._publishers: list[Publisher] = []
        self._subscriptions: list[Subscription] = []
        self._services: list[Service] = []
        self._clients: list[Client] = []
        self._timers: list[Timer] = []
        self._guards: list[GuardCondition] = []
        self._default_callback_group = MutuallyExclusiveCallbackGroup()
        self._destroyed = False
        with self._context._graph.lock:
            self._context._graph.nodes.append(self)
        self._clock = ROSClock()
        self._time_source = TimeSource(node=self)
        self._time_source.attach_clock(self._clock)

    # -- identity ---------------------------------------------------------------------------
    def get_name(self) -> str:
        return self._name

    def get_namespace(self) -> str:
        return self._namespace

    def get_fully_qualified_name(self) -> str:
        return fully_qualified_node_name(self._namespace, self._name)

    def get_logger(self) -> RcutilsLogger:
        return self._logger

    def get_clock(self) -> Clock:
        return self._clock

    @property
    def context(self) -> Context:
        return self._context

    @property
    def handle(self):
        return self

    @property
    def default_callback_group(self) -> CallbackGroup:
        return self._default_callback_group

    @property
    def executor(self):
        return self._executor

    @executor.setter
    def executor(self, new_executor) -> None:
        if new_executor is self._executor:
            return
        if self._executor is not None:
            self._executor.remove_node(self)
        if new_executor is not None:
            new_executor.add_node(self)

    @property
    def publishers(self) -> Iterator[Publisher]:
        yield from self._publishers

    @property
    def subscriptions(self) -> Iterator[Subscription]:
        yield from self._subscriptions

    @property
    def clients(self) -> Iterator[Client]:
        yield from self._clients

    @property
    def services(self) -> Iterator[Service]:
        yield from self._services

    @property
    def timers(self) -> Iterator[Timer]:
        yield from self._timers

    @property
    def guards(self) -> Iterator[GuardCondition]:
        yield from self._guards

    def _receivers(self) -> list:
        return self._subscriptions + self._services + self._clients + self._guards

    # -- names ------------------------------------------------------------------------------
    def resolve_topic_name(self, topic: str, *, only_expand: bool = False) -> str:
        return self._resolve(topic, only_expand, is_service=False)

    def resolve_service_name(self, service: str, *, only_expand: bool = False) -> str:
        return self._resolve(service, only_expand, is_service=True)

    def _resolve(self, name: str, only_expand: bool, *, is_service: bool) -> str:
        expanded = expand_topic_name(name, self._name, self._namespace, is_service=is_service)
        if only_expand:
            return expanded
        return remap_name(self._rule_sets, expanded, self._name, self._namespace,
                          is_service=is_service)

    def _check_alive(self) -> None:
        if self._destroyed:
            raise RuntimeError(f"node '{self.get_fully_qualified_name()}' was destroyed")

    def _attach(self, entity, group) -> None:
        (group or self._default_callback_group).add_entity(entity)
        if self._executor is not None and hasattr(entity, '_bind'):
            entity._bind(self._executor)

    # -- entities ---------------------------------------------------------------------------
    def create_publisher(self, msg_type, topic: str, qos_profile: QoSProfile | int, *,
                         callback_group: CallbackGroup | None = None, event_callbacks=None,
                         qos_overriding_options=None, publisher_class=None) -> Publisher:
        self._check_alive()
        qos = as_profile(qos_profile, f"publisher on '{topic}'")
        pub = (publisher_class or Publisher)(self, msg_type, self.resolve_topic_name(topic), qos,
                                             callback_group, event_callbacks)
        self._context._graph.add_publisher(pub)
        self._publishers.append(pub)
        self._attach(pub, callback_group)
        return pub

    def create_subscription(self, msg_type, topic: str, callback, qos_profile: QoSProfile | int,
                            *, callback_group: CallbackGroup | None = None,
                            event_callbacks=None, qos_overriding_options=None,
                            raw: bool = False) -> Subscription:
        self._check_alive()
        if not callable(callback):
            raise TypeError(f"subscription to '{topic}': callback must be callable, got "
                            f'{callback!r}')
        qos = as_profile(qos_profile, f"subscription to '{topic}'")
        sub = Subscription(self, msg_type, self.resolve_topic_name(topic), callback,
                           callback_group or self._default_callback_group, qos, raw,
                           event_callbacks)
        self._subscriptions.append(sub)
        self._attach(sub, callback_group)
        self._context._graph.add_subscription(sub)
        return sub

    def create_service(self, srv_type, srv_name: str, callback, *,
                       qos_profile: QoSProfile = qos_profile_services_default,
                       callback_group: CallbackGroup | None = None) -> Service:
        self._check_alive()
        srv = Service(self, srv_type, srv_name, self.resolve_service_name(srv_name),
                      callback, callback_group or self._default_callback_group, qos_profile)
        self._services.append(srv)
        self._attach(srv, callback_group)
        graph = self._context._graph
        graph.add_endpoint(graph.services, srv.service_name, srv)
        return srv

    def create_client(self, srv_type, srv_name: str, *,
                      qos_profile: QoSProfile = qos_profile_services_default,
                      callback_group: CallbackGroup | None = None) -> Client:
        self._check_alive()
        cli = Client(self, srv_type, srv_name, self.resolve_service_name(srv_name),
                     qos_profile, callback_group or self._default_callback_group)
        self._clients.append(cli)
        self._attach(cli, callback_group)
        graph = self._context._graph
        graph.add_endpoint(graph.clients, cli.service_name, cli)
        return cli

    def create_timer(self, timer_period_sec: float, callback, callback_group=None,
                     clock: Clock | None = None, autostart: bool = True) -> Timer:
        self._check_alive()
        timer = Timer(callback, callback_group or self._default_callback_group,
                      round(float(timer_period_sec) * 1e9),
                      self._clock if clock is None else clock, context=self._context,
                      autostart=autostart, node=self, order=next(self._context._order))
        self._timers.append(timer)
        self._attach(timer, callback_group)
        if self._executor is not None:
            self._executor._timers_changed()
        return timer

    def create_guard_condition(self, callback, callback_group=None) -> GuardCondition:
        self._check_alive()
        guard = GuardCondition(self, callback, callback_group or self._default_callback_group)
        self._guards.append(guard)
        self._attach(guard, callback_group)
        return guard

    def create_rate(self, frequency: float, clock: Clock | None = None) -> Rate:
        if frequency <= 0:
            raise ValueError(f'create_rate: frequency must be > 0 Hz, got {frequency}')
        timer = Timer(None, None, round(1e9 / frequency),
                      self._clock if clock is None else clock, context=self._context)
        return Rate(timer, context=self._context)

    def _remove(self, entities: list, entity) -> bool:
        if entity not in entities:
            return False
        entities.remove(entity)
        entity._destroy()
        return True

    def destroy_publisher(self, publisher: Publisher) -> bool:
        return self._remove(self._publishers, publisher)

    def destroy_subscription(self, subscription: Subscription) -> bool:
        return self._remove(self._subscriptions, subscription)

    def destroy_service(self, service: Service) -> bool:
        return self._remove(self._services, service)

    def destroy_client(self, client: Client) -> bool:
        return self._remove(self._clients, client)

    def destroy_guard_condition(self, guard: GuardCondition) -> bool:
        return self._remove(self._guards, guard)

    def destroy_timer(self, timer: Timer) -> bool:
        removed = self._remove(self._timers, timer)
        if removed and self._executor is not None:
            self._executor._timers_changed()
        return removed

    def destroy_rate(self, rate: Rate) -> bool:
        rate.destroy()
        return True

    def destroy_node(self) -> None:
        if self._destroyed:
            return
        if self._executor is not None:
            self._executor.remove_node(self)
        self._time_source.destroy()
        for entities in (self._subscriptions, self._publishers, self._services, self._clients,
                         self._timers, self._guards):
            for entity in list(entities):
                entities.remove(entity)
                entity._destroy()
        graph = self._context._graph
        with graph.lock:
            if self in graph.nodes:
                graph.nodes.remove(self)
        self._destroyed = True

    # -- graph ------------------------------------------------------------------------------
    def get_node_names(self) -> list[str]:
        return [n.get_name() for n in self._context._graph.nodes]

    def get_node_names_and_namespaces(self) -> list[tuple[str, str]]:
        return [(n.get_name(), n.get_namespace()) for n in self._context._graph.nodes]

    def get_fully_qualified_node_names(self) -> list[str]:
        return [n.get_fully_qualified_name() for n in self._context._graph.nodes]

    def get_topic_names_and_types(self, no_demangle: bool = False
                                  ) -> list[tuple[str, list[str]]]:
        return self._context._graph.topic_names_and_types()

    def get_service_names_and_types(self) -> list[tuple[str, list[str]]]:
        return self._context._graph.service_names_and_types()

    def get_publisher_names_and_types_by_node(self, node_name: str, node_namespace: str,
                                              no_demangle: bool = False):
        return self._context._graph.names_and_types_by_node('publishers', node_name,
                                                            node_namespace)

    def get_subscriber_names_and_types_by_node(self, node_name: str, node_namespace: str,
                                               no_demangle: bool = False):
        return self._context._graph.names_and_types_by_node('subscriptions', node_name,
                                                            node_namespace)

    def get_service_names_and_types_by_node(self, node_name: str, node_namespace: str):
        return self._context._graph.names_and_types_by_node('services', node_name,
                                                            node_namespace)

    def get_client_names_and_types_by_node(self, node_name: str, node_namespace: str):
        return self._context._graph.names_and_types_by_node('clients', node_name,
                                                            node_namespace)

    def get_publishers_info_by_topic(self, topic_name: str, no_mangle: bool = False) -> list:
        return self._context._graph.endpoints_info(self._expanded(topic_name), 'publishers')

    def get_subscriptions_info_by_topic(self, topic_name: str, no_mangle: bool = False) -> list:
        return self._context._graph.endpoints_info(self._expanded(topic_name), 'subscriptions')

    def wait_for_node(self, fully_qualified_node_name: str, timeout: float) -> bool:
        """True once the node is in the graph (at once in-process, unless another thread
        creates it), False after ``timeout`` s."""
        name = fully_qualified_node_name if fully_qualified_node_name.startswith('/') \
            else '/' + fully_qualified_node_name
        deadline = _time.monotonic() + timeout
        while name not in self.get_fully_qualified_node_names():
            if _time.monotonic() >= deadline:
                return False
            _time.sleep(0.01)
        return True

    def _expanded(self, name: str, is_service: bool = False) -> str:
        return expand_topic_name(name, self._name, self._namespace, is_service=is_service)

    def count_publishers(self, topic_name: str) -> int:
        return self._context._graph.count(self._expanded(topic_name), 'publishers')

    def count_subscribers(self, topic_name: str) -> int:
        return self._context._graph.count(self._expanded(topic_name), 'subscriptions')

    def count_services(self, service_name: str) -> int:
        return len(self._context._graph.services.get(self._expanded(service_name, True), ()))

    def count_clients(self, service_name: str) -> int:
        return len(self._context._graph.clients.get(self._expanded(service_name, True), ()))

    def __repr__(self) -> str:
        return f'<Node {self.get_fully_qualified_name()}>'
