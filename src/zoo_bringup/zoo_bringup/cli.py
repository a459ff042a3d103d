"""`robozoo`: list, show and run scenarios in the embedded world.

Errors a user can cause (unknown scenario, bad YAML, bad --set, wrong parameter type ...) print one
line ``robozoo: error: ...`` and exit 2; ``--debug`` shows the traceback instead.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .scenario import ScenarioError, apply_overrides, list_scenarios, load_scenario, node_specs


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog='robozoo', description=__doc__.splitlines()[0])
    p.add_argument('--debug', action='store_true', help='show tracebacks')
    sub = p.add_subparsers(dest='cmd', required=True)
    sub.add_parser('list', help='list the scenarios')
    show = sub.add_parser('show', help='print the nodes and parameters a scenario starts')
    show.add_argument('scenario')
    run = sub.add_parser('run', help='run a scenario headless, faster than real time')
    run.add_argument('scenario', help='scenario name (config/scenarios/<name>.yaml) or a .yaml path')
    run.add_argument('--duration', type=float, help='sim seconds (default: the scenario\'s)')
    run.add_argument('--seed', type=int, help='random seed (default: the scenario\'s)')
    run.add_argument('--set', dest='overrides', action='append', default=[],
                     metavar='NODE.PARAM=VALUE', help='override a node parameter (YAML value)')
    run.add_argument('--output', type=Path, help='output directory (default: out/<scenario>)')
    run.add_argument('--record', nargs='*', metavar='TOPIC',
                     help='record a rosbag2 (MCAP) bag: the given topics, else the scenario\'s')
    run.add_argument('--real-time-factor', type=float,
                     help='0 = as fast as possible (default), 1 = wall-clock paced')
    run.add_argument('--viewer', action='store_true',
                     help="follow the run in MuJoCo's viewer (needs a display; real-time paced)")
    run.add_argument('--snapshot', action='store_true',
                     help='render <output>/snapshot.png of the final state (offscreen EGL/OSMesa)')
    run.add_argument('--report', action='store_true',
                     help='write PNG plots (base trajectory, leg joints) into the output directory')
    run.add_argument('--quiet', action='store_true', help='no progress bar')
    return p


def _cmd_list() -> int:
    for name, path in list_scenarios().items():
        desc = ''
        try:
            desc = load_scenario(str(path)).description
        except ScenarioError as exc:
            desc = f'(invalid: {exc})'
        print(f'{name:24s} {desc}')
    return 0


def _cmd_show(args) -> int:
    sc = load_scenario(args.scenario)
    out = {'scenario': sc.name, 'file': str(sc.path), 'duration': sc.duration, 'seed': sc.seed,
           'nodes': [{'name': s.name, 'package': s.package, 'executable': s.executable,
                      'namespace': s.namespace, 'parameters': s.parameters,
                      'params_files': s.params_files, 'remappings': s.remappings}
                     for s in node_specs(sc)]}
    print(json.dumps(out, indent=2))
    return 0


def _cmd_run(args) -> int:
    from .progress import ProgressBar
    from .runner import run_scenario
    from .scenario import workspace_root

    sc = apply_overrides(load_scenario(args.scenario), args.overrides)
    ws = workspace_root() or Path.cwd()
    output = args.output or ws / 'out' / sc.name
    record = False if args.record is None else (args.record or True)
    duration = sc.duration if args.duration is None else args.duration
    if duration <= 0:
        raise ScenarioError(f'--duration {duration}: expected a positive number of seconds')
    with ProgressBar(duration, enabled=not args.quiet, label=sc.name) as bar:
        summary = run_scenario(sc, duration=duration, seed=args.seed, record=record, output=output,
                               real_time_factor=args.real_time_factor, on_progress=bar.update,
                               viewer=args.viewer, snapshot=args.snapshot)
    print(format_summary(summary, output))
    if args.report:
        from .report import write_report
        for path in write_report(output):
            print(f'  plot: {path}')
    return 0


def format_summary(summary: dict, output: Path) -> str:
    rtf = summary['real_time_factor']
    lines = [f"scenario {summary['scenario']} (seed {summary['seed']}): "
             f"{summary['sim_time']:.3f} s simulated in {summary['wall_time']:.3f} s wall"
             + (f', {rtf:.1f}x real time' if rtf else '')]
    # nested values (per-candidate records, warning lists ...) stay in summary.json only
    for name, data in summary.get('robots', {}).items():
        lines.append(f'  robot {name}: ' + ', '.join(f'{k}={_fmt(v)}' for k, v in data.items()
                                                    if not isinstance(v, dict)))
    for name, data in summary.get('metrics', {}).items():
        lines.append(f'  {name}: ' + ', '.join(f'{k}={_fmt(v)}' for k, v in data.items()
                                               if not isinstance(v, (dict, list)) or
                                               _is_number_list(v)))
    if 'bag' in summary:
        total = sum(summary.get('recorded', {}).values())
        lines.append(f"  recorded {total} messages to {summary['bag']}")
    if 'snapshot' in summary:
        lines.append(f"  snapshot: {summary['snapshot']}")
    lines.append(f'  summary: {output / "summary.json"}')
    return '\n'.join(lines)


def _is_number_list(v) -> bool:
    return isinstance(v, list) and len(v) <= 12 and all(isinstance(x, (int, float)) for x in v)


def _fmt(v) -> str:
    if isinstance(v, float):
        return f'{v:.4g}'
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, (int, float)) for x in v):
        return '[' + ', '.join(f'{x:.4g}' for x in v) + ']'
    return str(v)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.cmd == 'list':
            return _cmd_list()
        if args.cmd == 'show':
            return _cmd_show(args)
        return _cmd_run(args)
    except KeyboardInterrupt:
        print('robozoo: interrupted', file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - user-facing boundary: one line, no traceback
        if args.debug:
            raise
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f'robozoo: error: {msg}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
