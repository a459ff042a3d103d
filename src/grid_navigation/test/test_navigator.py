"""The navigation loop on the kinematic double (spec hoap2.md §6.3, R10, R15-R18)."""
from __future__ import annotations

import math

import pytest

from grid_navigation.kinematic_robot import KinematicRobot, drive
from grid_navigation.navigator import (FORWARD, NO_PATH, REACHED, NavParams, Navigator,
                                       pivot_turn)
from grid_navigation.occupancy import GridMap, box_footprint, disc_footprint
from grid_navigation.planner import plan_xy

GOAL = (2.0, 3.0)
START = (2.0, 1.0, math.pi / 2)  # facing +y (spec §10 item 11)


def demo_grid() -> GridMap:
    g = GridMap((0, 0, 4, 4), 0.2)
    g.add_obstacle(disc_footprint('pole', 2.0, 2.0, 0.15))
    return g


def planner(grid: GridMap, goal=GOAL):
    def plan(xy):
        p = plan_xy(grid, xy, goal)
        return [grid.cell_to_world(*c) for c in p.cells] if p.ok else p.reason
    return plan


@pytest.mark.parametrize('stride', [0.03, 0.05, 0.08])
@pytest.mark.parametrize('noise_deg', [0.0, 2.0, 5.0])
def test_mock_navigation_on_the_demo_map(stride, noise_deg):  # R17
    grid = demo_grid()
    for seed in range(50):
        nav = Navigator(planner(grid))
        robot = KinematicRobot(START, stride=stride, heading_noise_deg=noise_deg, seed=seed)
        cmds = drive(nav, robot)
        assert nav.status == REACHED
        assert math.dist(robot.pose[:2], GOAL) <= 0.15
        assert min(math.dist(p[:2], (2.0, 2.0)) for p in robot.trace) >= 0.225
        assert all(abs(c.angle) <= 0.7854 + 1e-12 for c in cmds)  # R18
        if noise_deg == 0.0:
            assert nav.corrections == 0
        if stride == 0.05:
            assert nav.forward_steps <= 100


def test_hoap2_double_with_the_pivoting_turn():
    """The double with the measured turn pivot of the dynamic HOAP-2 (README, Strides)."""
    grid = demo_grid()
    params = NavParams(turn_pivot=(-0.023, 0.0387))
    nav = Navigator(planner(grid), params)
    robot = KinematicRobot(START, stride=0.0498, turn_pivot=params.turn_pivot)
    drive(nav, robot)
    assert nav.status == REACHED and nav.corrections == 0 and nav.replans == 0


def test_pivot_turn_geometry():
    x, y, yaw = pivot_turn((0.0, 0.0, 0.0), math.pi / 2, (0.0, 0.1))
    assert (x, y, yaw) == pytest.approx((0.1, 0.1, math.pi / 2))
    assert pivot_turn((0.0, 0.0, 0.0), -math.pi / 2, (0.0, 0.1)) == \
        pytest.approx((0.1, -0.1, -math.pi / 2))


def test_no_path_does_not_move_the_robot():  # R10, spec §10 item 8
    grid = GridMap((0, 0, 4, 4), 0.2, inflation=0.0)
    for x, y, sx, sy in ((2.0, 3.4, 0.8, 0.05), (2.0, 2.6, 0.8, 0.05), (1.6, 3.0, 0.05, 0.8),
                         (2.4, 3.0, 0.05, 0.8)):
        grid.add_obstacle(box_footprint('ring', x, y, sx, sy))
    nav = Navigator(planner(grid))
    robot = KinematicRobot(START)
    assert drive(nav, robot) == [] and robot.pose == START
    assert nav.status == NO_PATH and nav.reason.startswith('no path')
    nav = Navigator(planner(demo_grid(), goal=(2.0, 2.0)))  # goal inside the pole's cells
    assert nav.step(START) is None and 'inside an obstacle' in nav.reason


def test_arrival_stops_and_sends_nothing_more():  # R16
    nav = Navigator(lambda xy: [xy, (xy[0], xy[1] + 0.2)])
    pose = (1.0, 1.0, math.pi / 2)
    assert nav.step(pose).kind == FORWARD
    assert nav.step((1.0, 1.06, math.pi / 2)) is None and nav.status == REACHED
    assert nav.step((1.0, 1.06, math.pi / 2)) is None


def test_correction_restarts_the_segment():  # R14, R15
    nav = Navigator(lambda xy: [(2.0, 1.0), (2.0, 1.6)])
    assert nav.step((2.0, 1.0, math.pi / 2)).kind == FORWARD  # aimed already: no turn
    assert nav.step((2.005, 1.2, math.pi / 2)).kind == FORWARD  # 5 mm: no correction
    cmd = nav.step((2.015, 1.25, math.pi / 2))  # 15 mm > 10 mm: re-orient toward (2.0, 1.6)
    assert cmd.kind == 'TURN_POS' and nav.corrections == 1 and nav.log[-1]['correction']
    aimed = (2.015, 1.25, math.pi / 2 + cmd.angle)
    assert nav.step(aimed).kind == FORWARD
    assert nav.seg_start == (2.015, 1.25)  # the new segment starts at the corrected pose
    nxt = (2.015 - 0.05 * math.sin(cmd.angle), 1.25 + 0.05 * math.cos(cmd.angle), aimed[2])
    assert nav.step(nxt).kind == FORWARD and nav.log[-1]['cross_track'] < 1e-9


def test_replans_when_pushed_off_the_path():
    grid = demo_grid()
    nav = Navigator(planner(grid))
    robot = KinematicRobot(START)
    for _ in range(10):
        robot.execute(nav.step(robot.pose))
    robot.pose = (0.8, 1.2, 0.0)  # a shove far off the plan
    drive(nav, robot)
    assert nav.replans == 1 and nav.status == REACHED
