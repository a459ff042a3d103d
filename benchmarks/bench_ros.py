"""Each scenario under real ROS 2 (`ros2 launch`, rclpy, Cyclone DDS) and embedded, side by side in
one run: the real-time factor and every controller's tick rate in sim time (issue 24 item 3).

Under ROS the simulator node paces physics on the wall clock (``real_time_factor`` 1 by default;
``--ros-rtf`` asks for more) and publishes /clock after every step; each controller is its own
process. A controller's tick rate is the rate, in messages per simulated second, of the busiest
topic it publishes (found in the ROS graph: rclpy's publishers-by-node), counted over ``--seconds``
of sim time from 0.5 s after the subscriptions are in place. Embedded, the same topics are
recorded by `bin/robozoo run --record` and counted from the bag's metadata over the whole run; the embedded
world runs as fast as it can. Prints a table, then one JSON line {"bench": "ros", ...}.

    source tools/ros2_env.sh
    python benchmarks/bench_ros.py [--seconds 5] [--ros-rtf 1] [scenario ...]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

WS = Path(__file__).resolve().parents[1]
SCENARIOS = ['nao_walk', 'nao_wave_walk', 'go1_trot_earth', 'hoap2_navigation', 'robobo_arena',
             'snake_sidewinding']
SKIP_TOPICS = {'/rosout', '/parameter_events', '/sim/node_ready'}
WARM_UP = 0.5  # sim seconds left out of the ROS counts at least


def ros_run(scenario: str, seconds: float, rtf: float, tmp: Path) -> dict:
    from rosidl_runtime_py.utilities import get_message
    from zoo_scenario.launched_scenario import LaunchedScenario
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(101, 230)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_LOG_DIR=str(tmp / 'ros_log'))
    run = LaunchedScenario(scenario, env, tmp / f'{scenario}.log',
                           [f'sim.real_time_factor={rtf}'])
    counts: dict[str, int] = {}
    window = [float('inf'), float('inf')]  # sim seconds [start, end) counted
    try:
        run.wait_sim_time(0.05, wall_timeout=120)
        topics = {}  # node -> its published topics (a node may publish none: it only listens)
        for fq in run.node_names:
            if fq == '/sim':
                continue
            ns, name = fq.rsplit('/', 1)
            deadline = time.monotonic() + 3
            pubs = []
            while not pubs and time.monotonic() < deadline:
                pubs = [(t, ty[0]) for t, ty in run.node.get_publisher_names_and_types_by_node(
                    name, ns or '/') if t not in SKIP_TOPICS]
                time.sleep(0.1)
            topics[fq] = pubs
        for pubs in topics.values():
            for topic, type_name in pubs:
                counts.setdefault(topic, 0)

                def count(_msg, topic=topic):
                    if window[0] <= run.sim_time < window[1]:
                        counts[topic] += 1
                run.node.create_subscription(get_message(type_name), topic, count, 1000)
        start = max(WARM_UP, run.sim_time + 0.5)  # once the subscriptions are matched
        window[:] = [start, start + seconds]
        run.wait_sim_time(start, wall_timeout=60)
        t0, s0 = time.monotonic(), run.sim_time
        run.wait_sim_time(start + seconds, wall_timeout=60 + 10 * seconds / rtf)
        wall, sim = time.monotonic() - t0, run.sim_time - s0
    finally:
        run.stop()
    return {'rtf': sim / wall, 'topics': topics,
            'rates': {t: n / seconds for t, n in counts.items()}}


def embedded_run(scenario: str, seconds: float, topics: list[str], tmp: Path) -> dict:
    out = tmp / f'{scenario}_embedded'
    env = {k: v for k, v in os.environ.items() if k != 'ZOO_RUNTIME'}
    subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', scenario, '--duration', str(seconds),
                    '--quiet', '--output', str(out), '--record', *topics], env=env, check=True,
                   capture_output=True, timeout=900)
    summary = json.loads((out / 'summary.json').read_text())
    meta = yaml.safe_load((out / 'bag' / 'metadata.yaml').read_text())
    counts = {t['topic_metadata']['name']: t['message_count']
              for t in meta['rosbag2_bagfile_information']['topics_with_message_count']}
    return {'rtf': summary['real_time_factor'],
            'rates': {t: counts.get(t, 0) / seconds for t in topics}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('scenarios', nargs='*', default=SCENARIOS)
    ap.add_argument('--seconds', type=float, default=5.0, help='sim seconds per run')
    ap.add_argument('--ros-rtf', type=float, default=1.0,
                    help="the simulator's real_time_factor under ROS (default 1: real time)")
    args = ap.parse_args()
    try:
        import rclpy  # noqa: F401
    except ImportError:
        sys.exit('bench_ros: real rclpy does not import: source tools/ros2_env.sh first')
    results = {}
    print(f"{'scenario':<20} {'controller':<28} {'topic':<34} {'ROS Hz':>8} {'embedded Hz':>12}")
    with tempfile.TemporaryDirectory() as d:
        for sc in args.scenarios:
            ros = ros_run(sc, args.seconds, args.ros_rtf, Path(d))
            topics = sorted({t for pubs in ros['topics'].values() for t, _ in pubs})
            emb = embedded_run(sc, args.seconds, topics, Path(d))
            rows = []
            for node, pubs in ros['topics'].items():
                if not pubs:
                    continue
                topic = max((t for t, _ in pubs), key=lambda t: emb['rates'][t])
                rows.append({'node': node, 'topic': topic, 'ros_hz': ros['rates'][topic],
                             'embedded_hz': emb['rates'][topic]})
                print(f"{sc:<20} {node:<28} {topic:<34} {ros['rates'][topic]:>8.1f} "
                      f"{emb['rates'][topic]:>12.1f}")
            print(f"{sc:<20} {'real-time factor':<28} {'':<34} {ros['rtf']:>8.2f} "
                  f"{emb['rtf']:>12.2f}")
            results[sc] = {'ros_rtf': ros['rtf'], 'embedded_rtf': emb['rtf'], 'controllers': rows}
    print(json.dumps({'bench': 'ros', 'seconds': args.seconds, 'ros_rtf_target': args.ros_rtf,
                      'scenarios': results}))


if __name__ == '__main__':
    main()
