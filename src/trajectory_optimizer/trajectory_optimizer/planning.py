"""One call from a request to a checked plan: robot, schedule, terrain, solve, samples.

``make_plan(PlanRequest(...))`` returns the :class:`~.plan_file.Plan` (the arrays of plan.npz)
and the raw :class:`~.solve.Solution`. Built NLPs are cached in-process (``PLANNERS``), so a
second request with the same structure (robot foot count, gait, duration, terrain, options) and
any gravity, goal, mu or body only solves.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from . import sampling
from .nlp import SWING_SPEED, NlpOptions
from .plan_file import Plan, plan_arrays, validate
from .robot_model import RobotModel, load_robot
from .schedule import make_schedule
from .solve import GRAVITY_PRESETS, MAX_RISE, BaseBounds, Planner, Solution, Task
from .terrain import Terrain, TerrainError, terrain_from_world

PLANNERS: dict[NlpOptions, Planner] = {}
_TERRAINS: dict[str, Terrain] = {}
_ROBOTS: dict[tuple, RobotModel] = {}


class PlanRequestError(ValueError):
    """A request that cannot be planned (bad value); one line naming the field."""


@dataclasses.dataclass(frozen=True)
class PlanRequest:
    """The thesis task by default (spec go1.md §5.7, §13.4)."""
    robot: str = 'go1'  # config/robots/<name>.yaml or a path
    body: str | None = None  # body preset (default: the robot file's)
    gait: str = 'trot4'
    duration: float = 3.2
    goal: tuple[float, float] = (1.7, 0.0)
    gravity: float | str | None = None  # m/s^2 or a preset name; None: the world's gravity
    world: str = 'empty'  # worlds/<name>.sdf or a path
    mu: float = 0.5
    optimize_phases: bool = False
    straight: bool = True  # BaseBounds.straight_walk(); False: TOWR's free base
    budget_s: float = 40.0
    max_iter: int = 3000
    dt: float = 0.01  # sampling of the plan file
    hessian: str = 'limited-memory'
    swing_speed: float = SWING_SPEED  # middle-node swing velocity / (step / swing time); TOWR 1
    max_rise: float = MAX_RISE  # m the base may rise above its start (straight walk; TOWR 0.1)

    def gravity_value(self, terrain: Terrain) -> float:
        return resolve_gravity(self.gravity, terrain.world_gravity)


def resolve_gravity(value: float | str | None, world_gravity: float | None = None) -> float:
    """A gravity preset name (earth, intermediate, mars), a number, or None (the world's)."""
    if value is None:
        return world_gravity if world_gravity else GRAVITY_PRESETS['earth']
    if isinstance(value, str):
        key = value.strip().lower()
        if key in GRAVITY_PRESETS:
            return GRAVITY_PRESETS[key]
        try:
            value = float(key)
        except ValueError:
            raise PlanRequestError(f"gravity '{value}': expected {', '.join(GRAVITY_PRESETS)} "
                                   'or a positive number of m/s^2') from None
    if not (math.isfinite(value) and value > 0):
        raise PlanRequestError(f'gravity {value!r}: expected a positive, finite number of m/s^2')
    return float(value)


def terrain(world: str) -> Terrain:
    if world not in _TERRAINS:
        _TERRAINS[world] = terrain_from_world(world)
    return _TERRAINS[world]


def robot(name: str, body: str | None) -> RobotModel:
    key = (name, body)
    if key not in _ROBOTS:
        _ROBOTS[key] = load_robot(name, body)
    return _ROBOTS[key]


def planner(options: NlpOptions) -> Planner:
    if options not in PLANNERS:
        PLANNERS[options] = Planner(options)
    return PLANNERS[options]


def make_plan(req: PlanRequest, warm: Solution | None = None) -> tuple[Plan, Solution]:
    """Solve ``req`` and sample it; a failed solve still returns a plan (``success`` false)."""
    for name in ('duration', 'mu', 'budget_s', 'dt', 'swing_speed'):
        v = getattr(req, name)
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise PlanRequestError(f'{name} {v!r}: expected a positive, finite number')
    if not (isinstance(req.max_rise, (int, float)) and math.isfinite(req.max_rise)
            and req.max_rise > 0):
        raise PlanRequestError(f'max_rise {req.max_rise!r}: expected a positive, finite number '
                               '(metres the base may rise above its start)')
    if req.swing_speed > 3:
        raise PlanRequestError(f'swing_speed {req.swing_speed!r}: expected in (0, 3]')
    if not all(math.isfinite(c) for c in req.goal):
        raise PlanRequestError(f'goal {req.goal!r}: expected two finite numbers')
    ground = terrain(req.world)
    model = robot(req.robot, req.body)
    if ground.grid is not None:
        for x, y in ((0.0, 0.0), req.goal):
            if not ground.contains(x, y, margin=float(np.max(np.abs(model.nominal_stance[:, :2])))
                                   + 0.05):
                raise PlanRequestError(f'goal/start ({x:g}, {y:g}): the robot would stand off '
                                       f'the heightmap of {ground.source} (extent x '
                                       f'{ground.extent[0]:g}..{ground.extent[1]:g}, y '
                                       f'{ground.extent[2]:g}..{ground.extent[3]:g} m)')
    schedule = make_schedule(req.gait, req.duration)
    options = NlpOptions(optimize_phases=req.optimize_phases, hessian=req.hessian,
                         swing_speed=req.swing_speed)
    task = Task(goal=tuple(map(float, req.goal)), gravity=req.gravity_value(ground), mu=req.mu,
                base_bounds=BaseBounds.straight_walk(req.max_rise) if req.straight else None)
    sol = planner(options).solve(model, schedule, ground, task, warm=warm,
                                 budget_s=req.budget_s, max_iter=req.max_iter)
    arrays = plan_arrays(sol, sampling.sample(sol, req.dt), req.gait)
    arrays['straight'] = bool(req.straight)
    return Plan(validate(arrays)), sol


__all__ = ['PlanRequest', 'PlanRequestError', 'make_plan', 'resolve_gravity', 'TerrainError']
