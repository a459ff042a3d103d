"""The gait-quality targets of issue 8 ("Joints and contacts you can trust", point 5) that every Nao
walk shipped here meets, as tests over a module's ``quality`` fixture (``(summary, GaitQuality)``
of 6 s recorded at every physics step): imported by tests/test_nao_walk.py (the ZMP walk) and
tests/test_nao_wave_walk.py (the thesis' wave walk), which add what differs."""


def test_quality_walks_forward_straight_without_a_fall(quality):
    q = quality[1]
    assert not q.fell
    assert q.forward_m >= 0.6
    assert q.max_lateral_m <= 0.15                            # at every physics step


def test_quality_no_joint_above_its_velocity_limit(quality):
    q = quality[1]
    assert q.max_velocity_ratio <= 1.1, q.max_velocity_joint


def test_quality_hip_pitch_rarely_at_its_effort_limit(quality):
    assert all(v <= 0.2 for v in quality[1].effort_limit_fraction.values()), \
        quality[1].effort_limit_fraction


def test_quality_stance_feet_do_not_slip(quality):
    assert all(v <= 0.02 for v in quality[1].median_slip_m_s.values()), \
        quality[1].median_slip_m_s


def test_quality_feet_touch_down_cleanly(quality):
    assert all(v <= 10.0 for v in quality[1].touchdowns_per_s.values()), \
        quality[1].touchdowns_per_s
