"""`--processes` against the in-process run of the same scenario, side by side in one run.

For each scenario: build the run (in-process: ScenarioRun; apart: ProcessScenarioRun, every node
but the simulator in its own process, topics and services on Cyclone DDS over loopback, random
domain), then time ``run(duration)`` alone (start-up apart) and report microseconds per physics
step, the ratio apart/in-process, the lockstep rounds per physics step and the start-up wall
time; in-process and apart alternate REPEATS times, the best of each counts. Prints a table, then
one JSON line {"bench": "processes", ...}.

    source tools/env.sh && python benchmarks/bench_processes.py [scenario ...]
"""
from __future__ import annotations

import json
import os
import random
import sys
import time

SCENARIOS = {'nao_wave_walk': 3.0, 'hoap2_navigation': 3.0}
REPEATS = 3


def measure(name: str, duration: float, apart: bool) -> dict:
    from zoo_scenario.processes import ProcessScenarioRun
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario
    t0 = time.perf_counter()
    run = (ProcessScenarioRun if apart else ScenarioRun)(load_scenario(name))
    start = time.perf_counter() - t0
    try:
        wall = run.run(duration)
        steps = run.executor.now_ns // run.executor.step_ns
        rounds = run.coordinator.rounds if apart and run.coordinator else 0
    finally:
        run.close()
    return {'us_per_step': wall / steps * 1e6, 'start_s': start, 'rounds': rounds,
            'steps': steps}


def main(names: list[str]) -> None:
    from zoo_dds.transport import LOOPBACK_CONFIG
    os.environ.setdefault('CYCLONEDDS_URI', LOOPBACK_CONFIG)
    os.environ['ROS_DOMAIN_ID'] = str(random.Random().randrange(100, 232))
    out = {'bench': 'processes'}
    print(f'{"scenario":18s} {"in us/step":>10s} {"apart us/step":>13s} {"ratio":>6s} '
          f'{"rounds/step":>11s} {"start in/apart s":>17s}')
    for name in names:
        duration = SCENARIOS.get(name, 3.0)
        # alternated, best of REPEATS each: the machine's load drifts between runs
        runs = [measure(name, duration, apart) for _ in range(REPEATS) for apart in (False, True)]
        inside = min(runs[0::2], key=lambda r: r['us_per_step'])
        apart = min(runs[1::2], key=lambda r: r['us_per_step'])
        ratio = apart['us_per_step'] / inside['us_per_step']
        print(f'{name:18s} {inside["us_per_step"]:10.1f} {apart["us_per_step"]:13.1f} '
              f'{ratio:6.2f} {apart["rounds"] / apart["steps"]:11.3f} '
              f'{inside["start_s"]:8.2f}/{apart["start_s"]:.2f}')
        out[name] = {'in_us_per_step': round(inside['us_per_step'], 1),
                     'apart_us_per_step': round(apart['us_per_step'], 1),
                     'ratio': round(ratio, 2), 'start_in_s': round(inside['start_s'], 2),
                     'start_apart_s': round(apart['start_s'], 2)}
    print(json.dumps(out))


if __name__ == '__main__':
    os.environ.setdefault('ZOO_RUNTIME', 'embedded')
    main(sys.argv[1:] or list(SCENARIOS))
