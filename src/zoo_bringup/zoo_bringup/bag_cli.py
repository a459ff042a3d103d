"""`robozoo bag`: inspect a recorded bag or repair one whose recording was killed.

    robozoo bag info PATH      topics, types, message counts, duration; complete or unfinished
    robozoo bag repair PATH    make an unfinished bag readable (the torn original is kept)
    robozoo bag report PATH [--output DIR]
                               plots of a bag (run --report's), also of a `ros2 bag record` one

Errors print one line ``robozoo bag: error: ...`` and return 2.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

PROG = 'robozoo bag'


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line instead of usage + exit
        raise _UsageError(f'{message} (see {PROG} --help)')


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=__doc__.splitlines()[0],
                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest='cmd', metavar='COMMAND', required=True,
                           parser_class=_Parser)
    info = sub.add_parser('info', help='topics, types, counts, duration; complete or unfinished')
    info.add_argument('path', type=Path, help='the bag directory')
    repair = sub.add_parser('repair', help='make an unfinished bag readable (keeps the original)')
    repair.add_argument('path', type=Path, help='the bag directory')
    report = sub.add_parser('report', help="plots of a bag (run --report's; any rosbag2 bag)")
    report.add_argument('path', type=Path, help='the bag directory')
    report.add_argument('--output', type=Path, help='folder for the PNGs (default: the folder '
                        'holding the bag)')
    return p


def format_info(info) -> str:
    """The text of ``robozoo bag info`` for a :class:`zoo_runtime.bag.BagInfo`."""
    kept = info.path / f'{info.path.name}.mcap.unfinished'
    if info.complete:
        status = 'complete'
        if kept.exists():
            status += f' (repaired; the torn original is {kept})'
    else:
        status = (f'unfinished (its recording was not closed); `robozoo bag repair {info.path}` '
                  f'recovers the {info.messages} messages counted below')
    lines = [f'path:     {info.path}', f'status:   {status}']
    if info.start_ns is not None:
        lines.append(f'duration: {info.duration_s:.3f} s (log time {info.start_ns / 1e9:.3f} .. '
                     f'{info.end_ns / 1e9:.3f} s)')
    lines.append(f'messages: {info.messages}')
    if info.topics:
        width_topic = max(len(t) for t in info.topics)
        width_type = max(len(ty) for ty, _ in info.topics.values())
        lines.append('topics:')
        lines += [f'  {topic:<{width_topic}}  {ty:<{width_type}}  {n:>8}'
                  for topic, (ty, n) in info.topics.items()]
    else:
        lines.append('topics:   none')
    return '\n'.join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run ``robozoo bag`` with ``argv`` (the arguments after ``bag``); returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = _parser().parse_args(argv)
    except _UsageError as err:
        return _error(str(err))
    except SystemExit as done:  # --help
        return int(done.code or 0)
    from zoo_runtime.bag import BagError, bag_info, repair_bag
    try:
        if args.cmd == 'info':
            print(format_info(bag_info(args.path)))
        elif args.cmd == 'report':
            from zoo_scenario.report import write_bag_report
            made = write_bag_report(args.path, args.output)
            print('\n'.join(str(p) for p in made) or f'{args.path}: nothing to plot (no '
                  '/<robot>/odometry/ground_truth topic, no summary.json naming robots)')
        else:
            print(repair_bag(args.path))
    except (BagError, OSError) as err:
        return _error(str(err).splitlines()[0] if str(err) else type(err).__name__)
    return 0


def _error(message: str) -> int:
    print(f'{PROG}: error: {message}', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
