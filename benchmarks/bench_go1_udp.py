"""Go1 UDP link at 500 Hz: the bridge core (unitree_udp_bridge, no ROS) sending SDK v3.8 LowCmds
on the steady clock to the simulated Go1 (bin/robozoo run go1_udp_endpoint, its own process,
sim paced at real time), for SECONDS s.

    python benchmarks/bench_go1_udp.py

Reports the bridge's send rate and period jitter (|period - 2 ms|: median, p99, max), the state
arrival rate (datagrams) and the jitter between reads that got one (the endpoint answers every 2
ms of sim time; its pace, sim/wall, is reported), and one-way latency both
ways from same-host send stamps in the reserve words (LowCmd.reserve -> endpoint, LowState.reserve
-> bridge; CLOCK_MONOTONIC is shared on one host). Prints a table, then one JSON line:
{"bench": "go1_udp", "cmd_rate_hz": ..., "cmd_jitter_us_p99": ..., "state_rate_hz": ...,
"state_jitter_us_p99": ..., "cmd_latency_us_median": ..., "state_latency_us_median": ..., ...}.
Target (issue 15): 500 Hz sustained both ways.
"""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

import numpy as np

WS = Path(__file__).resolve().parents[1]
SECONDS, PERIOD = 10.0, 0.002
URDF = [f'{leg}_{j}_joint' for leg in ('FL', 'FR', 'RL', 'RR') for j in ('hip', 'thigh', 'calf')]
STAND = np.tile([0.0, 0.67, -1.3], 4)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def jitter_us(stamps: list[float]) -> np.ndarray:
    return np.abs(np.diff(stamps) - PERIOD) * 1e6


def measure(out: Path) -> dict:
    from unitree_udp_bridge.bridge_core import BridgeConfig, BridgeCore
    port = free_port()
    robot = subprocess.Popen([str(WS / 'bin' / 'robozoo'), 'run', 'go1_udp_endpoint', '--quiet',
                              '--output', str(out), '--duration', str(SECONDS + 60),
                              '--set', f'go1_udp_endpoint.port={port}'],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        core = BridgeCore(BridgeConfig(URDF, robot_ip='127.0.0.1', robot_port=port,
                                       preflight_timeout_s=60.0, watchdog_s=1.0))
        while core.state == 'preflight':           # the robot starting up
            core.cycle()
            time.sleep(0.01)
            core.receive()
        assert core.state == 'running', core.error
        core.stats.latency_us.clear()
        received0 = core.stats.received
        sends, states = [], []
        t0 = t_next = time.monotonic()
        while t_next - t0 < SECONDS:
            t_next += PERIOD
            while True:   # read states as they come until this period's send time
                if core.receive() is not None:
                    states.append(time.monotonic())
                left = t_next - time.monotonic()
                if left <= 0:
                    break
                time.sleep(min(left, 0.0002))
            core.set_command(URDF, STAND, np.zeros(12), np.zeros(12), np.full(12, 60.0),
                             np.full(12, 3.0))
            core.cycle()
            sends.append(time.monotonic())
        received = core.stats.received - received0   # several may come between two reads
        bridge = core.metrics()
        core.close()
    finally:
        robot.send_signal(signal.SIGINT)
        robot.communicate(timeout=60)
    summary = json.loads((out / 'summary.json').read_text())
    ep = summary['metrics']['go1_udp_endpoint']
    js, jr = jitter_us(sends), jitter_us(states)
    return {'seconds': SECONDS, 'cmd_rate_hz': (len(sends) - 1) / (sends[-1] - sends[0]),
            'cmd_jitter_us_median': float(np.median(js)), 'cmd_jitter_us_p99':
            float(np.percentile(js, 99)), 'cmd_jitter_us_max': float(js.max()),
            'state_rate_hz': received / (sends[-1] - t0),
            'state_jitter_us_median': float(np.median(jr)),
            'state_jitter_us_p99': float(np.percentile(jr, 99)),
            'state_jitter_us_max': float(jr.max()),
            'cmd_latency_us_median': ep.get('cmd_latency_us_median'),
            'cmd_latency_us_p99': ep.get('cmd_latency_us_p99'),
            'state_latency_us_median': bridge.get('state_latency_us_median'),
            'state_latency_us_p99': bridge.get('state_latency_us_p99'),
            'crc_errors': ep['crc_errors'] + bridge['crc_errors'],
            'endpoint_real_time_factor': summary['real_time_factor']}


def main() -> int:
    with TemporaryDirectory() as tmp:
        r = measure(Path(tmp) / 'run')
    print(f'{"direction":<22} {"rate Hz":>8} {"jitter us med":>14} {"p99":>8} {"max":>8} '
          f'{"latency us med":>15} {"p99":>8}')
    for name, key, lat in (('bridge -> robot (cmd)', 'cmd', 'cmd'),
                           ('robot -> bridge (state)', 'state', 'state')):
        print(f'{name:<22} {r[f"{key}_rate_hz"]:>8.1f} {r[f"{key}_jitter_us_median"]:>14.0f} '
              f'{r[f"{key}_jitter_us_p99"]:>8.0f} {r[f"{key}_jitter_us_max"]:>8.0f} '
              f'{r[f"{lat}_latency_us_median"]:>15.0f} {r[f"{lat}_latency_us_p99"]:>8.0f}')
    print(json.dumps({'bench': 'go1_udp', **{k: (round(v, 2) if isinstance(v, float) else v)
                                             for k, v in r.items()}}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
