"""In-process pub/sub throughput of the embedded runtime.

One node publishes a sensor_msgs/JointState with 25 joints (built once); a subscription callback
copies ``msg.position`` into a preallocated numpy array. Measured: messages published and
delivered through the executor with one ``spin_once`` per message, and batched (publish K, then
spin until drained); the reference is a bare Python function call doing the same copy. Also the
CDR serialisation a bag recorder pays per message: ``messages.serialize`` (generated from the
fields) vs the rosbags path it replaced, same bytes checked.
Prints a table, then one JSON line.

    source tools/env.sh && .venv/bin/python benchmarks/bench_pubsub.py
"""
from __future__ import annotations

import json
import os
import time

import numpy as np

os.environ.setdefault('ZOO_RUNTIME', 'embedded')

from zoo_runtime import rclpy  # noqa: E402
from zoo_runtime.interfaces.sensor_msgs.msg import JointState  # noqa: E402

N = 200_000
BATCH = 100
JOINTS = 25
REPEATS = 3


def best_rate(run, n: int) -> float:
    """Best of REPEATS runs, in operations per second."""
    best = float('inf')
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        run(n)
        best = min(best, time.perf_counter() - t0)
    return n / best


def main() -> None:
    context = rclpy.context.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('bench_pubsub', context=context)
    out = np.zeros(JOINTS)
    received = [0]

    def copy_positions(msg) -> None:
        out[:] = msg.position
        received[0] += 1

    msg = JointState(name=[f'joint_{i}' for i in range(JOINTS)],
                     position=[0.1 * i for i in range(JOINTS)],
                     velocity=[0.0] * JOINTS, effort=[0.0] * JOINTS)
    node.create_subscription(JointState, 'joint_states', copy_positions, BATCH)
    pub = node.create_publisher(JointState, 'joint_states', BATCH)
    executor = rclpy.executors.SingleThreadedExecutor(context=context)
    executor.add_node(node)
    publish, spin_once = pub.publish, executor.spin_once

    def one_by_one(n: int) -> None:
        for _ in range(n):
            publish(msg)
            spin_once(timeout_sec=0)

    def batched(n: int) -> None:
        for _ in range(n // BATCH):
            for _ in range(BATCH):
                publish(msg)
            for _ in range(BATCH):
                spin_once(timeout_sec=0)

    def bare(n: int) -> None:
        for _ in range(n):
            copy_positions(msg)

    one_by_one(1000)  # warm up
    received[0] = 0
    rate = best_rate(one_by_one, N)
    rate_batched = best_rate(batched, N)
    assert received[0] == 2 * REPEATS * N, 'messages were lost'
    assert np.array_equal(out, np.asarray(msg.position)), 'copy did not happen'
    rate_bare = best_rate(bare, N)
    rclpy.shutdown(context=context)

    from zoo_runtime import messages
    assert messages.serialize(msg) == messages.serialize_via_rosbags(msg)
    n_ser = N // 20

    def generated(n: int) -> None:
        for _ in range(n):
            messages.serialize(msg)

    def via_rosbags(n: int) -> None:
        for _ in range(n):
            messages.serialize_via_rosbags(msg)
    ser, ser_rosbags = best_rate(generated, n_ser), best_rate(via_rosbags, n_ser)

    rows = [('publish + spin_once per message', rate),
            (f'publish {BATCH}, then spin them', rate_batched),
            ('bare function call (same copy)', rate_bare)]
    print(f'JointState, {JOINTS} joints, {N} messages, best of {REPEATS}')
    for label, value in rows:
        print(f'  {label:<34} {value:>12,.0f} msgs/s  {1e6 / value:6.2f} us/msg')
    print(f'  pub/sub costs {rate_bare / rate:.1f}x a bare call')
    print(f'  {"CDR serialise (messages.serialize)":<34} {1e6 / ser:6.2f} us/msg; through rosbags '
          f'{1e6 / ser_rosbags:6.2f} us/msg')
    print(json.dumps({'bench': 'pubsub', 'msgs_per_s': round(rate),
                      'msgs_per_s_batched': round(rate_batched),
                      'bare_calls_per_s': round(rate_bare),
                      'ratio_vs_bare': round(rate_bare / rate, 2),
                      'serialize_us': round(1e6 / ser, 2),
                      'serialize_rosbags_us': round(1e6 / ser_rosbags, 2)}))


if __name__ == '__main__':
    main()
