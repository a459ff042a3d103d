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
