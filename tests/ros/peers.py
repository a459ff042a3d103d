"""Real rclpy peers the ROS-tier tests start as separate processes (`python tests/ros/peers.py`):

    listen OUT SPEC_JSON TIMEOUT   subscribe (raw CDR) to SPEC's topics, print 'ready', collect
                                   until every topic has its count (or TIMEOUT s), pickle
                                   {topic: [bytes, ...]} to OUT
    publish SPEC_JSON              wait until each topic has a subscriber, then publish a known
                                   sequence (see `sequence`) and wait until it is acknowledged

    command ROBOT JOINT VELOCITY SECONDS
                                   read /ROBOT/joint_states, command JOINT at VELOCITY rad/s on
                                   /ROBOT/joint_commands until it has moved for SECONDS of sim
                                   time, print JSON: the joint's (position, stamp) at the start,
                                   once moving and at the end, and how many commands went out

SPEC_JSON: [[topic, type, count, durability], ...]; durability 'transient_local' or 'volatile'.
A process of its own per peer: the test's domain comes from its environment, and rclpy's
context never mixes with the test process's.
"""
from __future__ import annotations

import json
import math
import pickle
import sys
import time

import rclpy
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rosidl_runtime_py.utilities import get_message


def qos(durability: str, depth: int = 0) -> QoSProfile:
    keep = HistoryPolicy.KEEP_LAST if depth else HistoryPolicy.KEEP_ALL
    return QoSProfile(history=keep, depth=depth or 1, reliability=ReliabilityPolicy.RELIABLE,
                      durability=DurabilityPolicy.TRANSIENT_LOCAL
                      if durability == 'transient_local' else DurabilityPolicy.VOLATILE)


def listen(out: str, spec: list, timeout: float) -> int:
    rclpy.init()
    node = rclpy.create_node('bag_listener')
    got: dict[str, list[bytes]] = {t: [] for t, *_ in spec}
    for topic, type_name, _count, durability in spec:
        node.create_subscription(get_message(type_name), topic,
                                 lambda raw, t=topic: got[t].append(bytes(raw)),
                                 qos(durability), raw=True)
    print('ready', flush=True)
    end = time.monotonic() + timeout
    want = {t: n for t, _, n, _ in spec}
    while time.monotonic() < end and any(len(got[t]) < n for t, n in want.items()):
        rclpy.spin_once(node, timeout_sec=0.05)
    for _ in range(20):  # anything beyond the expected count is an error the test must see
        rclpy.spin_once(node, timeout_sec=0.01)
    with open(out, 'wb') as f:
        pickle.dump(got, f)
    node.destroy_node()
    rclpy.shutdown()
    return 0


def sequence(type_name: str, i: int):
    """The i-th message a `publish` peer sends on a topic of ``type_name``: values the test
    recomputes (JointState positions, Odometry x, a RobotMetrics with a NaN)."""
    msg = get_message(type_name)()
    stamp = (i // 10, (i % 10) * 100_000_000)
    if hasattr(msg, 'header'):
        msg.header.stamp.sec, msg.header.stamp.nanosec = stamp
        msg.header.frame_id = 'odom' if type_name.endswith('Odometry') else ''
    if type_name == 'sensor_msgs/msg/JointState':
        msg.name = ['HeadYaw', 'LHipPitch', 'LKneePitch']
        msg.position = [0.01 * i, -0.02 * i, 0.03 * i]
        msg.velocity = [0.0, 0.0, float(i)]
    elif type_name == 'nav_msgs/msg/Odometry':
        msg.child_frame_id = 'base_link'
        msg.pose.pose.position.x = 0.05 * i
        msg.pose.pose.position.y = -0.01 * i
        msg.pose.pose.position.z = 0.3
        msg.pose.pose.orientation.w = 1.0
    elif type_name == 'zoo_interfaces/msg/RobotMetrics':
        msg.robot = 'nao'
        msg.drift_xy = 0.1 * i
        msg.base_end = [0.05 * i, 0.0, 0.3]
        msg.fell_at = math.nan
        msg.joints = 3
    return msg


def publish(spec: list, timeout: float = 60.0) -> int:
    rclpy.init()
    node = rclpy.create_node('bag_talker')
    pubs = [(topic, type_name, n, node.create_publisher(get_message(type_name), topic,
                                                        qos(durability, depth=1000)))
            for topic, type_name, n, durability in spec]
    end = time.monotonic() + timeout
    while any(p.get_subscription_count() == 0 for *_, p in pubs):
        if time.monotonic() > end:
            print('publish: no subscriber appeared', file=sys.stderr)
            return 1
        rclpy.spin_once(node, timeout_sec=0.05)
    time.sleep(0.5)  # the recorder's subscription is matched on both sides
    for i in range(max(n for _, _, n, _ in pubs)):
        for topic, type_name, n, pub in pubs:
            if i < n:
                pub.publish(sequence(type_name, i))
        time.sleep(0.01)
    for *_, pub in pubs:
        pub.wait_for_all_acked()
    time.sleep(0.5)
    node.destroy_node()
    rclpy.shutdown()
    return 0


def command(robot: str, joint: str, velocity: float, seconds: float,
            timeout: float = 90.0) -> int:
    """A ROS user's node: the robot's state in, a velocity command out (default QoS)."""
    from sensor_msgs.msg import JointState
    rclpy.init()
    node = rclpy.create_node('zoo_commander')
    last: list = []
    node.create_subscription(JointState, f'/{robot}/joint_states',
                             lambda m: last.append(m) if joint in m.name else None, 10)
    pub = node.create_publisher(JointState, f'/{robot}/joint_commands', 10)
    end = time.monotonic() + timeout
    while not last or pub.get_subscription_count() == 0:
        if time.monotonic() > end:
            print(f'command: no /{robot}/joint_states with {joint} or no subscriber of '
                  f'/{robot}/joint_commands in {timeout:g} s', file=sys.stderr)
            return 1
        rclpy.spin_once(node, timeout_sec=0.05)

    def state():
        m = last[-1]
        stamp = m.header.stamp.sec + m.header.stamp.nanosec * 1e-9
        return m.position[list(m.name).index(joint)], stamp

    # DDS matches the two ends independently: commands sent before the simulator's reader has
    # matched this writer are lost (volatile), so the measurement starts once the joint moves,
    # then runs for SECONDS of sim time (no wall-clock assumption on a loaded machine)
    first = state()
    before = after = None
    sent = 0
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pub.publish(JointState(name=[joint], velocity=[velocity]))
        sent += 1
        rclpy.spin_once(node, timeout_sec=0.02)
        now = state()
        if before is None and abs(now[0] - first[0]) > 0.02:
            before = now
        elif before is not None and now[1] - before[1] >= seconds:
            after = now
            break
    pub.publish(JointState(name=[joint], velocity=[0.0]))
    if after is None:
        print(f'command: {joint} did not move for {seconds:g} s of sim time within '
              f'{timeout:g} s: first {first}, moving from {before}', file=sys.stderr)
        return 1
    print(json.dumps({'first': first, 'before': before, 'after': after, 'sent': sent,
                      'states': len(last)}))
    node.destroy_node()
    rclpy.shutdown()
    return 0


if __name__ == '__main__':
    cmd, *args = sys.argv[1:]
    if cmd == 'listen':
        sys.exit(listen(args[0], json.loads(args[1]), float(args[2])))
    if cmd == 'command':
        sys.exit(command(args[0], args[1], float(args[2]), float(args[3])))
    sys.exit(publish(json.loads(args[0])))
