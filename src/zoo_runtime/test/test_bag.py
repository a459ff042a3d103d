"""rosbag2/MCAP recording: what rosbags reads back is exactly what was written, also after the
recorder was killed (SIGKILL: repair), stopped by a signal (SIGTERM/SIGINT) or by its limits."""
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import yaml
from rosbags.interfaces import QosDurability
from rosbags.rosbag2 import Reader
from rosbags.typesys import Stores, get_typestore, get_types_from_msg

import zoo_runtime
from zoo_runtime.bag import (BagClosedError, BagError, BagRecorder, BagWriter, bag_info,
                             qos_for_bag, read_bag, repair_bag)
from zoo_runtime.messages import embedded_message, get_message

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


def test_recorder_with_the_embedded_runtime(tmp_path):
    """Records a real publisher of the embedded rclpy through the Context hooks (the embedded
    runtime and classes explicitly: publish observers exist there only)."""
    from zoo_runtime import embedded as rclpy
    String = embedded_message('std_msgs/msg/String')
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


def test_recorder_started_late_gets_latched_messages_and_their_qos(tmp_path):
    """A TRANSIENT_LOCAL publisher (/tf_static, robot_description) that published before the
    recorder started is in the bag, with its durability, as `ros2 bag record` would have it."""
    from zoo_runtime import embedded as rclpy  # publish observers exist there only
    from zoo_runtime.embedded.qos import DurabilityPolicy, QoSProfile
    String = embedded_message('std_msgs/msg/String')
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        node = rclpy.create_node('talker', context=context)
        latched = node.create_publisher(
            String, 'static', QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        volatile = node.create_publisher(String, 'chatter', 10)
        latched.publish(String(data='before'))
        volatile.publish(String(data='lost'))  # nobody latches a volatile message
        with BagRecorder(context, tmp_path / 'late') as rec:
            volatile.publish(String(data='after'))
        assert rec.counts == {'/static': 1, '/chatter': 1}
        node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
    assert read_bag(tmp_path / 'late')['/static']['data'] == ['before']
    with Reader(tmp_path / 'late') as reader:
        qos = {c.topic: c.ext.offered_qos_profiles[0].durability for c in reader.connections}
    assert qos['/static'].name == 'TRANSIENT_LOCAL' and qos['/chatter'].name == 'VOLATILE'


# -- surviving kills, signals and limits -----------------------------------------------------------

def payload(i, fill=20_000):
    """Message i of a test sequence: its index, then a deterministic filler of 100 B .. ``fill``
    bytes, so that chunks close both on log time and at rosbags' 1 MB chunk size."""
    return f'{i}:' + chr(97 + i % 26) * (100 + (i * 7919) % fill)


_STORES = {}


def oracle(conn):
    """A rosbags typestore for ``conn``'s stored definition (cached: building one is slow)."""
    key = (conn.msgtype, conn.msgdef.data)
    if key not in _STORES:
        _STORES[key] = get_typestore(Stores.EMPTY)
        _STORES[key].register(get_types_from_msg(conn.msgdef.data, conn.msgtype))
    return _STORES[key]


def read_sequence(path, make=payload, topic='/seq', counts=None):
    """The log times of ``topic`` as rosbags' Reader reads the bag at ``path``; checks that the
    messages are make(0), make(1), ... with no gap and that metadata.yaml counts what is there.
    ``counts``: a dict to fill with the number of messages of every topic."""
    texts, times, seen = [], [], {}
    with Reader(path) as reader:
        for conn, t_ns, data in reader.messages():
            seen[conn.topic] = seen.get(conn.topic, 0) + 1
            if conn.topic == topic:
                texts.append(oracle(conn).deserialize_cdr(data, conn.msgtype).data)
                times.append(t_ns)
        assert reader.message_count == sum(seen.values())
        listed = {c.topic: c.msgcount for c in reader.connections}
        assert listed == {t: seen.get(t, 0) for t in listed}
    if counts is not None:
        counts.update(listed)
    n = len(texts)
    assert texts == [make(i) for i in range(n)], f'{path}: {topic} is not make(0..{n - 1})'
    return times


def assert_mcap_consistent(mcap):
    """Every message index entry points at a message record of its channel and log time, every
    message of a chunk is indexed, and the summary counts them: what indexed MCAP readers
    (Foxglove, ros2 bag) rely on beyond what rosbags checks."""
    data = mcap.read_bytes()
    with Reader(mcap) as reader:  # a raw .mcap: rosbags reads footer, summary and chunk indexes
        storage = reader.storage
        indexed = 0
        for chunk in storage.chunks:
            assert chunk.compression == ''
            start = chunk.chunk_start_offset + 9 + 28 + 4 + 8
            records = data[start:start + chunk.uncompressed_size]
            found, pos = {}, 0
            while pos < len(records):
                op, length = struct.unpack_from('<BQ', records, pos)
                if op == 0x05:
                    cid, _, t_ns = struct.unpack_from('<HIQ', records, pos + 9)
                    found[pos] = (cid, t_ns)
                pos += 9 + length
            assert pos == len(records)
            entries = {}
            for cid, off in chunk.message_index_offsets.items():
                op, _, ch, size = struct.unpack_from('<BQHI', data, off)
                assert (op, ch) == (0x07, cid)
                for k in range(size // 16):
                    t_ns, moff = struct.unpack_from('<QQ', data, off + 15 + 16 * k)
                    entries[moff] = (cid, t_ns)
            assert entries == found
            indexed += len(found)
        assert indexed == storage.statistics.message_count == sum(1 for _ in reader.messages())


def python_env():
    env = dict(os.environ)
    root = str(Path(zoo_runtime.__file__).parents[1])  # the zoo_runtime this test imports
    env['PYTHONPATH'] = os.pathsep.join([root] + [p for p in [env.get('PYTHONPATH')] if p])
    return env


def run_children(script, paths, delays, sig):
    """Start one ``script`` per path; send ``sig`` to each ``delays[k]`` s after it said 'ready'.
    Returns each child's (stdout lines after 'ready', stderr, return code)."""
    import inspect
    code = script.replace('{payload}', inspect.getsource(payload))
    procs = [subprocess.Popen([sys.executable, '-c', code, str(p)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=python_env()) for p in paths]
    try:
        for proc in procs:
            line = proc.stdout.readline()
            assert line == 'ready\n', f'child did not start: {line!r} {proc.stderr.read()}'
        t0 = time.monotonic()
        for k in sorted(range(len(procs)), key=lambda k: delays[k]):
            time.sleep(max(0.0, t0 + delays[k] - time.monotonic()))
            procs[k].send_signal(sig)
        return [(out.split('\n'), err, proc.returncode)
                for proc in procs for out, err in [proc.communicate(timeout=20)]]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()


KILLED_WRITER = '''
import sys, time
from zoo_runtime.bag import BagWriter
from zoo_runtime.messages import get_message
String, Imu = get_message('std_msgs/msg/String'), get_message('sensor_msgs/msg/Imu')
{payload}
with BagWriter(sys.argv[1], flush_period_s=0.1) as bag:
    print('ready', flush=True)
    flushed = i = 0
    while True:
        bag.write('/seq', String(data=payload(i)), i * 1_000_000)
        if i >= 137 and i % 10 == 7:  # a topic whose channel first appears in a later chunk
            bag.write('/imu', Imu(), i * 1_000_000 + 1)
        i += 1
        if bag.flushed_messages != flushed:  # /seq 0..i-1 are on disk now
            flushed = bag.flushed_messages
            print(i, flush=True)
        time.sleep(0.001)
'''


def test_sigkill_while_recording_loses_nothing_flushed(tmp_path):
    """SIGKILL at seeded random moments: the torn bag is unreadable, repair_bag makes it readable
    with every message written before the last flush (and more from the torn chunk), intact."""
    rng = random.Random(10)
    delays = [0.02] + [rng.uniform(0.3, 0.8) for _ in range(3)]  # first: before any flush
    paths = [tmp_path / f'killed{k}' for k in range(len(delays))]
    results = run_children(KILLED_WRITER, paths, delays, signal.SIGKILL)
    for path, delay, (lines, err, rc) in zip(paths, delays, results):
        assert rc == -signal.SIGKILL, err
        flushed = max([int(x) for x in lines if x.strip()], default=0)
        assert not (path / 'metadata.yaml').exists()
        with pytest.raises((FileNotFoundError, Exception)):
            Reader(path).open()
        info = bag_info(path)
        assert not info.complete and info.topics.get('/seq', ('', 0))[1] >= flushed
        report = repair_bag(path)
        assert report.repaired and report.original == path / f'{path.name}.mcap.unfinished'
        assert report.original.exists()
        times = read_sequence(path)
        assert len(times) >= flushed, f'kill after {delay:.2f} s: {len(times)} < {flushed}'
        assert times == [i * 1_000_000 for i in range(len(times))]
        assert report.topics.get('/seq', 0) == len(times) == info.topics.get('/seq', ('', 0))[1]
        assert_mcap_consistent(path / f'{path.name}.mcap')
        assert bag_info(path).complete and not repair_bag(path).repaired
    assert max(int(x) for lines, _, _ in results[1:] for x in lines if x.strip()) > 0


SIGNALLED_RECORDER = '''
import json, signal, sys
from zoo_runtime import embedded as rclpy  # publish observers exist there only
from zoo_runtime.bag import BagRecorder
from zoo_runtime.messages import embedded_message
String = embedded_message('std_msgs/msg/String')
{payload}
def on_term(signum, frame):
    raise SystemExit(143)
signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGINT, signal.default_int_handler)  # KeyboardInterrupt
context = rclpy.context.Context()
rclpy.init(context=context)
pub = rclpy.create_node('talker', context=context).create_publisher(String, 'seq', 10)
rec = BagRecorder(context, sys.argv[1], flush_period_s=0.001)
rec.start()
try:
    print('ready', flush=True)
    i = 0
    while True:  # no pause: the signal lands inside publish -> record -> write
        pub.publish(String(data=payload(i, fill=200)))
        i += 1
except KeyboardInterrupt:
    sys.exit(130)
finally:
    rec.stop()
    print(json.dumps(rec.counts), flush=True)
'''


@pytest.mark.parametrize('sig, code', [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_sigint_leave_a_complete_bag(tmp_path, sig, code):
    import json
    delays = [0.05, 0.17, 0.31]
    paths = [tmp_path / f'stopped{k}' for k in range(len(delays))]
    for path, (lines, err, rc) in zip(paths, run_children(SIGNALLED_RECORDER, paths, delays, sig)):
        assert rc == code, err
        counts = json.loads([x for x in lines if x.strip()][-1])
        assert bag_info(path).complete  # no repair needed
        times = read_sequence(path, make=lambda i: payload(i, fill=200))
        assert len(times) == counts['/seq'] > 0
        assert_mcap_consistent(path / f'{path.name}.mcap')


class InterruptAt:
    """A stand-in for a signal handler: runs ``action`` (which may raise, or call stop()) at the
    n-th line executed in the bag-writing code (zoo_runtime.bag, rosbags' writer and MCAP
    storage), i.e. at any point a Python signal handler can run there."""

    FILES = (os.path.join('zoo_runtime', 'bag.py'), os.path.join('rosbag2', 'writer.py'),
             os.path.join('rosbag2', 'storage_mcap.py'))

    def __init__(self, n, action):
        self.n, self.action, self.lines, self.fired = n, action, 0, False

    def __enter__(self):
        self._old = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._old)

    def _call(self, frame, event, arg):
        return self._line if frame.f_code.co_filename.endswith(self.FILES) else None

    def _line(self, frame, event, arg):
        if self.fired:
            return None
        if event == 'line':
            self.lines += 1
            if self.lines == self.n:
                self.fired = True
                sys.settrace(None)  # the rest runs untraced (fast)
                self.action()
        return self._line


def small(i):
    return payload(i, fill=50)


@pytest.mark.parametrize('handler, first, step', [('raise', 1, 1), ('stop', 1, 3),
                                                 ('stop_then_raise', 2, 3)])
def test_a_signal_anywhere_in_a_write_leaves_a_valid_bag(tmp_path, handler, first, step):
    """Every line of a write that closes a chunk and of one that adds a topic (every 3rd line
    for the slower stop() variants), interrupted by a handler that raises, calls stop(), or both:
    the bag is valid and holds exactly what the recorder counted."""
    for n in range(first, 10_000, step):
        ctx = FakeContext()
        path = tmp_path / f'{handler}{n}'
        rec = BagRecorder(ctx, path, topics=['/seq', '/imu'], flush_period_s=0.004).start()
        for i in range(4):
            ctx.now = i * 1_000_000
            ctx.publish('/seq', String(data=small(i)))

        def action():
            if handler != 'raise':
                rec.stop()  # what a CLI signal handler may do, mid-write
            if handler != 'stop':
                raise KeyboardInterrupt

        with InterruptAt(n, action) as hit:
            try:
                ctx.now = 4_000_000
                ctx.publish('/seq', String(data=small(4)))  # closes a chunk (flush period)
                ctx.publish('/imu', Imu())  # first message: adds a connection
                ctx.publish('/seq', String(data=small(5)))
            except KeyboardInterrupt:
                pass
        rec.stop()
        rec.stop()  # idempotent
        assert ctx.observers == {}
        counts = {}
        times = read_sequence(path, make=small, counts=counts)
        assert counts == rec.counts and counts['/seq'] == len(times)
        assert 4 <= len(times) <= 6
        assert_mcap_consistent(path / f'{path.name}.mcap')
        shutil.rmtree(path)
        if not hit.fired:
            break
    assert n > 300  # the region really was swept line by line


def test_writes_after_close_are_refused(tmp_path):
    bag = BagWriter(tmp_path / 'b')
    bag.write('/seq', String(data=small(0)), 0)
    bag.close()
    bag.close()
    with pytest.raises(BagClosedError, match=r'b: the bag is closed'):
        bag.write('/seq', String(data=small(1)), 1)
    assert read_sequence(tmp_path / 'b', make=small) == [0]
    with pytest.raises(ValueError, match=r'flush_period_s must be positive'):
        BagWriter(tmp_path / 'c', flush_period_s=0)


@pytest.fixture
def file_size_limit():
    """``limit(n)``: files this process writes may not grow beyond n bytes (RLIMIT_FSIZE, as
    `ulimit -f`): a write beyond fails with EFBIG as one on a full disk fails with ENOSPC
    (Python ignores SIGXFSZ). Lifted again after the test."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    yield lambda n: resource.setrlimit(resource.RLIMIT_FSIZE, (n, hard))
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


@pytest.mark.parametrize('limit', [30_000, 61_000, 200_000])
def test_a_full_disk_leaves_the_bag_as_a_kill_does(tmp_path, file_size_limit, limit):
    """A write the disk refuses (issue 25): one error naming the file, the MCAP file cut back to
    its last flushed chunk (no torn bytes, nothing written later, not even by the garbage
    collector), and repair_bag reads every message flushed before, in place."""
    from zoo_runtime.bag import BagWriteError
    path = tmp_path / 'b'
    bag = BagWriter(path, flush_period_s=0.01)
    file_size_limit(limit)
    with pytest.raises(BagWriteError) as err:
        for i in range(100_000):
            bag.write('/seq', String(data=payload(i, fill=3000)), i * 1_000_000)
    file_size_limit(2**62)
    mcap = path / 'b.mcap'
    assert str(err.value) == (f'{mcap}: File too large; the bag holds the '
                              f'{bag.flushed_messages} messages written before, unfinished')
    assert bag.closed and bag.failed == str(err.value) and bag.flushed_messages > 0
    size = mcap.stat().st_size
    assert size <= limit and not (path / 'metadata.yaml').exists()
    bag.close()  # nothing more to write
    with pytest.raises(BagClosedError):
        bag.write('/seq', String(data='late'), 10**12)
    flushed = bag.flushed_messages
    del bag
    import gc
    gc.collect()
    assert mcap.stat().st_size == size  # the dropped buffer was never written
    report = repair_bag(path)
    times = read_sequence(path, make=lambda i: payload(i, fill=3000))
    assert len(times) == report.topics['/seq'] and report.lost_bytes == 0
    assert len(times) == flushed


def test_a_full_disk_stops_the_recorder_not_the_publisher(tmp_path, file_size_limit):
    from zoo_runtime import embedded as rclpy
    String = embedded_message('std_msgs/msg/String')
    context = rclpy.context.Context()
    rclpy.init(context=context)
    try:
        node = rclpy.create_node('talker', context=context)
        pub = node.create_publisher(String, '/seq', 10)
        recorder = BagRecorder(context, tmp_path / 'b', topics=['/seq'],
                               flush_period_s=1e-6).start()
        file_size_limit(100_000)
        try:
            for i in range(400):
                pub.publish(String(data=payload(i, fill=3000)))  # never raises
        finally:
            file_size_limit(2**62)
        assert recorder.failed.startswith(f"{tmp_path / 'b' / 'b.mcap'}: File too large")
        recorder.stop()  # nothing more to close
        node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
    assert repair_bag(tmp_path / 'b').topics['/seq'] > 0


def test_a_rosbags_without_the_internals_used_is_refused_clearly(tmp_path, monkeypatch):
    from rosbags.rosbag2.storage_mcap import McapWriter
    monkeypatch.delattr(McapWriter, 'close_chunk')
    with pytest.raises(RuntimeError, match=r'lacks McapWriter.close_chunk: .* internals of rosbags '
                                           r'0.11.9 \(pinned in requirements.txt\)'):
        BagWriter(tmp_path / 'b')
    assert not (tmp_path / 'b').exists()


def torn_copy(src, dst, cut):
    """A bag at ``dst`` as a recorder killed after ``cut`` bytes of ``src``'s MCAP leaves it."""
    dst.mkdir()
    data = (src / f'{src.name}.mcap').read_bytes()
    (dst / f'{dst.name}.mcap').write_bytes(data[:cut])


def test_repair_keeps_every_flushed_message_wherever_the_file_ends(tmp_path):
    src = tmp_path / 'full'
    on_disk = []  # (file size, /seq messages on disk) after each write
    with BagWriter(src, flush_period_s=0.01) as bag:
        for i in range(400):
            bag.write('/seq', String(data=payload(i, fill=300)), i * 1_000_000)
            if i == 150:
                bag.write('/imu', Imu(), i * 1_000_000)
            if bag.flushed_messages > (on_disk[-1][1] if on_disk else 0) + (i >= 150):
                on_disk.append((os.path.getsize(src / 'full.mcap'), i + 1))
    size = (src / 'full.mcap').stat().st_size
    rng = random.Random(3)
    cuts = [0, 5, 8, 20, size - 37, size - 1] + [rng.randrange(size) for _ in range(40)]
    salvaged = 0
    for k, cut in enumerate(cuts):
        path = tmp_path / f'cut{k}'
        torn_copy(src, path, cut)
        report = repair_bag(path)
        times = read_sequence(path, make=lambda i: payload(i, fill=300))
        guaranteed = max([n for s, n in on_disk if s <= cut], default=0)
        assert len(times) >= guaranteed, f'cut at {cut}: {len(times)} < {guaranteed}'
        assert report.topics.get('/seq', 0) == len(times)
        salvaged += report.torn_chunk_messages > 0
        if cut >= size - 37:  # only the summary was lost
            assert len(times) == 400 and len(read_bag(path)['/imu']) == 1
            assert report.lost_bytes == 0
    assert salvaged > 10  # complete messages of torn chunks are kept too


def same_connections(a, b):
    """Topics, types, definitions, RIHS01 hashes and QoS are as recorded."""
    with Reader(a) as ra, Reader(b) as rb:
        return [c._replace(owner=None, msgcount=0) for c in ra.connections] == [
            c._replace(owner=None, msgcount=0) for c in rb.connections]


def test_interrupted_repair_resumes_without_loss(tmp_path):
    src = tmp_path / 'src'
    latched = qos_for_bag(SimpleNamespace(durability='TRANSIENT_LOCAL', depth=1))
    with BagWriter(src, flush_period_s=0.01, topics_qos={'/seq': latched}) as bag:
        for i in range(100):
            bag.write('/seq', String(data=small(i)), i * 1_000_000)
            if i == 10:
                bag.write('/imu', Imu(), i * 1_000_000)
    cut = (src / 'src.mcap').stat().st_size * 2 // 3
    torn_copy(src, tmp_path / 'ref', cut)
    repair_bag(tmp_path / 'ref')
    expected = len(read_sequence(tmp_path / 'ref', small))
    assert 0 < expected < 100
    # killed after moving the original aside, leaving its temporary directory behind
    path = tmp_path / 'a'
    torn_copy(src, path, cut)
    (path / 'a.mcap').rename(path / 'a.mcap.unfinished')
    (tmp_path / '.a.repairing' / 'a').mkdir(parents=True)
    (tmp_path / '.a.repairing' / 'a' / 'a.mcap').write_bytes(b'partial')
    assert not bag_info(path).complete
    assert repair_bag(path).messages == expected + 1  # and the /imu message
    assert len(read_sequence(path, small)) == expected and same_connections(src, path)
    assert not (tmp_path / '.a.repairing').exists()
    # killed after the repaired .mcap was moved in, before its metadata.yaml
    (path / 'metadata.yaml').unlink()
    with pytest.raises(BagError, match=r'unfinished.*robozoo bag repair'):
        read_bag(path)
    assert repair_bag(path).messages == expected + 1
    assert len(read_sequence(path, small)) == expected
    assert sorted(p.name for p in path.iterdir()) == ['a.mcap', 'a.mcap.unfinished',
                                                      'metadata.yaml']


def test_repair_of_a_complete_bag_changes_nothing(tmp_path):
    path = tmp_path / 'done'
    write_sample_bag(path)
    before = {p.name: p.read_bytes() for p in path.iterdir()}
    report = repair_bag(path)
    assert not report.repaired and str(report) == f'{path}: already complete, nothing changed'
    assert {p.name: p.read_bytes() for p in path.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ['done']


def test_what_is_not_a_bag_gives_one_line(tmp_path):
    (tmp_path / 'empty').mkdir()
    (tmp_path / 'garbage').mkdir()
    (tmp_path / 'garbage' / 'garbage.mcap').write_bytes(random.Random(1).randbytes(5000))
    (tmp_path / 'file.txt').write_text('hello')
    cases = {'missing': r'missing: no such file or directory; expected a rosbag2 bag directory',
             'empty': r'empty: not a rosbag2 bag; expected a rosbag2 bag directory',
             'garbage': r'garbage.mcap: not an MCAP file \(bad magic\)',
             'file.txt': r'file.txt: is a file; expected a rosbag2 bag directory'}
    for name, message in cases.items():
        for fn in (repair_bag, bag_info, read_bag):
            with pytest.raises(BagError, match=message) as err:
                fn(tmp_path / name)
            assert '\n' not in str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ['empty', 'file.txt', 'garbage']
    assert [p.name for p in (tmp_path / 'garbage').iterdir()] == ['garbage.mcap']


def test_bag_cli_info_and_repair(tmp_path, capsys):
    bag_cli = pytest.importorskip('zoo_bringup.bag_cli')
    src = tmp_path / 'src'
    with BagWriter(src, flush_period_s=0.01) as bag:
        for i in range(100):
            bag.write('/seq', String(data=small(i)), i * 1_000_000)
    path = tmp_path / 'torn'
    torn_copy(src, path, (src / 'src.mcap').stat().st_size // 2)
    assert bag_cli.main(['info', str(path)]) == 0
    out = capsys.readouterr().out
    assert 'status:   unfinished' in out and f'robozoo bag repair {path}' in out
    assert '/seq  std_msgs/msg/String' in out
    assert bag_cli.main(['repair', str(path)]) == 0
    assert f'{path}: repaired' in capsys.readouterr().out
    assert bag_cli.main(['info', str(path)]) == 0
    assert f'status:   complete (repaired; the torn original is {path}/torn.mcap.unfinished)' in (
        capsys.readouterr().out)
    for argv, message in [(['repair', str(tmp_path / 'nope')], 'no such file or directory'),
                          (['frob'], "invalid choice: 'frob'"), ([], 'required: COMMAND')]:
        assert bag_cli.main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == '' and captured.err.count('\n') == 1
        assert captured.err.startswith('robozoo bag: error: ') and message in captured.err


def test_size_limit_stops_recording_not_the_run(tmp_path):
    ctx = FakeContext()
    path = tmp_path / 'capped'
    rec = BagRecorder(ctx, path, topics=['/seq'], max_bytes=50_000).start()
    for i in range(300):
        ctx.now = 1_000_000_000 + i * 10_000_000
        ctx.publish('/seq', String(data=payload(i, fill=900)))
    assert rec.limit_reached == 'size limit 50.0 kB reached after 0.8 s'
    assert ctx.observers == {}  # publishers no longer build messages for the recorder
    rec.stop()
    times = read_sequence(path, make=lambda i: payload(i, fill=900))
    assert len(times) == rec.counts['/seq'] < 300
    size = (path / 'capped.mcap').stat().st_size
    assert 50_000 <= size < 50_000 + 2_000 + 1_000  # + one message + the summary


def test_duration_limit_stops_recording(tmp_path):
    ctx = FakeContext()
    path = tmp_path / 'short'
    with BagRecorder(ctx, path, topics=['/seq'], max_duration_s=0.05) as rec:
        for i in range(20):
            ctx.now = 1_000_000_000 + i * 10_000_000
            ctx.publish('/seq', String(data=small(i)))
    assert rec.limit_reached == 'duration limit 0.05 s reached'
    np.testing.assert_array_equal(read_bag(path)['/seq'].t_ns,
                                  1_000_000_000 + 10_000_000 * np.arange(6))
    with BagRecorder(ctx, tmp_path / 'free', topics=['/seq']) as rec:
        ctx.publish('/seq', String(data=small(0)))
    assert rec.limit_reached is None
    with pytest.raises(ValueError, match=r'max_bytes must be positive or None, got 0'):
        BagRecorder(ctx, tmp_path / 'x', max_bytes=0)


def test_inline_message_records_are_rosbags_own(tmp_path):
    """BagWriter writes MCAP message records itself (rosbags 0.11.9, uncompressed); the file is
    byte for byte what rosbags' Writer.write makes, across several flushed chunks."""
    files = []
    for inline in (True, False):
        path = tmp_path / f'inline_{inline}' / 'bag'  # (the MCAP metadata holds its name)
        path.parent.mkdir()
        with BagWriter(path, flush_period_s=0.05) as bag:
            assert bag._inline  # the pinned rosbags: the inline path is the one in use
            bag._inline = inline
            for i in range(60):
                t = 1_000_000_000 + i * 10_000_000
                bag.write('/joint_states', joint_state(i), t)
                if i % 3 == 0:
                    bag.write('/imu', imu(i), t + 1)
        files.append((path / f'{path.name}.mcap').read_bytes())
    assert files[0] == files[1]
