"""rosbag2/MCAP recording: what rosbags reads back is exactly what was written."""
import numpy as np
import pytest
import yaml
from rosbags.interfaces import QosDurability
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore, get_types_from_msg

import zoo_runtime
from zoo_runtime.bag import BagRecorder, BagWriter, qos_for_bag, read_bag
from zoo_runtime.messages import get_message

JointState = get_message('sensor_msgs/msg/JointState')
Imu = get_message('sensor_msgs/msg/Imu')
String = get_message('std_msgs/msg/String')
Header = get_message('std_msgs/msg/Header')
Time = get_message('builtin_interfaces/msg/Time')
NAMES = ['hip', 'knee', 'ankle']
N = 20


def joint_state(i):
    return JointState(header=Header(stamp=Time(sec=i // 10, nanosec=(i % 10) * 100_000_000)),
                      name=list(NAMES), position=[0.1 * i, 0.2 * i, 0.3 * i],
                      velocity=[float(i)] * 3, effort=[])


def imu(i):
    return Imu(header=Header(frame_id='imu'), orientation_covariance=[float(i)] * 9)


def write_sample_bag(path):
    """N joint states every 10 ms, N/2 IMU messages every 20 ms, 3 strings."""
    expected = {'/joint_states': [], '/imu': [], '/chatter': []}
    with BagWriter(path) as bag:
        for i in range(N):
            t = 1_000_000_000 + i * 10_000_000
            expected['/joint_states'].append((t, joint_state(i)))
            bag.write('/joint_states', joint_state(i), t)
            if i % 2 == 0:
                expected['/imu'].append((t + 1, imu(i)))
                bag.write('/imu', imu(i), t + 1)
            if i % 7 == 0:
                expected['/chatter'].append((t + 2, String(data=f'hello {i}')))
                bag.write('/chatter', String(data=f'hello {i}'), t + 2)
    return expected


def test_rosbags_reader_sees_exactly_what_was_written(tmp_path):
    path = tmp_path / 'run'
    expected = write_sample_bag(path)
    assert (path / 'run.mcap').read_bytes()[:8] == b'\x89MCAP0\r\n'
    meta = yaml.safe_load((path / 'metadata.yaml').read_text())['rosbag2_bagfile_information']
    assert meta['version'] == 9 and meta['storage_identifier'] == 'mcap'
    assert meta['message_count'] == N + N // 2 + 3
    oracle = get_typestore(Stores.EMPTY)
    with Reader(path) as reader:
        conns = {c.topic: c for c in reader.connections}
        assert {t: c.msgtype for t, c in conns.items()} == {
            '/joint_states': 'sensor_msgs/msg/JointState', '/imu': 'sensor_msgs/msg/Imu',
            '/chatter': 'std_msgs/msg/String'}
        assert conns['/chatter'].digest == (  # ros_stack.md section 11.3
            'RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18')
        for c in conns.values():
            oracle.register(get_types_from_msg(c.msgdef.data, c.msgtype))
        got = {t: [] for t in conns}
        for conn, t_ns, data in reader.messages():
            got[conn.topic].append((t_ns, oracle.deserialize_cdr(data, conn.msgtype)))
    for topic, items in expected.items():
        assert [t for t, _ in got[topic]] == [t for t, _ in items]
    for (_, rb), (_, msg) in zip(got['/joint_states'], expected['/joint_states']):
        assert rb.name == NAMES
        assert rb.position.tolist() == list(msg.position)
        assert rb.velocity.tolist() == list(msg.velocity) and len(rb.effort) == 0
        assert (rb.header.stamp.sec, rb.header.stamp.nanosec) == (
            msg.header.stamp.sec, msg.header.stamp.nanosec)
    for (_, rb), (_, msg) in zip(got['/imu'], expected['/imu']):
        assert rb.header.frame_id == 'imu'
        assert rb.orientation_covariance.tolist() == msg.orientation_covariance.tolist()
        assert rb.orientation.w == 1.0
    assert [rb.data for _, rb in got['/chatter']] == ['hello 0', 'hello 7', 'hello 14']


def test_read_bag_arrays(tmp_path):
    path = tmp_path / 'run'
    expected = write_sample_bag(path)
    tables = read_bag(path)
    assert sorted(tables) == ['/chatter', '/imu', '/joint_states']
    js = tables['/joint_states']
    assert len(js) == N and js.type_name == 'sensor_msgs/msg/JointState'
    np.testing.assert_array_equal(js.t_ns, [t for t, _ in expected['/joint_states']])
    np.testing.assert_allclose(js.t, 1.0 + 0.01 * np.arange(N), rtol=0, atol=1e-12)
    assert js['position'].shape == (N, 3)
    np.testing.assert_array_equal(js['position'], [list(m.position)
                                                   for _, m in expected['/joint_states']])
    assert js['name'] == NAMES
    np.testing.assert_allclose(js['header.stamp'], 0.1 * np.arange(N), atol=1e-12)
    assert js['effort'].shape == (N, 0)
    assert js.msgs == [m for _, m in expected['/joint_states']]
    im = tables['/imu']
    assert im['orientation_covariance'].shape == (N // 2, 9)
    np.testing.assert_array_equal(im['orientation.w'], np.ones(N // 2))
    assert im['header.frame_id'] == ['imu'] * (N // 2)
    assert tables['/chatter']['data'] == ['hello 0', 'hello 7', 'hello 14']
    only = read_bag(path, topics=['/imu'])
    assert list(only) == ['/imu']
    with pytest.raises(KeyError, match=r'no topic /odom in the bag; it has: /chatter, /imu, '
                                       r'/joint_states'):
        read_bag(path, topics=['/odom'])
    with pytest.raises(KeyError, match=r"has no column 'positions'"):
        js['positions']


def test_ragged_sequences_and_varying_names(tmp_path):
    path = tmp_path / 'ragged'
    with BagWriter(path) as bag:
        bag.write('/js', JointState(name=['a'], position=[1.0]), 10)
        bag.write('/js', JointState(name=['a', 'b'], position=[1.0, 2.0]), 20)
    js = read_bag(path)['/js']
    assert js['name'] == [['a'], ['a', 'b']]
    assert [p.tolist() for p in js['position']] == [[1.0], [1.0, 2.0]]


def test_writer_refuses_to_overwrite_and_checks_input(tmp_path):
    path = tmp_path / 'once'
    with BagWriter(path) as bag:
        bag.write('/chatter', String(data='x'), 5)
        with pytest.raises(TypeError, match=r'topic /chatter is recorded as std_msgs/msg/String, '
                                            r'not sensor_msgs/msg/Imu'):
            bag.write('/chatter', Imu(), 6)
        with pytest.raises(ValueError, match=r'must be a non-negative int of nanoseconds'):
            bag.write('/chatter', String(), 1.5)
    with pytest.raises(FileExistsError, match=r'already exists there; bags are never overwritten'):
        BagWriter(path)
    assert read_bag(path)['/chatter'].msgs == [String(data='x')]


def test_latched_topic_qos_is_recorded(tmp_path):
    class Profile:  # rclpy-like QoSProfile
        class _E:
            def __init__(self, name):
                self.name = name
        history, depth = _E('KEEP_LAST'), 1
        reliability, durability = _E('RELIABLE'), _E('TRANSIENT_LOCAL')

    assert qos_for_bag(Profile()).durability == QosDurability.TRANSIENT_LOCAL
    path = tmp_path / 'latched'
    with BagWriter(path, topics_qos={'/robot_description': Profile()}) as bag:
        bag.write('/robot_description', String(data='<robot/>'), 1)
    with Reader(path) as reader:
        (conn,) = reader.connections
        (qos,) = conn.ext.offered_qos_profiles
        assert qos.durability == QosDurability.TRANSIENT_LOCAL and qos.depth == 1


class FakeContext:
    """The recording hooks the embedded Context provides (brief A), nothing more."""

    def __init__(self):
        self.observers = {}
        self.types = {'/chatter': 'std_msgs/msg/String', '/quiet': 'sensor_msgs/msg/Imu'}
        self.now = 0

    def add_publish_observer(self, fn, topics=None):
        handle = object()
        self.observers[handle] = fn
        return handle

    def remove_publish_observer(self, handle):
        del self.observers[handle]

    def topic_type(self, topic):
        return self.types.get(topic)

    def sim_time_ns(self):
        return self.now

    def publish(self, topic, msg):
        for fn in list(self.observers.values()):
            fn(topic, msg)


def test_recorder_against_the_context_contract(tmp_path):
    ctx = FakeContext()
    path = tmp_path / 'rec'
    with BagRecorder(ctx, path, topics=['/chatter', '/quiet']) as rec:
        for i in range(5):
            ctx.now = 1_000_000 * i
            ctx.publish('/chatter', String(data=str(i)))
            ctx.publish('/other', String(data='not recorded'))
        assert rec.counts == {'/chatter': 5, '/quiet': 0}
    assert ctx.observers == {}
    ctx.publish('/chatter', String(data='after stop'))
    tables = read_bag(path)
    assert sorted(tables) == ['/chatter', '/quiet']
    assert tables['/chatter']['data'] == ['0', '1', '2', '3', '4']
    np.testing.assert_array_equal(tables['/chatter'].t_ns, [0, 1_000_000, 2_000_000, 3_000_000,
                                                            4_000_000])
    assert len(tables['/quiet']) == 0


@pytest.mark.skipif(not zoo_runtime.EMBEDDED, reason='publish observers are embedded-only')
def test_recorder_with_the_embedded_runtime(tmp_path):
    """Records a real publisher of the embedded rclpy through the Context hooks."""
    from zoo_runtime import rclpy
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        node = rclpy.create_node('talker', context=context)
        pub = node.create_publisher(String, 'chatter', 10)
        with BagRecorder(context, tmp_path / 'live') as rec:
            for i in range(3):
                pub.publish(String(data=f'msg {i}'))
        assert rec.counts == {'/chatter': 3}
        node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
    assert read_bag(tmp_path / 'live')['/chatter']['data'] == ['msg 0', 'msg 1', 'msg 2']
