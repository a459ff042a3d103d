"""A* (spec hoap2.md §5, R6-R11) against hand-computed optima and an independent Dijkstra."""
from __future__ import annotations

import heapq
import math

import numpy as np
import pytest

from grid_navigation.occupancy import GridMap, box_footprint, disc_footprint
from grid_navigation.planner import (astar, euclidean, plan_xy, step_cost, successors, zero)

D = 0.2 * math.sqrt(2)


def dijkstra(grid: GridMap, start, goal) -> float:
    """Independent of planner.py: textbook Dijkstra, same moves, same no-corner-cutting rule."""
    free = ~grid.blocked
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, (i, j) = heapq.heappop(heap)
        if (i, j) == goal:
            return d
        if d > dist[(i, j)]:
            continue
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                a, b = i + di, j + dj
                if (di, dj) == (0, 0) or not (0 <= a < grid.nx and 0 <= b < grid.ny) or \
                        not free[a, b]:
                    continue
                if di and dj and not (free[i + di, j] and free[i, j + dj]):
                    continue
                nd = d + grid.resolution * math.hypot(di, dj)
                if nd < dist.get((a, b), math.inf):
                    dist[(a, b)] = nd
                    heapq.heappush(heap, (nd, (a, b)))
    return math.inf


def check_path(grid: GridMap, plan, start, goal):
    assert plan.cells[0] == start and plan.cells[-1] == goal
    for a, b in zip(plan.cells, plan.cells[1:]):
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1  # 8-adjacent
    assert all(grid.is_free(*c) for c in plan.cells)
    assert plan.cost == pytest.approx(sum(step_cost(a, b, grid.resolution)
                                          for a, b in zip(plan.cells, plan.cells[1:])), abs=1e-9)


def test_costs_and_successors_on_an_open_3x3_map():  # R6
    g = GridMap((0, 0, 0.8, 0.8), 0.2)  # 5 x 5 nodes: a free 3 x 3 interior
    assert step_cost((1, 1), (2, 1), 0.2) == pytest.approx(0.2)
    assert step_cost((1, 1), (2, 2), 0.2) == pytest.approx(0.28284, abs=1e-5)
    assert sorted(successors(g, (2, 2))) == sorted(
        (2 + a, 2 + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0))
    assert sorted(successors(g, (1, 1))) == [(1, 2), (2, 1), (2, 2)]  # border excluded
    assert euclidean((1, 1), (4, 5), 0.2) == pytest.approx(1.0)


# Hand-computed optima (costs to 1e-4): an open corner-to-corner diagonal; a straight run; the
# demo map (the 3 x 3 blocked square x, y in 1.8..2.2 forces 2 + 2 diagonal side-steps: 6 axis
# moves + 4 diagonals); a wall with a one-node gap at its end (detour: up to the gap and back).
def test_open_map_diagonal_and_straight():
    g = GridMap((0, 0, 4, 4), 0.2)
    assert plan_xy(g, (0.2, 0.2), (3.8, 3.8)).cost == pytest.approx(18 * D, abs=1e-4)
    assert plan_xy(g, (0.2, 2.0), (3.8, 2.0)).cost == pytest.approx(3.6, abs=1e-4)
    assert plan_xy(g, (0.2, 0.2), (3.8, 1.0)).cost == pytest.approx(4 * D + 14 * 0.2, abs=1e-4)


@pytest.mark.parametrize('rule, want', [('ring', 6 * 0.2 + 4 * D), ('disc', 6 * 0.2 + 4 * D)])
def test_demo_map_plan(rule, want):  # R8
    g = GridMap((0, 0, 4, 4), 0.2, 0.15, rule)
    g.add_obstacle(disc_footprint('pole', 2.0, 2.0, 0.15))
    plan = plan_xy(g, (2, 1), (2, 3))
    check_path(g, plan, (10, 5), (10, 15))
    assert plan.cost == pytest.approx(want, abs=1e-4)
    assert plan.cost == pytest.approx(dijkstra(g, (10, 5), (10, 15)), abs=1e-9)


def test_wall_with_a_gap():
    # a wall along y = 2.0 from x = 0.2 to 3.4 (inflated: y 1.8..2.2, x up to 3.6); the only
    # gap is x = 3.8 (next to the border). From (0.4, 1.0) to (0.4, 3.0): rise to y = 1.6 and
    # come back down from y = 2.4 along the diagonals, crossing at x = 3.8.
    g = GridMap((0, 0, 4, 4), 0.2)
    g.add_obstacle(box_footprint('wall', 1.8, 2.0, 3.2, 0.05))
    plan = plan_xy(g, (0.4, 1.0), (0.4, 3.0))
    check_path(g, plan, (2, 5), (2, 15))
    want = dijkstra(g, (2, 5), (2, 15))
    # hand: 3 diagonals up to (1.0, 1.6), 14 axis moves to (3.8, 1.6), 4 up to (3.8, 2.4),
    # 14 back to (1.0, 2.4), 3 diagonals down to (0.4, 3.0)
    assert plan.cost == pytest.approx(6 * D + 32 * 0.2, abs=1e-4) and plan.cost == \
        pytest.approx(want, abs=1e-9)


def test_fig7_map_against_dijkstra():
    g = GridMap((0, 0, 3.2, 3.2), 0.2)
    g.add_obstacle(box_footprint('box', 1.4, 1.6, 0.4, 0.4))
    for start, goal in (((0.4, 1.6), (2.8, 1.6)), ((1.4, 0.4), (1.4, 2.8))):
        plan = plan_xy(g, start, goal)
        s, t = g.world_to_cell(*start), g.world_to_cell(*goal)
        check_path(g, plan, s, t)
        assert plan.cost == pytest.approx(dijkstra(g, s, t), abs=1e-9)
    # hand: around the 5 x 5 block (x 1.0..1.8, y 1.2..2.0) from (0.4, 1.6) to (2.8, 1.6) with no
    # corner cutting: 2 diagonals to (0.8, 2.0), 1 up to (0.8, 2.2), 6 along y = 2.2 to (2.0, 2.2),
    # 3 diagonals down to (2.6, 1.6), 1 to (2.8, 1.6): 5 diagonals + 8 axis moves
    assert plan_xy(g, (0.4, 1.6), (2.8, 1.6)).cost == pytest.approx(5 * D + 8 * 0.2, abs=1e-4)


def test_random_maps_astar_equals_dijkstra():  # R9, R11
    rng = np.random.default_rng(20110901)
    compared = 0
    for k in range(120):
        g = GridMap((0, 0, 4, 4), 0.2, inflation=0.0)
        g.occupied[1:-1, 1:-1] = rng.random((19, 19)) < rng.uniform(0.05, 0.35)
        free = np.argwhere(~g.blocked)
        s, t = (tuple(int(v) for v in free[i]) for i in rng.choice(len(free), 2, replace=False))
        a = astar(g, s, t, euclidean)
        z = astar(g, s, t, zero)
        want = dijkstra(g, s, t)
        assert a.cost == pytest.approx(want, abs=1e-9) and z.cost == pytest.approx(want, abs=1e-9)
        if a.ok:
            check_path(g, a, s, t)
            compared += 1
    assert compared >= 80


def test_goal_popped_last_and_deterministic_tie_break():  # R7, spec §10 item 5
    g = GridMap((0, 0, 4, 4), 0.2)
    g.add_obstacle(disc_footprint('pole', 2.0, 2.0, 0.15))
    a, b = plan_xy(g, (2, 1), (2, 3)), plan_xy(g, (2, 1), (2, 3))
    assert a.cells == b.cells and a.expanded > 0


def test_unreachable_goal_and_blocked_endpoints():  # R10
    g = GridMap((0, 0, 4, 4), 0.2)
    for x, y, sx, sy in ((2.0, 3.3, 0.6, 0.05), (2.0, 2.7, 0.6, 0.05), (1.7, 3.0, 0.05, 0.6),
                         (2.3, 3.0, 0.05, 0.6)):  # a 0.6 m box ring around the goal
        g.add_obstacle(box_footprint('ring', x, y, sx, sy))
    g2 = GridMap((0, 0, 4, 4), 0.2, inflation=0.0)
    for x, y, sx, sy in ((2.0, 3.4, 0.8, 0.05), (2.0, 2.6, 0.8, 0.05), (1.6, 3.0, 0.05, 0.8),
                         (2.4, 3.0, 0.05, 0.8)):
        g2.add_obstacle(box_footprint('ring', x, y, sx, sy))
    plan = plan_xy(g2, (2, 1), (2, 3))
    assert not plan.ok and plan.reason.startswith('no path')
    assert 'inside an obstacle' in plan_xy(g, (2, 1), (2, 3)).reason  # inflation fills it
    assert 'outside the map' in plan_xy(g, (5, 1), (2, 1)).reason
    assert 'map border' in plan_xy(g, (0, 1), (2, 1)).reason
