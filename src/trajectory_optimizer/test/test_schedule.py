"""Contact schedules (R3.5): TOWR's combos C0-C4 and the thesis' trot4, durations summing to T."""
import numpy as np
import pytest

from trajectory_optimizer.schedule import (GAITS, ScheduleError, towr_combo, towr_state,
                                           make_schedule)


def test_towr_contact_letters():
    # quadruped_gait_generator.cc: bP_ = RH + LF, Pb_ = LH + RF, BI_ = both hind; order FL FR RL RR
    assert towr_state('bP') == (True, False, False, True)
    assert towr_state('Pb') == (False, True, True, False)
    assert towr_state('BI') == (False, False, True, True)
    assert towr_state('II') == (False,) * 4 and towr_state('BB') == (True,) * 4


@pytest.mark.parametrize('gait', GAITS)
@pytest.mark.parametrize('duration', [2.4, 3.2])
def test_every_foot_sums_to_the_duration(gait, duration):
    s = make_schedule(gait, duration)
    assert s.n_feet == 4 and all(s.contact_at_start)
    for d in s.durations:
        assert sum(d) == pytest.approx(duration, abs=1e-12)
        assert min(d) > 0


def test_trot4_is_the_documented_schedule():
    """Stand 0.3 s | 8 diagonal swings of 0.325 s (RF+LH first) | stand 0.3 s: 4 steps per foot."""
    s = make_schedule('trot4', 3.2)
    lf_rh = (0.625,) + (0.325,) * 7 + (0.3,)
    rf_lh = (0.3,) + (0.325,) * 7 + (0.625,)
    for foot, expected in zip(range(4), (lf_rh, rf_lh, rf_lh, lf_rh)):
        np.testing.assert_allclose(s.durations[foot], expected, atol=1e-12)
    assert s.counts() == [{'stance': 5, 'swing': 4}] * 4
    c = s.contact(np.arange(0, 3.2001, 0.01))
    assert np.all(c[:, 0] == c[:, 3]) and np.all(c[:, 1] == c[:, 2])  # diagonal pairs
    assert np.all(c.sum(axis=1) >= 2)  # always two feet on the ground


def test_c1_is_towrs_fly_trot_scaled():
    # Stand 0.3 | Run2 x 3 (bP 0.4, II 0.1, Pb 0.4, II 0.1) | Run2E (bP 0.4) | Stand 0.3 = 4.0,
    # scaled by 3.2 / 4.0; LF (in bP): stand + bP, then 3 swings of II + Pb + II
    s = towr_combo('C1', 3.2)
    k = 3.2 / 4.0
    np.testing.assert_allclose(s.durations[0], np.array([0.7, 0.6, 0.4, 0.6, 0.4, 0.6, 0.7]) * k)
    np.testing.assert_allclose(s.durations[1],
                               np.array([0.3, 0.5, 0.4, 0.6, 0.4, 0.6, 0.4, 0.5, 0.3]) * k)
    assert s.counts()[0] == {'stance': 4, 'swing': 3}


def test_bad_names_and_durations():
    with pytest.raises(ScheduleError, match="gait 'C9': unknown"):
        make_schedule('C9', 3.2)
    with pytest.raises(ScheduleError, match='positive number'):
        make_schedule('trot4', -1.0)
