"""Solve a built NLP for one task: bounds, parameters, initial guess, budget, status (R3.3, R3.4).

``Planner`` keeps built problems in-process, keyed by their structure (foot count, schedule,
duration, terrain kind, options), so every gravity, goal, start, mu and body preset after the
first reuses one build. The initial guess is TOWR's (nlp_formulation.cc): base linear
interpolation from start to goal, feet interpolated from the start footholds to the nominal
footholds at the goal, stance forces m g / n_feet upward; or a previous solution (warm start).
A solve never raises on an infeasible problem or an exhausted budget: the result carries IPOPT's
status (``success`` false) and the caller writes a plan marked failed.
"""
from __future__ import annotations

import dataclasses
import math
import time
from typing import Sequence

import numpy as np
from zoo_description_tools.physics import STANDARD_GRAVITY

from . import nlp as nlp_mod
from .nlp import BuiltNlp, NlpOptions
from .robot_model import RobotModel
from .schedule import ContactSchedule
from .terrain import Terrain

GRAVITY_PRESETS = {'earth': STANDARD_GRAVITY, 'intermediate': 6.76388, 'mars': 3.72111}  # spec §6.1
SUCCESS = ('Solve_Succeeded', 'Solved_To_Acceptable_Level')


@dataclasses.dataclass(frozen=True)
class Task:
    """What to plan (the thesis task by default: spec go1.md §5.7, §13.4)."""
    goal: tuple[float, float] = (1.7, 0.0)
    goal_yaw: float = 0.0
    start: tuple[float, float] = (0.0, 0.0)
    start_yaw: float = 0.0
    gravity: float = GRAVITY_PRESETS['earth']
    mu: float = 0.5
    force_limit: float = 1000.0  # N, normal force bound (parameters.cc)
    force_cost: float = 0.0  # weight of sum f_z^2 over force nodes (TOWR ForcesCostID)
    motion_cost: float = 0.0  # weight of sum v_xy^2 over foot nodes (TOWR EEMotionCostID)
    # TOWR's optional BaseRom bounds (base_motion_constraint.cc), None = off (upstream default)
    base_bounds: 'BaseBounds | None' = None

    def __post_init__(self):
        for name in ('gravity', 'mu', 'force_limit'):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise ValueError(f'{name} {v!r}: expected a positive, finite number')
        for name in ('goal', 'start'):
            v = getattr(self, name)
            if len(v) != 2 or not all(math.isfinite(c) for c in v):
                raise ValueError(f'{name} {v!r}: expected two finite numbers')


MAX_RISE = 0.1  # m, TOWR's BaseRom: the base at most this far above its start height


@dataclasses.dataclass(frozen=True)
class BaseBounds:
    """Bounds on the base every ``NlpOptions.base_bounds_dt`` (TOWR's BaseRom family, extended):
    sideways offset from the start-goal line (m), height relative to the start height (m), roll,
    pitch, yaw relative to the goal yaw (rad), footholds' sideways offsets from their start
    tracks (m), no backward motion; None / False leaves a quantity free."""
    lateral: float | None = None
    z: tuple[float, float] | None = None
    roll: float | None = None
    pitch: float | None = None
    yaw: float | None = None
    foothold_lateral: float | None = None  # stance feet: sideways offset from their start track
    forward: bool = False  # velocity along the start-goal line >= 0

    @classmethod
    def towr(cls) -> 'BaseBounds':
        """Upstream's numbers: roll and pitch within 0.05 rad, z from -0.02 to +0.1 m."""
        return cls(roll=0.05, pitch=0.05, z=(-0.02, 0.1))

    @classmethod
    def straight_walk(cls, max_rise: float = MAX_RISE) -> 'BaseBounds':
        """TOWR's BaseRom numbers plus a straight walk: the base within 0.5 mm of the start-goal
        line, yaw within 0.5 mrad, footholds within 5 mm of their start tracks, never moving
        backwards. Without these, the feasibility problem leaves sideways sway, yaw, foot tracks
        and backward steps free: on the thesis task the base drifted 0.9-6.7 cm sideways and up
        to 0.05 rad in yaw, and the hips swung up to 0.13 rad (checks C1, C9). ``max_rise``: the
        most the base may rise above its start (TOWR's 0.1 m; the go1_trot scenarios' 0.03 keeps
        every planned foot within the leg's reach, issue 28)."""
        return cls(lateral=5e-4, yaw=5e-4, roll=0.05, pitch=0.05, z=(-0.02, float(max_rise)),
                   foothold_lateral=0.005, forward=True)


@dataclasses.dataclass
class Solution:
    """A solved (or failed) NLP: the raw variables and what the plan file needs."""
    x: np.ndarray
    lam_g: np.ndarray
    lam_x: np.ndarray
    status: str
    success: bool
    iterations: int
    solve_time_s: float
    build_time_s: float
    problem: BuiltNlp
    robot: RobotModel
    task: Task
    schedule: ContactSchedule  # with the solved phase durations

    def nodes(self, idx: np.ndarray) -> np.ndarray:
        """Node values (n_nodes, 3) for an index array of the layout (−1 = 0)."""
        xz = np.append(self.x, 0.0)
        return xz[np.where(idx < 0, len(self.x), idx)].T


class Planner:
    """Builds NLPs on demand, caches them by structure, solves them."""

    def __init__(self, options: NlpOptions = NlpOptions(),
                 phase_bounds: tuple[float, float] = (0.2, 1.0)):
        self.options = options
        self.phase_bounds = phase_bounds
        self._cache: dict[tuple, BuiltNlp] = {}

    def problem(self, schedule: ContactSchedule, terrain: Terrain) -> BuiltNlp:
        key = (schedule.key(), terrain.key(), self.options, self.phase_bounds)
        if key not in self._cache:
            self._cache[key] = nlp_mod.build(schedule, terrain, self.options, self.phase_bounds)
        return self._cache[key]

    def solve(self, robot: RobotModel, schedule: ContactSchedule, terrain: Terrain, task: Task,
              *, warm: Solution | None = None, budget_s: float = 40.0,
              max_iter: int = 3000) -> Solution:
        problem = self.problem(schedule, terrain)
        return solve(problem, robot, task, warm=warm, budget_s=budget_s, max_iter=max_iter)


def solve(problem: BuiltNlp, robot: RobotModel, task: Task, *, warm: Solution | None = None,
          budget_s: float = 40.0, max_iter: int = 3000) -> Solution:
    """Solve ``problem`` for ``robot`` and ``task``. Never raises for an infeasible task or an
    exhausted budget: see ``Solution.status`` / ``success``."""
    if robot.n_feet != problem.schedule.n_feet:
        raise ValueError(f'robot {robot.name} has {robot.n_feet} feet, the schedule '
                         f'{problem.schedule.n_feet}')
    start = initial_state(robot, problem.terrain, task)
    reach = max_travel(problem.schedule, robot)
    distance = float(np.linalg.norm(np.subtract(task.goal, task.start)))
    if distance > reach:  # IPOPT would only find out after its whole budget
        x0 = np.clip(initial_guess(problem, robot, task, start), *variable_bounds(problem, task,
                                                                                   start))
        return Solution(x=x0, lam_g=np.zeros(problem.ng), lam_x=np.zeros(problem.layout.nx),
                        status=f'Goal_Out_Of_Reach: {distance:.3f} m away, the schedule and the '
                        f'range-of-motion box allow at most {reach:.3f} m',
                        success=False, iterations=0, solve_time_s=0.0,
                        build_time_s=problem.build_time_s, problem=problem, robot=robot,
                        task=task, schedule=problem.schedule)
    lbx, ubx = variable_bounds(problem, task, start)
    lbg, ubg = constraint_bounds(problem, robot, task, start)
    if warm is not None and len(warm.x) == problem.layout.nx:
        x0 = warm_start(problem, warm, task)
    else:
        x0 = initial_guess(problem, robot, task, start)
    x0 = np.clip(x0, lbx, ubx)
    p = parameters(robot, task)
    t0 = time.perf_counter()
    problem.limits.arm(budget_s, max_iter)
    res = problem.solver(x0=x0, p=p, lbx=lbx, ubx=ubx, lbg=lbg, ubg=ubg)
    wall = time.perf_counter() - t0
    stats = problem.solver.stats()
    status = stats.get('return_status', 'unknown')
    if status == 'User_Requested_Stop' and problem.limits.hit:
        status = problem.limits.hit
    x = np.array(res['x']).ravel()
    return Solution(
        x=x, lam_g=np.array(res['lam_g']).ravel(), lam_x=np.array(res['lam_x']).ravel(),
        status=status, success=status in SUCCESS and np.all(np.isfinite(x)),
        iterations=int(stats.get('iter_count', 0)), solve_time_s=wall,
        build_time_s=problem.build_time_s, problem=problem, robot=robot, task=task,
        schedule=solved_schedule(problem, x))


def max_travel(schedule: ContactSchedule, robot: RobotModel) -> float:
    """An upper bound of the base's planar travel: while a foot stands still, the box keeps the
    base within 2 max_dev (horizontal half-widths) of it, and within max_dev of the nominal
    point it starts on. When stance phases cover the whole duration, the travel is at most the
    sum of those allowances over a chain of stance phases covering it (greedy, longest reach
    first); with a flight phase the bound is infinite."""
    half = float(np.hypot(*robot.max_dev[:2]))
    intervals = []  # (start, end, allowance)
    for foot, durs in enumerate(schedule.durations):
        t = 0.0
        for phase, d in enumerate(durs):
            if schedule.is_stance(foot, phase):
                intervals.append((t, t + d, half if t == 0.0 else 2 * half))
            t += d
    covered, total = 0.0, 0.0
    while covered < schedule.duration - 1e-9:
        options = [iv for iv in intervals if iv[0] <= covered + 1e-9 and iv[1] > covered + 1e-9]
        if not options:
            return math.inf  # a flight phase: nothing bounds the base there
        best = max(options, key=lambda iv: iv[1])
        total += best[2]
        covered = best[1]
    return total


def initial_state(robot: RobotModel, terrain: Terrain, task: Task) -> dict:
    """TOWR-ROS's initial state (towr_ros_app.cc SetTowrInitialState): feet at the nominal
    stance on the ground, base −z_nominal above it, at rest."""
    sx, sy = task.start
    c, s = math.cos(task.start_yaw), math.sin(task.start_yaw)
    nominal = robot.nominal_stance
    feet_xy = np.array([sx, sy]) + nominal[:, :2] @ np.array([[c, s], [-s, c]])
    feet = np.column_stack([feet_xy, terrain.height(feet_xy[:, 0], feet_xy[:, 1])])
    base = np.array([sx, sy, float(terrain.height(sx, sy)) - nominal[0, 2]])
    return {'base': base, 'euler': np.array([0.0, 0.0, task.start_yaw]), 'feet': feet}


def variable_bounds(problem: BuiltNlp, task: Task, start: dict) -> tuple[np.ndarray, ...]:
    lay = problem.layout
    lbx, ubx = np.full(lay.nx, -np.inf), np.full(lay.nx, np.inf)

    def fix(idx, values) -> None:
        idx = np.asarray(idx)
        keep = idx >= 0
        lbx[idx[keep]] = np.asarray(values, float)[keep]
        ubx[idx[keep]] = np.asarray(values, float)[keep]

    fix(lay.base_lin_pos[:, 0], start['base'])
    fix(lay.base_lin_vel[:, 0], np.zeros(3))
    fix(lay.base_ang_pos[:, 0], start['euler'])
    fix(lay.base_ang_vel[:, 0], np.zeros(3))
    fix(lay.base_lin_pos[:2, -1], task.goal)  # final z free (parameters.cc)
    fix(lay.base_lin_vel[:, -1], np.zeros(3))
    fix(lay.base_ang_pos[:, -1], [0.0, 0.0, task.goal_yaw])
    fix(lay.base_ang_vel[:, -1], np.zeros(3))
    for foot, nodes in enumerate(lay.motion):
        fix(nodes.pos[:, 0], start['feet'][foot])
    for foot, idx in enumerate(lay.durations):
        if len(idx):
            lo, hi = problem.phase_bounds[foot]
            lbx[idx], ubx[idx] = lo[:-1], hi[:-1]
    return lbx, ubx


def constraint_bounds(problem: BuiltNlp, robot: RobotModel, task: Task, start: dict):
    lo, hi = [], []
    ground = problem.terrain.offset if problem.terrain.grid is None else 0.0
    for block in problem.rows:
        n = block.n
        if block.kind == 'zero':
            lo.append(np.zeros(n))
            hi.append(np.zeros(n))
        elif block.kind == 'rom':
            c = robot.nominal_stance[block.foot]
            lo.append(np.tile(c - robot.max_dev, n // 3))
            hi.append(np.tile(c + robot.max_dev, n // 3))
        elif block.kind == 'terrain_stance':
            lo.append(np.full(n, ground))
            hi.append(np.full(n, ground))
        elif block.kind == 'terrain_swing':
            lo.append(np.full(n, ground))
            hi.append(np.full(n, np.inf))
        elif block.kind == 'force':  # f.n in [0, fmax]; t1 - mu n <= 0; t1 + mu n >= 0; t2 same
            lo.append(np.tile([0.0, -np.inf, 0.0, -np.inf, 0.0], n // 5))
            hi.append(np.tile([task.force_limit, 0.0, np.inf, 0.0, np.inf], n // 5))
        elif block.kind == 'base_motion':
            b = task.base_bounds or BaseBounds()
            z0 = float(start['base'][2])
            inf = np.inf
            lat, yaw = _line_offset(task), task.goal_yaw
            rows_lo = [lat - (b.lateral if b.lateral is not None else inf),
                       z0 + (b.z[0] if b.z else -inf), -(b.roll if b.roll is not None else inf),
                       -(b.pitch if b.pitch is not None else inf),
                       yaw - (b.yaw if b.yaw is not None else inf), 0.0 if b.forward else -inf]
            rows_hi = [lat + (b.lateral if b.lateral is not None else inf),
                       z0 + (b.z[1] if b.z else inf), (b.roll if b.roll is not None else inf),
                       (b.pitch if b.pitch is not None else inf),
                       yaw + (b.yaw if b.yaw is not None else inf), inf]
            k = n // 6
            lo.append(np.concatenate([np.full(k, v) for v in rows_lo]))
            hi.append(np.concatenate([np.full(k, v) for v in rows_hi]))
        elif block.kind == 'foothold_lateral':
            b = task.base_bounds or BaseBounds()
            tol = np.inf if b.foothold_lateral is None else b.foothold_lateral
            c = float(_left_normal(task) @ start['feet'][block.foot][:2])
            lo.append(np.full(n, c - tol))
            hi.append(np.full(n, c + tol))
        elif block.kind == 'last_phase':
            lo.append(np.array([block.lo]))
            hi.append(np.array([block.hi]))
        else:
            raise AssertionError(block.kind)
    return np.concatenate(lo), np.concatenate(hi)


def _left_normal(task: Task) -> np.ndarray:
    d = np.subtract(task.goal, task.start)
    norm = np.linalg.norm(d)
    u = d / norm if norm > 0 else np.array([math.cos(task.goal_yaw), math.sin(task.goal_yaw)])
    return np.array([-u[1], u[0]])


def _line_offset(task: Task) -> float:
    return float(_left_normal(task) @ np.asarray(task.start, float))


def parameters(robot: RobotModel, task: Task) -> np.ndarray:
    i = robot.body.inertia
    return np.array([task.gravity, task.mu, robot.body.mass, i[0, 0], i[1, 1], i[2, 2], i[0, 1],
                     i[0, 2], i[1, 2], task.force_cost, task.motion_cost, *_left_normal(task)])


def initial_guess(problem: BuiltNlp, robot: RobotModel, task: Task, start: dict) -> np.ndarray:
    lay, T = problem.layout, problem.schedule.duration
    x0 = np.zeros(lay.nx)
    gx, gy = task.goal
    final_base = np.array([gx, gy, float(problem.terrain.height(gx, gy))
                           - robot.nominal_stance[0, 2]])
    final_euler = np.array([0.0, 0.0, task.goal_yaw])

    def linear(pos_idx, vel_idx, a, b) -> None:
        n = pos_idx.shape[1]
        for k in range(n):
            _put(x0, pos_idx[:, k], a + k / (n - 1) * (b - a))
            _put(x0, vel_idx[:, k], (b - a) / T)

    linear(lay.base_lin_pos, lay.base_lin_vel, start['base'], final_base)
    linear(lay.base_ang_pos, lay.base_ang_vel, start['euler'], final_euler)
    c, s = math.cos(task.goal_yaw), math.sin(task.goal_yaw)
    feet_xy = np.array([gx, gy]) + robot.nominal_stance[:, :2] @ np.array([[c, s], [-s, c]])
    feet_z = problem.terrain.height(feet_xy[:, 0], feet_xy[:, 1])
    for foot, nodes in enumerate(lay.motion):
        goal = np.array([*feet_xy[foot], feet_z[foot]])
        n = nodes.pos.shape[1]
        for k in range(n - 1, -1, -1):  # a stance pair takes its first node's value
            _put(x0, nodes.pos[:, k], start['feet'][foot] + k / (n - 1)
                 * (goal - start['feet'][foot]))
            _put(x0, nodes.vel[:, k], (goal - start['feet'][foot]) / T)
    weight = robot.body.mass * task.gravity / robot.n_feet
    for nodes in lay.force:
        for k in nodes.free_nodes:
            _put(x0, nodes.pos[:, k], np.array([0.0, 0.0, weight]))
    for foot, idx in enumerate(lay.durations):
        if len(idx):
            x0[idx] = problem.schedule.durations[foot][:-1]
    return x0


def warm_start(problem: BuiltNlp, warm: Solution, task: Task) -> np.ndarray:
    """A previous solution of the same structure, forces scaled to the new gravity (they carry
    m g on average, so this keeps the dynamics residual small at the first iterate)."""
    x0 = warm.x.copy()
    ratio = task.gravity / warm.task.gravity
    for nodes in problem.layout.force:
        for idx in (nodes.pos, nodes.vel):
            sel = idx[idx >= 0]
            x0[sel] *= ratio
    return x0


def _put(x: np.ndarray, idx: np.ndarray, values: Sequence[float]) -> None:
    idx = np.asarray(idx)
    keep = idx >= 0
    x[idx[keep]] = np.asarray(values, float)[keep]


def solved_schedule(problem: BuiltNlp, x: np.ndarray) -> ContactSchedule:
    sched = problem.schedule
    if not problem.options.optimize_phases:
        return sched
    durs = []
    for foot, idx in enumerate(problem.layout.durations):
        d = list(x[idx])
        durs.append(d + [sched.duration - sum(d)])
    return sched.with_durations(durs)
