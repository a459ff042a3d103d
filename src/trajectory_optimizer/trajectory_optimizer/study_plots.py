"""The gravity study's figures (spec go1.md R7.1; the thesis' Figs 6.1-6.21): per gravity the
planning set (plots.py's base position, base accelerations, foot forces, contact schedule, plus the
planned joint angles) and the tracking set (base accelerations, joint torques, joint angles, base
position, tracked against planned), and overlays of the gravities. Time is plan time; the shaded
span is the plan (before it: the stand-up ramps, after it: the hold).
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from . import plots
from .study_data import GravityRun
from .study_metrics import LABELS

MARGIN = (0.5, 1.0)  # s of plan time shown before and after the plan
AXES = ('x', 'y', 'z')
COLORS = {'earth': 'tab:blue', 'intermediate': 'tab:orange', 'mars': 'tab:red'}


def _label(run: GravityRun) -> str:
    return f'{LABELS.get(run.name, run.name)} (g {run.gravity:g})'


def _legs_grid(run: GravityRun, title: str, ylabel: str):
    """A 4 x 3 grid, one axis per joint in the run's joint order (legs x hip/thigh/calf)."""
    plt = plots._pyplot()
    fig, axes = plt.subplots(4, 3, figsize=(12, 9), sharex=True)
    for ax, joint in zip(axes.flat, run.joints):
        ax.set_title(joint, fontsize=8)
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
    for ax in axes[-1]:
        ax.set_xlabel('plan time (s)')
    fig.suptitle(title, fontsize=10)
    return fig, axes.flat


def _window(run: GravityRun, t: np.ndarray) -> np.ndarray:
    T = float(run.plan['duration'])
    return (t >= -MARGIN[0]) & (t <= T + MARGIN[1])


def _shade(axes, run: GravityRun) -> None:
    for ax in axes:
        ax.axvspan(0.0, float(run.plan['duration']), color='0.92', zorder=0)


def plan_joint_angles(runs: Sequence[GravityRun]):
    """Planned joint angles (IK of the plan, as tracked) of one or more gravities."""
    fig, axes = _legs_grid(runs[0], 'planned joint angles (IK of the plan)', 'q (rad)')
    for run in runs:
        for j, ax in enumerate(axes):
            ax.plot(run.plan['t'], run.q_plan[:, j], color=COLORS.get(run.name),
                    label=_label(run) if j == 0 else None)
    fig.axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def track_joint_angles(run: GravityRun):
    tr = run.tracked
    fig, axes = _legs_grid(run, f'{_label(run)}: joint angles, measured vs commanded and planned',
                           'q (rad)')
    c, m = _window(run, tr.tp_cmd), _window(run, tr.tp_joints)
    for j, ax in enumerate(axes):
        ax.plot(run.plan['t'], run.q_plan[:, j], color='0.5', lw=2,
                label='planned' if j == 0 else None)
        ax.plot(tr.tp_cmd[c], tr.q_cmd[c, j], 'k--', lw=1, label='commanded' if j == 0 else None)
        ax.plot(tr.tp_joints[m], tr.q[m, j], color=COLORS.get(run.name), lw=1,
                label='measured' if j == 0 else None)
    _shade(axes, run)
    fig.axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def track_joint_torques(runs: Sequence[GravityRun]):
    """Measured joint torques; with one run also the commanded torque (the effort field)."""
    one = len(runs) == 1
    title = (f'{_label(runs[0])}: joint torques' if one else 'measured joint torques')
    fig, axes = _legs_grid(runs[0], title, 'τ (N m)')
    for run in runs:
        tr = run.tracked
        m, c = _window(run, tr.tp_joints), _window(run, tr.tp_cmd)
        for j, ax in enumerate(axes):
            ax.plot(tr.tp_joints[m], tr.effort[m, j], color=COLORS.get(run.name), lw=1,
                    label=('measured' if one else _label(run)) if j == 0 else None)
            if one:
                ax.plot(tr.tp_cmd[c], tr.tau_cmd[c, j], 'k--', lw=1,
                        label='commanded τ' if j == 0 else None)
    _shade(axes, runs[0])
    fig.axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def track_base_acceleration(runs: Sequence[GravityRun]):
    """IMU base accelerations (world axes, gravity removed); with one run also the plan's."""
    plt = plots._pyplot()
    one = len(runs) == 1
    fig, axes = plt.subplots(3, 2, figsize=(11, 7), sharex=True)
    for run in runs:
        tr = run.tracked
        m = _window(run, tr.tp_imu)
        for k in range(3):
            for col, data, plan_key in ((0, tr.lin_acc, 'base_lin_acc'),
                                        (1, tr.ang_acc, 'base_ang_acc')):
                ax = axes[k, col]
                ax.plot(tr.tp_imu[m], data[m, k], color=COLORS.get(run.name), lw=0.8,
                        label=('tracked (IMU)' if one else _label(run)) if k == 0 else None)
                if one:
                    ax.plot(run.plan['t'], run.plan[plan_key][:, k], 'k', lw=1.5,
                            label='planned' if k == 0 else None)
    for k in range(3):
        axes[k, 0].set_ylabel(f'a_{AXES[k]} (m/s²)')
        axes[k, 1].set_ylabel(f'ω̇_{AXES[k]} (rad/s²)')
    for ax in axes[-1]:
        ax.set_xlabel('plan time (s)')
    _shade(axes.flat, runs[0])
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f'{_label(runs[0])}: base accelerations, tracked vs planned' if one
                 else 'tracked base accelerations (IMU)', fontsize=10)
    fig.tight_layout()
    return fig


def track_base_position(run: GravityRun):
    plt = plots._pyplot()
    tr = run.tracked
    fig, axes = plt.subplots(3, 1, figsize=(9, 7), sharex=True)
    m = _window(run, tr.tp_odom)
    for k, ax in enumerate(axes):
        ax.plot(tr.tp_odom[m], tr.base_pos[m, k], color=COLORS.get(run.name), label='measured')
        ax.plot(run.plan['t'], run.plan['base_pos'][:, k], 'k--', label='planned')
        ax.set_ylabel(f'base {AXES[k]} (m)')
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel('plan time (s)')
    _shade(axes, run)
    axes[0].legend(fontsize=7)
    fig.suptitle(f'{_label(run)}: base position, measured vs planned', fontsize=10)
    fig.tight_layout()
    return fig


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plots._pyplot().close(fig)
    return path


def write_figures(runs: Sequence[GravityRun], out: Path, real_robot=None) -> dict[str, list[Path]]:
    """All figures under ``out``: ``<gravity>/plan_*.png``, ``<gravity>/track_*.png``,
    ``compare_*.png`` (and ``real_robot/plan_*.png``); returns them per group."""
    figs: dict[str, list[Path]] = {}
    for run in runs:
        d = out / run.name
        d.mkdir(parents=True, exist_ok=True)
        paths = plots.write_plots(run.plan, d, 'plan_')
        paths.append(_save(plan_joint_angles([run]), d / 'plan_joint_angles.png'))
        if run.tracked is not None:
            paths += [_save(track_base_acceleration([run]), d / 'track_base_acceleration.png'),
                      _save(track_joint_torques([run]), d / 'track_joint_torques.png'),
                      _save(track_joint_angles(run), d / 'track_joint_angles.png'),
                      _save(track_base_position(run), d / 'track_base_position.png')]
        figs[run.name] = paths
    if len(runs) > 1:
        compare = plots.compare_plans([r.plan for r in runs], [_label(r) for r in runs], out,
                                      'compare_plan_')
        compare.append(_save(plan_joint_angles(runs), out / 'compare_plan_joint_angles.png'))
        tracked = [r for r in runs if r.tracked is not None]
        if len(tracked) > 1:
            compare += [_save(track_base_acceleration(tracked),
                              out / 'compare_track_base_acceleration.png'),
                        _save(track_joint_torques(tracked),
                              out / 'compare_track_joint_torques.png')]
        figs['compare'] = compare
    if real_robot is not None:
        (out / 'real_robot').mkdir(parents=True, exist_ok=True)
        figs['real_robot'] = plots.write_plots(real_robot, out / 'real_robot', 'plan_')
    return figs
