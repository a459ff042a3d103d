"""The lattice map (spec hoap2.md §4, R2-R4) and grids built from SDF worlds."""
from __future__ import annotations

import numpy as np
import pytest

from grid_navigation.occupancy import GridMap, MapError, box_footprint, disc_footprint
from grid_navigation.world_map import grid_from_world, world_bounds


def nodes(grid: GridMap, mask) -> set[tuple[float, float]]:
    return {tuple(round(v, 6) for v in grid.cell_to_world(i, j)) for i, j in np.argwhere(mask)}


def interior(grid: GridMap):
    m = grid.blocked.copy()
    m[0, :] = m[-1, :] = m[:, 0] = m[:, -1] = False
    return m


@pytest.mark.parametrize('side, n', [(4.0, 21), (3.2, 17)])
def test_lattice_includes_both_bounds_and_round_trips(side, n):  # R2
    g = GridMap((0, 0, side, side), 0.2)
    assert (g.nx, g.ny) == (n, n)
    for i in range(n):
        for j in range(n):
            assert g.world_to_cell(*g.cell_to_world(i, j)) == (i, j)
    assert g.world_to_cell(1.09, 0.31) == (5, 2)  # nearest node


def test_border_nodes_are_blocked():  # R3
    g = GridMap((0, 0, 4, 4), 0.2)
    b = g.blocked
    assert b[0, :].all() and b[-1, :].all() and b[:, 0].all() and b[:, -1].all()
    assert not b[1:-1, 1:-1].any()


def test_fig7_box_blocks_5x5_nodes_with_the_ring():  # R4, spec §4.3
    g = GridMap((0, 0, 3.2, 3.2), 0.2)
    g.add_obstacle(box_footprint('box', 1.4, 1.6, 0.4, 0.4))
    assert nodes(g, g.occupied) == {(x, y) for x in (1.2, 1.4, 1.6) for y in (1.4, 1.6, 1.8)}
    want = {(round(1.0 + 0.2 * a, 6), round(1.2 + 0.2 * b, 6)) for a in range(5) for b in range(5)}
    assert nodes(g, interior(g)) == want


@pytest.mark.parametrize('rule, want', [
    ('ring', {(x, y) for x in (1.8, 2.0, 2.2) for y in (1.8, 2.0, 2.2)}),
    ('disc', {(2.0, 2.0), (1.8, 2.0), (2.2, 2.0), (2.0, 1.8), (2.0, 2.2)})])
def test_demo_pole_ring_and_disc(rule, want):  # R4, spec §4.4
    g = GridMap((0, 0, 4, 4), 0.2, 0.15, rule)
    g.add_obstacle(disc_footprint('pole', 2.0, 2.0, 0.15))
    assert nodes(g, g.occupied) == {(2.0, 2.0)}  # smaller than a cell: the nearest node
    assert nodes(g, interior(g)) == want


def test_obstacle_course_world_gives_the_demo_map():
    g = grid_from_world('obstacle_course')
    assert g.bounds == (0, 0, 4, 4) and (g.nx, g.ny) == (21, 21)
    assert nodes(g, g.occupied) == {(2.0, 2.0), (2.0, 3.4), (2.0, 3.6)}  # pole and marker
    pole = next(fp for fp in g.obstacles if fp.name.startswith('pole'))
    assert pole.kind == 'disc' and pole.center == pytest.approx((2, 2)) and \
        pole.radius == pytest.approx(0.075)


def test_fig7_world_matches_the_hand_built_map():
    g = grid_from_world('hoap2_fig7')
    hand = GridMap((0, 0, 3.2, 3.2), 0.2)
    hand.add_obstacle(box_footprint('box', 1.4, 1.6, 0.4, 0.4))
    hand.add_obstacle(disc_footprint('cylinder', 1.5, 2.8, 0.6))  # anadir_obstaculo(1.5, 2.8, 0.6)
    assert (g.blocked == hand.blocked).all()


def test_rotated_box_footprint_and_resolution():
    g = grid_from_world('hoap2_slalom', resolution=0.1)
    assert (g.nx, g.ny) == (41, 41)
    crate = next(fp for fp in g.obstacles if fp.name.startswith('crate'))
    assert len(crate.points) == 4
    assert crate.distance(np.array([3.3]), np.array([1.3]))[0] == 0.0
    # a corner of the 0.3 m crate turned by 0.5 rad reaches 0.212 m from its centre
    far = max(np.hypot(x - 3.3, y - 1.3) for x, y in crate.points)
    assert far == pytest.approx(0.15 * np.sqrt(2))


def test_bounds_from_the_world_and_bad_values(tmp_path):
    assert world_bounds(grid_from_world('obstacle_course').source) == (0, 0, 4, 4)
    with pytest.raises(MapError, match='resolution'):
        GridMap((0, 0, 4, 4), 0.0)
    with pytest.raises(MapError, match='bounds'):
        GridMap((0, 0, -1, 4), 0.2)
    with pytest.raises(MapError, match="inflation rule 'square'"):
        GridMap((0, 0, 4, 4), 0.2, 0.15, 'square')


def test_a_wall_thinner_than_a_cell_between_node_rows_is_marked():
    g = GridMap((0, 0, 4, 4), 0.2)
    g.add_obstacle(box_footprint('wall', 1.4, 1.5, 2.0, 0.1))  # y 1.45..1.55: no node inside
    assert {y for _, y in nodes(g, g.occupied)} == {1.4, 1.6}
    assert not g.is_free(*g.world_to_cell(0.8, 1.4)) and not g.is_free(*g.world_to_cell(0.8, 1.6))
