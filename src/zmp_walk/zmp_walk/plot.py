"""A picture of a ZMP walk plan: the soles, the ZMP reference, the multibody ZMP and the centre of
mass seen from above, and the same against time.

    python -m zmp_walk.plot OUT.png [--set name=value ...]    # the Nao's URDF from nao_description
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from .footsteps import FEET
from .plan import WalkPlan


def plot_plan(plan: WalkPlan, path: str, half_length: float = 0.08,
              half_width: float = 0.04) -> None:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    steps = plan.footsteps
    t = np.arange(len(plan.q)) * plan.dt
    fig, (top, xs, ys) = plt.subplots(3, 1, figsize=(10, 9), gridspec_kw={'height_ratios': [2, 1, 1]})
    cx = steps.sole_center_x
    soles = [(s.x_to, s.swing) for s in steps.steps] + [(0.0, foot) for foot in FEET]
    for x, foot in soles:
        colour = 'tab:blue' if foot == 'L' else 'tab:red'
        top.add_patch(Rectangle((x + cx - half_length, steps.side_y(foot) - half_width),
                                2 * half_length, 2 * half_width, facecolor=colour, alpha=0.12,
                                edgecolor=colour, lw=0.8))
    top.plot(plan.zmp_ref[:, 0], plan.zmp_ref[:, 1], 'k-', lw=1, label='ZMP reference')
    top.plot(plan.zmp_multibody[:, 0], plan.zmp_multibody[:, 1], '-', color='tab:green', lw=0.8,
             label='multibody ZMP of the plan')
    top.plot(plan.com[:, 0], plan.com[:, 1], '-', color='tab:orange', lw=1.5,
             label='centre of mass')
    top.set_aspect('equal')
    top.set_xlabel('x (m)')
    top.set_ylabel('y (m)')
    top.set_title('ZMP walk plan: soles (left blue, right red), seen from above')
    top.legend(loc='upper left', fontsize=8)
    for ax, k, name in ((xs, 0, 'x'), (ys, 1, 'y')):
        ax.plot(t, plan.zmp_ref[:, k], 'k-', lw=1, label='ZMP reference')
        ax.plot(t, plan.zmp_multibody[:, k], '-', color='tab:green', lw=0.8, label='multibody ZMP')
        ax.plot(t, plan.com[:, k], '-', color='tab:orange', lw=1.5, label='centre of mass')
        ax.axvspan(plan.loop_start, plan.loop_end, color='0.9', label='looped cycle')
        ax.set_ylabel(f'{name} (m)')
    ys.set_xlabel('time from the walk start (s)')
    xs.legend(loc='upper left', fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog='python -m zmp_walk.plot', description=__doc__.split('\n\n')[0])
    ap.add_argument('output', help='PNG file to write')
    ap.add_argument('--set', dest='overrides', action='append', default=[], metavar='NAME=VALUE',
                    help='a ZmpWalkParams field (e.g. step_length=0.06)')
    a = ap.parse_args(argv)
    from zoo_description_tools.generate import xacro_to_urdf
    from .generator import plan_walk
    from .params import ZmpWalkParams
    try:
        values = {}
        for item in a.overrides:
            name, sep, value = item.partition('=')
            if not sep:
                raise ValueError(f'--set {item!r}: expected NAME=VALUE')
            values[name] = float(value)
        params = ZmpWalkParams.from_mapping(values)
    except ValueError as e:
        print(f'zmp_walk.plot: error: {e}', file=sys.stderr)
        return 2
    urdf = xacro_to_urdf('nao_description', {'hip_yaw_pitch': 'independent'})
    plot_plan(plan_walk(urdf, params), a.output)
    print(a.output)
    return 0


if __name__ == '__main__':
    sys.exit(main())
