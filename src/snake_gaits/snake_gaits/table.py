"""Speed per gait over a (k, mu) grid (R26) and the trajectory deviation from the mu = 0.6 run
as mu grows (R27), on the simulator: ``python -m snake_gaits.table [--terrain heightfield]``;
``--convergence``: R23's step-size table instead (the forward leg's displacement at dt, dt / 2,
dt / 4 and the real-time factor of each run).

Speed: the forward leg's centre-of-mass travel in the gait's direction (along the body for linear
progression, across it for rolling and sidewinding) over its 4 s. Deviation: the mean distance
between the per-module trajectories (10 Hz, both legs) and those of the mu = 0.6 run.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from .experiment import make_physics, run_protocol
from .serpenoid import GAITS, preset

KS = (1.0, 2.0, 4.0)
MUS = (0.3, 0.6, 1.2, 2.4, 4.8)


def speed(gait: str, leg) -> float:
    return (leg.along if gait == 'linear_progression' else abs(leg.across)) / 4.0


def convergence(terrain: str) -> None:
    """R23: the 4 s forward leg at the default step and its halvings."""
    dt = make_physics(terrain).model.opt.timestep
    print(f'terrain {terrain}; forward-leg CoM displacement (4 s) per physics step; change vs '
          'the next halving; real-time factor = 4 s / wall time (one run, this machine)\n')
    print('| gait | dt (ms) | dx, dy (mm) | change vs dt/2 | real-time factor |')
    print('|---|---|---|---|---|')
    for gait in GAITS:
        rows = []
        for h in (dt, dt / 2, dt / 4):
            t0 = time.perf_counter()
            d = np.array(run_protocol(preset(gait), terrain=terrain, step=h,
                                      reverse=False).legs[0].displacement)
            rows.append((h, d, 4.0 / (time.perf_counter() - t0)))
        for (h, d, rtf), nxt in zip(rows, rows[1:] + [None]):
            change = (f'{np.linalg.norm(d - nxt[1]) / np.linalg.norm(nxt[1]):.2%}'
                      if nxt is not None else '')
            print(f'| {gait} | {1000 * h:g} | {1000 * d[0]:+.0f}, {1000 * d[1]:+.0f} | {change} '
                  f'| {rtf:.1f} |')


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog='python -m snake_gaits.table')
    ap.add_argument('--terrain', default='flat', choices=('flat', 'heightfield'))
    ap.add_argument('--convergence', action='store_true', help="R23's step-size table")
    args = ap.parse_args(argv)
    if args.convergence:
        convergence(args.terrain)
        return 0
    print(f'terrain {args.terrain}; speed in mm/s of the 4 s forward leg (k x mu)\n')
    print('| gait | k | ' + ' | '.join(f'mu {m:g}' for m in MUS) + ' |')
    print('|---|---|' + '---|' * len(MUS))
    deviation = {}
    for gait in GAITS:
        for k in KS:
            runs = {mu: run_protocol(preset(gait), terrain=args.terrain, k=k, mu=mu)
                    for mu in MUS}
            cells = [f'{1000 * speed(gait, runs[mu].legs[0]):.0f}' for mu in MUS]
            print(f'| {gait} | {k:g} | ' + ' | '.join(cells) + ' |')
            if k == 2.0:
                ref = np.concatenate([leg.trajectory for leg in runs[0.6].legs])
                deviation[gait] = [
                    float(np.linalg.norm(np.concatenate([leg.trajectory for leg in runs[mu].legs])
                                         - ref, axis=2).mean()) for mu in MUS]
    print('\nmean trajectory deviation from the mu 0.6 run (mm), k = 2\n')
    print('| gait | ' + ' | '.join(f'mu {m:g}' for m in MUS) + ' |')
    print('|---|' + '---|' * len(MUS))
    for gait, dev in deviation.items():
        print(f'| {gait} | ' + ' | '.join(f'{1000 * d:.0f}' for d in dev) + ' |')
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
