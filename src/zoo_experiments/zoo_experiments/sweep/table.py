"""A sweep's results as a table: one row per point, the swept values then the metrics.

Metrics are the scalars of each point's summary (``robozoo run``'s summary.json): the robots'
(``<robot>.<name>``, e.g. ``go1.drift_xy``) and the nodes' (``<node>.<name>``, e.g.
``plan_tracker.distance_to_goal_m``). sweep.csv and sweep.json hold every metric; the table on
stdout shows the chosen ones (``--metric``), by default those that differ between the points.
"""
from __future__ import annotations

import csv
import difflib
import json
import math
from pathlib import Path
from typing import Any

from zoo_scenario.scenario import ScenarioError

WALL = ('wall_time', 'real_time_factor')  # of the machine, not of the physics
MAX_SHOWN = 8


def metrics(summary: dict) -> dict[str, Any]:
    """The point's scalar metrics by column name (numbers, bools, strings; short number lists
    such as a base position stay in sweep.json only)."""
    out: dict[str, Any] = {'sim_time': summary.get('sim_time')}
    for group in ('robots', 'metrics'):
        for owner, values in (summary.get(group) or {}).items():
            for key, v in (values or {}).items():
                if isinstance(v, (bool, int, float, str)) or v is None:
                    out[f'{owner}.{key}'] = v
    return out


def rows(axes, records: list[dict]) -> list[dict]:
    """One row per record (given in grid order): ``{axis name: value, ..., metric: value, ...}``;
    the value as set wins over a node's metric of the same name (a node reporting its
    parameter)."""
    out = []
    for rec in records:
        row = {s.partition('=')[0]: s.partition('=')[2] for s in rec['set']}
        row.update((k, v) for k, v in metrics(rec['summary']).items() if k not in row)
        out.append(row)
    return out


def known_metrics(table: list[dict], axes) -> list[str]:
    names = {a.name for a in axes}
    seen: dict[str, None] = {}
    for row in table:
        for k in row:
            if k not in names:
                seen.setdefault(k)
    return list(seen)


def check_metrics(wanted: list[str], known: list[str]) -> None:
    for name in wanted:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f'known: {", ".join(known)}'
            raise ScenarioError(f'--metric {name}: no such metric in the points\' summaries '
                                f'({hint})')


def shown_metrics(table: list[dict], axes, wanted: list[str]) -> list[str]:
    """``wanted``, else the metrics that differ between the points (the robots' first), at most
    MAX_SHOWN; with a single point, its robots' metrics."""
    if wanted:
        return list(wanted)
    known = known_metrics(table, axes)
    varying = [k for k in known if len({json.dumps(r.get(k)) for r in table}) > 1]
    chosen = varying if len(table) > 1 else [k for k in known if k != 'sim_time']
    return chosen[:MAX_SHOWN]


def format_table(table: list[dict], axes, shown: list[str]) -> str:
    cols = [a.name for a in axes] + shown
    cells = [[_cell(r.get(c)) for c in cols] for r in table]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(cols)]
    lines = ['  '.join(c.rjust(w) for c, w in zip(cols, widths))]
    lines.append('  '.join('-' * w for w in widths))
    lines += ['  '.join(v.rjust(w) for v, w in zip(row, widths)) for row in cells]
    return '\n'.join(lines)


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f'{v:.4g}' if math.isfinite(v) else str(v)
    return '' if v is None else str(v)


def write_files(out: Path, table: list[dict], axes, records: list[dict], header: dict
                ) -> list[Path]:
    """sweep.csv (every scalar metric), sweep.json (the grid and each point's whole summary)."""
    out.mkdir(parents=True, exist_ok=True)
    cols = [a.name for a in axes] + [k for k in known_metrics(table, axes) if k not in WALL]
    csv_path = out / 'sweep.csv'
    with open(csv_path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in table:
            w.writerow(['' if r.get(c) is None else r.get(c) for c in cols])
    json_path = out / 'sweep.json'
    points = [{'set': r['set'], 'metrics': metrics(r['summary']), 'summary': r['summary']}
              for r in records]
    json_path.write_text(json.dumps({'sweep': header, 'axes': {a.name: list(a.values)
                                                              for a in axes},
                                     'points': points}, indent=2) + '\n')
    return [csv_path, json_path]


def plot(out: Path, table: list[dict], axes, shown: list[str]) -> Path | None:
    """sweep.png: each shown numeric metric against the first axis of several values, one line
    per combination of the others (None when there is nothing to draw)."""
    numeric = [m for m in shown if all(isinstance(r.get(m), (int, float)) and
                                       not isinstance(r.get(m), bool) for r in table)]
    varying = [a for a in axes if len(a.values) > 1]  # a one-value --set is a fixed setting
    if len(table) < 2 or not numeric or not varying:
        return None
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    x_axis, others = varying[0], varying[1:]
    xs = list(x_axis.values)
    numeric = numeric[:4]
    fig, plots = plt.subplots(1, len(numeric), figsize=(4.2 * len(numeric), 3.4), squeeze=False)
    for ax, m in zip(plots[0], numeric):
        groups: dict[str, list] = {}
        for r in table:
            label = ', '.join(f'{a.name.partition(".")[2]}={r[a.name]}' for a in others)
            groups.setdefault(label, []).append((xs.index(r[x_axis.name]), r[m]))
        for label, pts in groups.items():
            pts.sort()
            ax.plot([p[0] for p in pts], [float(p[1]) for p in pts], 'o-', label=label or None)
        ax.set_xticks(range(len(xs)), xs, rotation=20, fontsize=8)
        ax.set_xlabel(x_axis.name)
        ax.set_title(m, fontsize=10)
        ax.grid(alpha=0.3)
        if others:
            ax.legend(fontsize=7)
    fig.tight_layout()
    path = out / 'sweep.png'
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
