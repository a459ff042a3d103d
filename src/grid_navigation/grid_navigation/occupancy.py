"""The boolean lattice map of the thesis (spec hoap2.md §4.3, R2-R4): nodes every ``resolution``
metres over [x_min, x_max] x [y_min, y_max] with both bounds included; obstacle footprints mark
the nodes they cover (edges inclusive, at least the nearest node; also nodes nearer than half a
cell, so that thin walls between node rows count), then the robot's half-width
inflates them: ``ring`` dilates by ceil(inflation / resolution) nodes in 8-connectivity (spec §10
item 2, the default) or ``disc`` blocks nodes within ``inflation`` of a footprint (spec §4.4 b).
Border nodes are never free (§4.3). Index order: ``[i, j]`` with i along x, j along y.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

INFLATION_RULES = ('ring', 'disc')
EDGE_EPS = 1e-9  # m: a node on a footprint's edge is inside (edges inclusive, spec R4)


class MapError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Footprint:
    """An obstacle seen from above: a convex polygon (counter-clockwise ``points``) or a disc."""
    name: str
    kind: str                                   # 'polygon' | 'disc'
    points: tuple[tuple[float, float], ...] = ()
    center: tuple[float, float] = (0.0, 0.0)
    radius: float = 0.0

    def centroid(self) -> tuple[float, float]:
        if self.kind == 'disc':
            return self.center
        pts = np.array(self.points)
        return float(pts[:, 0].mean()), float(pts[:, 1].mean())

    def distance(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Distance from points to the footprint (0 inside)."""
        if self.kind == 'disc':
            return np.maximum(np.hypot(x - self.center[0], y - self.center[1]) - self.radius, 0.0)
        pts = np.array(self.points)
        inside = np.ones_like(x, dtype=bool)
        best = np.full_like(x, np.inf, dtype=float)
        for a, b in zip(pts, np.roll(pts, -1, axis=0)):
            ex, ey = b - a
            inside &= ex * (y - a[1]) - ey * (x - a[0]) >= -EDGE_EPS * math.hypot(ex, ey)
            t = np.clip(((x - a[0]) * ex + (y - a[1]) * ey) / (ex * ex + ey * ey), 0.0, 1.0)
            best = np.minimum(best, np.hypot(x - a[0] - t * ex, y - a[1] - t * ey))
        return np.where(inside, 0.0, best)


def box_footprint(name: str, x: float, y: float, side_x: float, side_y: float,
                  yaw: float = 0.0) -> Footprint:
    c, s = math.cos(yaw), math.sin(yaw)
    pts = [(x + c * dx - s * dy, y + s * dx + c * dy)
           for dx, dy in ((-side_x / 2, -side_y / 2), (side_x / 2, -side_y / 2),
                          (side_x / 2, side_y / 2), (-side_x / 2, side_y / 2))]
    return Footprint(name, 'polygon', tuple(pts))


def disc_footprint(name: str, x: float, y: float, diameter: float) -> Footprint:
    return Footprint(name, 'disc', center=(x, y), radius=diameter / 2)


class GridMap:
    def __init__(self, bounds: tuple[float, float, float, float], resolution: float = 0.2,
                 inflation: float = 0.15, rule: str = 'ring'):
        x_min, y_min, x_max, y_max = (float(b) for b in bounds)
        if not (math.isfinite(resolution) and resolution > 0):
            raise MapError(f'resolution: expected a positive number of metres, got {resolution}')
        if not (math.isfinite(inflation) and inflation >= 0):
            raise MapError(f'inflation: expected a number of metres >= 0, got {inflation}')
        if rule not in INFLATION_RULES:
            raise MapError(f"inflation rule {rule!r}: expected 'ring' or 'disc'")
        if not all(map(math.isfinite, (x_min, y_min, x_max, y_max))) or \
                x_max <= x_min or y_max <= y_min:
            raise MapError(f'bounds {list(bounds)}: expected finite x_min < x_max, y_min < y_max')
        self.origin = (x_min, y_min)
        self.resolution = float(resolution)
        self.inflation = float(inflation)
        self.rule = rule
        # both bounds are nodes: [0, 4] at 0.2 -> 21 nodes (R2)
        self.nx = int(round((x_max - x_min) / resolution)) + 1
        self.ny = int(round((y_max - y_min) / resolution)) + 1
        if self.nx < 3 or self.ny < 3:
            raise MapError(f'bounds {list(bounds)} at resolution {resolution}: fewer than 3 x 3 '
                           'nodes')
        if self.nx * self.ny > 4_000_000:
            raise MapError(f'bounds {list(bounds)} at resolution {resolution}: '
                           f'{self.nx} x {self.ny} nodes is too many')
        self.obstacles: list[Footprint] = []
        self.occupied = np.zeros((self.nx, self.ny), dtype=bool)
        self._blocked: np.ndarray | None = None
        xs = x_min + resolution * np.arange(self.nx)
        ys = y_min + resolution * np.arange(self.ny)
        self._gx, self._gy = np.meshgrid(xs, ys, indexing='ij')

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        x0, y0 = self.origin
        return x0, y0, x0 + (self.nx - 1) * self.resolution, y0 + (self.ny - 1) * self.resolution

    # -- conversions (R2) -------------------------------------------------------------------
    def world_to_cell(self, x: float, y: float) -> tuple[int, int]:
        """The nearest node (it may lie outside the map: see :meth:`in_map`)."""
        return (int(round((x - self.origin[0]) / self.resolution)),
                int(round((y - self.origin[1]) / self.resolution)))

    def cell_to_world(self, i: int, j: int) -> tuple[float, float]:
        return (self.origin[0] + i * self.resolution, self.origin[1] + j * self.resolution)

    def in_map(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.bounds
        return x0 - EDGE_EPS <= x <= x1 + EDGE_EPS and y0 - EDGE_EPS <= y <= y1 + EDGE_EPS

    def cell_in_map(self, i: int, j: int) -> bool:
        return 0 <= i < self.nx and 0 <= j < self.ny

    # -- obstacles (R4) ---------------------------------------------------------------------
    def add_obstacle(self, fp: Footprint) -> None:
        """Mark the nodes the footprint covers (edges inclusive) and at least the nearest one
        (the thesis' anadir_obstaculo / añadir_objeto, spec §10 item 14)."""
        self.obstacles.append(fp)
        # "inside" also takes nodes closer than half a cell: a wall thinner than the resolution
        # lies between two node rows and would otherwise mark none (spec R4 cases unchanged)
        inside = fp.distance(self._gx, self._gy) < self.resolution / 2 - EDGE_EPS
        i, j = self.world_to_cell(*fp.centroid())
        if self.cell_in_map(i, j):
            inside[i, j] = True
        self.occupied |= inside
        self._blocked = None

    @property
    def inflation_cells(self) -> int:
        return int(math.ceil(self.inflation / self.resolution - 1e-9))

    @property
    def blocked(self) -> np.ndarray:
        """Non-traversable nodes: inflated obstacles and the border (R3, R4)."""
        if self._blocked is None:
            b = self.occupied.copy()
            if self.rule == 'ring':
                k = self.inflation_cells
                src = self.occupied
                for di in range(-k, k + 1):
                    for dj in range(-k, k + 1):
                        b |= _shifted(src, di, dj)
            else:
                for fp in self.obstacles:
                    b |= fp.distance(self._gx, self._gy) <= self.inflation + EDGE_EPS
            b[0, :] = b[-1, :] = b[:, 0] = b[:, -1] = True
            self._blocked = b
        return self._blocked

    def is_free(self, i: int, j: int) -> bool:
        return self.cell_in_map(i, j) and not bool(self.blocked[i, j])

    def clearance(self, x: float, y: float) -> float:
        """Distance from a point to the nearest obstacle footprint (inf: none)."""
        if not self.obstacles:
            return math.inf
        px, py = np.array([x]), np.array([y])
        return float(min(fp.distance(px, py)[0] for fp in self.obstacles))


def _shifted(a: np.ndarray, di: int, dj: int) -> np.ndarray:
    out = np.zeros_like(a)
    nx, ny = a.shape
    out[max(di, 0):nx + min(di, 0), max(dj, 0):ny + min(dj, 0)] = \
        a[max(-di, 0):nx + min(-di, 0), max(-dj, 0):ny + min(-dj, 0)]
    return out
