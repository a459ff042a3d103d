"""``robozoo path WORLD --start X Y --goal X Y [--resolution R] [--inflation M]``: the A* plan on
a world's occupancy grid as JSON {cost, cells, path}, or one line ``robozoo path: error: ...``
and exit 2 (bad numbers, unknown world, start/goal outside the map or in an obstacle, no path).
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from .occupancy import INFLATION_RULES
from .planner import plan_xy

PROG = 'robozoo path'


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f'{PROG}: error: {message}\n')


def _number(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r} is not a number') from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f'{text!r} is not a finite number')
    return v


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument('world', help='a world name (worlds/<name>.sdf) or an SDF file')
    p.add_argument('--start', nargs=2, type=_number, required=True, metavar=('X', 'Y'))
    p.add_argument('--goal', nargs=2, type=_number, required=True, metavar=('X', 'Y'))
    p.add_argument('--resolution', type=_number, default=0.2, help='m between nodes (0.2)')
    p.add_argument('--inflation', type=_number, default=0.15,
                   help="m the obstacles grow by: the robot's half-width (0.15)")
    p.add_argument('--rule', choices=INFLATION_RULES, default='ring', help='inflation rule')
    p.add_argument('--bounds', nargs=4, type=_number, metavar=('XMIN', 'YMIN', 'XMAX', 'YMAX'),
                   help="map bounds (default: the world's <robozoo:grid_bounds>)")
    p.add_argument('--corner-cutting', action='store_true',
                   help='allow diagonal moves past a blocked axis node')
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if not args.resolution > 0:
            raise ValueError(f'--resolution {args.resolution:g}: expected a positive number of '
                             'metres')
        if args.inflation < 0:
            raise ValueError(f'--inflation {args.inflation:g}: expected a number of metres >= 0')
        from .world_map import grid_from_world
        grid = grid_from_world(args.world, args.resolution, args.inflation, args.rule,
                               args.bounds)
        plan = plan_xy(grid, tuple(args.start), tuple(args.goal),
                       corner_cutting=args.corner_cutting)
    except Exception as exc:  # noqa: BLE001 - user-facing boundary: one line, no traceback
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f'{PROG}: error: {msg}', file=sys.stderr)
        return 2
    if not plan.ok:
        print(f'{PROG}: error: {plan.reason}', file=sys.stderr)
        return 2
    print(json.dumps({'cost': round(plan.cost, 9), 'cells': [list(c) for c in plan.cells],
                      'path': [[round(v, 9) for v in grid.cell_to_world(*c)]
                               for c in plan.cells]}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
