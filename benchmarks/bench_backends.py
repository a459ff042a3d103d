"""The same scenarios on MuJoCo and on Gazebo Harmonic (gz-sim8 through its Python bindings,
bullet-featherstone) side by side in one run (issue 31): real-time factor and microseconds of
wall time per physics step of each backend, from `bin/robozoo run <scenario> --duration S` with
and without `--set sim.backend=gazebo` (the whole run: physics, the simulator node's topics and
the scenario's controllers, lockstep). Prints a table, then one JSON line
{"bench": "backends", ...}.

    python benchmarks/bench_backends.py [--duration 3] [scenario ...]

Needs Gazebo (`make setup` unpacks the shared build into .gz/; bin/robozoo activates it).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

WS = Path(__file__).resolve().parents[1]
SCENARIOS = ['nao_stand', 'go1_stand', 'hoap2_stand', 'nao_wave_walk', 'go1_trot_earth']


def run(scenario: str, backend: str, duration: float, out: Path) -> dict:
    sets = ['--set', f'sim.backend={backend}'] if backend != 'mujoco' else []
    p = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', scenario, '--duration', str(duration),
                        '--quiet', '--output', str(out), *sets], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f'bench_backends: {scenario} on {backend} failed: '
                 f'{(p.stderr.strip().splitlines() or ["?"])[-1]}')
    s = json.loads((out / 'summary.json').read_text())
    steps = s['metrics']['sim']['steps']
    return {'rtf': s['real_time_factor'], 'us_per_step': s['wall_time'] / steps * 1e6,
            'steps': steps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--duration', type=float, default=3.0, help='sim seconds per run')
    ap.add_argument('scenarios', nargs='*', default=SCENARIOS)
    a = ap.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for sc in a.scenarios:
            rows[sc] = {b: run(sc, b, a.duration, Path(tmp) / f'{sc}_{b}')
                        for b in ('mujoco', 'gazebo')}
            m, g = rows[sc]['mujoco'], rows[sc]['gazebo']
            print(f'{sc:16s} mujoco {m["rtf"]:7.1f}x {m["us_per_step"]:8.1f} us/step | '
                  f'gazebo {g["rtf"]:5.2f}x {g["us_per_step"]:8.1f} us/step | '
                  f'gazebo/mujoco {g["us_per_step"] / m["us_per_step"]:5.1f}x the time',
                  flush=True)
    print(json.dumps({'bench': 'backends', 'duration': a.duration, 'runs': rows}))


if __name__ == '__main__':
    main()
