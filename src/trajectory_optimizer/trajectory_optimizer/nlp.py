"""TOWR's phase-based NLP in casadi (Winkler et al. 2018; spec go1.md §5.2-§5.3, R3.1-R3.3).

Built once per structure (foot count, contact schedule, duration, terrain kind, options): what
changes between solves is passed at solve time, so one built problem serves every gravity, goal,
start state, friction coefficient, robot body and box (solve.py):

- NLP parameters ``p`` (:data:`PARAMS`): gravity, mu, mass, 6 inertia entries, cost weights, the
  left normal of the start-goal line;
- variable bounds: start state, goal, phase-duration bounds;
- constraint bounds: range-of-motion box (nominal ± max_dev), flat ground height, force limit,
  base-motion bounds.

Variables (upstream ethz-adrl/towr towr/src/nlp_formulation.cc, nodes_variables_phase_based.cc):
base linear and Euler (roll, pitch, yaw; ZYX) cubic Hermite nodes every 0.1 s; per foot one
constant position per stance phase and ``swing_polys`` polynomials per swing (middle node
z-velocity 0); per foot force nodes, zero in swing, ``force_polys`` polynomials per stance;
optionally the phase durations (all but the last per foot, which is T minus their sum).

Constraint families (towr/src/*_constraint.cc), one method of ``_Builder`` each: dynamic (SRBD
Eqs. 4.6a/b with R I Rᵀ, every dynamic_dt), base acceleration continuity, range of motion
(every rom_dt, base frame), base motion (TOWR's optional BaseRom, extended), terrain (stance on
h, swing node above it), foothold tracks, swing shaping (lift before moving: swing_speed), force (unilateral, bounded, friction
pyramid), total time. README.md has the table with the deviations from upstream.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Sequence

import numpy as np

from . import splines
from .iteration_limits import IterationLimits
from .rigid_body import rom_function, srbd_function
from .schedule import ContactSchedule
from .terrain import Terrain

SWING_SPEED = 2.75  # NlpOptions.swing_speed (TOWR: 1.0)
FORCE_POINTS = (0.5,)  # interior points of each stance force polynomial that get the cone too
PARAMS = ('gravity', 'mu', 'mass', 'Ixx', 'Iyy', 'Izz', 'Ixy', 'Ixz', 'Iyz', 'w_force',
          'w_motion', 'left_x', 'left_y')


@dataclasses.dataclass(frozen=True)
class NlpOptions:
    """Structure of the NLP (defaults: TOWR's parameters.cc, spec go1.md §5.3)."""
    base_poly_dt: float = 0.1
    dynamic_dt: float = 0.1
    rom_dt: float = 0.08
    # TOWR's dt_constraint_base_motion is 0.025 s; every 0.1 s the thesis task solves in 9-12
    # instead of 11-15 iterations (186 instead of 762 rows) and passes the same checks
    base_bounds_dt: float = 0.1
    swing_polys: int = 2
    force_polys: int = 3
    # the swing constraint's middle-node xy velocity in units of step / swing time: TOWR's 1.0
    # makes each half-swing's horizontal cubic d (2u^2 - u^3), 2-3x faster forwards than up at
    # lift-off and touchdown, and the tracked feet slid there; 2.75 is d (u^2/4 + 3u^3/4), 1/8 of
    # TOWR's horizontal acceleration at lift-off and touchdown (3.0: zero, but the Mars plan
    # then fails C9 by 2 mrad): the foot lifts before it moves (README, deviation 5)
    swing_speed: float = SWING_SPEED
    optimize_phases: bool = False
    hessian: str = 'limited-memory'  # L-BFGS, as ifopt runs TOWR; or 'exact'

    def __post_init__(self):
        if self.hessian not in ('exact', 'limited-memory'):
            raise ValueError(f"hessian {self.hessian!r}: expected 'exact' or 'limited-memory'")
        if not (np.isfinite(self.swing_speed) and 0 < self.swing_speed <= 3):
            # above 3 the horizontal cubic overshoots backwards at lift-off
            raise ValueError(f'swing_speed {self.swing_speed!r}: expected in (0, 3]')
        if self.swing_polys != 2:
            # the swing constraint and the fixed z-velocity of the middle node assume 2
            raise ValueError('swing_polys: only 2 (TOWR default) is supported')


@dataclasses.dataclass
class PhaseNodes:
    """Index layout of one phase-based spline of one foot (−1 = fixed at zero)."""
    polys: list[splines.PolyInfo]
    pos: np.ndarray  # (3, n_nodes) indices into x
    vel: np.ndarray
    free_nodes: list[int]  # non-constant nodes (swing nodes of motion, stance nodes of force)


@dataclasses.dataclass
class Layout:
    nx: int
    base_lin_pos: np.ndarray  # (3, n_base_nodes)
    base_lin_vel: np.ndarray
    base_ang_pos: np.ndarray
    base_ang_vel: np.ndarray
    motion: list[PhaseNodes]
    force: list[PhaseNodes]
    durations: list[np.ndarray]  # per foot: indices of the optimised phase durations (may be empty)
    base_durations: list[float]


def _layout(schedule: ContactSchedule, opts: NlpOptions) -> Layout:
    counter = [0]

    def new(n: int) -> np.ndarray:
        idx = np.arange(counter[0], counter[0] + n)
        counter[0] += n
        return idx

    base_durations = splines.base_poly_durations(schedule.duration, opts.base_poly_dt)
    nb = len(base_durations) + 1
    blp, blv, bap, bav = (new(3 * nb).reshape(3, nb, order='F') for _ in range(4))
    motion, force = [], []
    for foot in range(schedule.n_feet):
        n_phases = len(schedule.durations[foot])
        start = schedule.contact_at_start[foot]
        polys = splines.phase_polys(n_phases, start, opts.swing_polys)
        pos, vel = np.full((3, len(polys) + 1), -1), np.full((3, len(polys) + 1), -1)
        free, node = [], 0
        while node <= len(polys):
            if not splines.constant_node(polys, node):  # swing node: pos xyz, vel xy
                pos[:, node] = new(3)
                vel[:2, node] = new(2)
                free.append(node)
                node += 1
            else:  # stance: one position for both nodes of the constant polynomial, vel 0
                pos[:, node] = pos[:, node + 1] = new(3)
                node += 2
        motion.append(PhaseNodes(polys, pos, vel, free))
    for foot in range(schedule.n_feet):
        n_phases = len(schedule.durations[foot])
        polys = splines.phase_polys(n_phases, not schedule.contact_at_start[foot],
                                    opts.force_polys)
        pos, vel = np.full((3, len(polys) + 1), -1), np.full((3, len(polys) + 1), -1)
        free, node = [], 0
        while node <= len(polys):
            if not splines.constant_node(polys, node):  # stance force node: pos and vel
                pos[:, node], vel[:, node] = new(3), new(3)
                free.append(node)
                node += 1
            else:  # swing: zero force over both nodes
                node += 2
        force.append(PhaseNodes(polys, pos, vel, free))
    durations = [new(len(d) - 1) if opts.optimize_phases else np.zeros(0, int)
                 for d in schedule.durations]
    return Layout(counter[0], blp, blv, bap, bav, motion, force, durations, base_durations)


# -- the problem ----------------------------------------------------------------------------
@dataclasses.dataclass
class RowBlock:
    """A block of constraint rows whose bounds are filled at solve time."""
    kind: str  # zero | rom | base_motion | terrain_stance | foothold_lateral | terrain_swing |
    #            force | last_phase
    n: int  # rows
    foot: int = -1
    lo: float = 0.0
    hi: float = 0.0


@dataclasses.dataclass
class BuiltNlp:
    solver: object
    layout: Layout
    schedule: ContactSchedule
    terrain: Terrain
    options: NlpOptions
    rows: list[RowBlock]
    phase_bounds: list[tuple[np.ndarray, np.ndarray]]  # per foot (lo, hi) per phase
    build_time_s: float
    ng: int
    limits: IterationLimits


def phase_duration_bounds(durations: Sequence[float], bounds: tuple[float, float]):
    """TOWR's bounds (0.2, 1.0) s per phase, widened where a preset's own duration lies outside
    them, so that the preset itself is always feasible."""
    d = np.asarray(durations, float)
    return np.minimum(bounds[0], d), np.maximum(bounds[1], d)


class _Builder:
    def __init__(self, schedule: ContactSchedule, terrain: Terrain, opts: NlpOptions,
                 phase_bounds: tuple[float, float]):
        import casadi as ca
        self.ca, self.schedule, self.terrain, self.opts = ca, schedule, terrain, opts
        self.lay = _layout(schedule, opts)
        self.x = ca.SX.sym('x', self.lay.nx)
        self.xz = ca.vertcat(self.x, 0)
        self.p = ca.SX.sym('p', len(PARAMS))
        self.g: list = []
        self.rows: list[RowBlock] = []
        self.T = schedule.duration
        self.bounds = [phase_duration_bounds(d, phase_bounds) for d in schedule.durations]
        self.phase_dur = []
        for foot, d in enumerate(schedule.durations):
            if opts.optimize_phases:
                free = self.xz[self.lay.durations[foot].tolist()]
                self.phase_dur.append([free[k] for k in range(len(d) - 1)]
                                      + [self.T - ca.sum1(free)])
            else:
                self.phase_dur.append(list(d))

    def nodes(self, idx: np.ndarray):
        ca = self.ca
        flat = np.where(idx < 0, self.lay.nx, idx).flatten(order='F').tolist()
        return ca.reshape(self.xz[flat], idx.shape[0], idx.shape[1])

    def add(self, expr, block: RowBlock) -> None:
        self.g.append(self.ca.vec(expr))
        self.rows.append(block)

    # spline values at fixed global times ---------------------------------------------------------
    def base(self, which: str, t: np.ndarray, deriv: int):
        P = self.nodes(getattr(self.lay, f'base_{which}_pos'))
        V = self.nodes(getattr(self.lay, f'base_{which}_vel'))
        sp, sv = splines.selection(t, self.lay.base_durations, deriv)
        return P @ self.ca.DM(sp) + V @ self.ca.DM(sv)

    def phase_spline(self, nodes: PhaseNodes, foot: int, t: np.ndarray, deriv: int = 0):
        ca = self.ca
        P, V = self.nodes(nodes.pos), self.nodes(nodes.vel)
        if not self.opts.optimize_phases:
            durs = splines.poly_durations(nodes.polys, self.schedule.durations[foot])
            sp, sv = splines.selection(t, durs, deriv)
            return P @ ca.DM(sp) + V @ ca.DM(sv)
        return self._switched(P, V, nodes.polys, foot, t, deriv)

    def _switched(self, P, V, polys, foot: int, t: np.ndarray, deriv: int):
        """Values at fixed times when phase durations are variables: each time may fall into any
        polynomial its duration bounds allow; if_else picks the one it is in (TOWR re-locates
        the polynomial at every evaluation, spline.cc)."""
        ca = self.ca
        durs = splines.poly_durations(polys, self.phase_dur[foot])
        starts = [0]
        for d in durs[:-1]:
            starts.append(starts[-1] + d)
        lo_win, hi_win = _poly_windows(polys, *self.bounds[foot], self.T)
        cols = []
        for tk in t:
            cand = [j for j in range(len(polys)) if lo_win[j] - 1e-9 <= tk <= hi_win[j] + 1e-9]
            val = None
            for j in reversed(cand):
                w = splines.hermite_weights(tk - starts[j], durs[j], deriv)
                v = w[0] * P[:, j] + w[1] * V[:, j] + w[2] * P[:, j + 1] + w[3] * V[:, j + 1]
                val = v if val is None else ca.if_else(tk <= starts[j] + durs[j] + 1e-10, v, val)
            cols.append(val)
        return ca.horzcat(*cols)

    # constraint families ------------------------------------------------------------------
    def dynamics(self) -> None:
        """Eqs. 4.6a/b at 0, dynamic_dt, ..., T (dynamic_constraint.cc)."""
        ca, n = self.ca, self.schedule.n_feet
        t = splines.discretization(self.T, self.opts.dynamic_dt)
        args = [self.base('lin', t, 0), self.base('lin', t, 2), self.base('ang', t, 0),
                self.base('ang', t, 1), self.base('ang', t, 2)]
        args += [self.phase_spline(self.lay.motion[i], i, t) for i in range(n)]
        args += [self.phase_spline(self.lay.force[i], i, t) for i in range(n)]
        res = srbd_function(ca, n, len(PARAMS)).map(len(t))(*args, self.p)
        self.add(res, RowBlock('zero', 6 * len(t)))

    def base_acceleration(self) -> None:
        """Equal base acceleration on both sides of every junction (spline_acc_constraint.cc)."""
        durs = self.lay.base_durations
        if len(durs) < 2:
            return
        for which in ('lin', 'ang'):
            P = self.nodes(getattr(self.lay, f'base_{which}_pos'))
            V = self.nodes(getattr(self.lay, f'base_{which}_vel'))
            n = len(durs) + 1
            sp, sv = np.zeros((n, len(durs) - 1)), np.zeros((n, len(durs) - 1))
            for j in range(len(durs) - 1):  # acc at the end of poly j minus at the start of j+1
                a = splines.hermite_weights(durs[j], durs[j], 2)
                b = splines.hermite_weights(0.0, durs[j + 1], 2)
                sp[j, j] += a[0]
                sv[j, j] += a[1]
                sp[j + 1, j] += a[2] - b[0]
                sv[j + 1, j] += a[3] - b[1]
                sp[j + 2, j] -= b[2]
                sv[j + 2, j] -= b[3]
            self.add(P @ self.ca.DM(sp) + V @ self.ca.DM(sv), RowBlock('zero', 3 * (n - 2)))

    def range_of_motion(self) -> None:
        """Each foot in the box, base frame, every rom_dt (range_of_motion_constraint.cc)."""
        t = splines.discretization(self.T, self.opts.rom_dt)
        r, e = self.base('lin', t, 0), self.base('ang', t, 0)
        rom = rom_function(self.ca).map(len(t))
        for foot in range(self.schedule.n_feet):
            p = self.phase_spline(self.lay.motion[foot], foot, t)
            self.add(rom(r, e, p), RowBlock('rom', 3 * len(t), foot))

    def base_motion(self) -> None:
        """TOWR's optional BaseRom family (base_motion_constraint.cc), extended: every
        base_bounds_dt the base's sideways offset from the start-goal line (left normal in
        ``p``), height, roll, pitch, yaw and velocity along the line; bounds are set per solve
        (infinite: off, TOWR's default; solve.BaseBounds)."""
        t = splines.discretization(self.T, self.opts.base_bounds_dt)[1:-1]
        r, e = self.base('lin', t, 0), self.base('ang', t, 0)
        v = self.base('lin', t, 1)
        lateral = self.p[11] * r[0, :] + self.p[12] * r[1, :]
        forward = self.p[12] * v[0, :] - self.p[11] * v[1, :]  # velocity along the line
        rows = self.ca.horzcat(lateral, r[2, :], e[0, :], e[1, :], e[2, :], forward)
        self.add(rows, RowBlock('base_motion', 6 * len(t)))  # blocks of len(t) rows each

    def terrain_and_swing(self) -> None:
        """Stance foot on h(x, y), swing node above it (terrain_constraint.cc), footholds'
        sideways offsets (bounded per task), swing shaping (swing_constraint.cc). Upstream adds
        a stance row for both nodes of a stance phase and for the first phase, whose position
        the start bounds fix: identical or constant rows that make the Jacobian rank-deficient;
        here one row per free stance phase. The swing's middle-node xy velocity is
        ``swing_speed`` x step / the phase's duration, where upstream uses 1 x step / a fixed
        0.3 s: with 2.75 the horizontal motion starts and ends with 1/8 of upstream's
        acceleration, so the foot lifts before it moves forwards and stops before it comes down
        (README, deviation 5)."""
        ca = self.ca
        for foot, nodes in enumerate(self.lay.motion):
            P, V = self.nodes(nodes.pos), self.nodes(nodes.vel)
            stance_nodes = [k for k in range(1, P.shape[1])
                            if splines.constant_node(nodes.polys, k)
                            and nodes.pos[0, k] != nodes.pos[0, k - 1]]
            if stance_nodes:  # once per stance phase; the first phase is fixed by its bounds
                z = ca.horzcat(*[P[2, k] - self.terrain.shape_expr(P[0, k], P[1, k])
                                 for k in stance_nodes])
                self.add(z, RowBlock('terrain_stance', len(stance_nodes), foot))
                # sideways offset of each foothold from the start-goal line (bounded per task)
                lateral = ca.horzcat(*[self.p[11] * P[0, k] + self.p[12] * P[1, k]
                                       for k in stance_nodes])
                self.add(lateral, RowBlock('foothold_lateral', len(stance_nodes), foot))
            swing = [k for k in nodes.free_nodes if k > 0]
            if swing:
                z = ca.horzcat(*[P[2, k] - self.terrain.shape_expr(P[0, k], P[1, k])
                                 for k in swing])
                self.add(z, RowBlock('terrain_swing', len(swing), foot))
            middle = [k for k in nodes.free_nodes if 0 < k < P.shape[1] - 1]
            rows = []
            for k in middle:
                prev, nxt = P[:2, k - 1], P[:2, k + 1]
                t_swing = self.phase_dur[foot][nodes.polys[k].phase]
                rows.append(P[:2, k] - 0.5 * (prev + nxt))
                rows.append(V[:2, k] - self.opts.swing_speed * (nxt - prev) / t_swing)
            if rows:
                self.add(ca.vertcat(*rows), RowBlock('zero', 4 * len(middle)))

    def forces(self) -> None:
        """Unilateral force within [0, f_max] and TOWR's friction pyramid at every stance force
        node (force_constraint.cc), with the terrain basis under the stance foot; we also
        constrain the middle of each stance polynomial, where upstream leaves the cubic free
        (on the thesis task it left the cone by up to 186 N between nodes)."""
        ca, mu = self.ca, self.p[1]
        for foot, nodes in enumerate(self.lay.force):
            Pm = self.nodes(self.lay.motion[foot].pos)
            F, V = self.nodes(nodes.pos), self.nodes(nodes.vel)
            durs = splines.poly_durations(nodes.polys, self.phase_dur[foot])
            points = []  # (force expression, stance phase)
            for k in nodes.free_nodes:
                points.append((F[:, k], nodes.polys[min(k, len(nodes.polys) - 1)].phase))
            for j, poly in enumerate(nodes.polys):
                for frac in (() if poly.constant else FORCE_POINTS):
                    w = splines.hermite_weights(frac * durs[j], durs[j], 0)
                    mid = w[0] * F[:, j] + w[1] * V[:, j] + w[2] * F[:, j + 1] + w[3] * V[:, j + 1]
                    points.append((mid, poly.phase))
            rows = []
            for f, phase in points:
                m_node = _motion_node_of_phase(self.lay.motion[foot], phase)
                n, t1, t2 = self.terrain.basis_expr(Pm[0, m_node], Pm[1, m_node])
                rows += [ca.dot(f, n), ca.dot(f, t1 - mu * n), ca.dot(f, t1 + mu * n),
                         ca.dot(f, t2 - mu * n), ca.dot(f, t2 + mu * n)]
            self.add(ca.vertcat(*rows), RowBlock('force', 5 * len(points), foot))

    def total_time(self) -> None:
        if not self.opts.optimize_phases:
            return
        for foot, durs in enumerate(self.phase_dur):
            lo, hi = self.bounds[foot]
            self.add(durs[-1], RowBlock('last_phase', 1, foot, float(lo[-1]), float(hi[-1])))

    def cost(self):
        """Optional costs with weights in ``p``, 0 by default (a feasibility problem, as TOWR):
        TOWR's ForcesCost (sum of f_z^2 over force nodes) and EEMotionCost (sum of foot xy
        velocities^2 over foot nodes), node_cost.cc."""
        ca = self.ca
        fz = [self.nodes(n.pos)[2, :] for n in self.lay.force]
        vxy = [self.nodes(n.vel)[:2, :] for n in self.lay.motion]
        return (self.p[9] * sum(ca.sumsqr(f) for f in fz)
                + self.p[10] * sum(ca.sumsqr(v) for v in vxy))


def _motion_node_of_phase(nodes: PhaseNodes, phase: int) -> int:
    """First motion node of a stance phase (NodesVariablesPhaseBased::GetNodeIDAtStartOfPhase)."""
    return next(k for k, poly in enumerate(nodes.polys) if poly.phase == phase)


def _poly_windows(polys, lo: np.ndarray, hi: np.ndarray, total: float):
    """Earliest start and latest end of each polynomial given per-phase duration bounds and
    the fixed total time."""
    n = len(lo)
    start_lo = [max(lo[:j].sum(), total - hi[j:].sum()) for j in range(n)]
    end_hi = [min(hi[:j + 1].sum(), total - lo[j + 1:].sum()) for j in range(n)]
    return [start_lo[p.phase] for p in polys], [end_hi[p.phase] for p in polys]


IPOPT_CEILING_ITER = 100000  # per-solve limits come from IterationLimits
IPOPT_CEILING_WALL_S = 1e6


def ipopt_options(opts: NlpOptions) -> dict:
    """IPOPT settings (spec go1.md §5.3: mumps, exact first derivatives from casadi's AD; the
    Hessian is exact or L-BFGS per ``opts.hessian``; TOWR's 40 s CPU / 3000 iteration limits
    are applied per solve, as a wall-time budget, by IterationLimits)."""
    return {'linear_solver': 'mumps', 'hessian_approximation': opts.hessian,
            'max_iter': IPOPT_CEILING_ITER, 'max_wall_time': IPOPT_CEILING_WALL_S,
            'print_level': 0, 'sb': 'yes', 'mu_strategy': 'adaptive'}


def single_thread_blas() -> None:
    """Run casadi's bundled OpenBLAS (which MUMPS uses) on one thread: for a KKT system of this
    size its worker threads only contend (measured on 2 cores: 14 -> 8.5 ms per IPOPT iteration).
    Only casadi's own copy is touched, through its exported openblas_set_num_threads."""
    import ctypes
    import glob
    import os

    import casadi
    for path in sorted(glob.glob(os.path.join(os.path.dirname(casadi.__file__),
                                              'libcasadi-tp-openblas.so*'))):
        try:
            ctypes.CDLL(path).openblas_set_num_threads(1)
            return
        except (OSError, AttributeError):
            continue


def build(schedule: ContactSchedule, terrain: Terrain, opts: NlpOptions = NlpOptions(),
          phase_bounds: tuple[float, float] = (0.2, 1.0)) -> BuiltNlp:
    """Build the NLP and its IPOPT solver (seconds; cache the result, see solve.py)."""
    import casadi as ca
    single_thread_blas()
    t0 = time.perf_counter()
    b = _Builder(schedule, terrain, opts, phase_bounds)
    b.dynamics()
    b.base_acceleration()
    b.range_of_motion()
    b.base_motion()
    b.terrain_and_swing()
    b.forces()
    b.total_time()
    g = ca.vertcat(*b.g)
    nlp = {'x': b.x, 'p': b.p, 'f': b.cost(), 'g': g}
    limits = IterationLimits(b.lay.nx, int(g.shape[0]), len(PARAMS))
    solver = ca.nlpsol('towr', 'ipopt', nlp, {
        'ipopt': ipopt_options(opts), 'print_time': False, 'error_on_fail': False,
        'record_time': True, 'iteration_callback': limits.callback})
    return BuiltNlp(solver, b.lay, schedule, terrain, opts, b.rows, b.bounds,
                    time.perf_counter() - t0, int(g.shape[0]), limits)
