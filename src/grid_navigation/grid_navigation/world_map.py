"""Obstacle footprints and map bounds from an SDF world (zoo_sim.sdf_world), so the planner map
and the simulator's collision geometry come from one file (spec hoap2.md §9.3, R23).

Obstacles: every collision shape of a static model that stands between the floor and the robot's
height (planes and heightfields are ground). Bounds: the world's custom element
``<robozoo:grid_bounds>x_min y_min x_max y_max</robozoo:grid_bounds>`` (declare
``xmlns:robozoo`` on ``<sdf>``), else the obstacles' extent plus ``DEFAULT_MARGIN`` snapped
outward to the resolution.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

from .occupancy import Footprint, GridMap, MapError, disc_footprint

BOUNDS_TAG = 'grid_bounds'
FLOOR_HEIGHT = 0.005   # m: a shape whose top is lower is floor decoration, not an obstacle
ROBOT_HEIGHT = 0.55    # m: a shape whose bottom is higher passes over the HOAP-2 (spec §2.1)
DEFAULT_MARGIN = 1.0   # m around the obstacles when the world gives no bounds


def _quat_matrix(q) -> np.ndarray:
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _hull(points: np.ndarray) -> tuple[tuple[float, float], ...]:
    """Counter-clockwise convex hull (monotone chain)."""
    pts = sorted(set((round(float(x), 12), round(float(y), 12)) for x, y in points))
    if len(pts) < 3:
        return tuple(pts)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


def shape_footprint(name: str, kind: str, size: tuple, pos: np.ndarray, rot: np.ndarray
                    ) -> tuple[Footprint | None, float, float]:
    """(footprint, z bottom, z top) of one collision shape posed in the world; None for shapes
    that are not obstacles (planes, heightfields, meshes)."""
    upright = abs(rot[2, 2]) > 1.0 - 1e-9  # local z is vertical
    if kind == 'sphere':
        r = size[0]
        return disc_footprint(name, pos[0], pos[1], 2 * r), pos[2] - r, pos[2] + r
    if kind in ('cylinder', 'capsule') and upright:
        r, length = size
        half = length / 2 + (r if kind == 'capsule' else 0.0)
        return disc_footprint(name, pos[0], pos[1], 2 * r), pos[2] - half, pos[2] + half
    if kind == 'box':
        half = np.array(size) / 2
    elif kind in ('cylinder', 'capsule'):  # tilted: its bounding box, conservative
        r, length = size
        half = np.array([r, r, length / 2 + (r if kind == 'capsule' else 0.0)])
    elif kind == 'ellipsoid':
        half = np.array(size)
    else:
        return None, 0.0, 0.0
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    world = pos + (corners * half) @ rot.T
    return (Footprint(name, 'polygon', _hull(world[:, :2])), float(world[:, 2].min()),
            float(world[:, 2].max()))


def world_footprints(world) -> list[Footprint]:
    """The footprints of a zoo_sim World's static obstacles."""
    out = []
    for model in world.models:
        if not model.static:
            continue
        for link in model.links:
            lpose = model.pose.then(link.pose)
            for col in link.collisions:
                cpose = lpose.then(col.pose)
                fp, z0, z1 = shape_footprint(f'{model.name}/{link.name}/{col.name}',
                                             col.shape.kind, col.shape.size, cpose.pos,
                                             _quat_matrix(cpose.quat))
                if fp is not None and z1 > FLOOR_HEIGHT and z0 < ROBOT_HEIGHT:
                    out.append(fp)
    return out


def world_bounds(path: str | Path) -> tuple[float, float, float, float] | None:
    """The ``<robozoo:grid_bounds>`` of a world file, or None."""
    root = ET.parse(path).getroot()
    world = root.find('world')
    for child in (world if world is not None else []):
        if isinstance(child.tag, str) and child.tag.rsplit('}', 1)[-1] == BOUNDS_TAG:
            try:
                vals = [float(v) for v in (child.text or '').split()]
            except ValueError:
                vals = []
            if len(vals) != 4 or not all(map(math.isfinite, vals)):
                raise MapError(f'{path}: <robozoo:{BOUNDS_TAG}>: expected 4 numbers x_min y_min '
                               f'x_max y_max, got {(child.text or "").strip()!r}')
            return tuple(vals)
    return None


def padded_bounds(fps: list[Footprint], resolution: float,
                  margin: float = DEFAULT_MARGIN) -> tuple[float, float, float, float]:
    pts = [p for fp in fps for p in (fp.points or [
        (fp.center[0] - fp.radius, fp.center[1] - fp.radius),
        (fp.center[0] + fp.radius, fp.center[1] + fp.radius)])]
    if not pts:
        raise MapError('the world has no static obstacles and no <robozoo:grid_bounds>: give '
                       'the map bounds')
    a = np.array(pts)
    lo = np.floor((a.min(axis=0) - margin) / resolution) * resolution
    hi = np.ceil((a.max(axis=0) + margin) / resolution) * resolution
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def grid_from_world(world_name: str, resolution: float = 0.2, inflation: float = 0.15,
                    rule: str = 'ring', bounds=None, validate: bool = True) -> GridMap:
    """The occupancy grid of a world (a name under worlds/ or a path). Raises MapError or
    zoo_sim.SimConfigError with one line naming the file or value."""
    from zoo_sim.resources import find_world
    from zoo_sim.sdf_world import load_world
    path = find_world(str(world_name))
    world = load_world(path, validate=validate)
    fps = world_footprints(world)
    if bounds is None:
        bounds = world_bounds(path) or padded_bounds(fps, resolution)
    grid = GridMap(bounds, resolution, inflation, rule)
    for fp in fps:
        grid.add_obstacle(fp)
    grid.source = str(path)
    return grid
