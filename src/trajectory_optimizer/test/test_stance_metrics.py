"""stance_metrics (issue 28's planted feet) on hand-made signals: the stances come from the
schedule, breaks count losses of contact inside a stance only, the force ratio uses the 10 ms
mean, and the worst stance of each figure is the one reported."""
import numpy as np
import pytest

from trajectory_optimizer.schedule import ContactSchedule, stance_intervals
from trajectory_optimizer.stance_metrics import stances, worst


def test_stances_alternate_from_the_first_phase_and_end_with_the_plan():
    assert np.allclose(stance_intervals((0.5, 0.3, 0.4, 0.3), True, 1.4), [(0, 0.5), (0.8, 1.2)])
    assert np.allclose(stance_intervals((0.3, 0.5, 0.3), False, 1.0), [(0.3, 0.8)])
    assert np.allclose(stance_intervals((0.5, 0.3, 0.6), True, 1.0), [(0, 0.5), (0.8, 1.0)])


def measured(contact_fn, fz_fn, slip=None):
    sched = ContactSchedule('x', ((0.5, 0.2, 0.3),), (True,))
    plan_t = np.linspace(0.0, 1.0, 101)
    plan_fz = np.where((plan_t <= 0.5) | (plan_t >= 0.7), 100.0, 0.0)[:, None]
    tp = np.arange(0.0, 1.0 + 1e-9, 0.0005)
    return stances(['foot'], sched, 1.0, plan_t, plan_fz, tp, contact_fn(tp)[:, None],
                   fz_fn(tp)[:, None], slip)


def test_breaks_and_contact_count_inside_stances_only():
    # planted except two 10 ms lifts in the first stance; the swing (0.5-0.7 s) is in the air
    up = lambda t: ~(((t > 0.1) & (t < 0.11)) | ((t > 0.3) & (t < 0.31)) |  # noqa: E731
                     ((t > 0.5) & (t < 0.7)))
    first, second = measured(up, lambda t: np.full_like(t, 100.0), [[0.002, 0.02]])
    assert first.breaks == 2 and second.breaks == 0
    assert first.contact == pytest.approx(1 - 0.02 / 0.5, abs=0.003)
    assert second.contact == 1.0
    assert (first.slip_m, second.slip_m) == (0.002, 0.02)
    w = worst([first, second])
    assert w['contact'] == first.contact and w['slip_m'] == 0.02 and w['breaks'] == 2
    assert w['holds'] == {'contact': False, 'breaks': True, 'force_ratio': True, 'slip_m': False}


def test_a_one_step_spike_counts_by_its_10_ms_mean():
    spike = lambda t: np.where(np.abs(t - 0.2) < 0.00025, 2100.0, 100.0)  # noqa: E731
    first, _ = measured(lambda t: np.ones_like(t, bool), spike)
    assert first.force_ratio == pytest.approx(1.0 + 2000.0 / 20 / 100.0, rel=1e-6)  # 20 samples
