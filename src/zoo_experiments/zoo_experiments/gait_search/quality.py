"""The gait quality of a scenario's walk as ``robozoo run`` runs it, recorded every physics step.

    python -m zoo_experiments.gait_search.quality nao_walk                 # the first 6 s
    python -m zoo_experiments.gait_search.quality nao_walk --duration 30 --set walker.settle_time=0.1
    python -m zoo_experiments.gait_search.quality nao_gait_search --params P1 .. P10
    python -m zoo_experiments.gait_search.quality nao_walk --soles        # + why soles are not flat

The scenario runs in-process on the embedded lockstep executor exactly as ``bin/robozoo run``
would (same nodes, parameters and seed; the recorder does not change the walk), with a
:class:`~coupled_wave_gait.gait_quality.StepRecorder` sampling every physics step while its Walker
walks. Prints one JSON object: the run's walker metrics and the measured quality with what misses
the acceptance targets (``failures``); exits 1 when something misses them.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from coupled_wave_gait.gait_quality import (GaitQuality, GaitRecording, QualityTargets,
                                            StepRecorder, measure)
from .evaluator import WALKER_NODE

DEFAULT_DURATION = 6.0


def record_scenario(scenario: str = 'nao_walk', duration: float | None = DEFAULT_DURATION,
                    overrides: Sequence[str] = (), params: Sequence[float] | None = None,
                    seed: int | None = None, soles: bool = False) -> tuple[dict, GaitRecording]:
    """Run ``scenario`` for ``duration`` s of sim time (None: the scenario's) with its Walker
    recorded; returns the run's summary (as ``robozoo run`` writes it) and the recording.
    ``params`` replaces the Walker's gait parameters (and starts it); ``soles`` also records the
    sole contact diagnostics (corner heights, tilt, normal force, centre of pressure)."""
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import apply_overrides, load_scenario

    sc = load_scenario(scenario)
    walkers = [n.name for n in sc.nodes if (n.package, n.executable) == WALKER_NODE]
    if len(walkers) != 1 or len(sc.robots) != 1:
        raise ValueError(f'{sc.path}: expected one robot and one gait_player/player node, '
                         f'found {len(sc.robots)} and {len(walkers)}')
    extra = []
    if params is not None:
        extra = [f'{walkers[0]}.params=[{", ".join(repr(float(v)) for v in params)}]',
                 f'{walkers[0]}.auto_start=true']
    sc = apply_overrides(sc, [*overrides, *extra])
    run = ScenarioRun(sc, seed=seed)
    try:
        walker = run.nodes[walkers[0]]
        recorder = StepRecorder(run.physics, sc.robots[0].name,
                                active=lambda: walker.state == 'walking',
                                fall_height_m=walker.eval_config.fall_height_m,
                                soles=soles).install()
        wall = run.run(duration)
        summary = run.summary(wall)
        recorder.remove()
        return summary, recorder.recording()
    finally:
        run.close()


def measure_scenario(scenario: str = 'nao_walk', duration: float | None = DEFAULT_DURATION,
                     overrides: Sequence[str] = (), params: Sequence[float] | None = None,
                     targets: QualityTargets | None = None,
                     soles: bool = False) -> tuple[dict, GaitQuality]:
    summary, rec = record_scenario(scenario, duration, overrides, params, soles=soles)
    return summary, measure(rec, targets=targets)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog='robozoo quality',
                                 description=__doc__.split('\n\n')[0])
    ap.add_argument('scenario', nargs='?', default='nao_walk')
    ap.add_argument('--duration', type=float, default=DEFAULT_DURATION,
                    help='sim seconds from the start of the run (default 6)')
    ap.add_argument('--set', dest='overrides', action='append', default=[],
                    metavar='NODE.PARAM=VALUE')
    ap.add_argument('--params', type=float, nargs=10, metavar='P',
                    help="the Walker's gait parameters, param1..param10")
    ap.add_argument('--soles', action='store_true',
                    help='also why loaded soles are not flat (quality.sole_contact: corner '
                         'heights, tilt, normal force, centre of pressure, by stance fifth)')
    a = ap.parse_args(argv)
    try:
        summary, q = measure_scenario(a.scenario, a.duration, a.overrides, a.params,
                                      soles=a.soles)
    except (ValueError, OSError, RuntimeError) as exc:  # ScenarioError, SimConfigError, ...
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f'robozoo quality: error: {msg}', file=sys.stderr)
        return 2
    walker = next((m for m in summary['metrics'].values() if 'walk_time_s' in m), {})
    out = {'scenario': summary['scenario'], 'sim_time': summary['sim_time'],
           'walker': {k: walker.get(k) for k in ('params', 'walk_time_s', 'forward_m',
                                                 'lateral_m', 'fell', 'min_torso_z_m',
                                                 'fitness')},
           'quality': q.to_dict()}
    json.dump(out, sys.stdout, indent=2)
    print()
    return 0 if q.ok() else 1


if __name__ == '__main__':
    sys.exit(main())
