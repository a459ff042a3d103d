"""The thesis task (spec go1.md §5.7, §13.4): 4-step trot in 3.2 s to (1.7, 0) on flat ground,
planned at Earth, intermediate and Mars gravity with one built NLP; checks C1-C6 and C9."""
import numpy as np
import pytest

from trajectory_optimizer import checks
from trajectory_optimizer.planning import PLANNERS, PlanRequest, make_plan
from trajectory_optimizer.solve import GRAVITY_PRESETS

GRAVITIES = ('earth', 'intermediate', 'mars')


@pytest.fixture(scope='module')
def plans():
    return {g: make_plan(PlanRequest(gravity=g)) for g in GRAVITIES}


def test_gravity_presets():
    assert GRAVITY_PRESETS == {'earth': 9.80665, 'intermediate': 6.76388, 'mars': 3.72111}
    assert (GRAVITY_PRESETS['earth'] + GRAVITY_PRESETS['mars']) / 2 == pytest.approx(
        GRAVITY_PRESETS['intermediate'], abs=1e-5)  # R3.4


@pytest.mark.parametrize('gravity', GRAVITIES)
def test_plan_checks_pass(plans, gravity):
    plan, sol = plans[gravity]
    assert plan['gravity'] == GRAVITY_PRESETS[gravity]
    assert plan['status'] == 'Solve_Succeeded' and plan['success']
    results = checks.run_checks(plan)
    assert [r.name for r in results] == list(checks.CHECKS)
    assert all(r.passed for r in results), '\n'.join(r.line() for r in results)


def test_one_build_serves_all_gravities(plans):
    builds = {id(sol.problem) for _, sol in plans.values()}
    assert len(builds) == 1
    assert len([p for p in PLANNERS.values() if p._cache]) >= 1


def test_variable_counts_match_the_layout(plans):
    """R3.1: 33 base nodes (pos + vel, linear + angular); per foot 5 stance positions, 4 swing
    nodes (pos xyz + vel xy), force nodes of 5 stance phases x 3 polynomials."""
    _, sol = plans['earth']
    lay = sol.problem.layout
    assert lay.base_lin_pos.shape == (3, 33)
    base = 4 * 3 * 33
    motion = 4 * (5 * 3 + 4 * 5)
    # stance phases: first and last have 3 free force nodes (an open end), middle ones 2
    force = 4 * (3 + 2 + 2 + 2 + 3) * 6
    assert lay.nx == base + motion + force == 396 + 140 + 288


def test_gravity_trends(plans):
    """C6 and C7's direction (thesis §6.2): less gravity, less vertical impulse and peak force."""
    impulse = {g: checks.vertical_impulse(plans[g][0]).value * plans[g][0]['gravity']
               for g in GRAVITIES}
    assert impulse['earth'] > impulse['intermediate'] > impulse['mars']
    peak = {g: plans[g][0]['foot_force'][..., 2].sum(axis=1).max() for g in GRAVITIES}
    assert peak['earth'] > peak['intermediate'] > peak['mars']


def test_warm_start_from_another_gravity(plans):
    _, earth = plans['earth']
    plan, sol = make_plan(PlanRequest(gravity='mars'), warm=earth)
    assert sol.success and sol.iterations <= plans['mars'][1].iterations
    assert all(r.passed for r in checks.run_checks(plan))
    assert np.abs(plan['base_pos'][-1, :2] - [1.7, 0.0]).max() < 1e-6
