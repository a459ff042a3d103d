"""Terrain from SDF worlds (R3.2): flat ground planes and the go1_steps heightmap; the heightmap
case solves with every stance foot on the simulator's surface within 5 mm."""
import numpy as np
import pytest

from trajectory_optimizer import checks
from trajectory_optimizer.planning import PlanRequest, make_plan, terrain
from trajectory_optimizer.terrain import TerrainError, bilinear, terrain_from_world


def test_empty_world_is_flat_ground_at_zero_with_earth_gravity():
    t = terrain_from_world('empty')
    assert t.kind == 'flat' and t.offset == 0.0 and t.warnings == []
    assert t.world_gravity == pytest.approx(9.80665)
    assert terrain_from_world('empty_mars').world_gravity == pytest.approx(3.72111)


def test_go1_steps_heightmap_follows_the_simulators_grid():
    from zoo_sim.sdf_world import load_world
    from zoo_sim.resources import find_world
    t = terrain_from_world('go1_steps')
    assert t.kind == 'heightmap' and t.warnings == []
    xs, ys, h = t.grid
    assert (xs[0], xs[-1], ys[0], ys[-1]) == pytest.approx((-0.3, 2.7, -1.0, 1.0))
    assert h.min() == pytest.approx(0.0) and h.max() == pytest.approx(0.06)
    world = load_world(find_world('go1_steps'))
    hf = [c.shape.heightfield for m in world.models for l in m.links for c in l.collisions
          if c.shape.kind == 'heightfield'][0]
    np.testing.assert_allclose(h, hf.heights)
    # the B-spline interpolates the samples and stays within 1 mm of the linear surface between
    gx, gy = np.meshgrid(xs[::7], ys[::9])
    np.testing.assert_allclose(t.height(gx, gy), h[::9, ::7], atol=1e-9)
    x = np.linspace(0.0, 2.5, 2001)
    assert np.max(np.abs(t.height(x, 0.1 * x) - bilinear(t.grid, x, 0.1 * x))) < 1e-3
    n = t.normal(np.array([0.5, 0.875]), np.array([0.0, 0.0]))
    np.testing.assert_allclose(n[0], [0, 0, 1], atol=1e-6)
    assert n[1, 0] < -0.3  # the edge faces the robot (-x)


def test_worlds_without_ground_and_unknown_worlds(tmp_path):
    with pytest.raises(TerrainError, match="world 'atlantis' not found"):
        terrain_from_world('atlantis')
    bare = tmp_path / 'bare.sdf'
    bare.write_text('<?xml version="1.0"?><sdf version="1.9"><world name="bare">'
                    '<gravity>0 0 -9.81</gravity></world></sdf>')
    with pytest.raises(TerrainError, match='no ground plane or heightmap'):
        terrain_from_world(str(bare))


def test_heightmap_plan_keeps_stance_feet_on_the_terrain():
    plan, sol = make_plan(PlanRequest(world='go1_steps'))
    assert sol.success, plan['status']
    ground = terrain('go1_steps')
    p, c = plan['foot_pos'], plan['contact']
    surface = bilinear(ground.grid, p[..., 0], p[..., 1])
    assert np.max(np.abs(p[..., 2] - surface)[c]) < 5e-3
    assert np.min((p[..., 2] - surface)[~c]) > -5e-3  # swing feet not (much) below it
    # the robot climbed the 6 cm step: every foot ends on the upper level
    np.testing.assert_allclose(p[-1, :, 2], 0.06, atol=1e-3)
    for r in checks.run_checks(plan, ('C1', 'C2', 'C3', 'C5')):
        assert r.passed, r.line()


def test_goal_off_the_heightmap_is_refused():
    from trajectory_optimizer.planning import PlanRequestError
    with pytest.raises(PlanRequestError, match='off the heightmap'):
        make_plan(PlanRequest(world='go1_steps', goal=(3.0, 0.0)))
