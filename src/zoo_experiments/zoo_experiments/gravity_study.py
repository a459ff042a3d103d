"""`robozoo gravity-study`: the thesis' gravity study as one command (spec go1.md §6, §13.4,
R5.5, R7.1).

For each gravity it runs the scenario ``go1_trot_<g>`` (plan at start-up, track in the simulator)
with the topics the report needs recorded into ``DIR/<g>/`` (plan.npz, bag/, summary.json), plans
the real-robot preset of C10 into ``DIR/real_robot/``, and writes ``DIR/figures/``,
``DIR/report.md`` and ``DIR/study.json``. Bad input is one line ``robozoo gravity-study: error:
...`` and exit 2 (``--debug`` shows the traceback); a gravity whose plan fails is reported
(not tracked) and the exit code is 1.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from .command_line import OneLineParser, run_command

PROG = 'robozoo gravity-study'
GRAVITIES = ('earth', 'intermediate', 'mars')
SCENARIO = 'go1_trot_{}'
# the IMU at the tracker's 500 Hz instead of 100 Hz: touchdown peaks last a few ms; the feet's
# contacts at every physics step of the go1_trot scenarios (0.5 ms): a contact break lasts a few
# steps (trajectory_optimizer stance_metrics). Only publishing changes and nothing subscribes to
# /imu or /contacts, so the run is the one `robozoo run go1_trot_<g>` makes (topics the tracker
# reads, joint states and odometry, keep their rates).
SIM_RATES = ('sim.imu_rate=500.0', 'sim.contacts_rate=2000.0')
REAL_ROBOT = {'max_dev': [0.09, 0.09, 0.08], 'duration': 4.0, 'goal': (0.8, 0.0)}  # spec §8.3
STUDY_FILES = ('report.md', 'study.json')
STUDY_DIRS = ('figures', 'real_robot')
REAL_ROBOT_FILES = ('plan.npz', 'go1_real_robot.yaml')


class StudyError(ValueError):
    """A user error: printed as one line, exit 2."""


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog=PROG, description='Run the Go1 gravity study (spec go1.md §6): each '
                'gravity planned and tracked, figures, report.md and study.json.')
    p.add_argument('--output', type=Path, help='study folder, new or empty (default: a fresh '
                   './out/gravity_study/<date_time>, ./out/gravity_study/latest pointing at it)')
    p.add_argument('--gravities', nargs='+', choices=GRAVITIES, default=list(GRAVITIES),
                   metavar='G', help=f"any of {', '.join(GRAVITIES)} (default: all three)")
    p.add_argument('--set', dest='overrides', action='append', default=[],
                   metavar='NODE.PARAM=VALUE', help='override a node parameter in every scenario '
                   '(as robozoo run --set; e.g. plan_tracker.playback_speed=0.5)')
    p.add_argument('--overwrite', action='store_true',
                   help="replace an earlier study's outputs in --output")
    p.add_argument('--debug', action='store_true', help='show tracebacks and the nodes\' logs')
    return p


def _earlier_study(out: Path) -> list[Path]:
    from zoo_scenario.output_dir import run_outputs
    found = [out / n for n in STUDY_FILES if (out / n).exists()]
    found += [out / d for d in STUDY_DIRS if (out / d).is_dir()]
    return found + [out / g for g in GRAVITIES if (out / g).is_dir() and run_outputs(out / g)]


def _remove_study(out: Path) -> None:
    """Only what a study writes: its files, figures' PNGs, the real-robot plan, the runs' outputs
    (zoo_bringup's rules); anything else a user keeps there stays."""
    from zoo_scenario.output_dir import prepare_output
    for name in STUDY_FILES:
        (out / name).unlink(missing_ok=True)
    for name in REAL_ROBOT_FILES:
        (out / 'real_robot' / name).unlink(missing_ok=True)
    for png in (out / 'figures').rglob('*.png'):
        png.unlink()
    for d in sorted((out / 'figures').rglob('*'), reverse=True) + [out / 'figures',
                                                                   out / 'real_robot']:
        if d.is_dir() and not any(d.iterdir()):
            d.rmdir()
    for g in GRAVITIES:
        if (out / g).is_dir():
            prepare_output(out / g, SCENARIO.format(g), overwrite=True)


def prepare_study(out: Path | None, overwrite: bool) -> Path:
    """The study folder, like robozoo run's: fresh, new, empty, or an earlier study (replaced
    with --overwrite)."""
    from zoo_scenario.output_dir import fresh_run_folder
    if out is None:
        return fresh_run_folder(Path.cwd() / 'out' / 'gravity_study')
    out = Path(os.path.expanduser(out)).absolute()
    if out.exists() and not out.is_dir():
        raise StudyError(f'--output {out}: is a file; expected a folder (new, empty, or an earlier '
                         'study with --overwrite)')
    if out.is_dir():
        earlier = _earlier_study(out)
        if earlier and not overwrite:
            raise StudyError(f'--output {out}: holds an earlier study '
                             f"({', '.join(p.name for p in earlier)}); choose another folder, or "
                             'add --overwrite to replace it')
        _remove_study(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StudyError(f'--output {out}: cannot create the folder ({exc.strerror})') from None
    return out


def run_gravity(name: str, out: Path, overrides: list[str], verbose: bool = False) -> dict:
    """``robozoo run go1_trot_<name> --record ... --output out/<name>``, in this process."""
    from zoo_scenario.output_dir import prepare_output
    from zoo_scenario.runner import run_scenario
    from zoo_scenario.scenario import apply_overrides, load_scenario
    from zoo_runtime.embedded.logging import set_logger_level

    from trajectory_optimizer.study_data import RECORD_TOPICS
    sc = apply_overrides(load_scenario(SCENARIO.format(name)), [*SIM_RATES, *overrides])
    folder = prepare_output(out / name, sc.name)
    if not verbose:  # one line per gravity; e.g. effort clamps are counted in the report
        set_logger_level('', 'error')
    try:
        summary = run_scenario(sc, record=list(RECORD_TOPICS), output=folder)
    finally:
        set_logger_level('', 'unset')
    for warning in summary.get('warnings', []):
        print(f'{PROG}: warning: {name}: {warning}', file=sys.stderr)
    return summary


def plan_real_robot(out: Path):
    """C10: the thesis' real-robot plan (box 0.09 x 0.09 x 0.08, 4 s, 0.8 m; Earth). The box is
    a field of the robot file, so the plan uses a copy of go1.yaml with that box."""
    import yaml

    from trajectory_optimizer.plan_file import save_plan
    from trajectory_optimizer.planning import PlanRequest, make_plan
    from trajectory_optimizer.robot_model import find_robot_file

    robot = yaml.safe_load(find_robot_file('go1').read_text())
    robot['max_dev'] = REAL_ROBOT['max_dev']
    folder = out / 'real_robot'
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / 'go1_real_robot.yaml'
    path.write_text('# go1.yaml with the real-robot box of spec go1.md §8.3 (C10)\n'
                    + yaml.safe_dump(robot, sort_keys=False))
    plan, _ = make_plan(PlanRequest(robot=str(path), duration=REAL_ROBOT['duration'],
                                    goal=REAL_ROBOT['goal'], gravity='earth'))
    save_plan(folder / 'plan.npz', dict(plan))
    return plan


def _line(run, metrics: dict) -> str:
    p, t = metrics['plans'][run.name], metrics['tracking'][run.name]
    failed = [c['name'] for c in p['checks'] if not c['passed']]
    line = (f"{run.name}: g {run.gravity:g} m/s^2, plan {p['status']}, checks "
            f"{'all pass' if not failed else 'FAIL ' + ' '.join(failed)}")
    if t is None:
        return line + ', not tracked'
    return (line + f", tracked: worst joint RMS {t['worst_joint_rms_rad']:.3f} rad, base "
            f"{t['distance_to_goal_m']:.2f} m from the goal, fell {t['fell']} -> {run.folder}")


def run(args: argparse.Namespace) -> int:
    from trajectory_optimizer import study_metrics, study_plots, study_table
    from trajectory_optimizer.solve import GRAVITY_PRESETS
    from trajectory_optimizer.study_data import load_run

    names = sorted(dict.fromkeys(args.gravities), key=lambda g: -GRAVITY_PRESETS[g])
    out = prepare_study(args.output, args.overwrite)
    runs = []
    for name in names:
        run_gravity(name, out, args.overrides, args.debug)
        runs.append(load_run(out / name, name))
    real_robot = plan_real_robot(out)
    metrics = study_metrics.study(runs, real_robot)
    figs = study_plots.write_figures(runs, out / 'figures', real_robot)
    words = ['--gravities', *names] + [w for o in args.overrides for w in ('--set', o)]
    command = 'robozoo gravity-study ' + ' '.join(map(shlex.quote, words + (
        ['--output', str(args.output)] if args.output else [])))
    md, js = study_table.write(metrics, figs, out, command)
    for r in runs:
        print(_line(r, metrics))
    print(f'report: {md} (table: {js.name}, {sum(map(len, figs.values()))} figures in '
          f'{out / "figures"})')
    failed = [r.name for r in runs if not r.plan['success']]
    if failed:  # the report is written, but part of the study is missing
        print(f"{PROG}: failed: the plan of {', '.join(failed)} failed (not tracked; see the "
              'report)', file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``robozoo gravity-study``; returns the exit code."""
    return run_command(PROG, parser(), run, argv)


if __name__ == '__main__':
    sys.exit(main())
