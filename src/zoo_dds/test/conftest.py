"""Fixtures: an embedded context with a lockstep executor, and a random DDS domain id so
parallel test runs on one host never meet (Cyclone over loopback, unicast discovery)."""
from __future__ import annotations

import os
import random

import pytest

os.environ.setdefault('ZOO_RUNTIME', 'embedded')


@pytest.fixture
def domain_id() -> int:
    return random.Random().randrange(100, 232)


@pytest.fixture
def world():
    """(context, make_node, executor); everything is destroyed afterwards."""
    from zoo_runtime import rclpy
    from zoo_runtime.embedded.executors import LockstepExecutor
    context = rclpy.context.Context()
    rclpy.init(args=[], context=context)
    executor = LockstepExecutor(context=context)
    nodes: list = []

    def make(cls_or_name, **params):
        P = rclpy.parameter.Parameter
        overrides = [P('use_sim_time', value=True)] + [P(k, value=v) for k, v in params.items()]
        if isinstance(cls_or_name, str):
            node = rclpy.create_node(cls_or_name, context=context,
                                     parameter_overrides=overrides)
        else:
            node = cls_or_name(context=context, parameter_overrides=overrides)
        nodes.append(node)
        executor.add_node(node)
        return node

    yield context, make, executor
    for node in reversed(nodes):
        node.destroy_node()
    rclpy.try_shutdown(context=context)
