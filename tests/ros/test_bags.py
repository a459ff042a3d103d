"""Bags between robozoo and real ROS 2 (issue 24, item 2d).

- Every kind of bag `bin/robozoo run --record` writes (plain; with our own zoo_interfaces and
  robobo_msgs types; stopped by a recording limit; from a --processes run; killed and then
  repaired by `robozoo bag repair`) opens in `ros2 bag info` with the same topics, types and
  counts, and `ros2 bag play` delivers it to a real rclpy subscriber exactly: the same number of
  messages per topic, in the same order, equal after deserialization (compared re-serialized, so
  a NaN equals itself). The reference is rosbag2_py's own reader.
- A bag `ros2 bag record` wrote (MCAP, and sqlite3, rosbag2's default storage) from real rclpy
  publishers of sensor_msgs, nav_msgs and zoo_interfaces messages opens in `robozoo bag info`,
  reads back the published values through zoo_runtime.bag.read_bag, and plots with `robozoo bag
  report`.
"""
from __future__ import annotations

import json
import math
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import WS, ros2

ROBOZOO = str(WS / 'bin' / 'robozoo')
PEERS = str(Path(__file__).with_name('peers.py'))

KINDS = {
    'nao_walk': ['nao_walk', '--record', '--duration', '1'],
    'own_types': ['robobo_arena', '--duration', '0.5', '--record', '/robobo/wheels',
                  '/robobo/irs', '/robobo/orientation_euler', '/robobo/metrics',
                  '/robobo/joint_states', '/tf_static', '/clock'],
    'limited': ['nao_walk', '--record', '--record-max-duration', '0.3', '--duration', '1'],
    'processes': ['nao_walk', '--processes', '--record', '--duration', '0.5'],
}


def robozoo(env, *args, timeout=300) -> subprocess.CompletedProcess:
    proc = subprocess.run([ROBOZOO, *args], env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f'robozoo {" ".join(args)}: {proc.stderr[-2000:]}'
    return proc


def record(env, out: Path, kind: str) -> Path:
    if kind == 'repaired':  # killed while recording (paced, so it is mid-run), then repaired
        popen = subprocess.Popen([ROBOZOO, 'run', 'nao_walk', '--record', '--duration', '30',
                                  '--real-time-factor', '1', '--output', str(out), '--quiet'],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        mcap = out / 'bag' / 'bag.mcap'
        end = time.monotonic() + 120
        while not (mcap.exists() and mcap.stat().st_size > 200_000):
            assert popen.poll() is None and time.monotonic() < end, 'no bag grew'
            time.sleep(0.2)
        popen.send_signal(signal.SIGKILL)
        popen.wait()
        robozoo(env, 'bag', 'repair', str(out / 'bag'))
    else:
        robozoo(env, 'run', *KINDS[kind], '--output', str(out), '--quiet')
    return out / 'bag'


def reference(bag: Path) -> tuple[dict[str, str], dict[str, list[bytes]]]:
    """Types and raw messages per topic, in log-time order, as rosbag2's own reader reads them."""
    import rosbag2_py
    reader = rosbag2_py.SequentialReader()
    reader.open(rosbag2_py.StorageOptions(uri=str(bag), storage_id=''),
                rosbag2_py.ConverterOptions('cdr', 'cdr'))
    types = {t.name: t.type for t in reader.get_all_topics_and_types()}
    raws: dict[str, list[bytes]] = {t: [] for t in types}
    while reader.has_next():
        topic, data, _t = reader.read_next()
        raws[topic].append(bytes(data))
    return types, raws


def ros2_info(env, bag: Path) -> dict[str, tuple[str, int]]:
    proc = ros2(env, 'bag', 'info', str(bag))
    assert proc.returncode == 0, proc.stderr
    return {m[1]: (m[2], int(m[3])) for m in re.finditer(
        r'Topic: (\S+) \| Type: (\S+) \| Count: (\d+)', proc.stdout)}


def canonical(type_name: str, raw: bytes) -> bytes:
    """A message's CDR after a real rclpy deserialize + serialize (padding and NaN proof)."""
    from rclpy.serialization import deserialize_message, serialize_message
    from rosidl_runtime_py.utilities import get_message
    return serialize_message(deserialize_message(raw, get_message(type_name)))


def durability(bag: Path, topic: str) -> str:
    import yaml
    meta = yaml.safe_load((bag / 'metadata.yaml').read_text())['rosbag2_bagfile_information']
    for entry in meta['topics_with_message_count']:
        if entry['topic_metadata']['name'] == topic:
            profiles = entry['topic_metadata']['offered_qos_profiles']
            if isinstance(profiles, str):
                profiles = yaml.safe_load(profiles) or []
            return profiles[0]['durability'] if profiles else 'volatile'
    return 'volatile'


@pytest.mark.parametrize('kind', [*KINDS, 'repaired'])
def test_ros2_bag_reads_and_plays_robozoo_bags(ros_env, tmp_path, kind):
    bag = record(ros_env, tmp_path / 'run', kind)
    types, raws = reference(bag)
    counts = {t: len(r) for t, r in raws.items()}
    assert sum(counts.values()) > 0
    ours = robozoo(ros_env, 'bag', 'info', str(bag)).stdout  # shown if ros2 disagrees
    assert ros2_info(ros_env, bag) == {t: (types[t], counts[t]) for t in types}, ours
    spec = [[t, types[t], counts[t], durability(bag, t)] for t in sorted(types)]
    out = tmp_path / 'received.pkl'
    listener = subprocess.Popen([sys.executable, PEERS, 'listen', str(out), json.dumps(spec),
                                 '120'], env=ros_env, stdout=subprocess.PIPE, text=True)
    try:
        assert listener.stdout.readline().strip() == 'ready'
        # --delay: the player's publishers are discovered before the first message goes out
        play = ros2(ros_env, 'bag', 'play', str(bag), '--delay', '3',
                    '--disable-keyboard-controls', timeout=180)
        assert play.returncode == 0, play.stderr
        assert listener.wait(timeout=150) == 0
    finally:
        if listener.poll() is None:
            listener.kill()
    got = pickle.loads(out.read_bytes())
    assert {t: len(v) for t, v in got.items()} == counts
    for topic, expected in raws.items():
        for i, (a, b) in enumerate(zip(expected, got[topic])):
            assert canonical(types[topic], a) == canonical(types[topic], b), f'{topic} #{i}'


SENT = [['/nao/joint_states', 'sensor_msgs/msg/JointState', 40, 'volatile'],
        ['/nao/odometry/ground_truth', 'nav_msgs/msg/Odometry', 30, 'volatile'],
        ['/nao/metrics', 'zoo_interfaces/msg/RobotMetrics', 5, 'volatile']]


@pytest.mark.parametrize('storage', ['mcap', 'sqlite3'])
def test_robozoo_reads_a_ros2_bag_record_bag(ros_env, tmp_path, storage):
    bag = tmp_path / 'out' / 'bag'
    bag.parent.mkdir()
    rec = subprocess.Popen(['ros2', 'bag', 'record', '-s', storage, '-o', str(bag),
                            *[t for t, *_ in SENT]], env=ros_env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        pub = subprocess.run([sys.executable, PEERS, 'publish', json.dumps(SENT)], env=ros_env,
                             capture_output=True, text=True, timeout=120)
        assert pub.returncode == 0, pub.stderr
    finally:
        rec.send_signal(signal.SIGINT)  # how a user ends `ros2 bag record`
        try:
            log = rec.communicate(timeout=60)[0]
        except subprocess.TimeoutExpired:  # never left running after the test
            rec.kill()
            log = rec.communicate()[0] + '\n(did not stop on SIGINT within 60 s)'
    assert rec.returncode == 0, log[-2000:]

    info = robozoo(ros_env, 'bag', 'info', str(bag)).stdout
    for topic, type_name, n, _ in SENT:
        assert re.search(rf'{re.escape(topic)}\s+{re.escape(type_name)}\s+{n}\b', info), info
    assert 'status:   complete' in info

    sys.path.insert(0, str(Path(PEERS).parent))
    from peers import sequence
    from zoo_runtime.bag import read_bag
    tables = read_bag(bag)
    js, odom, metrics = (tables[t] for t, *_ in SENT)
    assert js['name'] == ['HeadYaw', 'LHipPitch', 'LKneePitch']
    assert [list(p) for p in js['position']] == [
        list(sequence('sensor_msgs/msg/JointState', i).position) for i in range(40)]
    assert list(odom['pose.pose.position.x']) == [0.05 * i for i in range(30)]
    assert list(metrics['drift_xy']) == [0.1 * i for i in range(5)]
    assert all(math.isnan(v) for v in metrics['fell_at'])

    plots = robozoo(ros_env, 'bag', 'report', str(bag), '--output', str(tmp_path / 'plots'))
    made = sorted(p.name for p in (tmp_path / 'plots').glob('*.png'))
    assert made == ['nao_joints.png', 'nao_trajectory.png'], plots.stdout
    assert all(os.path.getsize(tmp_path / 'plots' / p) > 10_000 for p in made)
