"""The seed's text files (specs/nao.md §7) and the run summary (R27), written from journal records.

searches file, per candidate:   ``Search#<id>`` then ``param<k>:<value>`` for k = 1..10
results file, per accepted one: ``Search_id#<id>``, ``Simulation time: <s> s``,
``Origin: (<x> cm, <y> cm, <z> cm)``, ``End: (...)``, ``Distance: <cm> cm``,
``Desviation: <cm> cm`` (the seed's spelling), ``Fallen: <0/1>``, ``Fitness: <pct>%``.
Only non-fallen candidates with fitness_pct above the threshold go to the results file.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, Sequence

from gait_player.walk_evaluation import WalkStatistics


def _num(v: float) -> str:
    return format(v, '.10g')


def searches_text(records: Iterable[dict]) -> str:
    lines = []
    for r in records:
        lines.append(f"Search#{r['seq']}")
        lines += [f'param{k}:{_num(v)}' for k, v in enumerate(r['values'], 1)]
    return ''.join(line + '\n' for line in lines)


def _cm(v: float) -> str:
    return f'{round(v, 2) + 0.0:.2f}'  # + 0.0: no "-0.00"


def result_text(s: WalkStatistics) -> str:
    return (f'Search_id#{s.id}\n'
            f'Simulation time: {s.sim_time:.3f} s\n'
            f'Origin: ({_cm(s.x0)} cm, {_cm(s.y0)} cm, {_cm(s.z0)} cm)\n'
            f'End: ({_cm(s.x1)} cm, {_cm(s.y1)} cm, {_cm(s.z1)} cm)\n'
            f'Distance: {_cm(s.distance)} cm\n'
            f'Desviation: {s.deviation:.4f} cm\n'
            f'Fallen: {int(s.fallen)}\n'
            f'Fitness: {s.fitness_pct:.1f}%\n')


def summary(records: Sequence[dict], names: Sequence[str], accept_pct: float) -> dict:
    stats = [WalkStatistics.from_dict(r['stats']) for r in records]
    n = len(stats)
    fallen = sum(s.fallen for s in stats)
    out = {'candidates': n, 'fallen': fallen, 'fall_rate': fallen / n if n else 0.0,
           'accepted': sum(s.accepted(accept_pct) for s in stats), 'best': None}
    if n:
        k = max(range(n), key=lambda i: (stats[i].fitness, -records[i]['seq']))
        b = stats[k]
        out['best'] = {'id': b.id, 'params': dict(zip(names, records[k]['values'])),
                       'fitness': b.fitness, 'fitness_pct': b.fitness_pct,
                       'distance_cm': b.distance, 'distance_y_cm': b.distance_y,
                       'deviation_cm': b.deviation, 'straightness': b.straightness,
                       'sim_time_s': b.sim_time, 'fallen': b.fallen}
    return out


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + '.tmp')
    tmp.write_text(text)
    os.replace(tmp, path)


def export_run(out_dir: str | os.PathLike, records: Iterable[dict], names: Sequence[str],
               accept_pct: float, extra: dict | None = None) -> dict:
    """Write searches.txt, results.txt and summary.json (records in id order); return the
    summary."""
    out = Path(out_dir)
    ordered = sorted(records, key=lambda r: r['seq'])
    _write_atomic(out / 'searches.txt', searches_text(ordered))
    stats = [WalkStatistics.from_dict(r['stats']) for r in ordered]
    _write_atomic(out / 'results.txt', ''.join(
        result_text(s) for s in stats if s.accepted(accept_pct)))
    summ = summary(ordered, names, accept_pct)
    summ.update(extra or {})
    _write_atomic(out / 'summary.json', json.dumps(summ, indent=2) + '\n')
    return summ
