"""Optional phase-duration optimisation (R3.1, TOWR's TotalTime): durations within
[0.2, 1.0] s summing to T per foot, and the sampled plan follows the optimised schedule."""
import numpy as np
import pytest

from trajectory_optimizer import checks
from trajectory_optimizer.planning import PlanRequest, make_plan


@pytest.fixture(scope='module')
def optimised():
    return make_plan(PlanRequest(optimize_phases=True))


def test_durations_are_optimised_within_bounds(optimised):
    plan, sol = optimised
    assert sol.success, plan['status']
    assert plan['optimize_phases']
    nominal = np.array([0.625] + [0.325] * 7 + [0.3])
    for row in plan['phase_durations']:
        d = row[np.isfinite(row)]
        assert len(d) == 9 and d.sum() == pytest.approx(3.2, abs=1e-6)
        assert d.min() >= 0.2 - 1e-6 and d.max() <= 1.0 + 1e-6
    assert np.abs(plan['phase_durations'][0] - nominal).max() > 0.01  # they did move


def test_plan_follows_the_optimised_schedule(optimised):
    plan, sol = optimised
    np.testing.assert_array_equal(plan['contact'], sol.schedule.contact(plan['t']))
    swing = ~plan['contact']
    assert np.abs(plan['foot_force'][swing]).max() < 1e-9
    for r in checks.run_checks(plan, ('C2', 'C3', 'C6')):
        assert r.passed, r.line()
    assert np.abs(plan['base_pos'][-1, :2] - [1.7, 0.0]).max() < 1e-6
