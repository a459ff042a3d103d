"""JointState round trips over Cyclone DDS: through the zoo_dds bridge vs a raw cyclonedds pair.

A driver process (plain cyclonedds, raw CDR) writes a 25-joint sensor_msgs/JointState on
rt/bench/ping and waits for it back on rt/bench/pong. The echo is another process, either
- raw: a cyclonedds reader/writer pair moving the same bytes back (blocks on a WaitSet), or
- bridge: the embedded runtime (lockstep executor) with zoo_dds/dds_bridge (poll_period 1 ms
  of sim time) and a node echoing /bench/ping to /bench/pong in-process; paced at real time
  (the nao_stand_dds setting, ``rtf=1``) and unpaced (``rtf=0``: the executor spins flat out).
Latency: one message in flight, ROUND_TRIPS times (median, p99). Throughput: WINDOW in flight
(below the ROS default depth 10, so nothing is overwritten) for SECONDS s. Cyclone over loopback
with unicast discovery (zoo_dds.transport.LOOPBACK_CONFIG), a random domain. Prints a table, then
one JSON line {"bench": "dds", ...} with the bridge/raw ratios.

    source tools/env.sh && python benchmarks/bench_dds.py
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import numpy as np

ROUND_TRIPS, SECONDS, WINDOW, JOINTS = 2000, 3.0, 8, 25
JS = 'sensor_msgs/msg/JointState'
PING, PONG = '/bench/ping', '/bench/pong'


def _qos(writer: bool):
    from zoo_runtime import rclpy

    from zoo_dds.qos_map import dds_qos
    return dds_qos(rclpy.qos.QoSProfile(depth=10), writer=writer)


def echo_raw(domain: int) -> None:
    from cyclonedds.core import InstanceState, ReadCondition, SampleState, ViewState, WaitSet
    from cyclonedds.util import duration

    from zoo_dds.transport import RawReader, RawWriter, participant
    dp = participant(domain)
    reader, writer = RawReader(dp, PING, JS, _qos(False)), RawWriter(dp, PONG, JS, _qos(True))
    ws = WaitSet(dp)
    ws.attach(ReadCondition(reader.reader, SampleState.Any | ViewState.Any | InstanceState.Any))
    while True:
        ws.wait(duration(seconds=1))
        for cdr in reader.take():
            writer.write(cdr)


def echo_bridge(domain: int, rtf: float) -> None:
    from zoo_runtime import messages, rclpy
    from zoo_runtime.embedded.executors import LockstepExecutor

    from zoo_dds.bridge_node import DdsBridge
    context = rclpy.context.Context()
    rclpy.init(args=[], context=context)
    P = rclpy.parameter.Parameter
    sim = [P('use_sim_time', value=True)]
    echo = rclpy.create_node('echo', context=context, parameter_overrides=sim)
    JointState = messages.get_message(JS)
    pub = echo.create_publisher(JointState, PONG, 10)
    echo.create_subscription(JointState, PING, pub.publish, 10)
    bridge = DdsBridge(context=context, parameter_overrides=sim + [
        P('domain_id', value=domain), P('publish', value=[PONG]),
        P('subscribe', value=[PING])])
    executor = LockstepExecutor(context=context, real_time_factor=rtf)
    executor.add_node(echo)
    executor.add_node(bridge)
    executor.spin()


def measure(domain: int, echo_args: list[str]) -> dict:
    from cyclonedds.core import InstanceState, ReadCondition, SampleState, ViewState, WaitSet
    from cyclonedds.util import duration
    from zoo_runtime import messages

    from zoo_dds.transport import RawReader, RawWriter, participant
    proc = subprocess.Popen([sys.executable, __file__, *echo_args, str(domain)])
    try:
        dp = participant(domain)
        writer, reader = RawWriter(dp, PING, JS, _qos(True)), RawReader(dp, PONG, JS, _qos(False))
        ws = WaitSet(dp)
        ws.attach(ReadCondition(reader.reader,
                                SampleState.Any | ViewState.Any | InstanceState.Any))
        msg = messages.get_message(JS)(name=[f'joint_{i}' for i in range(JOINTS)],
                                       position=[0.1 * i for i in range(JOINTS)],
                                       velocity=[0.0] * JOINTS, effort=[0.0] * JOINTS)
        cdr = messages.serialize(msg)
        deadline = time.monotonic() + 60
        got = 0
        while not got:  # matched both ways and the echo is running
            if time.monotonic() > deadline:
                raise RuntimeError('echo process never answered')
            writer.write(cdr)
            ws.wait(duration(milliseconds=200))
            got = len(reader.take())
        time.sleep(0.3)
        while reader.take():
            pass

        def wait_one() -> int:
            n = 0
            while not n:
                ws.wait(duration(seconds=5))
                n = len(reader.take())
            return n

        rtts = np.empty(ROUND_TRIPS)
        for i in range(ROUND_TRIPS):
            t0 = time.perf_counter()
            writer.write(cdr)
            wait_one()
            rtts[i] = time.perf_counter() - t0
        for _ in range(WINDOW):
            writer.write(cdr)
        done, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < SECONDS:
            n = wait_one()
            done += n
            for _ in range(n):
                writer.write(cdr)
        rate = done / (time.perf_counter() - t0)
        return {'rtt_us_median': float(np.median(rtts) * 1e6),
                'rtt_us_p99': float(np.percentile(rtts, 99) * 1e6), 'msgs_per_s': rate,
                'bytes': len(cdr)}
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    from zoo_dds.transport import LOOPBACK_CONFIG
    os.environ['CYCLONEDDS_URI'] = LOOPBACK_CONFIG
    domain = random.Random().randrange(100, 232)
    results = {'raw': measure(domain, ['echo-raw']),
               'bridge_paced': measure(domain + 1 if domain < 231 else 99,
                                       ['echo-bridge', '1']),
               'bridge_unpaced': measure(domain - 1, ['echo-bridge', '0'])}
    raw = results['raw']
    print(f'{"echo":<16} {"rtt us median":>14} {"p99":>8} {"msgs/s":>9} {"rtt x raw":>10} '
          f'{"rate / raw":>10}')
    for name, r in results.items():
        print(f'{name:<16} {r["rtt_us_median"]:>14.0f} {r["rtt_us_p99"]:>8.0f} '
              f'{r["msgs_per_s"]:>9.0f} {r["rtt_us_median"] / raw["rtt_us_median"]:>10.2f} '
              f'{r["msgs_per_s"] / raw["msgs_per_s"]:>10.2f}')
    out: dict = {'bench': 'dds', 'joints': JOINTS, 'bytes': raw['bytes']}
    for name, r in results.items():
        out.update({f'{name}_{k}': round(v, 1) for k, v in r.items() if k != 'bytes'})
    for name in ('bridge_paced', 'bridge_unpaced'):
        out[f'{name}_rtt_ratio'] = round(results[name]['rtt_us_median'] / raw['rtt_us_median'], 2)
        out[f'{name}_rate_ratio'] = round(results[name]['msgs_per_s'] / raw['msgs_per_s'], 3)
    print(json.dumps(out))


if __name__ == '__main__':
    if len(sys.argv) > 1 and sys.argv[1] == 'echo-raw':
        echo_raw(int(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == 'echo-bridge':
        echo_bridge(int(sys.argv[3]), float(sys.argv[2]))
    else:
        main()
