"""Force stand's leg IK and comm.h's ranges (body_pose.py)."""
import numpy as np
import pytest

from unitree_udp.body_pose import clamp_request, foot_in_trunk, force_stand_q, leg_ik

STAND = (0.0, 0.67, -1.3)


def test_fk_puts_the_stand_foot_where_the_spec_says():
    # spec go1.md §2.2: FL foot at the stand pose (0.18132, 0.12675, -0.33906) m
    assert np.allclose(foot_in_trunk('FL', STAND), (0.18132, 0.12675, -0.33906), atol=1e-5)


@pytest.mark.parametrize('leg', ['FR', 'FL', 'RR', 'RL'])
@pytest.mark.parametrize('q', [(0.2, 0.9, -1.6), (-0.3, 0.4, -1.0), STAND])
def test_ik_inverts_fk(leg, q):
    assert np.allclose(leg_ik(leg, foot_in_trunk(leg, q)), q, atol=1e-9)


def test_a_level_force_stand_is_the_stand_pose_and_lowering_bends_the_knees():
    assert np.allclose(force_stand_q(STAND, 0.0, (0, 0, 0)), np.tile(STAND, 4), atol=1e-9)
    low = force_stand_q(STAND, -0.1, (0, 0, 0))
    assert (low[2::3] < STAND[2]).all()


def test_requests_beyond_comm_h_ranges_are_clamped():
    h, e = clamp_request(-0.5, (2.0, -2.0, float('nan')))
    assert h == -0.13 and e.tolist() == [0.75, -0.75, 0.0]
    h, e = clamp_request(0.5, (0.1, 0.2, 1.0))
    assert h == 0.03 and e.tolist() == [0.1, 0.2, 0.6]


def test_rolled_feet_stay_on_the_ground_in_the_world():
    """Turning the trunk by roll r keeps each foot's world position (trunk rotated back)."""
    r = 0.2
    q = force_stand_q(STAND, 0.0, (r, 0.0, 0.0))
    rot = np.array([[1, 0, 0], [0, np.cos(r), -np.sin(r)], [0, np.sin(r), np.cos(r)]])
    for k, leg in enumerate(['FR', 'FL', 'RR', 'RL']):
        world = rot @ foot_in_trunk(leg, q[3 * k:3 * k + 3])
        assert np.allclose(world, foot_in_trunk(leg, STAND), atol=1e-9)
