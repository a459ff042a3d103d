"""Contexts and executors: init/shutdown rules, spin variants, guard conditions, nodes moving
between executors without losing queued messages."""
from __future__ import annotations

import threading
import time

import pytest


def test_context_lifecycle(rt):
    ctx = rt.rclpy.context.Context()
    assert not ctx.ok()
    with pytest.raises(rt.rclpy.exceptions.NotInitializedException):
        rt.rclpy.create_node('too_early', context=ctx)
    rt.rclpy.init(context=ctx)
    assert ctx.ok()
    with pytest.raises(RuntimeError):
        rt.rclpy.init(context=ctx)
    called = []
    ctx.on_shutdown(lambda: called.append(True))
    rt.rclpy.shutdown(context=ctx)
    assert not ctx.ok() and called == [True]
    rt.rclpy.try_shutdown(context=ctx)  # harmless the second time


def test_spin_once_times_out_without_work(rt):
    ex = rt.executor(rt.node('quiet'))
    t0 = time.monotonic()
    ex.spin_once(timeout_sec=0.05)
    assert time.monotonic() - t0 < 5.0  # returned (no work), did not hang


def test_messages_queued_before_add_node_are_delivered_in_order(embedded_rt):
    rt = embedded_rt
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('parked')
    other = rt.node('other')
    got = []
    node.create_subscription(Int32, 'p', lambda m: got.append(('p', m.data)), 10)
    other.create_subscription(Int32, 'q', lambda m: got.append(('q', m.data)), 10)
    pp = other.create_publisher(Int32, 'p', 10)
    pq = other.create_publisher(Int32, 'q', 10)
    ex = rt.executor(other)
    pp.publish(Int32(data=1))   # node not spun yet: waits in its subscription
    pq.publish(Int32(data=2))
    pp.publish(Int32(data=3))
    ex.add_node(node)
    rt.spin_for(ex, 0.05)
    assert got == [('p', 1), ('q', 2), ('p', 3)]


def test_node_moves_between_executors_with_its_queue(embedded_rt):
    rt = embedded_rt
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('mover')
    got = []
    node.create_subscription(Int32, 'm', lambda m: got.append(m.data), 10)
    pub = node.create_publisher(Int32, 'm', 10)
    first, second = rt.executor(node), rt.executor()
    pub.publish(Int32(data=1))
    second.add_node(node)  # takes the node (and its queued message) from `first`
    assert node.executor is second and first.get_nodes() == []
    first.spin_once(timeout_sec=0)
    assert got == []
    second.spin_once(timeout_sec=0)
    assert got == [1]


def test_module_level_spin_helpers(rt):
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('helpers')
    got = []
    node.create_subscription(Int32, 'h', lambda m: got.append(m.data), 10)
    pub = node.create_publisher(Int32, 'h', 10)
    ex = rt.rclpy.executors.SingleThreadedExecutor(context=rt.context)
    pub.publish(Int32(data=7))
    deadline = time.monotonic() + 5.0
    while not got and time.monotonic() < deadline:
        rt.rclpy.spin_once(node, executor=ex, timeout_sec=0.05)
    assert got == [7]


def test_multithreaded_executor_runs_callbacks(rt):
    node = rt.node('multi')
    count = [0]
    node.create_timer(0.005, lambda: count.__setitem__(0, count[0] + 1))
    ex = rt.rclpy.executors.MultiThreadedExecutor(num_threads=2, context=rt.context)
    ex.add_node(node)
    rt._executors.append(ex)
    assert rt.spin_until(ex, lambda: count[0] >= 3)


def test_guard_condition_runs_its_callback_when_triggered(rt):
    node = rt.node('guarded')
    hits = []
    guard = node.create_guard_condition(lambda: hits.append(threading.get_ident()))
    ex = rt.executor(node)
    threading.Timer(0.05, guard.trigger).start()
    assert rt.spin_until(ex, lambda: hits)
    assert hits == [threading.get_ident()]  # ran in the spinning thread


def test_callback_exceptions_propagate_out_of_spin(rt):
    node = rt.node('raiser')
    node.create_timer(0.001, lambda: 1 / 0)
    ex = rt.executor(node)
    with pytest.raises(ZeroDivisionError):
        for _ in range(1000):
            ex.spin_once(timeout_sec=0.01)


def test_spin_returns_when_the_context_shuts_down(rt):
    node = rt.node('stopper')
    ex = rt.executor(node)
    threading.Timer(0.1, rt.context.try_shutdown).start()
    thread = threading.Thread(target=ex.spin)
    thread.start()
    thread.join(timeout=10.0)
    assert not thread.is_alive()
