"""The embedded rclpy: rclpy's API for robozoo nodes, in-process, without ROS 2.

``from zoo_runtime import rclpy`` selects this module when the real rclpy is not importable (or
``ZOO_RUNTIME=embedded``). Nodes, publishers/subscriptions, services/clients, timers, parameters
(with YAML files), loggers, QoS, remapping and sim time follow rclpy's names and semantics; the
differences are documented where they live (executors run callbacks sequentially; messages are
passed by reference, so never mutate a message after publishing it). ``executors`` also offers
``LockstepExecutor``, which runs nodes and a physics engine on one deterministic timeline.
"""
from __future__ import annotations

import threading

from . import (callback_groups, client, clock, clock_type, context, duration, exceptions,
               executors, logging, node, parameter, publisher, qos, service, subscription, task,
               time, timer, topic_endpoint_info, utilities)
from .context import Context, get_default_context
from .executors import Executor, SingleThreadedExecutor
from .node import Node
from .task import Future
from .utilities import ok, remove_ros_args

__all__ = ['init', 'shutdown', 'try_shutdown', 'ok', 'create_node', 'spin', 'spin_once',
           'spin_until_future_complete', 'get_global_executor', 'get_default_context',
           'remove_ros_args', 'Context', 'Node', 'Future',
           'callback_groups', 'client', 'clock', 'clock_type', 'context', 'duration',
           'exceptions', 'executors', 'logging', 'node', 'parameter', 'publisher', 'qos',
           'service', 'subscription', 'task', 'time', 'timer', 'topic_endpoint_info',
           'utilities']

_global_executor: Executor | None = None
_global_lock = threading.Lock()


class InitContextManager:
    """What init() returns: ``with rclpy.init(): ...`` shuts the context down on exit."""

    def __init__(self, context: Context):
        self.context = context

    def __enter__(self) -> InitContextManager:
        return self

    def __exit__(self, *exc) -> None:
        self.context.try_shutdown()


def init(args: list[str] | None = None, *, context: Context | None = None,
         domain_id: int | None = None, signal_handler_options=None) -> InitContextManager:
    """Initialize a context (the default one if None) with global ``--ros-args``."""
    context = get_default_context() if context is None else context
    context.init(args, domain_id=domain_id)
    return InitContextManager(context)


def shutdown(*, context: Context | None = None, uninstall_handlers: bool | None = None) -> None:
    global _global_executor
    if context is None or context is get_default_context():
        context = get_default_context(shutting_down=True)
    context.shutdown()
    with _global_lock:
        if _global_executor is not None and _global_executor.context is context:
            _global_executor.shutdown()
            _global_executor = None


def try_shutdown(*, context: Context | None = None, uninstall_handlers: bool | None = None
                 ) -> None:
    global _global_executor
    if context is None or context is get_default_context():
        context = get_default_context(shutting_down=True)
    context.try_shutdown()
    with _global_lock:
        if _global_executor is not None and _global_executor.context is context:
            _global_executor.shutdown()
            _global_executor = None


def get_global_executor() -> Executor:
    global _global_executor
    with _global_lock:
        if _global_executor is None or _global_executor.context is not get_default_context():
            _global_executor = SingleThreadedExecutor()
        return _global_executor


def create_node(node_name: str, *, context: Context | None = None, cli_args=None,
                namespace: str | None = None, use_global_arguments: bool = True,
                enable_rosout: bool = True, start_parameter_services: bool = True,
                parameter_overrides=None, allow_undeclared_parameters: bool = False,
                automatically_declare_parameters_from_overrides: bool = False,
                enable_logger_service: bool = False) -> Node:
    return Node(node_name, context=context, cli_args=cli_args, namespace=namespace,
                use_global_arguments=use_global_arguments, enable_rosout=enable_rosout,
                start_parameter_services=start_parameter_services,
                parameter_overrides=parameter_overrides,
                allow_undeclared_parameters=allow_undeclared_parameters,
                automatically_declare_parameters_from_overrides=(
                    automatically_declare_parameters_from_overrides),
                enable_logger_service=enable_logger_service)


def spin(node: Node, executor: Executor | None = None) -> None:
    executor = get_global_executor() if executor is None else executor
    try:
        executor.add_node(node)
        while executor.context.ok():
            executor.spin_once()
    finally:
        executor.remove_node(node)


def spin_once(node: Node, *, executor: Executor | None = None,
              timeout_sec: float | None = None) -> None:
    executor = get_global_executor() if executor is None else executor
    try:
        executor.add_node(node)
        executor.spin_once(timeout_sec=timeout_sec)
    finally:
        executor.remove_node(node)


def spin_until_future_complete(node: Node, future: Future, executor: Executor | None = None,
                               timeout_sec: float | None = None) -> None:
    executor = get_global_executor() if executor is None else executor
    try:
        executor.add_node(node)
        executor.spin_until_future_complete(future, timeout_sec)
    finally:
        executor.remove_node(node)
