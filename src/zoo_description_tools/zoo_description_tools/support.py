"""Static stability: how far a ground point (the CoM projection) lies inside a support polygon."""
from __future__ import annotations

import numpy as np


def _cross2(u, v) -> float:
    return float(u[0] * v[1] - u[1] * v[0])


def convex_hull_margin(points: np.ndarray, p: np.ndarray) -> float:
    """Signed distance from 2-D point ``p`` to the boundary of the convex hull of ``points``
    (> 0 inside, < 0 outside)."""
    pts = [np.asarray(q, dtype=float) for q in sorted(map(tuple, np.asarray(points)[:, :2]))]

    def half(seq):  # Andrew's monotone chain, one half
        hull = []
        for q in seq:
            while len(hull) >= 2 and _cross2(hull[-1] - hull[-2], q - hull[-2]) <= 0:
                hull.pop()
            hull.append(q)
        return hull[:-1]

    hull = half(pts) + half(pts[::-1])  # counter-clockwise
    return min(_cross2(b - a, p[:2] - a) / np.linalg.norm(b - a)
               for a, b in zip(hull, hull[1:] + hull[:1]))
