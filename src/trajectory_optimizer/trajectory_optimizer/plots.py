"""PNG figures of a plan (the thesis' planning figures, spec go1.md §6.2 / R7.1): base position,
base accelerations, per-foot forces, contact schedule.

Each ``plot_*`` draws one plan into given axes, so the gravity study can overlay plans of several
gravities (:func:`compare_plans`) or lay them out side by side; :func:`write_plots` writes the
four figures of one plan.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

PLOTS = ('base_position', 'base_acceleration', 'foot_forces', 'contact_schedule')
AXES = ('x', 'y', 'z')


def _pyplot():
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def _feet(plan) -> list[str]:
    return [str(f).split('_')[0] for f in plan['feet']]


def plot_base_position(plan, axes: Sequence, label: str = '', **style) -> None:
    """Base x, y, z (m) and roll, pitch, yaw (rad) against time: 6 axes."""
    t = plan['t']
    for k in range(3):
        axes[k].plot(t, plan['base_pos'][:, k], label=label, **style)
        axes[k].set_ylabel(f'base {AXES[k]} (m)')
        axes[3 + k].plot(t, plan['base_euler'][:, k], label=label, **style)
        axes[3 + k].set_ylabel(('roll', 'pitch', 'yaw')[k] + ' (rad)')


def plot_base_acceleration(plan, axes: Sequence, label: str = '', **style) -> None:
    """Linear (m/s^2) and angular (rad/s^2) base acceleration, world axes: 6 axes."""
    t = plan['t']
    for k in range(3):
        axes[k].plot(t, plan['base_lin_acc'][:, k], label=label, **style)
        axes[k].set_ylabel(f'a_{AXES[k]} (m/s²)')
        axes[3 + k].plot(t, plan['base_ang_acc'][:, k], label=label, **style)
        axes[3 + k].set_ylabel(f'ω̇_{AXES[k]} (rad/s²)')


def plot_foot_forces(plan, axes: Sequence, label: str = '', **style) -> None:
    """Ground force on each foot, x/y/z (N): one axis per foot."""
    t = plan['t']
    for k, foot in enumerate(_feet(plan)):
        for d, ls in zip(range(3), ('-', '--', ':')):
            axes[k].plot(t, plan['foot_force'][:, k, d], ls,
                         label=f'{label} f_{AXES[d]}'.strip(), **style)
        axes[k].set_ylabel(f'{foot} force (N)')


def plot_contact_schedule(plan, ax, **style) -> None:
    """Stance bars per foot (the gait diagram)."""
    t = plan['t']
    feet = _feet(plan)
    for k in range(len(feet)):
        c = np.asarray(plan['contact'][:, k], bool)
        edges = np.flatnonzero(np.diff(np.concatenate([[0], c.astype(int), [0]])))
        spans = [(t[a], t[min(b, len(t) - 1)] - t[a]) for a, b in zip(edges[::2], edges[1::2])]
        ax.broken_barh(spans, (k - 0.4, 0.8), **({'color': 'tab:green'} | style))
    ax.set_yticks(range(len(feet)), feet)
    ax.set_ylim(len(feet) - 0.5, -0.5)
    ax.set_xlabel('t (s)')


def _title(plan) -> str:
    return (f"{plan['robot']} {plan['gait']}, g = {float(plan['gravity']):g} m/s², "
            f"T = {float(plan['duration']):g} s, goal ({plan['goal'][0]:g}, {plan['goal'][1]:g}),"
            f" {plan['status']}")


def figure(name: str, plans: Sequence, labels: Sequence[str] | None = None):
    """One of :data:`PLOTS` for one plan or several overlaid (e.g. one per gravity)."""
    plt = _pyplot()
    labels = list(labels or [''] * len(plans))
    if name == 'contact_schedule':
        fig, ax = plt.subplots(len(plans), 1, figsize=(9, 1.2 + 1.1 * len(plans)), squeeze=False)
        for row, (plan, label) in enumerate(zip(plans, labels)):
            plot_contact_schedule(plan, ax[row, 0])
            ax[row, 0].set_title(label or _title(plans[0]), fontsize=9)
    elif name == 'foot_forces':
        n = len(plans[0]['feet'])
        fig, axes = plt.subplots(n, 1, figsize=(9, 2.2 * n), sharex=True)
        for plan, label in zip(plans, labels):
            plot_foot_forces(plan, axes, label)
        axes[-1].set_xlabel('t (s)')
    else:
        fig, axes = plt.subplots(3, 2, figsize=(11, 7), sharex=True)
        cols = [axes[k, 0] for k in range(3)] + [axes[k, 1] for k in range(3)]
        draw = plot_base_position if name == 'base_position' else plot_base_acceleration
        for plan, label in zip(plans, labels):
            draw(plan, cols, label)
        for ax in axes[-1]:
            ax.set_xlabel('t (s)')
    for ax in fig.axes:
        ax.grid(alpha=0.3)
        if any(labels) and ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    if name != 'contact_schedule':
        fig.suptitle(_title(plans[0]) if len(plans) == 1 else name.replace('_', ' '), fontsize=10)
    fig.tight_layout()
    return fig


def write_plots(plan, out_dir: str | Path, prefix: str = 'plan_') -> list[Path]:
    """The four figures of one plan as ``<prefix><name>.png``."""
    plt = _pyplot()
    paths = []
    for name in PLOTS:
        fig = figure(name, [plan])
        path = Path(out_dir) / f'{prefix}{name}.png'
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def compare_plans(plans: Sequence, labels: Sequence[str], out_dir: str | Path,
                  prefix: str = 'compare_') -> list[Path]:
    """The figures with several plans overlaid (e.g. Earth, intermediate, Mars)."""
    plt = _pyplot()
    paths = []
    for name in PLOTS:
        fig = figure(name, plans, labels)
        path = Path(out_dir) / f'{prefix}{name}.png'
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths
