"""The thesis' coupled-wave Nao walk (`nao_wave_walk`: the 10-parameter generator of specs/nao.md
with sole-parallel ankles and the ramped hip pitch, searched with CMA-ES, config/nao_walk_params.yaml),
measured as tests/test_nao_walk.py measures the shipped ZMP walk ("Joints and contacts you can
trust", point 5): the same 6 s, recorded at every physics step. It meets every target but the flat
soles, which the wave gait cannot give (no double support: coupled_wave_gait README, "Gait
quality"); the strict xfail says so and turns red if it ever does."""
import pytest

from nao_gait_targets import (  # noqa: F401  (the shared targets, run on this module's walk)
    test_quality_feet_touch_down_cleanly, test_quality_hip_pitch_rarely_at_its_effort_limit,
    test_quality_no_joint_above_its_velocity_limit, test_quality_stance_feet_do_not_slip,
    test_quality_walks_forward_straight_without_a_fall)

DURATION = 6.0


@pytest.fixture(scope='module')
def quality():
    """The first 6 s of the scenario, recorded at every physics step while it walks."""
    from zoo_experiments.gait_search.quality import measure_scenario
    return measure_scenario('nao_wave_walk', DURATION, soles=True)


# -- gait quality ---------------------------------------------------------------------------------
# The target the wave walk does not reach (measured, coupled_wave_gait README "Gait quality"): a
# strict xfail, so that a wave walk that reaches it turns its test red until the mark is removed.
NOT_YET = 'not reached by the coupled-wave walk (coupled_wave_gait README, "Gait quality"): '


@pytest.mark.xfail(strict=True, reason=NOT_YET + 'soles flat 58 % of their loaded time (90-94 % '
                   'in the middle and fourth fifths of the stance; at touchdown and lift-off the '
                   'walk has no double support: the landing foot takes the whole weight as the '
                   'other lifts, with its centre of pressure at an edge and a corner 0.05-0.15 mm '
                   'up)')
def test_quality_soles_are_flat_when_loaded(quality):
    assert all(v >= 0.8 for v in quality[1].flat_fraction.values()), quality[1].flat_fraction


def test_quality_soles_are_flat_in_mid_stance(quality):
    """What the sole-parallel ankles bought (the walk shipped before: flat 0.7-1.3 % of the loaded
    time): in the middle fifth of every stance the whole sole is loaded."""
    mid = {foot: parts[2] for foot, parts in quality[1].flat_by_stance_fifth.items()}
    assert all(v >= 0.8 for v in mid.values()), quality[1].flat_by_stance_fifth


def test_quality_loaded_soles_do_not_rock_onto_an_edge(quality):
    """What the ramped hip pitch bought (the walk shipped before: in the last fifth of every
    stance the foot rocked onto a heel corner, 1-2 mm up, 20 % of the loaded time; flat 9-16 % of
    the fourth fifth): no loaded sole has a corner 1 mm above its lowest, 90 % of the loaded time
    none 0.3 mm above it, and the fourth fifth of the stance is flat like mid-stance
    (quality --soles, coupled_wave_gait README "Gait quality")."""
    q = quality[1]
    for foot, d in q.sole_contact.items():
        within = d['flat_if_lift_below_mm']
        assert within['1'] == 1.0 and within['0.3'] >= 0.9, (foot, d)
        assert q.flat_by_stance_fifth[foot][3] >= 0.8, q.flat_by_stance_fifth
