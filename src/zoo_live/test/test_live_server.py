"""LiveServer on a bare embedded context: channels for every topic, serialisation only for what a
client subscribes to, latched topics re-sent on subscription, one-line errors."""
from __future__ import annotations

import asyncio
import socket

import pytest
import zoo_runtime.embedded as rclpy
from foxglove_client import receive
from zoo_runtime.embedded.qos import DurabilityPolicy, QoSProfile
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.std_msgs.msg import String

from zoo_live import LiveError, LiveServer


@pytest.fixture
def node():
    context = rclpy.context.Context()
    rclpy.init(args=[], context=context)
    n = rclpy.node.Node('talker', context=context)
    yield n
    n.destroy_node()
    context.shutdown()


def test_serialises_only_what_a_client_subscribes_to(node):
    latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    desc = node.create_publisher(String, '/r/robot_description', latched)
    desc.publish(String(data='<robot name="r"/>'))  # before the server: re-sent on subscribe
    js = node.create_publisher(JointState, '/r/joint_states', 10)
    with LiveServer(node.context, port=0) as live:
        assert js.get_subscription_count() == 0 and not node.context._publish_observers

        async def client():
            task = asyncio.create_task(receive(live.url, ['/r/joint_states',
                                                          '/r/robot_description']))
            while js.get_subscription_count() == 0:  # subscribed: the publisher has an audience
                await asyncio.sleep(0.01)
            js.publish(JointState(name=['a'], position=[0.5]))
            return await task
        info, channels, got = asyncio.run(client())
        assert {'time', 'clientPublish', 'services', 'parameters'} <= set(info['capabilities'])
        assert channels['/r/joint_states']['schemaName'] == 'sensor_msgs/msg/JointState'
        assert got['/r/robot_description'].data == '<robot name="r"/>'
        assert list(got['/r/joint_states'].name) == ['a']
        assert list(got['/r/joint_states'].position) == [0.5]
        assert live.sent == {'/r/robot_description': 1, '/r/joint_states': 1}
    assert not node.context._publish_observers  # the client left, the server closed


def test_a_taken_port_is_one_line():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        s.listen()
        port = s.getsockname()[1]
        context = rclpy.context.Context()
        with pytest.raises(LiveError) as err:
            LiveServer(context, port=port)
    assert str(err.value) == (
        f'--live: port {port} on 127.0.0.1 is taken (another robozoo run --live, or a Foxglove '
        'bridge?); choose another with --live-port PORT, or 0 for any free one')


def test_client_publish_feeds_only_the_runs_topics_with_their_type(node):
    from types import SimpleNamespace

    from zoo_runtime import messages

    from zoo_live.client_publish import ClientPublish
    got, lines = [], []
    node.create_subscription(JointState, '/r/joint_commands', got.append, 10)
    executor = rclpy.executors.SingleThreadedExecutor(context=node.context)
    executor.add_node(node)
    feed = ClientPublish(node.context, lines.append)

    def channel(cid, topic, schema, encoding='cdr'):
        return SimpleNamespace(id=cid, topic=topic, schema_name=schema, encoding=encoding)
    assert feed.advertise(1, channel(1, '/r/joint_commands', 'sensor_msgs/JointState'))
    assert not feed.advertise(1, channel(2, '/r/joint_commands', 'std_msgs/msg/String'))
    assert not feed.advertise(1, channel(3, '/r/joint_commands', 'sensor_msgs/JointState', 'json'))
    assert lines == [
        "live: client channel '/r/joint_commands' refused: schema 'std_msgs/msg/String', but the "
        'topic has type sensor_msgs/msg/JointState',
        "live: client channel '/r/joint_commands' refused: encoding 'json', expected 'cdr'"]
    data = messages.serialize(JointState(name=['a'], position=[0.25]))
    feed.message(1, 1, data)
    feed.message(1, 2, data)  # a refused channel: dropped
    executor.spin_once(timeout_sec=1.0)
    executor.spin_once(timeout_sec=0)
    assert [(list(m.name), list(m.position)) for m in got] == [(['a'], [0.25])]
    feed.message(1, 1, b'\x00\x01')
    assert lines[-1].startswith('live: a message on /r/joint_commands is not CDR of '
                                'sensor_msgs/msg/JointState: ')
    feed.close()
