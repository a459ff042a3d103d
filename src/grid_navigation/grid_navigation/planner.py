"""GraphSearch = A* on the lattice (spec hoap2.md §5, R6-R11): 8-connected successors, axis step
``resolution`` and diagonal ``resolution * sqrt(2)`` (0.2 / 0.28284 at 0.2 m), Euclidean
heuristic, f = g + h, OPEN/CLOSED with re-opening when a copy is improved, stop when the goal is
popped. Deterministic tie-break (spec §10 item 5): lowest f, then lowest h, then insertion order.
Diagonal moves need both adjacent axis nodes free unless ``corner_cutting`` (spec §10 item 3).
"""
from __future__ import annotations

import dataclasses
import heapq
import math
from typing import Callable

from .occupancy import GridMap

Cell = tuple[int, int]
Heuristic = Callable[[Cell, Cell, float], float]
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def euclidean(a: Cell, b: Cell, resolution: float) -> float:
    return resolution * math.hypot(a[0] - b[0], a[1] - b[1])


def zero(a: Cell, b: Cell, resolution: float) -> float:
    """h = 0: A* becomes Dijkstra (the R11 plug-in)."""
    return 0.0


HEURISTICS: dict[str, Heuristic] = {'euclidean': euclidean, 'zero': zero}


@dataclasses.dataclass
class Plan:
    """A path start -> goal inclusive (spec §10 item 9), or empty with ``reason``."""
    cells: list[Cell]
    cost: float
    reason: str = ''
    expanded: int = 0

    @property
    def ok(self) -> bool:
        return bool(self.cells)


def step_cost(a: Cell, b: Cell, resolution: float) -> float:
    return resolution * (math.sqrt(2.0) if a[0] != b[0] and a[1] != b[1] else 1.0)


def successors(grid: GridMap, c: Cell, corner_cutting: bool = False) -> list[Cell]:
    out = []
    for di, dj in NEIGHBOURS:
        n = (c[0] + di, c[1] + dj)
        if not grid.is_free(*n):
            continue
        if di and dj and not corner_cutting and not (grid.is_free(c[0] + di, c[1]) and
                                                     grid.is_free(c[0], c[1] + dj)):
            continue
        out.append(n)
    return out


def check_endpoints(grid: GridMap, start_xy, goal_xy) -> str:
    """'' or why no plan can exist (outside the map, inside an inflated obstacle)."""
    for label, (x, y) in (('start', start_xy), ('goal', goal_xy)):
        if not grid.in_map(x, y):
            x0, y0, x1, y1 = grid.bounds
            return (f'{label} ({x:g}, {y:g}) is outside the map [{x0:g}, {x1:g}] x '
                    f'[{y0:g}, {y1:g}]')
        if not grid.is_free(*grid.world_to_cell(x, y)):
            i, j = grid.world_to_cell(x, y)
            what = 'the map border' if i in (0, grid.nx - 1) or j in (0, grid.ny - 1) \
                else 'an obstacle (inflated by the robot half-width)'
            return f'{label} ({x:g}, {y:g}) is inside {what}'
    return ''


def astar(grid: GridMap, start: Cell, goal: Cell, heuristic: Heuristic = euclidean,
          corner_cutting: bool = False) -> Plan:
    if not grid.is_free(*start) or not grid.is_free(*goal):
        return Plan([], math.inf, 'start or goal node is blocked')
    res = grid.resolution
    g = {start: 0.0}
    parent: dict[Cell, Cell | None] = {start: None}
    closed: set[Cell] = set()
    counter = 0
    open_heap = [(heuristic(start, goal, res), heuristic(start, goal, res), counter, start)]
    expanded = 0
    while open_heap:
        f, h, _, cur = heapq.heappop(open_heap)
        if cur in closed or f > g[cur] + h + 1e-12:
            continue  # a stale copy: a better one was queued
        if cur == goal:
            cells = [cur]
            while parent[cells[-1]] is not None:
                cells.append(parent[cells[-1]])
            return Plan(cells[::-1], g[goal], '', expanded)
        closed.add(cur)
        expanded += 1
        for n in successors(grid, cur, corner_cutting):
            gn = g[cur] + step_cost(cur, n, res)
            if n in g and g[n] <= gn:
                continue  # a copy in OPEN or CLOSED is as good or better
            g[n] = gn
            parent[n] = cur
            closed.discard(n)  # re-open
            hn = heuristic(n, goal, res)
            counter += 1
            heapq.heappush(open_heap, (gn + hn, hn, counter, n))
    return Plan([], math.inf, 'no path: the goal is not reachable from the start', expanded)


def plan_xy(grid: GridMap, start_xy, goal_xy, heuristic: str = 'euclidean',
            corner_cutting: bool = False) -> Plan:
    """Plan between world points (each snapped to its nearest node)."""
    why = check_endpoints(grid, start_xy, goal_xy)
    if why:
        return Plan([], math.inf, why)
    return astar(grid, grid.world_to_cell(*start_xy), grid.world_to_cell(*goal_xy),
                 HEURISTICS[heuristic], corner_cutting)


def path_length(points) -> float:
    return float(sum(math.dist(a, b) for a, b in zip(points, points[1:])))
