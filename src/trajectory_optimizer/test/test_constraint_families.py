"""Each constraint family of the NLP (R3.2) on hand-built variables, and the plan checks on
hand-built plans: a robot standing still satisfies everything; one perturbation per family
violates exactly that family."""
import numpy as np
import pytest

from trajectory_optimizer import checks, sampling, splines
from trajectory_optimizer.nlp import NlpOptions, build
from trajectory_optimizer.plan_file import plan_arrays
from trajectory_optimizer.robot_model import load_robot
from trajectory_optimizer.schedule import ContactSchedule
from trajectory_optimizer.solve import (BaseBounds, Solution, Task, constraint_bounds,
                                        initial_guess, initial_state, parameters, solve)
from trajectory_optimizer.terrain import flat

# FL steps once (stance 0.3 s, swing 0.2 s, stance 0.3 s); the other feet stand
STEP = ContactSchedule('step', ((0.3, 0.2, 0.3), (0.8,), (0.8,), (0.8,)), (True,) * 4)
STAND = ContactSchedule('stand', ((0.8,),) * 4, (True,) * 4)


@pytest.fixture(scope='module')
def robot():
    return load_robot('go1')


@pytest.fixture(scope='module')
def step_nlp():
    return build(STEP, flat(), NlpOptions())


def evaluate(problem, robot, task, x):
    """{kind: [(values, lower, upper, foot), ...]} of g(x)."""
    g = np.array(problem.solver.get_function('nlp_g')(x, parameters(robot, task))).ravel()
    lo, hi = constraint_bounds(problem, robot, task, initial_state(robot, problem.terrain, task))
    out, i = {}, 0
    for block in problem.rows:
        out.setdefault(block.kind, []).append((g[i:i + block.n], lo[i:i + block.n],
                                               hi[i:i + block.n], block.foot))
        i += block.n
    return out


def violation(blocks) -> float:
    return max(float(np.max(np.maximum(lo - v, 0) + np.maximum(v - hi, 0), initial=0))
               for v, lo, hi, _ in blocks)


def standing(problem, robot, task):
    """TOWR's initial guess with the goal at the start: the robot standing still on 4 feet, each
    carrying m g / 4 (exactly the static equilibrium when every foot stands)."""
    return initial_guess(problem, robot, task, initial_state(robot, problem.terrain, task))


def test_standing_still_satisfies_every_family(robot):
    problem = build(STAND, flat(), NlpOptions())
    task = Task(goal=(0.0, 0.0), base_bounds=BaseBounds.straight_walk())
    x = standing(problem, robot, task)
    rows = evaluate(problem, robot, task, x)
    assert set(rows) >= {'zero', 'rom', 'force', 'base_motion'}
    for kind, blocks in rows.items():
        assert violation(blocks) < 1e-9, kind
    # ... and the dynamics rows are the SRBD residual: one foot pushing 10 N more breaks them
    lay = problem.layout
    x[lay.force[0].pos[2, 1]] += 10.0
    dyn = evaluate(problem, robot, task, x)['zero'][0][0].reshape(-1, 6)  # [ang, lin] per node
    t_node = np.round(splines.discretization(0.8, 0.1), 9)
    k = int(np.flatnonzero(np.isclose(t_node, 0.8 / 3))[0]) if np.any(
        np.isclose(t_node, 0.8 / 3)) else None
    assert np.max(np.abs(dyn[:, 5])) > 1.0  # vertical force balance
    assert k is None or abs(dyn[k, 5] + 10.0) < 1e-9


def test_range_of_motion_box(robot, step_nlp):
    task = Task(goal=(0.0, 0.0))
    x = standing(step_nlp, robot, task)
    rr = step_nlp.layout.motion[3]
    x[rr.pos[0, 0]] -= 0.17  # RR 17 cm behind its nominal point: the box allows 16
    # (variable bounds fix it in a solve; the constraint rows themselves must see it)
    rom = evaluate(step_nlp, robot, task, x)['rom']
    assert violation([b for b in rom if b[3] == 3]) == pytest.approx(0.01, abs=1e-9)
    assert violation([b for b in rom if b[3] != 3]) < 1e-12


def test_terrain_stance_and_swing(robot, step_nlp):
    task = Task(goal=(0.0, 0.0))
    x = standing(step_nlp, robot, task)
    fl = step_nlp.layout.motion[0]
    swing_node = fl.free_nodes[0]
    landing = [k for k in range(1, fl.pos.shape[1]) if fl.pos[2, k] != fl.pos[2, k - 1]
               and k not in fl.free_nodes][0]
    assert violation(evaluate(step_nlp, robot, task, x)['terrain_stance']) < 1e-12
    x[fl.pos[2, landing]] = 0.01  # stance foot 1 cm above flat ground
    x[fl.pos[2, swing_node]] = -0.02  # swing foot 2 cm below it
    rows = evaluate(step_nlp, robot, task, x)
    assert violation(rows['terrain_stance']) == pytest.approx(0.01)
    assert violation(rows['terrain_swing']) == pytest.approx(0.02)


def test_friction_pyramid_and_unilateral_force(robot, step_nlp):
    task = Task(goal=(0.0, 0.0), mu=0.5)
    x = standing(step_nlp, robot, task)
    node = step_nlp.layout.force[1].free_nodes[1]
    fz = x[step_nlp.layout.force[1].pos[2, node]]
    x[step_nlp.layout.force[1].pos[0, node]] = 0.49 * fz  # inside the pyramid
    assert violation(evaluate(step_nlp, robot, task, x)['force']) < 1e-12
    x[step_nlp.layout.force[1].pos[0, node]] = 0.6 * fz  # outside: |f_x| > mu f_z
    assert violation(evaluate(step_nlp, robot, task, x)['force']) == pytest.approx(0.1 * fz)
    x[step_nlp.layout.force[1].pos[:, node]] = [0.0, 0.0, -5.0]  # pulling on the ground
    assert violation(evaluate(step_nlp, robot, task, x)['force']) == pytest.approx(5.0)


def test_swing_shaping_and_base_acceleration_continuity(robot, step_nlp):
    task = Task(goal=(0.0, 0.0))
    x = standing(step_nlp, robot, task)
    fl = step_nlp.layout.motion[0]
    k = fl.free_nodes[0]
    x[fl.pos[0, k + 1]] += 0.2  # a 20 cm step: the middle node must sit half-way, moving
    zero = evaluate(step_nlp, robot, task, x)['zero']
    swing = [b for b in zero if len(b[0]) == 4][0][0]
    k_speed = step_nlp.options.swing_speed  # TOWR: 1 (x, y - mid; vx - k 0.2 / 0.2 s, vy)
    np.testing.assert_allclose(swing, [-0.1, 0.0, -k_speed, 0.0])
    x[fl.pos[0, k]] += 0.1
    x[fl.vel[0, k]] = k_speed
    swing = [b for b in evaluate(step_nlp, robot, task, x)['zero'] if len(b[0]) == 4][0][0]
    np.testing.assert_allclose(swing, 0.0, atol=1e-12)
    # base: nodes sampled from one global cubic have continuous acceleration at every junction
    lay = step_nlp.layout
    knots = np.concatenate([[0.0], np.cumsum(lay.base_durations)])
    x[lay.base_lin_pos[0]] = knots**3
    x[lay.base_lin_vel[0]] = 3 * knots**2
    junctions = 3 * (len(knots) - 2)
    acc = [b for b in evaluate(step_nlp, robot, task, x)['zero'] if len(b[0]) == junctions]
    assert max(np.max(np.abs(b[0])) for b in acc) < 1e-9
    x[lay.base_lin_pos[0, 3]] += 0.01
    acc = [b for b in evaluate(step_nlp, robot, task, x)['zero'] if len(b[0]) == junctions]
    assert max(np.max(np.abs(b[0])) for b in acc) > 1.0


# -- the checks on hand-built plans -------------------------------------------------------------
@pytest.fixture(scope='module')
def static_plan(robot):
    problem = build(STAND, flat(), NlpOptions())
    task = Task(goal=(0.0, 0.0))
    x = standing(problem, robot, task)
    sol = Solution(x=x, lam_g=np.zeros(problem.ng), lam_x=np.zeros(problem.layout.nx),
                   status='Solve_Succeeded', success=True, iterations=0, solve_time_s=0.0,
                   build_time_s=0.0, problem=problem, robot=robot, task=task, schedule=STAND)
    arrays = plan_arrays(sol, sampling.sample(sol, 0.01), 'stand')
    return {k: np.asarray(v) if isinstance(v, np.ndarray) else v for k, v in arrays.items()}


def test_checks_pass_on_a_robot_standing_still(static_plan):
    results = {r.name: r for r in checks.run_checks(static_plan, ('C2', 'C3', 'C4', 'C5', 'C6'))}
    assert all(r.passed for r in results.values()), [r.line() for r in results.values()]
    assert results['C6'].value == pytest.approx(1.0, abs=1e-9)
    assert results['C3'].value < 1e-9


@pytest.mark.parametrize('edit, name', [
    (lambda p: p['foot_force'][40, 0].__setitem__(2, -1.0), 'C4'),  # pulling
    (lambda p: p['foot_force'][40, 0].__setitem__(0, 40.0), 'C4'),  # outside the pyramid
    (lambda p: p['contact'].__setitem__((40, 0), False), 'C4'),  # force while in swing
    (lambda p: p['foot_pos'][40, 1].__setitem__(1, -0.25), 'C5'),  # FR 3.5 cm outside
    (lambda p: p['foot_force'][:, :, 2].__imul__(0.9), 'C6'),  # 10 % short of m g T
    (lambda p: p['base_lin_acc'][50].__setitem__(2, 0.1), 'C3'),  # dynamics off at t = 0.5
    (lambda p: p['base_pos'][0].__setitem__(2, 0.33), 'C2'),
])
def test_each_check_catches_its_violation(static_plan, edit, name):
    plan = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in static_plan.items()}
    edit(plan)
    (result,) = checks.run_checks(plan, (name,))
    assert not result.passed, result.line()


def test_c1_and_c9_on_a_synthetic_straight_trot(static_plan):
    plan = dict(static_plan)
    t = plan['t']
    plan['goal'] = np.array([0.0, 0.0])
    c = np.ones((len(t), 4), bool)
    c[(t > 0.2) & (t < 0.4)] = [False, True, True, False]
    plan['contact'] = c
    plan['base_ang_acc'] = np.column_stack([0.1 * np.sin(9 * t), np.sin(9 * t), 0 * t])
    assert checks.gait_signature(plan).passed
    plan['contact'] = np.where(np.arange(4) == 0, ~c, c)  # LF out of step with RH
    assert not checks.gait_signature(plan).passed
    moved = dict(static_plan)
    moved['base_pos'] = static_plan['base_pos'].copy()
    moved['base_pos'][:, 1] += 0.002 * np.sin(t)  # 2 mm sideways sway
    assert not checks.goal_and_straightness(moved).passed


def test_swing_lifts_before_it_moves():
    """The thesis task's swings (issue 11): 0.04 s after lift-off the foot has risen more than it
    has moved forwards (TOWR's swing, swing_speed 1, has moved it ~3x further forwards than up)."""
    from trajectory_optimizer import PlanRequest, make_plan
    for speed, lifts in ((1.0, False), (None, True)):
        req = PlanRequest(gravity='mars') if speed is None else PlanRequest(gravity='mars',
                                                                              swing_speed=speed)
        plan, _ = make_plan(req)
        assert plan.success
        t, c, p = plan['t'], plan['contact'], plan['foot_pos']
        ratios = []
        for f in range(4):
            lift = np.flatnonzero(c[:-1, f] & ~c[1:, f])  # last stance sample before a swing
            for k in lift:
                k2 = k + 4  # 0.04 s into the swing (0.325 s): horizontal / vertical travel
                ratios.append(np.hypot(*(p[k2, f, :2] - p[k, f, :2])) / (p[k2, f, 2] - p[k, f, 2]))
        # measured: TOWR's 0.8-3.6 (median 3.2), ours 0.2-0.8 (median 0.65)
        if lifts:
            assert max(ratios) < 1.0 and np.median(ratios) < 0.8, ratios
        else:
            assert np.median(ratios) > 2.0, ratios
