"""zoo_runtime.introspection: the public view of the embedded graph, latched history, context
publishers and declared parameters that the sibling packages use instead of private attributes."""
from __future__ import annotations

import pytest
from zoo_runtime import introspection


def _latched_qos(rt, depth):
    q = rt.rclpy.qos
    return q.QoSProfile(depth=depth, durability=q.DurabilityPolicy.TRANSIENT_LOCAL)


def test_graph_snapshot_lists_endpoints_with_their_nodes(embedded_rt):
    rt = embedded_rt
    String = rt.msg('std_msgs/msg/String')
    a, b = rt.node('talker'), rt.node('listener')
    pub = a.create_publisher(String, 'chatter', 10)
    sub = b.create_subscription(String, 'chatter', lambda m: None, 5)
    a.create_service(rt.srv('std_srvs/srv/Trigger'), 'reset', lambda req, res: res)
    b.create_client(rt.srv('std_srvs/srv/Trigger'), 'reset')

    snap = introspection.graph_snapshot(rt.context)
    chatter = snap.topics['/chatter']
    assert chatter.type_name == 'std_msgs/msg/String'
    assert [(e.entity, e.node) for e in chatter.publishers] == [(pub, a)]
    assert [(e.entity, e.node) for e in chatter.subscriptions] == [(sub, b)]
    assert chatter.subscriptions[0].qos_profile.depth == 5
    assert snap.publishers_of('/chatter') == chatter.publishers
    assert introspection.topic_view(rt.context, '/chatter') == chatter
    assert introspection.topic_view(rt.context, '/nothing') is None
    assert snap.publishers_of('/nothing') == () == snap.subscriptions_of('/nothing')
    [srv] = snap.services['/reset']
    assert (srv.node, srv.type_name, srv.qos_profile) == (a, 'std_srvs/srv/Trigger', None)
    assert [e.node for e in snap.clients['/reset']] == [b]

    # a snapshot: later changes do not show in it, a new one has them
    pub.destroy()
    assert snap.publishers_of('/chatter')[0].entity is pub
    assert introspection.graph_snapshot(rt.context).publishers_of('/chatter') == ()
    with pytest.raises(Exception):
        chatter.publishers[0].node = None  # frozen


def test_latched_is_the_transient_local_history(embedded_rt):
    rt = embedded_rt
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('latcher')
    latched = node.create_publisher(Int32, 'latched', _latched_qos(rt, 2))
    volatile = node.create_publisher(Int32, 'volatile', 10)
    for i in range(3):
        latched.publish(Int32(data=i))
        volatile.publish(Int32(data=i))
    got = introspection.latched(latched)
    assert [m.data for m in got] == [1, 2]
    got.clear()  # a copy
    assert len(introspection.latched(latched)) == 2
    assert introspection.latched(volatile) == []


def test_context_publisher_has_no_node_and_delivers(embedded_rt):
    rt = embedded_rt
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('hearer')
    got = []
    node.create_subscription(Int32, 'proxied', lambda m: got.append(m.data), 10)
    pub = introspection.create_context_publisher(rt.context, Int32, '/proxied',
                                                 rt.rclpy.qos.QoSProfile(depth=10))
    [end] = introspection.graph_snapshot(rt.context).publishers_of('/proxied')
    assert end.entity is pub and end.node is None
    assert pub.get_subscription_count() == 1
    pub.publish(Int32(data=7))
    assert rt.spin_until(rt.executor(node), lambda: got == [7])
    pub.destroy()
    assert introspection.graph_snapshot(rt.context).publishers_of('/proxied') == ()
    with pytest.raises(RuntimeError):
        pub.publish(Int32(data=8))


def test_declared_parameters_origins_and_undeclared(embedded_rt):
    rt = embedded_rt
    Parameter = rt.rclpy.parameter.Parameter
    node = rt.node('params', parameter_overrides=[Parameter('gain', value=2.0),
                                                  Parameter('typo', value=1)])
    node.declare_parameter('gain', 1.0)
    node.declare_parameter('b.c', 'x')
    assert introspection.declared_parameters(node) == ['b.c', 'gain', 'use_sim_time']
    assert introspection.parameter_origins(node) == {'gain': 'parameter_overrides',
                                                     'typo': 'parameter_overrides'}
    assert not introspection.allows_undeclared_parameters(node)
    assert introspection.allows_undeclared_parameters(
        rt.node('loose', allow_undeclared_parameters=True))
