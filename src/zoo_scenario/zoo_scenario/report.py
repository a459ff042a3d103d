"""Plots of a run directory: ``write_report(output_dir) -> [png paths]``.

Reads what a run left there and draws what it finds (matplotlib's Agg canvas, no display):
- a recorded bag (``bag/``, from ``robozoo run --record``): per robot, ``<robot>_trajectory.png``
  (base path in the ground plane, base height over time) from ``odometry/ground_truth``, and
  ``<robot>_joints.png`` (leg joint angles over time) from ``joint_states``;
- a gait search journal (``journal.jsonl``): ``fitness.png``, every candidate's fitness in
  evaluation order, falls marked, and the best so far.
Robots are the ones ``summary.json`` names, else every ``/<robot>/odometry/ground_truth`` in the
bag.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Sequence

import numpy as np

LEG_PATTERN = re.compile(r'hip|knee|ankle|thigh|calf|leg|foot', re.IGNORECASE)
MAX_JOINT_PANELS = 12


def write_report(output_dir: str | Path) -> list[Path]:
    out = Path(output_dir)
    if not out.is_dir():
        raise FileNotFoundError(f'report: output directory {out} does not exist')
    files: list[Path] = []
    bag = out / 'bag'
    if bag.is_dir():
        files += _bag_plots(out, bag, _summary_robots(out / 'summary.json'))
    journal = out / 'journal.jsonl'
    if journal.is_file():
        files.append(_fitness_plot(journal, out / 'fitness.png'))
    return files


def write_bag_report(bag: str | Path, output_dir: str | Path | None = None) -> list[Path]:
    """The bag plots of ``write_report`` for any rosbag2 bag (``robozoo bag report``: one that
    ``ros2 bag record`` wrote, MCAP or sqlite3, as well as ours), into ``output_dir`` (default:
    the folder holding the bag, where ``run --report`` puts them). Robots: the run's
    summary.json beside the bag, else the bag's ``/<robot>/odometry/ground_truth`` topics."""
    bag = Path(bag)
    if not (bag / 'metadata.yaml').is_file():
        raise FileNotFoundError(f'report: {bag} is not a rosbag2 bag (no metadata.yaml)')
    out = bag.resolve().parent if output_dir is None else Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    return _bag_plots(out, bag, _summary_robots(bag.resolve().parent / 'summary.json'))


def _summary_robots(path: Path) -> list[str] | None:
    if not path.is_file():
        return None
    robots = json.loads(path.read_text()).get('robots')
    return sorted(robots) if isinstance(robots, dict) else None


def _bag_plots(out: Path, bag: Path, robots: list[str] | None) -> list[Path]:
    from rosbags.rosbag2 import Reader

    from zoo_runtime.bag import read_bag

    with Reader(bag) as reader:
        topics = {c.topic for c in reader.connections}
    if robots is None:
        robots = sorted(t.split('/')[1] for t in topics if t.endswith('/odometry/ground_truth'))
    files = []
    for robot in robots:
        odom, states = f'/{robot}/odometry/ground_truth', f'/{robot}/joint_states'
        wanted = [t for t in (odom, states) if t in topics]
        tables = read_bag(bag, wanted) if wanted else {}
        if odom in tables:
            files.append(trajectory_plot(robot, tables[odom], out / f'{robot}_trajectory.png'))
        if states in tables:
            files.append(joints_plot(robot, tables[states], out / f'{robot}_joints.png'))
    return files


def _figure(width: float, height: float):
    from matplotlib.figure import Figure
    return Figure(figsize=(width, height), dpi=100, layout='constrained')


def _save(fig, path: Path) -> None:
    """The PNG whole or not at all: a plot interrupted by Ctrl-C leaves no torn file."""
    tmp = Path(path).with_name(f'.{Path(path).name}.tmp')
    try:
        fig.savefig(tmp, format='png')
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def trajectory_plot(robot: str, odom, path: Path) -> Path:
    t = odom.t - odom.t[0]
    x = odom['pose.pose.position.x']
    y = odom['pose.pose.position.y']
    z = odom['pose.pose.position.z']
    fig = _figure(11, 4.5)
    ax_xy, ax_z = fig.subplots(1, 2, width_ratios=[1.4, 1])
    ax_xy.plot(x, y, color='tab:blue', lw=1.5)
    ax_xy.plot(x[0], y[0], 'o', color='tab:green', label=f'start ({x[0]:.2f}, {y[0]:.2f})')
    ax_xy.plot(x[-1], y[-1], 's', color='tab:red', label=f'end ({x[-1]:.2f}, {y[-1]:.2f})')
    ax_xy.set_aspect('equal', adjustable='datalim')
    ax_xy.set(xlabel='x (m)', ylabel='y (m)', title=f'{robot}: base path, top view')
    ax_xy.grid(alpha=0.3)
    ax_xy.legend(loc='best', fontsize=8)
    ax_z.plot(t, z, color='tab:purple', lw=1.2)
    ax_z.axhline(z.min(), color='tab:gray', ls='--', lw=0.8, label=f'min {z.min():.3f} m')
    ax_z.set(xlabel='time (s)', ylabel='z (m)', title=f'{robot}: base height')
    ax_z.grid(alpha=0.3)
    ax_z.legend(loc='best', fontsize=8)
    _save(fig, path)
    return path


def leg_joints(names: Sequence[str]) -> list[str]:
    """The joints to plot: leg joints by name (hip, knee, ankle ...), else the first joints."""
    legs = [n for n in names if LEG_PATTERN.search(n)]
    return (legs or list(names))[:MAX_JOINT_PANELS]


def joints_plot(robot: str, states, path: Path) -> Path:
    names = states['name']
    if names and isinstance(names[0], list):  # joint set changed during the run: use the first
        names = names[0]
    position = states['position']
    if not isinstance(position, np.ndarray):
        raise ValueError(f'report: {states.topic}: joint states of varying length')
    t = states.t - states.t[0]
    shown = leg_joints(names)
    cols = 3 if len(shown) > 4 else 1
    rows = -(-len(shown) // cols)
    fig = _figure(12 if cols == 3 else 7, 1.9 * rows + 0.6)
    axes = np.atleast_1d(fig.subplots(rows, cols, sharex=True, squeeze=False)).ravel()
    for ax, name in zip(axes, shown):
        ax.plot(t, np.degrees(position[:, names.index(name)]), lw=1.0)
        ax.set_title(name, fontsize=9)
        ax.set_ylabel('deg', fontsize=8)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=8)
    for ax in axes[len(shown):]:
        ax.set_visible(False)
    for ax in axes[max(0, len(shown) - cols):len(shown)]:
        ax.set_xlabel('time (s)', fontsize=8)
    fig.suptitle(f'{robot}: joint angles')
    _save(fig, path)
    return path


def best_so_far(fitness: Sequence[float]) -> np.ndarray:
    return np.maximum.accumulate(np.asarray(fitness, dtype=float)) if len(fitness) else np.empty(0)


def _fitness_plot(journal: Path, path: Path) -> Path:
    lines = journal.read_text().splitlines()
    recs = []
    for line in lines[1:]:
        try:
            recs.append(json.loads(line))
        except json.JSONDecodeError:  # a torn last line of a killed search
            continue
    recs.sort(key=lambda r: r['seq'])
    seq = np.array([r['seq'] for r in recs])
    fit = np.array([r['stats']['fitness'] for r in recs])
    fell = np.array([bool(r['stats']['fallen']) for r in recs], dtype=bool)
    header = json.loads(lines[0]).get('header', {}) if lines else {}
    fig = _figure(9, 4.5)
    ax = fig.subplots()
    ax.plot(seq[~fell], fit[~fell], '.', color='tab:blue', ms=4, label='standing')
    ax.plot(seq[fell], fit[fell], 'x', color='tab:red', ms=4, label=f'fallen ({fell.sum()})')
    ax.step(seq, best_so_far(fit), where='post', color='black', lw=1.5, label='best so far')
    ax.set(xlabel='candidate', ylabel='fitness',
           title=f"gait search ({header.get('strategy', '?')}): {len(recs)} candidates")
    ax.grid(alpha=0.3)
    ax.legend(loc='upper left', fontsize=8)
    _save(fig, path)
    return path
