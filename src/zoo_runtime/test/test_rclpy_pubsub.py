"""Topics: delivery order, KEEP_LAST drops, latching, QoS matching, types, threads, graph."""
from __future__ import annotations

import threading
import time

import pytest


def _qos(rt, **kw):
    return rt.rclpy.qos.QoSProfile(**kw)


def test_messages_arrive_in_publish_order(rt):
    String = rt.msg('std_msgs/msg/String')
    node = rt.node('order')
    got = []
    node.create_subscription(String, 'chatter', lambda m: got.append(m.data), 50)
    pub = node.create_publisher(String, 'chatter', 50)
    ex = rt.executor(node)
    rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    for i in range(20):
        pub.publish(String(data=str(i)))
    assert rt.spin_until(ex, lambda: len(got) == 20)
    assert got == [str(i) for i in range(20)]


def test_callbacks_follow_global_publish_order_across_topics(embedded_rt):
    rt = embedded_rt
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('interleave')
    log = []
    node.create_subscription(Int32, 'a', lambda m: log.append(('a', m.data)), 10)
    node.create_subscription(Int32, 'b', lambda m: log.append(('b', m.data)), 10)
    pa = node.create_publisher(Int32, 'a', 10)
    pb = node.create_publisher(Int32, 'b', 10)
    for i in range(4):
        (pa if i % 2 == 0 else pb).publish(Int32(data=i))
    pa.publish(Int32(data=9))
    ex = rt.executor(node)
    while len(log) < 5:
        ex.spin_once(timeout_sec=0)
    assert log == [('a', 0), ('b', 1), ('a', 2), ('b', 3), ('a', 9)]


def test_keep_last_depth_drops_oldest_while_not_spun(rt):
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('depth')
    got = []
    node.create_subscription(Int32, 'n', lambda m: got.append(m.data), 3)
    pub = node.create_publisher(Int32, 'n', 100)
    ex = rt.executor(node)
    rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    for i in range(10):
        pub.publish(Int32(data=i))
    time.sleep(0.2 if not rt.embedded else 0)
    rt.spin_until(ex, lambda: len(got) >= 3, timeout_sec=2.0)
    rt.spin_for(ex, 0.2)
    assert got == [7, 8, 9]


def test_depth_drops_also_when_node_joins_executor_later(embedded_rt):
    rt = embedded_rt
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('late_spin')
    got = []
    node.create_subscription(Int32, 'n', lambda m: got.append(m.data), 2)
    pub = node.create_publisher(Int32, 'n', 10)
    for i in range(5):
        pub.publish(Int32(data=i))
    ex = rt.executor(node)
    rt.spin_for(ex, 0.05)
    assert got == [3, 4]


def test_transient_local_latches_last_depth_messages_to_late_joiners(rt):
    String = rt.msg('std_msgs/msg/String')
    latched = _qos(rt, depth=2,
                   durability=rt.rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)
    talker = rt.node('describer')
    pub = talker.create_publisher(String, 'robot_description', latched)
    for text in ('v1', 'v2', 'v3'):
        pub.publish(String(data=text))
    listener = rt.node('late_listener')
    late, volatile = [], []
    listener.create_subscription(String, 'robot_description', lambda m: late.append(m.data),
                                 latched)
    listener.create_subscription(String, 'robot_description',
                                 lambda m: volatile.append(m.data), 10)
    ex = rt.executor(talker, listener)
    assert rt.spin_until(ex, lambda: len(late) == 2)
    rt.spin_for(ex, 0.2)
    assert late == ['v2', 'v3']
    assert volatile == []
    pub.publish(String(data='v4'))
    assert rt.spin_until(ex, lambda: len(volatile) == 1 and len(late) == 3)
    assert late[-1] == volatile[-1] == 'v4'


@pytest.mark.parametrize('pub_kw, sub_kw', [
    ({'reliability': 'BEST_EFFORT'}, {'reliability': 'RELIABLE'}),
    ({'durability': 'VOLATILE'}, {'durability': 'TRANSIENT_LOCAL'}),
])
def test_incompatible_qos_pairs_do_not_connect(rt, pub_kw, sub_kw, capfd):
    qos = rt.rclpy.qos
    enums = {'reliability': qos.ReliabilityPolicy, 'durability': qos.DurabilityPolicy}

    def profile(kw):
        return qos.QoSProfile(depth=10, **{k: enums[k][v] for k, v in kw.items()})

    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('qos_mismatch')
    got = []
    node.create_subscription(Int32, 'x', lambda m: got.append(m.data), profile(sub_kw))
    pub = node.create_publisher(Int32, 'x', profile(pub_kw))
    ex = rt.executor(node)
    for i in range(3):
        pub.publish(Int32(data=i))
        rt.spin_for(ex, 0.05)
    assert got == []
    if rt.embedded:
        err = capfd.readouterr().err
        policy = next(iter(pub_kw)).upper()
        assert f'Last incompatible policy: {policy}' in err
        assert "topic '/x'" in err


def test_best_effort_subscription_accepts_reliable_publisher(rt):
    qos = rt.rclpy.qos
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('qos_ok')
    got = []
    node.create_subscription(Int32, 'x', lambda m: got.append(m.data),
                             qos.qos_profile_sensor_data)
    pub = node.create_publisher(Int32, 'x', 10)
    ex = rt.executor(node)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    pub.publish(Int32(data=5))
    assert rt.spin_until(ex, lambda: got == [5])


def test_type_mismatch_on_a_topic_names_topic_and_both_types(embedded_rt):
    rt = embedded_rt
    node = rt.node('types')
    node.create_publisher(rt.msg('std_msgs/msg/String'), 'mixed', 10)
    with pytest.raises(TypeError) as err:
        node.create_subscription(rt.msg('std_msgs/msg/Int32'), 'mixed', lambda m: None, 10)
    text = str(err.value)
    assert "'/mixed'" in text and 'std_msgs/msg/String' in text and 'std_msgs/msg/Int32' in text


def test_publishing_a_wrong_message_type_is_rejected(rt):
    node = rt.node('wrong_msg')
    pub = node.create_publisher(rt.msg('std_msgs/msg/String'), 'w', 10)
    with pytest.raises(TypeError):
        pub.publish(rt.msg('std_msgs/msg/Int32')(data=1))


def test_publish_from_another_thread_wakes_a_waiting_spin(rt):
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('threaded')
    got = []
    node.create_subscription(Int32, 't', lambda m: got.append(m.data), 10)
    pub = node.create_publisher(Int32, 't', 10)
    ex = rt.executor(node)
    rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    sender = threading.Timer(0.2, lambda: pub.publish(Int32(data=42)))
    sender.start()
    try:
        ex.spin_once(timeout_sec=30.0)  # returns as soon as the message is handled
        if not got:  # real DDS may wake for discovery traffic first
            rt.spin_until(ex, lambda: got, timeout_sec=5.0)
    finally:
        sender.join()
    assert got == [42]


def test_messages_from_many_threads_all_arrive(rt):
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('fan_in')
    got = []
    node.create_subscription(Int32, 'f', lambda m: got.append(m.data),
                             rt.rclpy.qos.QoSProfile(
                                 history=rt.rclpy.qos.HistoryPolicy.KEEP_ALL))
    pub = node.create_publisher(Int32, 'f', rt.rclpy.qos.QoSProfile(
        history=rt.rclpy.qos.HistoryPolicy.KEEP_ALL))
    ex = rt.executor(node)
    rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    threads = [threading.Thread(target=lambda k=k: [pub.publish(Int32(data=k * 1000 + i))
                                                    for i in range(200)]) for k in range(4)]
    for t in threads:
        t.start()
    assert rt.spin_until(ex, lambda: len(got) == 800, timeout_sec=10.0)
    for t in threads:
        t.join()
    for k in range(4):  # each thread's messages keep their order
        mine = [v for v in got if v // 1000 == k]
        assert mine == sorted(mine) and len(mine) == 200


def test_destroyed_subscription_gets_nothing_more(rt):
    Int32 = rt.msg('std_msgs/msg/Int32')
    node = rt.node('destroy')
    got = []
    sub = node.create_subscription(Int32, 'd', lambda m: got.append(m.data), 10)
    pub = node.create_publisher(Int32, 'd', 10)
    ex = rt.executor(node)
    rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    pub.publish(Int32(data=1))
    assert rt.spin_until(ex, lambda: got == [1])
    pub.publish(Int32(data=2))
    assert node.destroy_subscription(sub)
    rt.spin_for(ex, 0.1)
    assert got == [1]
    assert node.count_subscribers('d') == 0


def test_graph_introspection(rt):
    String = rt.msg('std_msgs/msg/String')
    a = rt.node('graph_a', namespace='robot')
    b = rt.node('graph_b')
    a.create_publisher(String, 'status', 10)
    a.create_publisher(String, 'status', 10)
    b.create_subscription(String, '/robot/status', lambda m: None, 10)
    ex = rt.executor(a, b)
    # over DDS each participant discovers the others in its own time: wait for every view
    assert rt.spin_until(ex, lambda: (b.count_publishers('/robot/status') == 2
                                      and a.count_subscribers('status') == 1
                                      and b.count_subscribers('/robot/status') == 1))
    topics = dict(b.get_topic_names_and_types())
    assert topics['/robot/status'] == ['std_msgs/msg/String']
    assert {'graph_a', 'graph_b'} <= set(b.get_node_names())
    assert ('graph_a', '/robot') in a.get_node_names_and_namespaces()


# Every real rclpy node has these; the embedded runtime has no /rosout, parameter services or
# type description service (README, "Not implemented"), so they are left out of comparisons.
_NODE_BUILTINS = ('/rosout', '/parameter_events', '/describe_parameters', '/get_parameter_types',
                  '/get_parameters', '/get_type_description', '/list_parameters',
                  '/set_parameters', '/set_parameters_atomically')


def _user(names_and_types):
    return [(n, t) for n, t in names_and_types if not n.endswith(_NODE_BUILTINS)]


def test_graph_by_node_and_endpoint_info(rt):
    """rclpy's per-node and per-topic graph queries, remapped and private names resolved."""
    String, SetBool = rt.msg('std_msgs/msg/String'), rt.srv('std_srvs/srv/SetBool')
    a = rt.node('by_node_a', namespace='robot')
    b = rt.node('by_node_b', cli_args=['--ros-args', '-r', 'chat:=/remapped'])
    a.create_publisher(String, 'status', 10)
    b.create_subscription(String, 'chat', lambda m: None, 10)
    a.create_service(SetBool, '~/toggle', lambda req, resp: resp)
    b.create_client(SetBool, '/robot/by_node_a/toggle')
    ex = rt.executor(a, b)
    assert b.wait_for_node('/robot/by_node_a', 5.0)
    assert not b.wait_for_node('/robot/nobody', 0.1)
    assert rt.spin_until(ex, lambda: b.count_subscribers('/remapped') == 1 and
                         b.count_clients('/robot/by_node_a/toggle') == 1 and
                         len(b.get_publishers_info_by_topic('/robot/status')) == 1)
    str_t, bool_t = ['std_msgs/msg/String'], ['std_srvs/srv/SetBool']
    assert _user(b.get_publisher_names_and_types_by_node('by_node_a', '/robot')) == [
        ('/robot/status', str_t)]
    assert b.get_subscriber_names_and_types_by_node('by_node_b', '/') == [('/remapped', str_t)]
    assert _user(a.get_service_names_and_types_by_node('by_node_a', '/robot')) == [
        ('/robot/by_node_a/toggle', bool_t)]
    assert a.get_client_names_and_types_by_node('by_node_b', '/') == [
        ('/robot/by_node_a/toggle', bool_t)]
    assert b.get_subscriber_names_and_types_by_node('by_node_a', '/robot') == []
    with pytest.raises(Exception, match='nonexistent node') as err:
        b.get_publisher_names_and_types_by_node('nobody', '/')
    assert err.type.__name__ == 'NodeNameNonExistentError'
    assert ('/robot/by_node_a/toggle', bool_t) in b.get_service_names_and_types()
    [info] = b.get_publishers_info_by_topic('/robot/status')
    assert (info.node_name, info.node_namespace, info.topic_type) == (
        'by_node_a', '/robot', 'std_msgs/msg/String')
    assert info.endpoint_type == rt.rclpy.topic_endpoint_info.TopicEndpointTypeEnum.PUBLISHER
    assert info.qos_profile.depth == 10
    [info] = a.get_subscriptions_info_by_topic('/remapped')
    assert (info.node_name, info.endpoint_type.name) == ('by_node_b', 'SUBSCRIPTION')
    assert a.get_subscriptions_info_by_topic('status') == []  # relative: expanded for `a`


def test_messages_are_passed_by_reference(embedded_rt):
    """Intra-process rule: the subscriber gets the published object (so never mutate it)."""
    rt = embedded_rt
    String = rt.msg('std_msgs/msg/String')
    node = rt.node('zero_copy')
    got = []
    node.create_subscription(String, 'z', got.append, 10)
    pub = node.create_publisher(String, 'z', 10)
    msg = String(data='same object')
    pub.publish(msg)
    rt.spin_until(rt.executor(node), lambda: got)
    assert got[0] is msg


def test_a_publish_observer_counts_as_a_subscriber_of_its_topics():
    """A bag recorder is a subscriber in ROS 2; publishers that build messages only for an
    audience (get_subscription_count) build them for a recorder too."""
    from zoo_runtime.embedded import context as ctx_mod, node as node_mod
    from zoo_runtime.interfaces.std_msgs.msg import String
    ctx = ctx_mod.Context()
    ctx.init(args=[])
    try:
        n = node_mod.Node('counting', context=ctx)
        pub, other = n.create_publisher(String, '/a', 10), n.create_publisher(String, '/b', 10)
        assert pub.get_subscription_count() == 0
        handle = ctx.add_publish_observer(lambda topic, msg: None, topics=['/a'])
        assert (pub.get_subscription_count(), other.get_subscription_count()) == (1, 0)
        everything = ctx.add_publish_observer(lambda topic, msg: None)
        assert (pub.get_subscription_count(), other.get_subscription_count()) == (2, 1)
        ctx.remove_publish_observer(handle)
        ctx.remove_publish_observer(everything)
        assert pub.get_subscription_count() == 0
    finally:
        ctx.try_shutdown()


def test_the_subscription_count_follows_the_graph_when_asked_repeatedly():
    """get_subscription_count is cached between graph changes (nodes ask it before every state
    message they build): a subscription or publisher appearing or going updates it."""
    from zoo_runtime.embedded import context as ctx_mod, node as node_mod
    from zoo_runtime.interfaces.std_msgs.msg import String
    ctx = ctx_mod.Context()
    ctx.init(args=[])
    try:
        n = node_mod.Node('counting', context=ctx)
        pub = n.create_publisher(String, '/a', 10)
        assert [pub.get_subscription_count() for _ in range(3)] == [0, 0, 0]
        sub = n.create_subscription(String, '/a', lambda msg: None, 10)
        n.create_subscription(String, '/b', lambda msg: None, 10)  # another topic: no change
        assert [pub.get_subscription_count() for _ in range(2)] == [1, 1]
        second = n.create_publisher(String, '/a', 10)
        assert (pub.get_subscription_count(), second.get_subscription_count()) == (1, 1)
        n.destroy_subscription(sub)
        assert pub.get_subscription_count() == second.get_subscription_count() == 0
    finally:
        ctx.try_shutdown()
