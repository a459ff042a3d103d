"""The gravity study's report: ``report.md`` (tables of C1-C10 and R5.5, the trend sentences,
the figures) and ``study.json`` (the same numbers, unrounded), from study_metrics.study()."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

from .study_metrics import LABELS, SWING_HEIGHT, num


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(str(c).replace('|', '\\|') for c in row) + ' |' for row in rows]
    return lines + ['']


def _name(g: str) -> str:
    return LABELS.get(g, g)


def _plan_sections(s: dict) -> list[str]:
    names = [g['name'] for g in s['gravities']]
    plans = s['plans']
    head = ['', *[f"{_name(g['name'])} ({g['gravity']:g} m/s²)" for g in s['gravities']]]
    checks = [c['name'] for c in plans[names[0]]['checks']]
    rows = [['status', *[plans[n]['status'] for n in names]],
            ['solve time (s) / iterations',
             *[f"{num(plans[n]['solve_time_s'])} / {plans[n]['iterations']}" for n in names]]]
    for i, c in enumerate(checks):
        rows.append([c, *[f"{'pass' if plans[n]['checks'][i]['passed'] else 'FAIL'} "
                          f"({num(plans[n]['checks'][i]['value'])})" for n in names]])
    out = ['## Plan checks C1-C6, C9 (trajectory_optimizer.checks on each plan.npz)', '',
           'In brackets: the checked value (C1 worst error in m or rad, C2 height error m, C3 '
           'residual, C4 worst force violation N, C5 box excess m, C6 impulse / m g T, C9 '
           'diagonal contact agreement).', '', *_table(head, rows)]
    for n in names:
        out += [f'- {_name(n)}: ' + '; '.join(f"{c['name']} {c['detail']}"
                                              for c in plans[n]['checks'])]
    out += ['', '## C6, C7: forces and accelerations of the plans', '']
    rows = [['Σ∫f_z dt (N s)', *[num(plans[n]['impulse_Ns']) for n in names]],
            ['m g T (N s)', *[num(plans[n]['mgT_Ns']) for n in names]],
            ['impulse / m g T', *[num(plans[n]['impulse_Ns'] / plans[n]['mgT_Ns'])
                                  for n in names]],
            [f'impulse / {_name(names[0])}', *[num(plans[n]['impulse_ratio_to_first'])
                                                for n in names]],
            ['peak Σf_z (N)', *[num(plans[n]['peak_sum_fz_N']) for n in names]],
            ['peak ‖base linear acc‖ (m/s²)', *[num(plans[n]['peak_lin_acc']) for n in names]],
            ['RMS ‖base linear acc‖ (m/s²)', *[num(plans[n]['rms_lin_acc']) for n in names]],
            ['peak ‖base angular acc‖ (rad/s²)', *[num(plans[n]['peak_ang_acc']) for n in names]],
            ['RMS ‖base angular acc‖ (rad/s²)', *[num(plans[n]['rms_ang_acc']) for n in names]],
            ['peak-to-peak base z (m)', *[num(plans[n]['base_z_ptp_m']) for n in names]],
            ['leg reach asked / reach - margin (m)', *[_reach(plans[n]['leg_reach'])
                                                       for n in names]],
            *[[f'peak planned |τ_ff| {k} (N m)', *[num(plans[n]['peak_tau_ff_Nm'][k])
                                                   for n in names]]
              for k in ('hip', 'thigh', 'calf')]]
    out += _table(head, rows)
    return out


def _c8_section(s: dict) -> list[str]:
    names = [g['name'] for g in s['gravities']]
    plans = s['plans']
    out = ['## C8: invariance of the motion across gravities', '',
           'Joint angles are the plan through the tracker\'s IK (trajectory_optimizer.tracking); '
           'ranges are peak-to-peak over the plan, the mean of the four legs.', '']
    out += _table(['', *[_name(n) for n in names]],
                  [['thigh range (rad)', *[num(plans[n]['thigh_range_rad']) for n in names]],
                   ['calf range (rad)', *[num(plans[n]['calf_range_rad']) for n in names]]])
    diffs = s['differences']
    if not diffs:
        return out
    pairs = [f'{_name(d["pair"][0])} - {_name(d["pair"][1])}' for d in diffs]
    rows = [['RMS Δ base x (m)', *[num(d['base_x_rms_m']) for d in diffs]],
            ['RMS Δ base y (m)', *[num(d['base_y_rms_m']) for d in diffs]]]
    rows += [[f'RMS Δ {j} (rad)', *[num(d['joint_rms_rad'][j]) for d in diffs]]
             for j in diffs[0]['joint_rms_rad']]
    return out + _table(['', *pairs], rows)


def _c10_section(s: dict) -> list[str]:
    r = s.get('real_robot')
    if r is None:
        return []
    return ['## C10: the real-robot preset', '',
            f"Box (max_dev) {tuple(r['max_dev'])} m, T = {r['duration_s']:g} s, goal "
            f"({r['goal'][0]:g}, {r['goal'][1]:g}) m, g {r['gravity']:g} m/s² (a copy of go1.yaml "
            f"with that box, planned with make_plan): status {r['status']}; maximum swing-foot "
            f"height {num(r['max_swing_height_m'])} m (≥ {SWING_HEIGHT:g} m: "
            f"{'pass' if r['passed'] else 'FAIL'}). Checks: "
            + ', '.join(f"{c['name']} {'pass' if c['passed'] else 'FAIL'}" for c in r['checks'])
            + '.', '']


def _tracking_section(s: dict) -> list[str]:
    names = [n for n, t in s['tracking'].items() if t]
    if not names:
        return ['## R5.5: tracking', '', 'No gravity was tracked (failed plans).', '']
    t = s['tracking']
    head = ['', *[_name(n) for n in names]]
    rows = [['simulator g (m/s²)', *[num(t[n]['sim_gravity']) for n in names]],
            ['tracker base feedback (summary.json)',
             *[t[n]['base_feedback'] if t[n]['base_feedback'] is not None else 'not reported'
               for n in names]],
            ['max |commanded - planned| angle (rad)',
             *[num(t[n]['cmd_vs_plan_max_rad']) for n in names]],
            ['joint commands clamped (effort limit)', *[t[n]['commands_clamped'] for n in names]],
            ['worst joint RMS error (rad)',
             *[f"{num(t[n]['worst_joint_rms_rad'])} ({t[n]['worst_joint']})" for n in names]],
            ['max joint error (rad)', *[num(t[n]['max_error_rad']) for n in names]],
            ['worst joint RMS at equal stamps (rad)',
             *[num(t[n]['same_stamp_worst_rms_rad']) for n in names]],
            ['base xy error RMS / max (m)',
             *[f"{num(t[n]['base_xy_rms_m'])} / {num(t[n]['base_xy_max_m'])}" for n in names]],
            ['final base xy (m)', *[', '.join(num(v) for v in t[n]['base_final_xy'] or [])
                                    for n in names]],
            ['distance to goal (m)', *[num(t[n]['distance_to_goal_m']) for n in names]],
            ['tracker IK miss of a planned foot (m)', *[num(t[n]['ik_error_m']) for n in names]],
            ['fell', *[t[n]['fell'] for n in names]],
            ['peak / RMS ‖linear acc‖ (m/s²)',
             *[f"{num(t[n]['peak_lin_acc'])} / {num(t[n]['rms_lin_acc'])}" for n in names]],
            ['peak / RMS ‖angular acc‖ (rad/s²)',
             *[f"{num(t[n]['peak_ang_acc'])} / {num(t[n]['rms_ang_acc'])}" for n in names]],
            ['same, 0.1 s mean (rad/s²)',
             *[f"{num(t[n]['peak_ang_acc_smoothed'])} / {num(t[n]['rms_ang_acc_smoothed'])}"
               for n in names]],
            ['RMS measured joint torque (N m)', *[num(t[n]['rms_effort_Nm']) for n in names]],
            *[[label, *[_stance(t[n]['stance'], key, scale) for n in names]]
              for label, key, scale in STANCE_ROWS],
            *[[f'peak measured |τ| {k} (N m)', *[num(t[n]['peak_effort_Nm'][k]) for n in names]]
              for k in ('hip', 'thigh', 'calf')],
            *[[f'peak commanded |τ| {k} (N m)', *[num(t[n]['peak_cmd_tau_Nm'][k]) for n in names]]
              for k in ('hip', 'thigh', 'calf')]]
    out = ['## R5.5: tracking in the simulator', '',
           'During the plan (plan time 0..T). Joint errors against the planned angles as the '
           'plan_tracker computes them (at each 500 Hz tick, the last joint state delivered '
           'before it; the worst joint RMS and the max equal summary.json\'s '
           '`joint_rms_error_rad`, `joint_max_error_rad`); "at equal stamps" pairs each '
           'joint state with the plan at its own time. Base xy error: ground-truth odometry '
           'against the plan at the same plan time. Accelerations '
           'from the IMU at '
           f"{num(t[names[0]]['imu_rate_hz'])} Hz (world axes, gravity removed; angular: the gyro "
           'differentiated). Torques: joint_states effort (what the simulator applied).', '',
           *_table(head, rows), 'Per joint, RMS / max error (rad):', '']
    joints = list(t[names[0]]['joint_rms_error_rad'])
    out += _table(['joint', *[_name(n) for n in names]],
                  [[j, *[f"{num(t[n]['joint_rms_error_rad'][j])} / "
                         f"{num(t[n]['joint_max_error_rad'][j])}" for n in names]]
                   for j in joints])
    return out


# the planted-feet figures (stance_metrics; issue 28's bounds in the labels)
STANCE_ROWS = (('worst stance contact (% of the stance; >= 98)', 'contact', 100.0),
               ('most contact breaks in a stance (<= 2)', 'breaks', 1.0),
               ('highest peak f_z (10 ms mean) / planned peak (<= 1.5)', 'force_ratio', 1.0),
               ('most slip in a stance (cm; < 1)', 'slip_m', 100.0))


def _reach(r: dict | None) -> str:
    if r is None:
        return 'not in the robot file'
    over = '' if r['within'] else ' (over)'
    return f"{num(r['used_m'])} ({r['foot']}) / {num(r['reach_m'] - r['margin_m'])}{over}"


def _stance(worst: dict, key: str, scale: float) -> str:
    value = worst.get(key)
    if value is None:
        return 'not measured'
    mark = '' if worst['holds'][key] else ' (over)'
    return f"{num(value * scale)} ({worst[key + '_where']}){mark}"


def _how_many(flags: list[bool]) -> str:
    n = sum(flags)
    if n == len(flags):
        return f'all {n} tracked gravities' if n > 1 else 'the tracked gravity'
    return 'none of the tracked gravities' if n == 0 else f'{n} of {len(flags)} tracked gravities'


def _figures(figs: dict[str, list[Path]], root: Path) -> list[str]:
    out = ['## Figures', '']
    for group, paths in figs.items():
        links = ', '.join(f'[{p.stem}]({p.relative_to(root).as_posix()})' for p in paths)
        out.append(f'- {_name(group)}: {links}')
    return out + ['']


def report(s: dict, figs: dict[str, list[Path]], root: Path, command: str) -> str:
    """The markdown report; ``root`` is the study folder (links are relative to it)."""
    names = ', '.join(f"{_name(g['name'])} {g['gravity']:g} m/s² ({g['scenario']})"
                      for g in s['gravities'])
    task = s['task']
    lines = ['# Go1 gravity study', '',
             f"`{command}`: the task ({task['gait']}, T = {task['duration_s']:g} s, goal "
             f"({task['goal'][0]:g}, {task['goal'][1]:g}); the thesis': trot4, 3.2 s, (1.7, 0)) "
             f'planned and tracked in the simulator under {names}. Spec: '
             '/work/shared/specs/go1.md §6, §13.4, R5.5, R7.1. Numbers unrounded in study.json.',
             '',
             '## How forces, accelerations and torques change with gravity', '']
    lines += [f"- {t['sentence']}" for t in s['trends']] or ['One gravity: no trend to state.']
    if s['track_vs_plan']:
        lines += ['', 'Tracked against planned (thesis §6.2: tracked linear accelerations above '
                  'the plan, angular ones below it):', '']
        lines += [f"- {v['sentence']}" for v in s['track_vs_plan']]
        lin = _how_many([v['thesis_linear_holds'] for v in s['track_vs_plan']])
        ang = _how_many([v['thesis_angular_holds'] for v in s['track_vs_plan']])
        axes = '; '.join(
            f"{_name(n)} tracked {'/'.join(num(v) for v in t['rms_ang_acc_xyz'])} vs planned "
            f"{'/'.join(num(v) for v in s['plans'][n]['rms_ang_acc_xyz'])}"
            for n, t in s['tracking'].items() if t)
        lines += ['', f"The thesis' linear finding holds at {lin}, its angular finding at {ang}. "
                  f'RMS angular acceleration about x/y/z (rad/s²): {axes}.']
    lines += ['', *_plan_sections(s), *_c8_section(s), *_c10_section(s), *_tracking_section(s),
              *_figures(figs, root)]
    return '\n'.join(lines)


def _jsonable(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if hasattr(x, 'item'):
        return _jsonable(x.item())
    return x


def write(s: dict, figs: dict[str, list[Path]], root: Path, command: str) -> tuple[Path, Path]:
    """report.md and study.json in ``root``."""
    md, js = root / 'report.md', root / 'study.json'
    md.write_text(report(s, figs, root, command) + '\n')
    data = dict(s, command=command,
                figures={g: [p.relative_to(root).as_posix() for p in ps] for g, ps in figs.items()})
    js.write_text(json.dumps(_jsonable(data), indent=2) + '\n')
    return md, js
