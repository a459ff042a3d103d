"""`robozoo plan`: plan a legged trajectory (TOWR formulation) and write plan.npz, a rosbag2 of the
plan, PNG plots and summary.json into an output folder.

The default is the Go1 thesis task (spec go1.md §5.7): the 4-step trot in 3.2 s to (1.7, 0) on
flat ground. Bad input prints one line ``robozoo plan: error: ...`` and exits 2 (``--debug`` shows
the traceback); a solve that fails still writes its plan, marked failed, and exits 1.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

PROG = 'robozoo plan'
PLAN_FILES = ('plan.npz', 'plan_bag', 'summary.json')  # + plan_*.png


class CliError(ValueError):
    """A user error: printed as one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f'{PROG}: error: {message}\n')


def parser() -> argparse.ArgumentParser:
    from .nlp import SWING_SPEED
    from .solve import MAX_RISE
    from .schedule import GAITS
    p = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument('--robot', default='go1', help='robot name (config/robots/<name>.yaml) or a '
                   'YAML path (default: go1)')
    p.add_argument('--body', help='body preset of the robot file (go1: nominal, thesis_faithful, '
                   'urdf)')
    p.add_argument('--gravity', help='earth, intermediate, mars or m/s^2 (default: the world\'s)')
    p.add_argument('--goal', nargs=2, type=float, default=(1.7, 0.0), metavar=('X', 'Y'),
                   help='final base xy in m (default: 1.7 0)')
    p.add_argument('--duration', type=float, default=3.2, metavar='T', help='s (default 3.2)')
    p.add_argument('--gait', default='trot4', choices=GAITS,
                   help='contact schedule (default trot4: the thesis\' 4-step trot)')
    p.add_argument('--world', default='empty', help='worlds/<name>.sdf or an .sdf path: flat '
                   'ground planes and one heightmap (default: empty)')
    p.add_argument('--mu', type=float, default=0.5, help='friction coefficient (default 0.5)')
    p.add_argument('--optimize-phases', action='store_true',
                   help='optimise the phase durations too (bounds 0.2-1.0 s, sum T)')
    p.add_argument('--free-base', action='store_true',
                   help="TOWR's free base: no straight-walk bounds (sideways sway, yaw, roll, "
                   'pitch, height free)')
    p.add_argument('--swing-speed', type=float, default=SWING_SPEED, metavar='K',
                   help='swing middle-node velocity in step / swing time (default '
                   f'{SWING_SPEED:g}: the foot lifts before it moves; TOWR: 1, (0, 3])')
    p.add_argument('--max-rise', type=float, default=MAX_RISE, metavar='M',
                   help=f'metres the base may rise above its start (default {MAX_RISE:g}, '
                   "TOWR's; the go1_trot scenarios plan with 0.03 so that every foot stays within "
                   'reach)')
    p.add_argument('--budget', type=float, default=40.0, metavar='SECONDS',
                   help='wall-time budget of the solve (default 40)')
    p.add_argument('--max-iter', type=int, default=3000, help='IPOPT iterations (default 3000)')
    p.add_argument('--dt', type=float, default=0.01,
                   help='sampling of the plan in s (default 0.01; 0.002, 0.001 for tracking)')
    p.add_argument('--out', type=Path, help='output folder, new or empty (default: '
                   './out/plan/<date_time>)')
    p.add_argument('--overwrite', action='store_true',
                   help="replace an earlier plan's files in --out")
    p.add_argument('--debug', action='store_true', help='show tracebacks')
    return p


def prepare_out(out: Path | None, overwrite: bool) -> Path:
    """The output folder: new, empty, or holding an earlier plan (replaced with --overwrite)."""
    if out is None:
        out = Path.cwd() / 'out' / 'plan' / time.strftime('%Y-%m-%d_%H-%M-%S')
    out = Path(os.path.expanduser(out)).absolute()
    if out.exists() and not out.is_dir():
        raise CliError(f'--out {out}: is a file; expected a new or empty folder')
    if out.is_dir():
        entries = sorted(out.iterdir())
        ours = [e for e in entries if e.name in PLAN_FILES
                or (e.name.startswith('plan_') and e.suffix == '.png')]
        others = [e for e in entries if e not in ours]
        if others:
            raise CliError(f'--out {out}: not empty (holds {others[0].name}'
                           f"{' ...' if len(others) > 1 else ''}); choose a new or empty folder")
        if ours and not overwrite:
            names = ', '.join(e.name for e in ours)
            raise CliError(f'--out {out}: holds an earlier plan ({names}); choose another '
                           'folder, or add --overwrite to replace it')
        for e in ours:
            shutil.rmtree(e) if e.is_dir() else e.unlink()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f'--out {out}: cannot create the folder ({exc.strerror})') from None
    return out


def metrics(plan) -> dict[str, float]:
    """Figures the gravity study reports (spec go1.md C7)."""
    fz = np.asarray(plan['foot_force'])[..., 2].sum(axis=1)
    t = np.asarray(plan['t'])
    return {
        'peak_total_fz_N': float(fz.max()),
        'vertical_impulse_Ns': float(np.sum(0.5 * (fz[1:] + fz[:-1]) * np.diff(t))),
        'peak_lin_acc_ms2': float(np.linalg.norm(plan['base_lin_acc'], axis=1).max()),
        'peak_ang_acc_rads2': float(np.linalg.norm(plan['base_ang_acc'], axis=1).max()),
        'base_z_peak_to_peak_m': float(np.ptp(np.asarray(plan['base_pos'])[:, 2])),
        'max_swing_height_m': float(max(
            (np.asarray(plan['foot_pos'])[:, k, 2] - np.asarray(plan['foot_terrain_height'])[:, k])
            .max() for k in range(len(plan['feet'])))),
    }


def run(args) -> int:
    from .checks import run_checks
    from .nlp import NlpOptions, ipopt_options
    from .plan_bag import write_plan_bag
    from .plan_file import save_plan
    from .planning import PlanRequest, make_plan, terrain
    from .plots import write_plots

    for flag, value in (('--duration', args.duration), ('--mu', args.mu),
                        ('--budget', args.budget), ('--dt', args.dt),
                        ('--max-rise', args.max_rise)):
        if not (np.isfinite(value) and value > 0):
            raise CliError(f'{flag} {value}: expected a positive, finite number')
    if args.max_iter < 1:
        raise CliError(f'--max-iter {args.max_iter}: expected a positive number of iterations')
    if not all(np.isfinite(args.goal)):
        raise CliError(f'--goal {args.goal[0]} {args.goal[1]}: expected two finite numbers')
    req = PlanRequest(robot=args.robot, body=args.body, gait=args.gait, duration=args.duration,
                      goal=tuple(args.goal), gravity=args.gravity, world=args.world, mu=args.mu,
                      optimize_phases=args.optimize_phases, straight=not args.free_base,
                      budget_s=args.budget, max_iter=args.max_iter, dt=args.dt,
                      swing_speed=args.swing_speed, max_rise=args.max_rise)
    ground = terrain(args.world)
    out = prepare_out(args.out, args.overwrite)
    plan, sol = make_plan(req)
    warnings = list(ground.warnings)
    if ground.world_gravity and abs(plan['gravity'] - ground.world_gravity) > 1e-9:
        warnings.append(f"planning gravity {plan['gravity']:g} m/s^2 differs from the world's "
                        f'{ground.world_gravity:g} m/s^2: set the simulator to the plan\'s '
                        'gravity (spec go1.md R5.1)')
    files = [save_plan(out / 'plan.npz', plan), write_plan_bag(out / 'plan_bag', plan),
             *write_plots(plan, out)]
    checks = run_checks(plan)
    summary = {
        'request': {k: (list(v) if isinstance(v, tuple) else v)
                    for k, v in vars(req).items()},
        'gravity': plan['gravity'], 'status': plan['status'], 'success': plan['success'],
        'iterations': plan['iterations'], 'solve_time_s': plan['solve_time_s'],
        'build_time_s': plan['build_time_s'], 'robot_file': plan['robot_file'],
        'body_preset': plan['body_preset'], 'mass': plan['mass'],
        'phase_durations': [[float(x) for x in row if np.isfinite(x)]
                            for row in plan['phase_durations']],
        'solver': {'ipopt': ipopt_options(NlpOptions(optimize_phases=req.optimize_phases,
                                                     hessian=req.hessian,
                                                     swing_speed=req.swing_speed)),
                   'budget_s': req.budget_s, 'max_iter': req.max_iter},
        'checks': [{'name': c.name, 'passed': c.passed, 'detail': c.detail} for c in checks],
        'metrics': metrics(plan), 'warnings': warnings,
        'files': [p.name for p in files] + ['summary.json'],
    }
    (out / 'summary.json').write_text(json.dumps(summary, indent=2) + '\n')
    print(f"plan: {plan['status']} in {plan['iterations']} iterations, solve "
          f"{plan['solve_time_s']:.3f} s (build {plan['build_time_s']:.2f} s): {plan['robot']} "
          f"{req.gait}, g {plan['gravity']:g} m/s^2, goal ({req.goal[0]:g}, {req.goal[1]:g}), "
          f"T {req.duration:g} s, world {args.world}")
    print('checks: ' + ', '.join(f"{c.name} {'pass' if c.passed else 'FAIL'}" for c in checks))
    for w in warnings:
        print(f'{PROG}: warning: {w}', file=sys.stderr)
    for p in files + [out / 'summary.json']:
        print(f'wrote: {p}')
    if not plan['success']:
        print(f"{PROG}: failed: {plan['status']} (the plan is written, marked failed)",
              file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``main(['--gravity', 'mars'])``; returns the exit code."""
    from zoo_description_tools import DescriptionError

    from .plan_file import PlanFileError
    from .planning import PlanRequestError
    from .robot_model import RobotConfigError
    from .schedule import ScheduleError
    from .terrain import TerrainError

    try:
        args = parser().parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # --help (0) or a usage error, already printed as one line (2)
        return int(exc.code or 0)
    try:
        return run(args)
    except (CliError, PlanRequestError, RobotConfigError, ScheduleError, TerrainError,
            PlanFileError, DescriptionError) as exc:
        if args.debug:
            raise
        print(f'{PROG}: error: {exc}', file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f'{PROG}: interrupted', file=sys.stderr)
        return 130


def console_main() -> None:
    sys.exit(main())
