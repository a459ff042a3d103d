"""Terrain h(x, y) for the optimizer, from the SDF world the simulator loads (R3.2; spec go1.md §5.3
'Terrain', towr/src/height_map.cc).

Worlds are parsed by ``zoo_sim.sdf_world.load_world`` (the simulator's parser, with Gazebo's
heightmap rule) and found like the simulator finds them (``zoo_sim.resources.find_world``:
``worlds/<name>.sdf`` or a path). Horizontal ground planes give a flat terrain at the highest
plane; one heightmap gives a smooth, twice-differentiable h: casadi's cubic B-spline interpolant
through the heightfield samples (exact at the samples, so the simulator's surface, linear between
samples, and h differ only between samples, by at most curvature x spacing^2 / 8). Normal and
tangents are TOWR's: n = (-h_x, -h_y, 1), t1 = (1, 0, h_x), t2 = (0, 1, h_y), each normalised.
Other collision shapes (boxes, meshes ...) are not terrain for the planner: they are listed in
``warnings``.
"""
from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import numpy as np


class TerrainError(ValueError):
    """A world the planner cannot turn into a height map; the message is one line."""


@dataclasses.dataclass
class Terrain:
    """Flat ground at ``offset`` when ``grid`` is None, else a B-spline height map over
    ``grid = (xs, ys, heights[len(ys), len(xs)])`` (absolute heights; ``offset`` unused)."""
    offset: float = 0.0
    grid: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    source: str = 'flat'
    world_gravity: float | None = None  # |g| of the world file, m/s^2
    warnings: list[str] = dataclasses.field(default_factory=list)
    _interp: object = dataclasses.field(default=None, repr=False, compare=False)
    _grad: object = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def kind(self) -> str:
        return 'flat' if self.grid is None else 'heightmap'

    def key(self) -> tuple:
        """What a built NLP depends on: flat terrains share one (the height is a bound)."""
        if self.grid is None:
            return ('flat',)
        digest = hashlib.sha256()
        for a in self.grid:
            digest.update(np.ascontiguousarray(a, dtype=float).tobytes())
        return ('heightmap', digest.hexdigest())

    @property
    def extent(self) -> tuple[float, float, float, float]:
        if self.grid is None:
            return (-np.inf, np.inf, -np.inf, np.inf)
        xs, ys, _ = self.grid
        return (float(xs[0]), float(xs[-1]), float(ys[0]), float(ys[-1]))

    def interpolant(self):
        """casadi Function (x, y) -> h: the cubic B-spline through the grid samples."""
        if self._interp is None:
            import casadi as ca
            xs, ys, h = self.grid
            # casadi wants the first grid dimension fastest: h[iy, ix] row-major is exactly that
            self._interp = ca.interpolant('terrain_h', 'bspline', [xs, ys], h.ravel(order='C'))
        return self._interp

    # -- symbolic (casadi) ---------------------------------------------------------------------
    def shape_expr(self, x, y):
        """h(x, y) minus ``offset``: 0 for flat ground (the offset is a constraint bound)."""
        if self.grid is None:
            return 0
        import casadi as ca
        return self.interpolant()(ca.vertcat(x, y))

    def basis_expr(self, x, y):
        """(n, t1, t2) at (x, y), casadi expressions (constants on flat ground)."""
        import casadi as ca
        if self.grid is None:
            return ca.DM([0, 0, 1]), ca.DM([1, 0, 0]), ca.DM([0, 1, 0])
        h = self.shape_expr(x, y)
        g = ca.gradient(h, ca.vertcat(x, y))  # symbolic in x, y: derivatives of the B-spline
        return _basis(ca.vertcat, ca.norm_2, g[0], g[1])

    # -- numeric ---------------------------------------------------------------------------------
    def height(self, x, y) -> np.ndarray:
        x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
        if self.grid is None:
            return np.full(x.shape, self.offset)
        f = self.interpolant()
        return np.array(f(np.vstack([x.ravel(), y.ravel()]))).reshape(x.shape)

    def gradient(self, x, y) -> tuple[np.ndarray, np.ndarray]:
        x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
        if self.grid is None:
            return np.zeros(x.shape), np.zeros(x.shape)
        jac = self._jacobian()
        g = np.array(jac(np.vstack([x.ravel(), y.ravel()])))  # (2, N)
        return g[0].reshape(x.shape), g[1].reshape(x.shape)

    def normal(self, x, y) -> np.ndarray:
        """Unit normals (..., 3)."""
        hx, hy = self.gradient(x, y)
        n = np.stack([-hx, -hy, np.ones_like(hx)], axis=-1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)

    def _jacobian(self) -> '_MappedGradient':
        if self._grad is None:
            import casadi as ca
            p = ca.SX.sym('p', 2)
            self._grad = _MappedGradient(
                ca.Function('terrain_grad', [p], [ca.gradient(self.interpolant()(p), p)]))
        return self._grad

    def contains(self, x: float, y: float, margin: float = 0.0) -> bool:
        x0, x1, y0, y1 = self.extent
        return x0 + margin <= x <= x1 - margin and y0 + margin <= y <= y1 - margin


class _MappedGradient:
    """Evaluate a (2,) -> (2,) casadi Function over the columns of a (2, N) array."""

    def __init__(self, f):
        self.f = f

    def __call__(self, pts: np.ndarray) -> np.ndarray:
        return np.array(self.f.map(pts.shape[1])(pts)) if pts.shape[1] else np.zeros((2, 0))


def _basis(vertcat, norm, hx, hy):
    n = vertcat(-hx, -hy, 1)
    t1 = vertcat(1, 0, hx)
    t2 = vertcat(0, 1, hy)
    return n / norm(n), t1 / norm(t1), t2 / norm(t2)


def flat(height: float = 0.0) -> Terrain:
    return Terrain(offset=float(height), source=f'flat z = {height:g}')


def terrain_from_world(name_or_path: str) -> Terrain:
    """The terrain of a world: a name (``worlds/<name>.sdf``, resolved as the simulator does) or
    a path to an .sdf file."""
    from zoo_sim import SimConfigError
    from zoo_sim.resources import find_world
    from zoo_sim.sdf_world import load_world
    try:
        path = find_world(name_or_path)
        world = load_world(path)
    except SimConfigError as exc:
        raise TerrainError(str(exc)) from None
    return terrain_of(world, Path(path))


def terrain_of(world, path: Path) -> Terrain:
    """Planes and one heightfield of a parsed ``zoo_sim.sdf_world.World``."""
    planes: list[float] = []
    fields = []
    warnings: list[str] = []
    for model in world.models:
        for link in model.links:
            for col in link.collisions:
                pose = model.pose.then(link.pose).then(col.pose)
                where = f'{path.name}: {model.name}/{link.name}/{col.name}'
                if not model.static:
                    warnings.append(f'{where}: a dynamic model is not terrain; ignored')
                    continue
                rotated = not np.allclose(pose.quat, [1, 0, 0, 0], atol=1e-9)
                shape = col.shape
                if shape.kind == 'plane':
                    normal = _rotate(pose.quat, np.array(shape.normal, float))
                    if not np.allclose(normal / np.linalg.norm(normal), [0, 0, 1], atol=1e-9):
                        warnings.append(f'{where}: a tilted plane is not supported; ignored')
                        continue
                    planes.append(float(pose.pos[2]))
                elif shape.kind == 'heightfield':
                    if rotated:
                        raise TerrainError(f'{where}: a rotated heightmap is not supported')
                    fields.append((shape.heightfield, pose.pos))
                else:
                    warnings.append(f'{where}: {shape.kind} is not terrain for the planner '
                                    '(only ground planes and heightmaps are); ignored')
    gravity = float(np.linalg.norm(world.gravity))
    if len(fields) > 1:
        raise TerrainError(f'{path}: {len(fields)} heightmaps; the planner supports one')
    if not fields:
        if not planes:
            raise TerrainError(f'{path}: no ground plane or heightmap to walk on')
        return Terrain(offset=max(planes), source=str(path), world_gravity=gravity,
                       warnings=warnings)
    hf, pos = fields[0]
    rows, cols = hf.heights.shape
    xs = pos[0] + hf.pos[0] + np.linspace(-hf.size[0] / 2, hf.size[0] / 2, cols)
    ys = pos[1] + hf.pos[1] + np.linspace(-hf.size[1] / 2, hf.size[1] / 2, rows)
    heights = pos[2] + hf.pos[2] + hf.heights
    if planes:  # a plane above part of the map hides it, as in the simulator
        heights = np.maximum(heights, max(planes))
    return Terrain(grid=(xs, ys, heights), source=str(path), world_gravity=gravity,
                   warnings=warnings)


def _rotate(quat: np.ndarray, v: np.ndarray) -> np.ndarray:
    w, x, y, z = quat
    u = np.array([x, y, z])
    return v + 2 * np.cross(u, np.cross(u, v) + w * v)


def bilinear(grid: tuple[np.ndarray, np.ndarray, np.ndarray], x, y) -> np.ndarray:
    """The heightfield's surface between samples (linear along x and y, as the simulator's
    triangles are on a planar cell): the reference for 'foot on the terrain' checks."""
    xs, ys, h = grid
    x, y = np.asarray(x, float), np.asarray(y, float)
    i = np.clip(np.searchsorted(xs, x) - 1, 0, len(xs) - 2)
    j = np.clip(np.searchsorted(ys, y) - 1, 0, len(ys) - 2)
    u = (x - xs[i]) / (xs[i + 1] - xs[i])
    v = (y - ys[j]) / (ys[j + 1] - ys[j])
    return ((1 - u) * (1 - v) * h[j, i] + u * (1 - v) * h[j, i + 1]
            + (1 - u) * v * h[j + 1, i] + u * v * h[j + 1, i + 1])
