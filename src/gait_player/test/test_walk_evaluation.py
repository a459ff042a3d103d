"""Walk statistics and fitness on synthetic base paths (specs/nao.md R16, R17, §11 items 4-5)."""
import math

import numpy as np
import pytest

from gait_player.walk_evaluation import (REFERENCE_FITNESS, EvaluationConfig, WalkMonitor,
                                          WalkStatistics, evaluate_path, fitness,
                                          straight_walk_fitness)

Z = 0.335  # m, standing base height of the example record


def straight_path(distance_m=2.0, duration=6.0, dt=0.001, y=0.0, y_drift=0.0):
    t = np.arange(0.0, duration + dt / 2, dt)
    x = distance_m * t / duration
    return t, np.column_stack([x, y + y_drift * t / duration, np.full_like(t, Z)])


def test_straight_200cm_walk_in_6s_matches_derived_value():
    # R17: 200 cm along x in 6 s sampled as 10 cycles of 20 cm -> error 20, linearity 1, 258.1989
    t, p = straight_path(2.0, 6.0)
    s = evaluate_path(t, p, period_s=0.6)
    assert s.sim_time == pytest.approx(6.0)
    assert s.distance == pytest.approx(200.0) and s.distance_x == pytest.approx(200.0)
    assert s.distance_y == 0.0 and s.deviation == pytest.approx(20.0)
    assert s.straightness == 1.0 and not s.fallen
    assert s.fitness == pytest.approx(258.1989, abs=1e-4)
    assert (s.x0, s.z0, s.x1) == (0.0, pytest.approx(33.5), pytest.approx(200.0))


def test_fitness_function_with_lateral_drift():
    # R17: d = 200 cm, t = 6 s, error = 20 cm, |y1 - y0| = 10 cm, y_ref = 100 cm -> 234.7263
    assert fitness(200.0, 6.0, 20.0, 10.0, y_ref_cm=100.0) == pytest.approx(234.7263, abs=1e-4)
    assert fitness(200.0, 6.0, 20.0, -10.0) == pytest.approx(234.7263, abs=1e-4)
    assert fitness(200.0, 6.0, 20.0, 10.0, fallen=True) == 0.0


def test_error_guard_and_reference_fitness():
    assert fitness(10.0, 6.0, 0.0, 0.0) == pytest.approx(math.sqrt(1000 / 6) * 100.0)
    # The default 100 % reference: R26's 30 cm straight walk in 6 s with T = 0.6 s.
    assert REFERENCE_FITNESS == pytest.approx(30.0 * math.sqrt(10 / 6))
    t, p = straight_path(0.3, 6.0)
    s = evaluate_path(t, p, 0.6)
    assert s.fitness_pct == pytest.approx(100.0)
    t, p = straight_path(0.2, 6.0)
    assert evaluate_path(t, p, 0.6).fitness_pct == pytest.approx(100 * 20 / 30)
    assert straight_walk_fitness(60.0, 6.0, 0.6) == pytest.approx(2 * REFERENCE_FITNESS)
    t, p = straight_path(2.0, 6.0)
    assert evaluate_path(t, p, 0.6).fitness_pct == 100.0  # capped


def test_lateral_sway_between_period_samples_does_not_count_as_deviation():
    t, p = straight_path(0.6, 6.0)
    p[:, 1] = 0.03 * np.sin(2 * np.pi * t / 0.6)  # 3 cm sway, in phase with the gait
    s = evaluate_path(t, p, 0.6)
    assert s.deviation == pytest.approx(6.0, abs=1e-6)  # 60 cm / 10 periods


def test_fall_at_2s_stops_with_zero_fitness():
    # R16: base lowered below 0.15 m at t = 2 s -> stop at 2 s +- one sample, fallen, fitness 0
    t, p = straight_path(1.0, 6.0, dt=0.6 / 18)
    p[t >= 2.0, 2] = 0.10
    s = evaluate_path(t, p, 0.6)
    assert s.fallen and s.fitness == 0.0 and s.fitness_pct == 0.0
    assert abs(s.sim_time - 2.0) <= 0.6 / 18 + 1e-9
    assert not s.accepted()


def test_time_limit_and_code_faithful_variants():
    t, p = straight_path(1.0, 8.0)
    s = evaluate_path(t, p, 0.6, EvaluationConfig(duration_s=7.0))
    assert s.sim_time == pytest.approx(7.0) and s.x1 == pytest.approx(7 / 8 * 100)
    # Deviation from the world origin, as the original code did: the first step is |start - 0|.
    t, p = straight_path(0.6, 6.0)
    p[:, 0] += 1.0  # start at x = 100 cm
    start = evaluate_path(t, p, 0.6)
    origin = evaluate_path(t, p, 0.6, EvaluationConfig(deviation_from='origin'))
    assert start.deviation == pytest.approx(6.0)
    assert origin.deviation == pytest.approx((106.0 + 9 * 6.0) / 10)


def test_straightness_uses_the_lateral_reference_not_y0():
    t, p = straight_path(1.0, 6.0, y=0.0, y_drift=0.25)  # starts at y0 = 0: 0/0 in the original
    s = evaluate_path(t, p, 0.6, EvaluationConfig(y_ref_cm=100.0))
    assert s.straightness == pytest.approx(100 / 125)
    assert s.distance_y == pytest.approx(25.0)


def test_monitor_stop_and_short_walk():
    mon = WalkMonitor(1.0)
    mon.start(10.0, (0.0, 0.0, Z))
    assert not mon.update(10.4, (0.05, 0.0, Z))
    mon.stop()
    assert mon.update(10.5, (9.0, 0.0, Z))  # ignored after the stop
    s = mon.statistics(id=7)
    assert s.id == 7 and s.sim_time == pytest.approx(0.4)
    assert s.distance == pytest.approx(5.0) and s.deviation == pytest.approx(5.0)


def test_statistics_round_trip_and_errors():
    s = WalkStatistics(id=3, distance=12.5, fallen=True)
    assert WalkStatistics.from_dict(s.to_dict()) == s
    with pytest.raises(ValueError, match='unknown field'):
        WalkStatistics.from_dict({'id': 1, 'desviation': 2.0})
    with pytest.raises(ValueError, match='deviation_from'):
        EvaluationConfig(deviation_from='zero')
    with pytest.raises(ValueError, match='need as many positions'):
        evaluate_path([0.0, 1.0], [(0, 0, 0)], 0.6)


def test_forward_direction_scores_only_progress_along_x():
    t, p = straight_path(0.6, 6.0)
    back = p.copy()
    back[:, 0] *= -1.0
    any_dir = evaluate_path(t, back, 0.6)
    forward = EvaluationConfig(direction='forward')
    assert any_dir.fitness == pytest.approx(evaluate_path(t, p, 0.6).fitness)  # the original
    assert evaluate_path(t, back, 0.6, forward).fitness == 0.0
    assert evaluate_path(t, back, 0.6, forward).distance == pytest.approx(60.0)
    assert evaluate_path(t, p, 0.6, forward).fitness == pytest.approx(any_dir.fitness)
    with pytest.raises(ValueError, match='direction'):
        EvaluationConfig(direction='backward')


def test_a_walk_falls_by_the_metrics_observers_rule():
    """One fall rule (zoo_sim.metrics.has_fallen): below the fall height, strictly."""
    from zoo_sim.metrics import has_fallen
    m = WalkMonitor(0.6, EvaluationConfig(fall_height_m=0.15))
    m.start(0.0, (0.0, 0.0, 0.3))
    assert not m.update(0.1, (0.0, 0.0, 0.15)) and not has_fallen(0.15, 0.15)
    assert m.update(0.2, (0.0, 0.0, 0.1499)) and m.fallen and has_fallen(0.1499, 0.15)
    assert has_fallen(0.3, 0.15, tilt_deg=46.0, fall_tilt_deg=45.0)
