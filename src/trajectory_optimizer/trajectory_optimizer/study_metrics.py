"""The gravity study's numbers (spec go1.md §13.4 C1-C10, R5.5) and the sentences that state how
they change with gravity, all computed from the run folders (study_data.GravityRun).

Planned quantities span the whole plan (0..T); tracked ones the samples the tracker spent on the
plan (plan time 0..T). Tracked angular acceleration is the IMU's angular velocity (world axes)
differentiated at the IMU rate, and also after a 0.1 s moving mean (the length of the plan's base
polynomials), so that a plan/track comparison does not rest on the sampling rate alone.
"""
from __future__ import annotations

import itertools
import math
from typing import Any, Sequence

import numpy as np

from . import stance_metrics
from .checks import leg_reach_used, run_checks
from .study_data import GravityRun

SMOOTH_S = 0.1        # s: the moving mean of the smoothed tracked angular acceleration
SWING_HEIGHT = 0.03   # m: C10's minimum swing-foot height
KINDS = ('hip', 'thigh', 'calf')
LABELS = {'earth': 'Earth', 'intermediate': 'intermediate', 'mars': 'Mars'}


def num(v: float) -> str:
    """Every number of the report and its sentences: 4 significant digits."""
    return 'n/a' if v is None or not math.isfinite(v) else f'{v:.4g}'


def _norm(x: np.ndarray) -> np.ndarray:
    return np.linalg.norm(x, axis=-1)


def _rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(x))))


def _kind(joint: str) -> str:
    return next(k for k in KINDS if f'_{k}' in joint)


def _by_kind(joints: list[str], per_joint: np.ndarray) -> dict[str, float]:
    """Max over the joints of each kind (hip, thigh, calf)."""
    return {k: float(max(v for j, v in zip(joints, per_joint) if _kind(j) == k)) for k in KINDS}


def impulse(plan) -> float:
    """Σ_feet ∫ f_z dt (N s), the trapezoid rule of checks.vertical_impulse."""
    fz = np.asarray(plan['foot_force'])[..., 2].sum(axis=1)
    return float(np.sum(0.5 * (fz[1:] + fz[:-1]) * np.diff(plan['t'])))


def plan_metrics(run: GravityRun) -> dict[str, Any]:
    """C1-C6, C9 (checks.py), C6's impulse, C7, the C8 ranges and the planned torques."""
    p = run.plan
    checks = run_checks(p)
    ranges = np.ptp(run.q_plan, axis=0)
    mgT = float(p['mass']) * run.gravity * float(p['duration'])
    return {
        'status': str(p['status']), 'success': bool(p['success']),
        'solve_time_s': float(p['solve_time_s']), 'iterations': int(p['iterations']),
        'checks': [{'name': c.name, 'passed': bool(c.passed), 'value': float(c.value),
                    'limit': float(c.limit), 'detail': c.detail} for c in checks],
        'impulse_Ns': impulse(p), 'mgT_Ns': mgT,
        'peak_sum_fz_N': float(np.max(np.asarray(p['foot_force'])[..., 2].sum(axis=1))),
        'peak_lin_acc': float(np.max(_norm(p['base_lin_acc']))),
        'peak_ang_acc': float(np.max(_norm(p['base_ang_acc']))),
        'rms_lin_acc': _rms(_norm(p['base_lin_acc'])),
        'rms_ang_acc': _rms(_norm(p['base_ang_acc'])),
        'rms_ang_acc_xyz': np.sqrt(np.mean(np.square(p['base_ang_acc']), axis=0)).tolist(),
        'base_z_ptp_m': float(np.ptp(p['base_pos'][:, 2])),
        'joint_range_rad': dict(zip(run.joints, map(float, ranges))),
        'thigh_range_rad': float(np.mean([r for j, r in zip(run.joints, ranges)
                                          if _kind(j) == 'thigh'])),
        'calf_range_rad': float(np.mean([r for j, r in zip(run.joints, ranges)
                                         if _kind(j) == 'calf'])),
        'peak_tau_ff_Nm': _by_kind(run.joints, np.max(np.abs(run.tau_plan), axis=0)),
        'leg_reach': leg_reach(p, run.robot.reach),
    }


def leg_reach(plan, reach) -> dict[str, Any] | None:
    """Issue 28: the most any planned foot asks of its leg (checks.leg_reach_used), against
    the leg's reach (robot_model.LegReach, None: not in the robot file) with the knee at its
    extension limit less the robot file's margin."""
    if reach is None:
        return None
    used = leg_reach_used(plan, reach)
    limit = reach.distance - reach.margin
    foot = int(np.argmax(np.max(used - limit[None], axis=0)))
    return {'used_m': float(used[:, foot].max()), 'foot': str(plan['feet'][foot]),
            'reach_m': float(reach.distance[foot]), 'margin_m': reach.margin,
            'within': bool(np.all(used <= limit[None]))}


def _on(t_from: np.ndarray, values: np.ndarray, t_to: np.ndarray) -> np.ndarray:
    return np.stack([np.interp(t_to, t_from, values[:, k]) for k in range(values.shape[1])], 1)


def differences(a: GravityRun, b: GravityRun) -> dict[str, Any]:
    """C8: RMS differences of base x(t), y(t) and of each planned joint angle (b on a's times)."""
    ta, tb = a.plan['t'], b.plan['t']
    dpos = a.plan['base_pos'] - _on(tb, b.plan['base_pos'], ta)
    dq = a.q_plan - _on(tb, b.q_plan, ta)
    per_joint = np.sqrt(np.mean(dq ** 2, axis=0))
    worst = int(np.argmax(per_joint))
    return {'pair': [a.name, b.name], 'base_x_rms_m': _rms(dpos[:, 0]),
            'base_y_rms_m': _rms(dpos[:, 1]),
            'joint_rms_rad': dict(zip(a.joints, map(float, per_joint))),
            'joint_rms_max_rad': float(per_joint[worst]), 'joint_rms_max_joint': a.joints[worst]}


def _smoothed_derivative(t: np.ndarray, x: np.ndarray, window_s: float) -> np.ndarray:
    n = max(1, int(round(window_s / np.median(np.diff(t)))))
    kernel = np.ones(n) / n
    smooth = np.stack([np.convolve(x[:, k], kernel, mode='same') for k in range(x.shape[1])], 1)
    return np.gradient(smooth, t, axis=0)


def tracking_metrics(run: GravityRun) -> dict[str, Any] | None:
    """R5.5 per joint and for the base; tracked accelerations and torques during the plan."""
    tr, p, s = run.tracked, run.plan, run.tracker
    if tr is None:
        return None
    T = float(p['duration'])
    # the tracker's error: at each tick in the plan, the last joint state delivered before it
    # against the planned angles (which a base-feedback tracker may command differently)
    ticks = tr.in_plan & (tr.prev_state >= 0)
    err = tr.q[tr.prev_state[ticks]] - _on(p['t'], run.q_plan, tr.tp_cmd[ticks])
    js = (tr.tp_joints >= 0) & (tr.tp_joints <= T)
    err_now = tr.q[js] - _on(p['t'], run.q_plan, tr.tp_joints[js])  # at equal stamps
    od = (tr.tp_odom >= 0) & (tr.tp_odom <= T)
    base_err = _norm(tr.base_pos[od, :2] - _on(p['t'], p['base_pos'][:, :2], tr.tp_odom[od]))
    im = (tr.tp_imu >= 0) & (tr.tp_imu <= T)
    smooth = _smoothed_derivative(tr.tp_imu, tr.ang_vel, SMOOTH_S)[im]
    effort = np.abs(tr.effort[js])
    rms_joint = np.sqrt(np.mean(err ** 2, axis=0))
    sim_g = run.summary.get('metrics', {}).get('sim', {}).get('gravity', [math.nan] * 3)
    robot = run.summary.get('robots', {}).get('go1', {})
    return {
        'joint_rms_error_rad': dict(zip(run.joints, map(float, rms_joint))),
        'joint_max_error_rad': dict(zip(run.joints, map(float, np.max(np.abs(err), axis=0)))),
        'worst_joint_rms_rad': float(rms_joint.max()),
        'worst_joint': run.joints[int(np.argmax(rms_joint))],
        'max_error_rad': float(np.abs(err).max()), 'ticks': int(ticks.sum()),
        'same_stamp_worst_rms_rad': float(np.sqrt(np.mean(err_now ** 2, axis=0)).max()),
        'summary_joint_rms_error_rad': s.get('joint_rms_error_rad'),
        'summary_joint_max_error_rad': s.get('joint_max_error_rad'),
        'base_xy_rms_m': _rms(base_err), 'base_xy_max_m': float(base_err.max()),
        'base_final_xy': s.get('base_final_xy'), 'distance_to_goal_m': s.get('distance_to_goal_m'),
        'fell': robot.get('fell'), 'sim_gravity': float(-sim_g[2]),
        'peak_lin_acc': float(_norm(tr.lin_acc[im]).max()),
        'rms_lin_acc': _rms(_norm(tr.lin_acc[im])),
        'peak_ang_acc': float(_norm(tr.ang_acc[im]).max()),
        'rms_ang_acc': _rms(_norm(tr.ang_acc[im])),
        'rms_ang_acc_xyz': np.sqrt(np.mean(np.square(tr.ang_acc[im]), axis=0)).tolist(),
        'peak_ang_acc_smoothed': float(_norm(smooth).max()),
        'rms_ang_acc_smoothed': _rms(_norm(smooth)),
        'imu_rate_hz': float(1.0 / np.median(np.diff(tr.tp_imu))),
        'peak_effort_Nm': _by_kind(run.joints, effort.max(axis=0)),
        'rms_effort_Nm': _rms(tr.effort[js]),
        'peak_cmd_tau_Nm': _by_kind(run.joints,
                                    np.abs(tr.tau_cmd[tr.in_plan]).max(axis=0)),
        'cmd_vs_plan_max_rad': float(np.abs(tr.q_cmd[tr.in_plan] - _on(
            p['t'], run.q_plan, tr.tp_cmd[tr.in_plan])).max()),
        'commands_clamped': robot.get('commands_clamped'),
        'base_feedback': s.get('base_feedback'),  # a tracker that reports its mode
        'stance': stance_metrics.worst(planted(run)),
        'ik_error_m': s.get('ik_error_m'),  # the tracker's worst IK miss of a planned foot
    }


def planted(run: GravityRun) -> list[stance_metrics.Stance]:
    """Every planned stance of the run, measured (stance_metrics)."""
    tr, p = run.tracked, run.plan
    return stance_metrics.stances(
        [str(f) for f in p['feet']], p.schedule, float(p['duration']), p['t'],
        np.asarray(p['foot_force'])[..., 2], tr.tp_contacts, tr.in_contact, tr.contact_fz,
        run.tracker.get('foot_slip_per_stance_m'))


def real_robot_metrics(plan) -> dict[str, Any]:
    """C10: the thesis' real-robot plan solves; its highest swing foot above the terrain."""
    swing = ~np.asarray(plan['contact'], bool)
    height = np.asarray(plan['foot_pos'])[..., 2] - np.asarray(plan['foot_terrain_height'])
    top = float(height[swing].max()) if swing.any() else 0.0
    return {'status': str(plan['status']), 'success': bool(plan['success']),
            'duration_s': float(plan['duration']), 'goal': [float(g) for g in plan['goal']],
            'max_dev': [float(d) for d in plan['max_dev']], 'gravity': float(plan['gravity']),
            'max_swing_height_m': top,
            'passed': bool(plan['success']) and top >= SWING_HEIGHT,
            'checks': [{'name': c.name, 'passed': bool(c.passed), 'detail': c.detail}
                       for c in run_checks(plan)]}


def direction(values: Sequence[float]) -> str:
    """How a quantity changes along decreasing gravity."""
    steps = np.diff(values)
    if len(steps) and np.all(steps == 0):
        return 'stays the same'
    if len(steps) and np.all(steps < 0):
        return 'falls'
    if len(steps) and np.all(steps > 0):
        return 'rises'
    return 'does not change monotonically'


def trend(key: str, label: str, unit: str, values: dict[str, float],
          gravity: dict[str, float]) -> dict[str, Any]:
    """One quantity across the gravities (ordered by decreasing g) and its sentence."""
    names = list(values)
    v = [values[n] for n in names]
    way = direction(v)
    path = ' to '.join(f'{num(x)} {unit} ({LABELS.get(n, n)})' for n, x in zip(names, v))
    ratio = v[-1] / v[0] if v[0] else math.nan
    g_ratio = gravity[names[-1]] / gravity[names[0]]
    sentence = (f'{label} {way} from {path}: {LABELS.get(names[-1], names[-1])}/'
                f'{LABELS.get(names[0], names[0])} ratio {num(ratio)} (g ratio {num(g_ratio)}).')
    return {'key': key, 'label': label, 'unit': unit, 'values': values, 'direction': way,
            'ratio': ratio, 'g_ratio': g_ratio, 'sentence': sentence}


PLAN_TRENDS = (('peak_sum_fz_N', 'Planned peak Σf_z', 'N'),
               ('impulse_Ns', 'Planned vertical impulse Σ∫f_z dt', 'N s'),
               ('peak_lin_acc', 'Planned peak |base linear acceleration|', 'm/s²'),
               ('peak_ang_acc', 'Planned peak |base angular acceleration|', 'rad/s²'),
               ('rms_lin_acc', 'Planned RMS |base linear acceleration|', 'm/s²'),
               ('rms_ang_acc', 'Planned RMS |base angular acceleration|', 'rad/s²'),
               ('base_z_ptp_m', 'Planned peak-to-peak base z', 'm'),
               ('thigh_range_rad', 'Planned thigh range (mean of 4 legs)', 'rad'),
               ('calf_range_rad', 'Planned calf range (mean of 4 legs)', 'rad'))
TRACK_TRENDS = (('peak_lin_acc', 'Tracked peak |base linear acceleration|', 'm/s²'),
                ('rms_lin_acc', 'Tracked RMS |base linear acceleration|', 'm/s²'),
                ('peak_ang_acc', 'Tracked peak |base angular acceleration|', 'rad/s²'),
                ('rms_ang_acc', 'Tracked RMS |base angular acceleration|', 'rad/s²'),
                ('rms_effort_Nm', 'Measured RMS joint torque (all joints)', 'N m'))


def trends(plans: dict[str, dict], tracks: dict[str, dict | None],
           gravity: dict[str, float]) -> list[dict[str, Any]]:
    if len(plans) < 2:
        return []  # a trend needs two gravities
    out = [trend(k, label, unit, {g: m[k] for g, m in plans.items()}, gravity)
           for k, label, unit in PLAN_TRENDS]
    for kind in ('thigh', 'calf'):
        out.append(trend(f'peak_tau_ff_Nm.{kind}',
                         f'Planned peak |{kind} feed-forward torque| (-Jᵀf)', 'N m',
                         {g: m['peak_tau_ff_Nm'][kind] for g, m in plans.items()}, gravity))
    tracked = {g: m for g, m in tracks.items() if m is not None}
    if len(tracked) >= 2:
        out += [trend(f'tracked.{k}', label, unit, {g: m[k] for g, m in tracked.items()},
                      {g: gravity[g] for g in tracked}) for k, label, unit in TRACK_TRENDS]
        for kind in ('thigh', 'calf'):
            out.append(trend(f'tracked.peak_effort_Nm.{kind}', f'Measured peak |{kind} torque|',
                             'N m', {g: m['peak_effort_Nm'][kind] for g, m in tracked.items()},
                             {g: gravity[g] for g in tracked}))
    return out


def _compare(tracked: float, planned: float) -> str:
    return 'exceeds' if tracked > planned else 'stays below'


def track_vs_plan(name: str, plan: dict, track: dict) -> dict[str, Any]:
    """Spec §6.2 / R5.5: tracked linear accelerations above the plan's, angular ones below?"""
    lin = (_compare(track['peak_lin_acc'], plan['peak_lin_acc']),
           _compare(track['rms_lin_acc'], plan['rms_lin_acc']))
    ang = (_compare(track['peak_ang_acc'], plan['peak_ang_acc']),
           _compare(track['rms_ang_acc'], plan['rms_ang_acc']),
           _compare(track['rms_ang_acc_smoothed'], plan['rms_ang_acc']))
    lin_word = lin[0] if len(set(lin)) == 1 else 'is mixed against'
    ang_word = ang[0] if len(set(ang)) == 1 else 'is mixed against'
    sentence = (
        f"{LABELS.get(name, name)}: the tracked linear acceleration {lin_word} the plan's (peak "
        f"{num(track['peak_lin_acc'])} vs {num(plan['peak_lin_acc'])} m/s², RMS "
        f"{num(track['rms_lin_acc'])} vs {num(plan['rms_lin_acc'])}); the tracked angular "
        f"acceleration {ang_word} the plan's (peak {num(track['peak_ang_acc'])} vs "
        f"{num(plan['peak_ang_acc'])} rad/s², RMS {num(track['rms_ang_acc'])} vs "
        f"{num(plan['rms_ang_acc'])}; after a {SMOOTH_S:g} s mean RMS "
        f"{num(track['rms_ang_acc_smoothed'])}).")
    return {'gravity': name, 'linear': lin_word, 'angular': ang_word,
            'thesis_linear_holds': lin_word == 'exceeds',
            'thesis_angular_holds': ang_word == 'stays below', 'sentence': sentence}


def study(runs: Sequence[GravityRun], real_robot=None) -> dict[str, Any]:
    """Everything study.json holds; ``runs`` in order of decreasing gravity."""
    plans = {r.name: plan_metrics(r) for r in runs}
    tracks = {r.name: tracking_metrics(r) for r in runs}
    gravity = {r.name: r.gravity for r in runs}
    earth = runs[0].name
    for m in plans.values():
        m['impulse_ratio_to_first'] = m['impulse_Ns'] / plans[earth]['impulse_Ns']
    p = runs[0].plan
    return {
        'task': {'gait': str(p['gait']), 'duration_s': float(p['duration']),
                 'goal': [float(v) for v in p['goal']]},
        'gravities': [{'name': r.name, 'gravity': r.gravity, 'folder': str(r.folder),
                       'scenario': r.summary.get('scenario')} for r in runs],
        'plans': plans, 'tracking': tracks,
        'differences': [differences(a, b) for a, b in itertools.combinations(runs, 2)],
        'real_robot': real_robot_metrics(real_robot) if real_robot is not None else None,
        'trends': trends(plans, tracks, gravity),
        'track_vs_plan': [track_vs_plan(n, plans[n], t) for n, t in tracks.items() if t],
    }
