"""Names: namespaces, private names, remapping (topic, node-targeted, node name, namespace)."""
from __future__ import annotations

import pytest


def _topics(node):
    return [p.topic_name for p in node.publishers]


def test_relative_private_and_absolute_names_in_a_namespace(rt):
    String = rt.msg('std_msgs/msg/String')
    node = rt.node('walker', namespace='/nao')
    rel = node.create_publisher(String, 'joint_states', 10)
    priv = node.create_publisher(String, '~/debug', 10)
    absolute = node.create_publisher(String, '/tf', 10)
    assert rel.topic_name == '/nao/joint_states'
    assert priv.topic_name == '/nao/walker/debug'
    assert absolute.topic_name == '/tf'
    assert node.get_fully_qualified_name() == '/nao/walker'
    assert node.resolve_topic_name('~/x') == '/nao/walker/x'


def test_relative_namespace_is_made_absolute(rt):
    node = rt.node('n', namespace='robot/arm')
    assert node.get_namespace() == '/robot/arm'


def test_topic_remapping_with_cli_args(rt):
    String = rt.msg('std_msgs/msg/String')
    talker = rt.node('talker', cli_args=['--ros-args', '-r', 'chatter:=/speech'])
    listener = rt.node('listener')
    got = []
    listener.create_subscription(String, 'speech', lambda m: got.append(m.data), 10)
    pub = talker.create_publisher(String, 'chatter', 10)
    assert pub.topic_name == '/speech'
    ex = rt.executor(talker, listener)
    assert rt.spin_until(ex, lambda: pub.get_subscription_count() == 1)
    pub.publish(String(data='hi'))
    assert rt.spin_until(ex, lambda: got == ['hi'])


def test_remapping_applies_to_services_and_private_names(rt):
    SetBool = rt.srv('std_srvs/srv/SetBool')
    node = rt.node('svc', cli_args=['--ros-args', '--remap', '~/enable:=/motors/enable',
                                    '-r', 'reset:=/world/reset'])
    srv = node.create_service(SetBool, '~/enable', lambda req, resp: resp)
    cli = node.create_client(SetBool, 'reset')
    # rcl matches a rule by expanding both sides first (rcl/src/rcl/remap.c), so '~/enable'
    # remaps the private name; rclpy keeps `srv_name` as the caller wrote it and reports the
    # resolved name as `service_name` (ros2/rclpy jazzy rclpy/rclpy/service.py, client.py).
    assert srv.srv_name == '~/enable' and cli.srv_name == 'reset'
    assert srv.service_name == '/motors/enable'
    assert cli.service_name == '/world/reset'
    assert node.resolve_service_name('reset') == '/world/reset'
    assert node.resolve_service_name('~/enable') == '/motors/enable'


def test_node_targeted_rules_only_touch_their_node(embedded_rt):
    rt = embedded_rt
    context = rt.rclpy.context.Context()
    rt.rclpy.init(args=['--ros-args', '-r', 'left:cmd:=left_cmd', '-r', 'left:__ns:=/arms'],
                  context=context)
    try:
        left = rt.rclpy.create_node('left', context=context)
        right = rt.rclpy.create_node('right', context=context)
        String = rt.msg('std_msgs/msg/String')
        assert left.create_publisher(String, 'cmd', 10).topic_name == '/arms/left_cmd'
        assert right.create_publisher(String, 'cmd', 10).topic_name == '/cmd'
        assert left.get_namespace() == '/arms' and right.get_namespace() == '/'
    finally:
        context.try_shutdown()


def test_node_name_and_namespace_remapping(rt):
    node = rt.node('original', namespace='/a',
                   cli_args=['--ros-args', '-r', '__node:=renamed', '-r', '__ns:=/b'])
    assert node.get_name() == 'renamed'
    assert node.get_namespace() == '/b'
    assert node.resolve_topic_name('~/x') == '/b/renamed/x'
    assert node.get_logger().name == 'b.renamed'


def test_global_remaps_apply_to_every_node_local_rules_first(rt):
    context = rt.rclpy.context.Context()
    rt.rclpy.init(args=['prog', '--ros-args', '-r', 'odom:=/global_odom'], context=context)
    try:
        a = rt.rclpy.create_node('a', context=context)
        b = rt.rclpy.create_node('b', context=context, cli_args=['--ros-args', '-r',
                                                                  'odom:=/local_odom'])
        c = rt.rclpy.create_node('c', context=context, use_global_arguments=False)
        assert a.resolve_topic_name('odom') == '/global_odom'
        assert b.resolve_topic_name('odom') == '/local_odom'
        assert c.resolve_topic_name('odom') == '/odom'
        for node in (a, b, c):
            node.destroy_node()
    finally:
        context.try_shutdown()


def test_remove_ros_args_keeps_user_arguments(rt):
    args = ['prog', 'scenario.yaml', '--ros-args', '-r', 'a:=b', '--', '--fast']
    assert rt.rclpy.utilities.remove_ros_args(args) == ['prog', 'scenario.yaml', '--fast']


@pytest.mark.parametrize('bad', ['1abc', 'with space', 'a//b', 'trailing/', 'a~b'])
def test_invalid_topic_names_raise_naming_the_name(rt, bad):
    node = rt.node('validator')
    with pytest.raises(Exception) as err:
        node.create_publisher(rt.msg('std_msgs/msg/String'), bad, 10)
    if rt.embedded:
        assert repr(bad) in str(err.value)


@pytest.mark.parametrize('bad', ['1node', 'my-node', ''])
def test_invalid_node_names_raise(rt, bad):
    with pytest.raises(Exception) as err:
        rt.node(bad)
    if rt.embedded:
        assert 'node name' in str(err.value)


def test_name_substitutions(embedded_rt):
    node = embedded_rt.node('cam', namespace='/head')
    assert node.resolve_topic_name('{node}/image') == '/head/cam/image'
