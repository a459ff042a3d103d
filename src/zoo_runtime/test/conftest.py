"""The ``rt`` fixture runs each runtime test against the embedded rclpy and, where it imports,
the real rclpy (skipped, not faked, when it does not)."""
from __future__ import annotations

import importlib
import time

import pytest


class Runtime:
    """One initialized context of one rclpy implementation, plus helpers that also work with
    real DDS latency."""

    def __init__(self, kind: str, rclpy, get_message, get_service):
        self.kind = kind
        self.embedded = kind == 'embedded'
        self.rclpy = rclpy
        self.msg = get_message
        self.srv = get_service
        self.context = rclpy.context.Context()
        rclpy.init(context=self.context)
        self._nodes: list = []
        self._executors: list = []

    def node(self, name: str, **kwargs):
        node = self.rclpy.create_node(name, context=self.context, **kwargs)
        self._nodes.append(node)
        return node

    def executor(self, *nodes):
        executor = self.rclpy.executors.SingleThreadedExecutor(context=self.context)
        for node in nodes:
            executor.add_node(node)
        self._executors.append(executor)
        return executor

    def spin_until(self, executor, predicate, timeout_sec: float = 5.0) -> bool:
        """Spin until ``predicate()`` holds; False on timeout."""
        end = time.monotonic() + timeout_sec
        while not predicate():
            if time.monotonic() > end:
                return False
            executor.spin_once(timeout_sec=0.05)
        return True

    def spin_for(self, executor, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            executor.spin_once(timeout_sec=0.01)

    def embedded_only(self, why: str) -> None:
        if not self.embedded:
            pytest.skip(f'embedded runtime only: {why}')

    def close(self) -> None:
        for executor in self._executors:
            executor.shutdown()
        for node in self._nodes:
            node.destroy_node()
        self.context.try_shutdown()


def _ros_interface(kind: str):
    def get(name: str):
        pkg, sub, typ = name.split('/')
        if sub != kind:
            raise LookupError(f'{name} is not a {kind} type')
        return getattr(importlib.import_module(f'{pkg}.{kind}'), typ)
    return get


@pytest.fixture(params=['embedded', 'ros'])
def rt(request):
    if request.param == 'ros':
        try:
            rclpy = importlib.import_module('rclpy')
        except ImportError:
            pytest.skip('real rclpy is not importable (no ROS 2 sourced)')
        from zoo_runtime import RCLPY_SUBMODULES
        for sub in RCLPY_SUBMODULES + ('utilities',):
            importlib.import_module(f'rclpy.{sub}')
        runtime = Runtime('ros', rclpy, _ros_interface('msg'), _ros_interface('srv'))
    else:
        from zoo_runtime import embedded
        from zoo_runtime.messages import get_message, get_service
        from zoo_runtime.embedded import logging as embedded_logging
        embedded_logging.clear_config()
        runtime = Runtime('embedded', embedded, get_message, get_service)
    yield runtime
    runtime.close()


@pytest.fixture
def embedded_rt(rt):
    """``rt``, but only for the embedded runtime (e.g. the lockstep executor)."""
    rt.embedded_only('this behaviour belongs to the embedded runtime')
    return rt
