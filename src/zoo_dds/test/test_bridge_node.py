"""The bridge in-process (lockstep executor, unpaced) against a DDS peer participant in the same
process: out and in, the QoS of the in-process endpoints, late joiners of a transient-local
topic, overlapping lists and the unpaced-run verdict."""
import time

import pytest
from cyclonedds.core import DDSException
from cyclonedds.domain import DomainParticipant
from cyclonedds.sub import DataReader
from cyclonedds.qos import Policy
from cyclonedds.topic import Topic
from zoo_runtime import messages, rclpy

from zoo_dds.bridge_node import DdsBridge
from zoo_dds.idl_types import idl_struct
from zoo_dds.qos_map import dds_qos
from zoo_dds.transport import LOOPBACK_CONFIG, RawWriter

JS = 'sensor_msgs/msg/JointState'
Q = rclpy.qos
LATCHED = Q.QoSProfile(depth=1, durability=Q.DurabilityPolicy.TRANSIENT_LOCAL)
S = 1_000_000_000


@pytest.fixture
def scene(world, domain_id):
    """A robot 'robo' publishing joint states at 100 Hz and a latched description, a command
    listener, the bridge, and a peer participant on the same domain."""
    context, make, executor = world
    robot = make('robot')
    JointState = messages.get_message(JS)
    states = robot.create_publisher(JointState, '/robo/joint_states', 10)
    latched = robot.create_publisher(messages.get_message('std_msgs/msg/String'),
                                     '/robo/description', LATCHED)
    latched.publish(messages.get_message('std_msgs/msg/String')(data='<robot/>'))
    commands: list = []
    robot.create_subscription(JointState, '/robo/joint_commands', commands.append, 10)

    def tick() -> None:
        msg = JointState(name=['j1', 'j2'], position=[0.5, -0.5])
        msg.header.stamp = robot.get_clock().now().to_msg()
        states.publish(msg)

    robot.create_timer(0.01, tick)
    bridge = make(DdsBridge, robot='robo', domain_id=domain_id, cyclonedds_uri=LOOPBACK_CONFIG,
                  publish=['/{robot}/joint_states', '/{robot}/description', '/clock'])
    peer = DomainParticipant(domain_id)
    yield bridge, peer, executor, commands
    del peer


def _reader(peer, topic, type_name, profile):
    t = Topic(peer, 'rt' + topic, idl_struct(type_name),
              qos=dds_qos(profile, writer=False))
    return t, DataReader(peer, t, dds_qos(profile, writer=False))


def test_topics_go_out_under_ros_names_types_and_qos(scene):
    bridge, peer, executor, _ = scene
    topic, reader = _reader(peer, '/robo/joint_states', JS, Q.QoSProfile(depth=10))
    assert topic.typename == 'sensor_msgs::msg::dds_::JointState_'
    executor.spin_until(S // 10)
    samples = reader.take(100)
    assert len(samples) == 10  # 100 Hz for 0.1 s (keep last 10)
    assert samples[-1].name == ['j1', 'j2'] and samples[-1].position == [0.5, -0.5]
    assert samples[-1].header.stamp.nanosec == 100_000_000
    assert bridge.robozoo_metrics()['sent']['/robo/joint_states'] == 10
    qos = bridge._writers['/robo/joint_states'].writer.get_qos()
    assert str(qos[Policy.Userdata].data, 'ascii') == \
        f'typehash={messages.rihs01(JS)};'


def test_a_late_transient_local_reader_gets_the_latched_message(scene):
    _, peer, executor, _ = scene
    executor.spin_until(S // 10)
    _, reader = _reader(peer, '/robo/description', 'std_msgs/msg/String', LATCHED)
    assert [s.data for s in reader.take(10)] == ['<robot/>']


def test_commands_come_in_and_are_published_inside(scene):
    bridge, peer, executor, commands = scene
    writer = RawWriter(peer, '/robo/joint_commands', JS,
                       dds_qos(Q.QoSProfile(depth=10), writer=True))
    cmd = messages.get_message(JS)(name=['j1'], velocity=[1.25])
    writer.write(messages.serialize(cmd))
    with pytest.raises(DDSException, match='BAD_PARAMETER'):  # Cyclone checks CDR on write
        writer.write(b'\x00\x01\x00\x00\x07')
    executor.spin_until(S // 100)
    assert [(c.name, list(c.velocity)) for c in commands] == [(['j1'], [1.25])]
    assert bridge.robozoo_metrics()['received'] == {'/robo/joint_commands': 1}


def test_unpaced_run_is_measured_and_unknown_topics_wait(scene, world):
    _, make, _ = world
    bridge, _, executor, _ = scene
    late = make(DdsBridge, robot='robo', publish=['/robo/not_yet'], subscribe=[],
                domain_id=bridge.domain_id)
    executor.spin_until(3 * S)  # far faster than wall time
    assert bridge.ratio > 1.5 and late._pending_out == {'/robo/not_yet': None}


def test_a_topic_in_both_lists_is_refused(world, domain_id):
    _, make, _ = world
    with pytest.raises(ValueError, match='both publish and subscribe'):
        make(DdsBridge, domain_id=domain_id, publish=['/x'], subscribe=['/x'])


def test_the_bridge_announces_its_node_and_endpoints_on_ros_discovery_info(scene):
    """rmw_cyclonedds' ros_discovery_info (ros_graph): the bridge node with its DDS readers and
    writers, written again only when an endpoint is added, not at every poll."""
    from zoo_dds.ros_graph import _QOS, TOPIC, TYPE, gid
    from zoo_dds.transport import RawReader
    bridge, peer, executor, _ = scene
    reader = RawReader(peer, '/' + TOPIC, TYPE, dds_qos(_QOS, writer=False), dds_name=TOPIC)
    executor.spin_until(S)  # 1000 polls
    infos, end = [], time.monotonic() + 5.0
    while time.monotonic() < end and not (
            infos and len(infos[-1].node_entities_info_seq[0].writer_gid_seq) == 3):
        infos += [messages.typestore().deserialize_cdr(c, TYPE) for c in reader.take()]
        time.sleep(0.05)
    assert 1 <= len(infos) <= 2, len(infos)  # at start, and once /clock exists
    last = infos[-1]
    assert bytes(last.gid.data) == gid(bridge.dp)
    (node,) = last.node_entities_info_seq
    assert (node.node_namespace, node.node_name) == ('/', 'dds_bridge')
    assert {bytes(g.data) for g in node.writer_gid_seq} == {
        gid(w.writer) for w in bridge._writers.values()}
    assert [bytes(g.data) for g in node.reader_gid_seq] == [
        gid(r.reader) for _, r, _ in bridge._readers]
