"""Speed per gait over a (k, mu) grid (R26) and the trajectory deviation from the mu = 0.6 run
as mu grows (R27), on the simulator: ``python -m snake_gaits.table [--terrain heightfield]``.

Speed: the forward leg's centre-of-mass travel in the gait's direction (along the body for linear
progression, across it for rolling and sidewinding) over its 4 s. Deviation: the mean distance
between the per-module trajectories (10 Hz, both legs) and those of the mu = 0.6 run.
"""
from __future__ import annotations

import argparse

import numpy as np

from .experiment import run_protocol
from .serpenoid import GAITS, preset

KS = (1.0, 2.0, 4.0)
MUS = (0.3, 0.6, 1.2, 2.4, 4.8)


def speed(gait: str, leg) -> float:
    return (leg.along if gait == 'linear_progression' else abs(leg.across)) / 4.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog='python -m snake_gaits.table')
    ap.add_argument('--terrain', default='flat', choices=('flat', 'heightfield'))
    args = ap.parse_args(argv)
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
