"""Plots of the calibration tables against the formula predictions (the default presets) and
the real robot's measurements (``real_robot``) (matplotlib, Agg)."""
from __future__ import annotations

from pathlib import Path

from . import calibration_protocols as proto, real_robot
from .motor_laws import PAN_PRESETS, TILT_PRESETS, WHEEL_PRESETS, pan_tilt_time


def plot_tables(tables: dict, folder: Path) -> list[Path]:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    out = []
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    if 'wheels' in tables:
        ax = axes[0, 0]
        rows = tables['wheels']
        ax.plot([proto.wheel_distance_cm(r['P'], r['t_s'], WHEEL_PRESETS['thesis'])
                 for r in rows], 'o', label='formula (spec 4.1)')
        ax.plot([r['distance_cm'] for r in rows], 'x', label='simulated')
        ax.set_xticks(range(len(rows)), [f"P{r['P']} {r['t_s']}s" for r in rows], fontsize=7)
        ax.set_ylabel('distance (cm)'), ax.legend(), ax.set_title('wheels, straight line')
    for ax, name, coeffs, real in ((axes[0, 1], 'pan', PAN_PRESETS['robot'], real_robot.PAN_S),
                                   (axes[1, 0], 'tilt', TILT_PRESETS['robot'], real_robot.TILT_S)):
        for deg in proto.PAN_TILT_DEGREES:
            rows = [r for r in tables.get(name, []) if r['degrees'] == deg]
            speeds = [r['speed'] for r in rows]
            ax.plot(speeds, [pan_tilt_time(deg, s, coeffs) for s in speeds], '-',
                    label=f'{deg} deg law (robot fit)')
            ax.plot(speeds, [real_robot.real_time_s(real, s, deg) for s in speeds], 'o',
                    mfc='none', label=f'{deg} deg real robot')
            ax.plot(speeds, [r['time_s'] for r in rows], 'x', label=f'{deg} deg simulated')
        ax.set_xlabel('speed'), ax.set_ylabel('time (s)'), ax.legend(), ax.set_title(name)
    ax = axes[1, 1]
    for key in ('ir_front_c', 'ir_front_l'):
        rows = tables.get(key, [])
        ax.plot([r['distance_cm'] for r in rows], [r['value'] for r in rows], 'x-', label=key)
    ax.plot(list(real_robot.IR_FRONT_C), list(real_robot.IR_FRONT_C.values()), 'o', mfc='none',
            label='front_c real robot')
    ax.set_yscale('log')
    ax.set_xlabel('box distance (cm)'), ax.set_ylabel('IR intensity'), ax.legend()
    ax.set_title('IR (white box)')
    fig.tight_layout()
    path = folder / 'calibration.png'
    fig.savefig(path, dpi=90)
    plt.close(fig)
    out.append(path)
    return out
