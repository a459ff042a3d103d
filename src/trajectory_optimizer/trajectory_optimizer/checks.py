"""Plan checks C1-C6 and C9 of spec go1.md §13.4, computed from a plan file's arrays only.

Each check recomputes what it judges from the sampled trajectory (never from optimizer
internals), so a plan written by anything that fills the plan format can be checked. Dynamics
(C3) are Eqs. 4.6a/b at the constraint nodes (the samples at 0, dynamic_dt, ..., T); friction (C4)
uses the stored terrain normal under each foot and TOWR's tangents.

Usage: ``python -m trajectory_optimizer.checks plan.npz`` prints one line per check.
"""
from __future__ import annotations

import dataclasses
import sys
from typing import Any, Mapping

import numpy as np

from .rigid_body import euler_to_rotation

CHECKS = ('C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C9')
TOL_GOAL = 1e-3  # m (C1)
TOL_LATERAL = 1e-3  # m, rad (C1)
TOL_HEIGHT = 1e-6  # m (C2)
TOL_DYNAMICS = 1e-4  # N, N m (C3): IPOPT's default constraint tolerance
TOL_FORCE = 1e-3  # N (C4): slack for a constraint IPOPT meets within 1e-4 at the nodes
TOL_ROM = 5e-3  # m (C5)
TOL_IMPULSE = 0.02  # (C6)
DIAGONAL_AGREEMENT = 0.95  # (C9)
HAA_RANGE = 0.05  # rad (C9)


@dataclasses.dataclass
class CheckResult:
    name: str
    passed: bool
    value: float
    limit: float
    detail: str

    def line(self) -> str:
        return f"{self.name} {'pass' if self.passed else 'FAIL'}: {self.detail}"


def run_checks(plan: Mapping[str, Any], which=CHECKS) -> list[CheckResult]:
    """The listed checks on a plan (a loaded plan file or the dict of its arrays)."""
    fns = {'C1': goal_and_straightness, 'C2': initial_height, 'C3': dynamics_residual,
           'C4': forces, 'C5': range_of_motion, 'C6': vertical_impulse, 'C9': gait_signature}
    return [fns[name](plan) for name in which]


def _line_frame(plan) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start, unit direction start->goal and its left normal, in xy."""
    start = np.asarray(plan['base_pos'])[0, :2]
    goal = np.asarray(plan['goal'], float)
    d = goal - start
    u = d / np.linalg.norm(d) if np.linalg.norm(d) > 0 else np.array([1.0, 0.0])
    return start, u, np.array([-u[1], u[0]])


def goal_and_straightness(plan) -> CheckResult:
    """C1: solved, final xy at the goal, no sideways or yaw drift, never walking backwards."""
    status = str(plan['status'])
    pos = np.asarray(plan['base_pos'])
    goal_err = float(np.linalg.norm(pos[-1, :2] - np.asarray(plan['goal'], float)))
    start, u, left = _line_frame(plan)
    rel = pos[:, :2] - start
    lateral = float(np.max(np.abs(rel @ left)))
    yaw = np.asarray(plan['base_euler'])[:, 2]
    yaw_dev = float(np.max(np.abs(yaw - float(plan['goal_yaw']))))
    progress = rel @ u
    backwards = float(np.max(np.maximum.accumulate(progress) - progress))
    ok = (status == 'Solve_Succeeded' and goal_err <= TOL_GOAL and lateral <= TOL_LATERAL
          and yaw_dev <= TOL_LATERAL and backwards <= TOL_GOAL)
    worst = max(goal_err, lateral, yaw_dev, backwards)
    return CheckResult('C1', ok, worst, TOL_GOAL, f'status {status}, final xy error '
                       f'{goal_err:.2e} m, max |lateral| {lateral:.2e} m, max |yaw| '
                       f'{yaw_dev:.2e} rad, max step back {backwards:.2e} m (limits 1e-3)')


def initial_height(plan) -> CheckResult:
    """C2: the base starts -z_nominal above the ground under it."""
    z0 = float(np.asarray(plan['base_pos'])[0, 2])
    expected = float(plan['start_ground']) - float(np.asarray(plan['nominal_stance'])[0, 2])
    err = abs(z0 - expected)
    return CheckResult('C2', err <= TOL_HEIGHT, err, TOL_HEIGHT,
                       f'initial base z {z0:.6f} m, expected {expected:.6f} m')


def srbd_residual(plan, idx: np.ndarray | slice = slice(None)) -> np.ndarray:
    """(N, 6) residual of Eqs. 4.6a/b [angular; linear] at the samples ``idx``."""
    r = np.asarray(plan['base_pos'])[idx]
    a = np.asarray(plan['base_lin_acc'])[idx]
    w = np.asarray(plan['base_ang_vel'])[idx]
    wd = np.asarray(plan['base_ang_acc'])[idx]
    p = np.asarray(plan['foot_pos'])[idx]
    f = np.asarray(plan['foot_force'])[idx]
    R = euler_to_rotation(np.asarray(plan['base_euler'])[idx])
    inertia = np.asarray(plan['inertia'])
    iw = R @ inertia @ np.transpose(R, (0, 2, 1))
    m, g = float(plan['mass']), float(plan['gravity'])
    torque = np.cross(f, r[:, None, :] - p).sum(axis=1)
    ang = (np.einsum('nij,nj->ni', iw, wd)
           + np.cross(w, np.einsum('nij,nj->ni', iw, w)) - torque)
    lin = m * a - f.sum(axis=1) + np.array([0.0, 0.0, m * g])
    return np.hstack([ang, lin])


def node_samples(plan, dt: float) -> np.ndarray:
    """Indices of the samples at 0, dt, ..., T (a constraint grid; TimeDiscretizationConstraint)."""
    t = np.asarray(plan['t'])
    T = float(plan['duration'])
    k = int(np.floor(T / dt + 1e-9))
    grid = np.append(np.arange(k + 1) * dt, T if T - k * dt > 1e-9 else [])
    idx = np.searchsorted(t, grid - 1e-9)
    idx = np.minimum(idx, len(t) - 1)
    if not np.allclose(t[idx], grid, atol=1e-9):
        raise ValueError(f'the plan is sampled every {t[1] - t[0]:g} s, which misses the '
                         f'constraint grid of {dt:g} s')
    return idx


def dynamics_residual(plan) -> CheckResult:
    """C3: SRBD residual at every dynamic constraint node <= 1e-4; between nodes reported."""
    try:
        nodes = node_samples(plan, float(plan['dynamic_dt']))
    except ValueError as exc:
        return CheckResult('C3', False, np.nan, TOL_DYNAMICS, f'not checked: {exc}')
    at_nodes = float(np.max(np.abs(srbd_residual(plan, nodes))))
    between = float(np.max(np.abs(srbd_residual(plan))))
    return CheckResult('C3', at_nodes <= TOL_DYNAMICS, at_nodes, TOL_DYNAMICS,
                       f'max |residual| at {len(nodes)} nodes {at_nodes:.2e} (limit 1e-4); '
                       f'between nodes {between:.3g} (reported, not gated)')


def tangents(normal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TOWR's tangents t1 = (1, 0, h_x), t2 = (0, 1, h_y), normalised, from unit normals
    n ∝ (-h_x, -h_y, 1)."""
    hx, hy = -normal[..., 0] / normal[..., 2], -normal[..., 1] / normal[..., 2]
    t1 = np.stack([np.ones_like(hx), np.zeros_like(hx), hx], -1)
    t2 = np.stack([np.zeros_like(hy), np.ones_like(hy), hy], -1)
    return (t1 / np.linalg.norm(t1, axis=-1, keepdims=True),
            t2 / np.linalg.norm(t2, axis=-1, keepdims=True))


def force_violation(plan) -> tuple[np.ndarray, np.ndarray]:
    """Per sample and foot: (|f| in swing, worst violation of f.n >= 0 and |f.t| <= mu f.n in
    stance), in N; zero where satisfied."""
    f = np.asarray(plan['foot_force'])
    n = np.asarray(plan['foot_normal'])
    contact = np.asarray(plan['contact'], bool)
    mu = float(plan['mu'])
    t1, t2 = tangents(n)
    fn = np.einsum('nki,nki->nk', f, n)
    cone = np.maximum(np.abs(np.einsum('nki,nki->nk', f, t1)),
                      np.abs(np.einsum('nki,nki->nk', f, t2))) - mu * fn
    stance = np.maximum(np.maximum(-fn, cone), 0.0)
    swing = np.linalg.norm(f, axis=-1)
    return np.where(contact, 0.0, swing), np.where(contact, stance, 0.0)


def forces(plan) -> CheckResult:
    """C4: no force in swing; in stance unilateral and inside the friction pyramid."""
    swing, stance = force_violation(plan)
    worst = float(max(swing.max(), stance.max()))
    return CheckResult('C4', worst <= TOL_FORCE, worst, TOL_FORCE,
                       f'max |f| in swing {swing.max():.2e} N, max stance violation '
                       f'(f.n >= 0, |f.t| <= {float(plan["mu"]):g} f.n) {stance.max():.2e} N '
                       f'over {len(swing)} samples (limit {TOL_FORCE:g} N)')


def feet_in_base(plan, lift: float = 0.0) -> np.ndarray:
    """(N, n_feet, 3) foot positions in the base frame, R(θ)ᵀ (p + lift z − r); ``lift``: a
    point that far above each planned contact point (world z), e.g. the foot sphere's centre."""
    R = euler_to_rotation(np.asarray(plan['base_euler']))
    rel = np.asarray(plan['foot_pos']) + np.array([0.0, 0.0, lift]) \
        - np.asarray(plan['base_pos'])[:, None, :]
    return np.einsum('nji,nkj->nki', R, rel)


def leg_reach_used(plan, reach) -> np.ndarray:
    """(N, n_feet) thigh-to-foot distance each planned foot asks of its leg
    (robot_model.LegReach: the foot centre is the contact point plus the foot radius up).
    Not one of C1-C10: issue 28's reach (every foot within reach - margin) is measured, and
    the planner does not constrain it yet (trajectory_optimizer README, "Gravity study")."""
    return reach.used(feet_in_base(plan, reach.foot_radius) - reach.hip[None])


def range_of_motion(plan) -> CheckResult:
    """C5: every foot sample inside nominal ± max_dev (+ 5 mm between constraint nodes)."""
    dev = np.abs(feet_in_base(plan) - np.asarray(plan['nominal_stance'])[None])
    excess = float(np.max(dev - np.asarray(plan['max_dev'])))
    return CheckResult('C5', excess <= TOL_ROM, excess, TOL_ROM,
                       f'max excess over the box {max(excess, 0.0):.2e} m (limit 5e-3)')


def vertical_impulse(plan) -> CheckResult:
    """C6: sum over feet of the integral of f_z equals m g T within 2 %."""
    t = np.asarray(plan['t'])
    fz = np.asarray(plan['foot_force'])[..., 2].sum(axis=1)
    impulse = float(np.sum(0.5 * (fz[1:] + fz[:-1]) * np.diff(t)))
    weight = float(plan['mass']) * float(plan['gravity']) * float(plan['duration'])
    ratio = impulse / weight
    return CheckResult('C6', abs(ratio - 1) <= TOL_IMPULSE, ratio, TOL_IMPULSE,
                       f'vertical impulse {impulse:.2f} N s = {ratio:.4f} m g T (limit ±2 %)')


def hip_abduction(plan) -> np.ndarray:
    """(N, n_feet) hip abduction angle implied by the foot position (URDF-exact geometry of a
    leg with its abduction axis along x and the foot ``hip_lateral`` off the hip in y): the
    proxy of C9's HAA range; NaN when the plan has no hip geometry."""
    rel = feet_in_base(plan) - np.asarray(plan['hip_pos'])[None]
    d = np.asarray(plan['hip_lateral'])[None]
    y, z = rel[..., 1], rel[..., 2]
    length = np.sqrt(np.maximum(y**2 + z**2 - d**2, 0.0))
    return np.arctan2(y, -z) - np.arctan2(d, length)


def gait_signature(plan) -> CheckResult:
    """C9: diagonal feet share contact flags, hips stay put, pitch dominates the angular
    acceleration."""
    c = np.asarray(plan['contact'], bool)
    agree = float(np.mean((c[:, 0] == c[:, 3]) & (c[:, 1] == c[:, 2])))
    haa = hip_abduction(plan)
    haa_range = float(np.max(np.ptp(haa, axis=0))) if np.all(np.isfinite(haa)) else np.nan
    rms = np.sqrt(np.mean(np.asarray(plan['base_ang_acc'])**2, axis=0))
    pitch = bool(rms[1] >= rms[0] and rms[1] >= rms[2])
    hips_ok = bool(np.isnan(haa_range) or haa_range <= HAA_RANGE)  # NaN: no hips in the robot file
    ok = agree >= DIAGONAL_AGREEMENT and hips_ok and pitch
    return CheckResult('C9', ok, agree, DIAGONAL_AGREEMENT,
                       f'diagonal contact agreement {agree:.1%} (>= 95 %), HAA range '
                       f'{haa_range:.4f} rad (<= 0.05), RMS angular acceleration x/y/z '
                       f'{rms[0]:.3g}/{rms[1]:.3g}/{rms[2]:.3g} rad/s^2 (y largest: {pitch})')


def main(argv: list[str] | None = None) -> int:
    from .plan_file import PlanFileError, load_plan
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print('usage: python -m trajectory_optimizer.checks PLAN.npz', file=sys.stderr)
        return 2
    try:
        plan = load_plan(args[0])
    except PlanFileError as exc:
        print(f'checks: error: {exc}', file=sys.stderr)
        return 2
    results = run_checks(plan)
    for r in results:
        print(r.line())
    return 0 if all(r.passed for r in results) else 1


if __name__ == '__main__':
    sys.exit(main())
