"""A PNG of the grid (obstacles, inflated nodes), the plan and the walked path."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .occupancy import GridMap


def plot_navigation(path: Path, grid: GridMap, plan: list, walked: list, goal=None,
                    title: str = '') -> Path:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Polygon

    fig, ax = plt.subplots(figsize=(6.4, 6.4))
    r = grid.resolution
    x0, y0, x1, y1 = grid.bounds
    ax.imshow(np.where(grid.blocked.T, 0.75, 1.0), cmap='gray', vmin=0, vmax=1, origin='lower',
              extent=(x0 - r / 2, x1 + r / 2, y0 - r / 2, y1 + r / 2), interpolation='nearest')
    occ = np.argwhere(grid.occupied)
    if len(occ):
        pts = np.array([grid.cell_to_world(i, j) for i, j in occ])
        ax.plot(pts[:, 0], pts[:, 1], 's', color='0.35', ms=4, label='occupied nodes')
    for fp in grid.obstacles:
        patch = (Circle(fp.center, fp.radius) if fp.kind == 'disc'
                 else Polygon(np.array(fp.points), closed=True))
        patch.set(facecolor='tab:red', alpha=0.6, edgecolor='darkred')
        ax.add_patch(patch)
    if plan:
        p = np.array(plan)
        ax.plot(p[:, 0], p[:, 1], 'o--', color='tab:blue', ms=3, label='A* plan')
    if walked:
        w = np.array(walked)
        ax.plot(w[:, 0], w[:, 1], '-', color='tab:green', lw=1.5, label='walked (ground truth)')
        ax.plot(w[0, 0], w[0, 1], 'go', label='start')
    if goal is not None:
        ax.plot(goal[0], goal[1], 'r*', ms=12, label='goal')
        ax.add_patch(Circle(goal, 0.15, fill=False, ls=':', color='tab:red'))
    ax.set_xlim(x0 - r, x1 + r)
    ax.set_ylim(y0 - r, y1 + r)
    ax.set_aspect('equal')
    ax.set_xlabel('x (m)')
    ax.set_ylabel('y (m)')
    ax.set_title(title or f'grid {grid.nx} x {grid.ny} at {r:g} m (grey: blocked)')
    ax.legend(loc='upper left', fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return Path(path)
