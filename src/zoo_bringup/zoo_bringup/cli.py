"""`robozoo`: list, show and run scenarios in the embedded world; search gaits; repair bags.

Errors a user can cause (unknown scenario, bad YAML, bad --set, wrong parameter type ...) print one
line ``robozoo: error: ...`` and exit 2; ``--debug`` shows the traceback instead. SIGINT, SIGTERM
and SIGHUP stop a run cleanly: the bag is closed and summary.json says where the run stopped
(exit 130, 143, 129).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path

# The CLI runs the embedded world (also as `ros2 run zoo_bringup robozoo`): where a sourced ROS 2
# makes rclpy import, zoo_runtime would otherwise pick it. Set before anything imports zoo_runtime.
os.environ.setdefault('ZOO_RUNTIME', 'embedded')

from zoo_scenario.scenario import (ScenarioError, apply_overrides, is_positive_number,
                                   list_scenarios, load_scenario, node_specs)

# sub-commands with their own argument parsers: `robozoo search ...`, `robozoo bag ...`
DELEGATED = {'search': ('zoo_experiments.gait_search.cli', 'run or resume a gait search'),
             'quality': ('zoo_experiments.gait_search.quality', "measure a walk's gait quality"),
             'sweep': ('zoo_experiments.sweep.cli', "run a grid of a scenario's parameters"),
             'plan': ('trajectory_optimizer.cli', 'plan a legged trajectory (TOWR-style NLP)'),
             'gravity-study': ('zoo_experiments.gravity_study', 'the Go1 gravity study'),
             'bag': ('zoo_bringup.bag_cli', 'inspect or repair a recorded bag'),
             'contract-report': ('zoo_sim.contract_report',
                                 'measure the joint-motor and contact figures'),
             'path': ('grid_navigation.path_cli', "plan an A* path on a world's occupancy grid"),
             'dxl-emulator': ('zoo_bringup.dxl_emulator', 'serve a Dynamixel bus on a pty')}


class _Parser(argparse.ArgumentParser):
    """argparse with the CLI's one-line errors (no usage block; `--help` shows it)."""

    def error(self, message: str):
        self.exit(2, f'robozoo: error: {self.prog}: {message}\n')


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog='robozoo', description=__doc__.splitlines()[0])
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
    run.add_argument('--output', type=Path,
                     help='output folder, new or empty (default: a fresh '
                     './out/<scenario>/<date_time>, with ./out/<scenario>/latest pointing at it)')
    run.add_argument('--overwrite', action='store_true',
                     help="replace an earlier run's outputs in --output (summary, bag, plots)")
    run.add_argument('--record', nargs='*', metavar='TOPIC',
                     help='record a rosbag2 (MCAP) bag: the given topics, else the scenario\'s')
    run.add_argument('--record-max-mb', type=float, metavar='MB',
                     help='stop recording (not the run) when the bag reaches this size')
    run.add_argument('--record-max-duration', type=float, metavar='S',
                     help='stop recording (not the run) after this many sim seconds')
    run.add_argument('--real-time-factor', type=float,
                     help='0 = as fast as possible (default), 1 = wall-clock paced')
    run.add_argument('--live', action='store_true',
                     help='serve the run to Foxglove (WebSocket, port 8765; real-time paced '
                     'unless --real-time-factor); layouts in config/foxglove/')
    run.add_argument('--live-port', type=int, metavar='PORT',
                     help='port of --live (implies it; default 8765, 0: any free port)')
    run.add_argument('--live-host', metavar='HOST',
                     help='address --live binds (default 127.0.0.1; 0.0.0.0 for other hosts)')
    run.add_argument('--viewer', action='store_true',
                     help="follow the run in MuJoCo's viewer (needs a display; real-time paced)")
    run.add_argument('--snapshot', action='store_true',
                     help='render <output>/snapshot.png of the final state (offscreen EGL/OSMesa)')
    run.add_argument('--report', action='store_true',
                     help='write PNG plots (base trajectory, leg joints) of this run into the '
                     'output folder (records the default topics when --record is not given)')
    run.add_argument('--quiet', action='store_true', help='no progress bar')
    run.add_argument('--processes', action='store_true',
                     help='every node but the simulator in a process of its own, topics on '
                     'Cyclone DDS (ROS 2 names; domain $ROS_DOMAIN_ID; loopback only), one '
                     'lockstep sim time')
    run.add_argument('--dds-interfaces', metavar='IF[,IF...]',
                     help='with --processes: the network interfaces (names or addresses) DDS '
                     'uses instead of loopback; the run\'s topics are then open to those '
                     'networks (zoo_dds README)')
    run.add_argument('--dds-peers', metavar='HOST[,HOST...]',
                     help='with --processes: other hosts whose DDS participants the run '
                     'discovers (unicast; with --dds-interfaces)')
    for name, (_, helptext) in DELEGATED.items():
        sub.add_parser(name, help=helptext, add_help=False)
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
    from zoo_scenario.output_dir import RunFolder
    from zoo_scenario.progress import ProgressBar
    from zoo_scenario.runner import run_scenario

    sc = apply_overrides(load_scenario(args.scenario), args.overrides)
    duration = sc.duration if args.duration is None else args.duration
    _check_number('--duration', duration, 'a positive, finite number of sim seconds')
    if args.seed is not None and args.seed < 0:
        raise ScenarioError(f'--seed {args.seed}: expected a non-negative integer (it seeds '
                            "numpy's generators)")
    if args.real_time_factor is not None and args.real_time_factor != 0:
        _check_number('--real-time-factor', args.real_time_factor,
                      '0 (as fast as possible) or a positive factor')
    record = False if args.record is None else (args.record or True)
    for topic in args.record or ():
        if not topic.startswith('/'):
            raise ScenarioError(f'--record {topic}: expected an absolute topic name (/{topic})')
    limits = _record_limits(args)
    if limits and not record and not args.report:
        raise ScenarioError('--record-max-mb/--record-max-duration: nothing is recorded '
                            '(add --record)')
    if args.viewer and not sc.has_simulator:
        raise ScenarioError(f'--viewer: scenario {sc.name!r} has no simulator to show')
    if args.report and not sc.robots:
        raise ScenarioError(f'--report: scenario {sc.name!r} has no robot to plot (the plots '
                            "show each robot's base path and joints); drop --report")
    if args.report and not record:
        record = True  # the plots are of this run: they need its bag
    live = _live_options(args)
    dds = _dds_options(args)
    # checked here, created only once the nodes are built: a bad parameter touches nothing
    folder = args.folder = RunFolder(args.output, sc.name, overwrite=args.overwrite)
    try:
        with ProgressBar(duration, enabled=not args.quiet, label=sc.name) as bar:
            summary = run_scenario(sc, duration=duration, seed=args.seed, record=record,
                                   output=folder, real_time_factor=args.real_time_factor,
                                   on_progress=bar.update, viewer=args.viewer,
                                   snapshot=args.snapshot, record_limits=limits, live=live,
                                   on_live=lambda server: _tell_live(server, sc),
                                   processes=args.processes, dds=dds)
    except BaseException:
        args.note = folder.abandon()  # a failed run: the earlier one stays, said in the line
        raise
    output = folder.final
    print(format_summary(summary, output))
    for warning in summary.get('warnings', []):
        print(f'robozoo: warning: {warning}', file=sys.stderr)
    if args.report:
        from zoo_scenario.report import write_report
        args.stage = 'report'
        for path in write_report(output):
            print(f'  plot: {path}')
    return 0


def _dds_options(args) -> dict:
    """--dds-interfaces/--dds-peers (a --processes run beyond this host) -> ProcessScenarioRun's
    keywords."""
    from zoo_dds.discovery import network_words
    out = {}
    for flag, value, key in (('--dds-interfaces', args.dds_interfaces, 'dds_interfaces'),
                             ('--dds-peers', args.dds_peers, 'dds_peers')):
        if value is None:
            continue
        if not args.processes:
            raise ScenarioError(f'{flag}: only with --processes (no DDS otherwise)')
        try:
            out[key] = network_words(flag, value)
        except ValueError as exc:
            raise ScenarioError(str(exc)) from None
    return out


def _interrupted_line(name: str, args) -> str:
    """What an interrupted run left, in one line."""
    folder = getattr(args, 'folder', None)
    if folder is None or not folder.opened:
        return f'robozoo: interrupted by {name} before the run started; nothing was written'
    if getattr(args, 'note', None):  # stopped before it could replace an earlier run
        return f'robozoo: interrupted by {name}; {args.note}'
    if getattr(args, 'stage', None) == 'report':
        return (f'robozoo: interrupted by {name} while plotting: the run is complete '
                f'(summary.json and bag in {folder.final}), its plots are not all written: '
                f'`bin/robozoo bag report {folder.final / "bag"}` draws them')
    line = (f'robozoo: interrupted by {name}; the outputs in {folder.final} hold the run up '
            'to there')
    if getattr(args, 'report', False):
        line += (f'; no plots (--report): `bin/robozoo bag report {folder.final / "bag"}` '
                 'draws them')
    return line


def _check_number(flag: str, value: float, what: str) -> None:
    if not is_positive_number(value):
        raise ScenarioError(f'{flag} {value}: expected {what}')


def _live_options(args) -> dict | None:
    """LiveServer's keyword arguments for --live/--live-port/--live-host, None without them."""
    if not (args.live or args.live_port is not None or args.live_host is not None):
        return None
    from zoo_live import DEFAULT_PORT
    port = DEFAULT_PORT if args.live_port is None else args.live_port
    if not 0 <= port <= 65535:
        raise ScenarioError(f'--live-port {port}: expected a port 0..65535 (0: any free port)')
    return {'port': port, 'host': args.live_host or '127.0.0.1'}


def _tell_live(server, sc) -> None:
    from zoo_live import describe
    for line in describe(server, [r.package for r in sc.robots]):
        print(f'robozoo: {line}', file=sys.stderr, flush=True)


def _record_limits(args) -> dict:
    limits = {}
    if args.record_max_mb is not None:
        _check_number('--record-max-mb', args.record_max_mb, 'a positive size in MB')
        limits['max_bytes'] = int(args.record_max_mb * 1e6)
    if args.record_max_duration is not None:
        _check_number('--record-max-duration', args.record_max_duration,
                      'a positive number of sim seconds')
        limits['max_duration_s'] = float(args.record_max_duration)
    return limits


class Interrupted(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP during a run; str() is the signal's name."""


def _stop_cleanly_on_signals() -> None:
    """The first signal unwinds the run (the runner closes the bag and writes the summary);
    later ones are ignored so that this clean-up finishes."""
    raised = []

    def handler(signum, frame):
        if raised:
            return
        raised.append(signum)
        raise Interrupted(signal.Signals(signum).name)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, handler)


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
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in DELEGATED:  # their own parsers, errors and exit codes
        import importlib
        return importlib.import_module(DELEGATED[argv[0]][0]).main(argv[1:])
    args = _parser().parse_args(argv)
    try:
        if args.cmd == 'list':
            return _cmd_list()
        if args.cmd == 'show':
            return _cmd_show(args)
        _stop_cleanly_on_signals()
        return _cmd_run(args)
    except KeyboardInterrupt as exc:
        name = str(exc) or 'SIGINT'
        print(_interrupted_line(name, args), file=sys.stderr)
        return 128 + getattr(signal.Signals, name, signal.SIGINT).value
    except Exception as exc:  # noqa: BLE001 - user-facing boundary: one line, no traceback
        if args.debug:
            raise
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if isinstance(exc, OSError) and exc.strerror and exc.filename:  # name the file
            msg = f'{exc.filename}: {exc.strerror}'
        elif not isinstance(exc, (ValueError, RuntimeError, OSError)):  # unforeseen: say what
            msg = f'{type(exc).__name__}: {msg} (--debug shows the traceback)'
        if getattr(args, 'note', None):
            msg += f'; {args.note}'
        print(f'robozoo: error: {msg}', file=sys.stderr)
        return 2


if __name__ == '__main__':
    sys.exit(main())
