"""Tracking a plan (spec go1.md §7, R2.3b, R2.4, R5.3, R5.4, R5.6): URDF-exact IK, the
feed-forward torque's sign checked against the simulator's contact forces, and the joint
sequence around the plan."""
from __future__ import annotations

import numpy as np
import pytest

from trajectory_optimizer.tracking import JointTrajectory, LegKinematics

JOINTS = [f'{leg}_{kind}_joint' for leg in ('FL', 'FR', 'RL', 'RR')
          for kind in ('hip', 'thigh', 'calf')]
FEET = ['FL_foot', 'FR_foot', 'RL_foot', 'RR_foot']
STAND = np.tile([0.0, 0.67, -1.3], 4)
NOMINAL = np.array([[0.19, 0.125, -0.32], [0.19, -0.125, -0.32], [-0.19, 0.125, -0.32],
                    [-0.19, -0.125, -0.32]])  # spec §5.4, base frame


@pytest.fixture(scope='module')
def urdf() -> str:
    from zoo_description_tools import xacro_to_urdf
    return xacro_to_urdf('go1_description')


def kinematics(urdf: str, radius: float = 0.0) -> LegKinematics:
    return LegKinematics(urdf, FEET, [JOINTS[3 * i:3 * i + 3] for i in range(4)], JOINTS, radius)


def test_ik_is_urdf_exact(urdf):
    """R2.3b: the nominal FL foot-frame target gives spec's q, and FK(IK(p)) = p over the box."""
    kin = kinematics(urdf)
    q, err = kin.ik([0, 0, 0], [0, 0, 0], NOMINAL, STAND)
    assert err < 1e-6
    np.testing.assert_allclose(q[:3], [-0.0055, 0.7165, -1.4450], atol=1e-4)
    rng = np.random.default_rng(3)
    for _ in range(20):  # inside the box, away from its corners the leg cannot reach
        target = NOMINAL + rng.uniform(-1, 1, (4, 3)) * [0.08, 0.045, 0.04]
        q, err = kin.ik([0, 0, 0], [0, 0, 0], target, STAND)
        np.testing.assert_allclose(kin.foot_positions([0, 0, 0], [0, 0, 0], q), target,
                                   atol=1e-6)


def test_ik_honours_the_base_attitude(urdf):
    """R2.4: with the base rolled by 0.1 rad the feet land where asked (world frame)."""
    kin = kinematics(urdf, radius=0.02)
    base, rpy = np.array([0.1, -0.05, 0.33]), np.array([0.1, 0.0, 0.2])
    feet = kin.foot_positions(base, rpy, STAND) + [0.01, -0.01, 0.0]
    q, err = kin.ik(base, rpy, feet, STAND)
    assert err < 1e-6
    np.testing.assert_allclose(kin.foot_positions(base, rpy, q), feet, atol=1e-6)


def test_feed_forward_makes_the_planned_ground_forces():
    """R5.3's sign check: the Go1 standing with kp = 0 and the feed-forward torques of m g / 4 per
    foot presses on the ground with those forces (MuJoCo's contact forces, recorded)."""
    import mujoco
    from zoo_description_tools import xacro_to_urdf
    from zoo_sim.mujoco_backend import MujocoPhysics
    from zoo_sim.mujoco_scene import RobotSpec

    ph = MujocoPhysics.create('empty', [RobotSpec('go1', package='go1_description')],
                              step=0.0005)
    r, m, d = ph.robots['go1'], ph.model, ph.data
    kin = kinematics(xacro_to_urdf('go1_description'), radius=0.02)
    ph.advance(2000)  # settle on the motors
    base, quat = ph.base_pose('go1')
    w, x, y, z = quat
    rpy = [np.arctan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
           np.arcsin(2 * (w * y - z * x)), np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))]
    q = ph.joint_state('go1')[0]
    weight = float(m.body_subtreemass[r.base_body]) * 9.80665
    forces = np.tile([0.0, 0.0, weight / 4], (4, 1))
    tau = kin.feed_forward(base, rpy, q, forces)
    ph.pd_commands('go1', np.arange(12), q, np.zeros(12), np.zeros(12), np.full(12, 0.5), tau)
    ph.advance(400)
    feet = [m.body('go1/' + f).id for f in FEET]
    measured = np.zeros(4)
    for i in range(d.ncon):
        f = np.zeros(6)
        mujoco.mj_contactForce(m, d, i, f)
        body = m.geom_bodyid[d.contact[i].geom[1]]
        if body in feet:
            measured[feet.index(body)] += f[0]
    np.testing.assert_allclose(measured, weight / 4, rtol=0.1)  # the robot stood on tau_ff


def test_sequence_ramps_without_jumps_and_plays_at_speed():
    """R5.4: ramps from the measured pose to stand to the plan's first pose, no jump bigger than
    one ramp step; R5.6: the plan takes duration / speed."""
    t = np.linspace(0.0, 2.0, 201)
    q_plan = STAND + 0.2 * np.sin(t)[:, None]
    traj = JointTrajectory(np.zeros(12), [STAND], 1.0, t, q_plan, np.zeros_like(q_plan),
                           speed=0.5)
    assert traj.track_start == pytest.approx(2.0)
    assert traj.track_end - traj.track_start == pytest.approx(4.0)  # 2 s of plan at 0.5x
    samples = np.array([traj.at(s).q for s in np.arange(0.0, 7.0, 0.002)])
    step = np.abs(np.diff(samples, axis=0)).max()
    assert step <= 1.3 / 1.0 * 0.002 + 1e-9  # the largest ramp (1.3 rad in 1 s) per 2 ms
    assert traj.at(6.5).phase == 'hold'
    np.testing.assert_allclose(traj.at(6.5).q, q_plan[-1])


# -- base feedback and swing shaping (issue 11) ---------------------------------------------------

def trot_contact(n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Plan times and contact flags of a small trot: all feet down, then the diagonals swing in
    turn (FL+RR, then FR+RL), then all down."""
    t = np.arange(n) * 0.01
    contact = np.ones((n, 4), dtype=bool)
    contact[10:20, [0, 3]] = False
    contact[20:30, [1, 2]] = False
    return t, contact


def test_stance_phases_and_plan_sampler():
    from trajectory_optimizer.tracking import PlanSampler, stance_phases
    t, contact = trot_contact()
    phases = stance_phases(t, contact)
    assert phases[0] == [(0.0, 0.09), (0.2, pytest.approx(0.39))]
    assert phases[1] == [(0.0, 0.19), (0.3, pytest.approx(0.39))]
    plan = {'t': t, 'base_pos': np.c_[t, 0 * t, 0.3 + 0 * t], 'base_euler': np.zeros((40, 3)),
            'foot_pos': np.zeros((40, 4, 3)), 'contact': contact}
    s = PlanSampler(plan).at(0.155)
    assert s.base_pos[0] == pytest.approx(0.155)
    np.testing.assert_array_equal(s.contact, [False, True, True, False])
    # nearest sample: at 0.096 the swing that starts at 0.1 has begun (the boundary moved up to
    # half a sample); a schedule's exact boundaries keep the stance to 0.1
    np.testing.assert_array_equal(PlanSampler(plan).at(0.096).contact, [False, True, True, False])
    from trajectory_optimizer.schedule import ContactSchedule
    schedule = ContactSchedule('t', ((0.1, 0.1, 0.2), (0.2, 0.1, 0.1), (0.2, 0.1, 0.1),
                                     (0.1, 0.1, 0.2)), (True,) * 4)
    np.testing.assert_array_equal(PlanSampler(plan, schedule).at(0.096).contact, [True] * 4)
    np.testing.assert_array_equal(PlanSampler(plan, schedule).at(0.1).contact,
                                  [False, True, True, False])
    assert schedule.stances()[0] == [(0.0, 0.1), (pytest.approx(0.2), pytest.approx(0.4))]


def test_reshape_swings_leaves_and_meets_the_ground_vertically():
    """warp = 1: the swing's horizontal path starts and ends with zero slope, passes the same
    points (re-timed), and stance samples are unchanged; lift adds height mid-swing only."""
    from trajectory_optimizer.tracking import reshape_swings
    t, contact = trot_contact()
    feet = np.zeros((40, 4, 3))
    s = np.clip((t - 0.09) / 0.11, 0, 1)  # FL swings 0.09 -> 0.20 (its last/first stance)
    feet[:, 0, 0] = 0.2 * (3 * s ** 2 - 2 * s ** 3)
    feet[:, 0, 2] = 0.05 * np.sin(np.pi * s) ** 2
    out = reshape_swings(t, feet, contact, warp=1.0)
    np.testing.assert_array_equal(out[contact], feet[contact])
    np.testing.assert_array_equal(out[:, 0, 2], feet[:, 0, 2])  # heights keep their times
    # first swing sample barely forwards, the last one already there (ideally ~0.07 of the
    # plan's; linear interpolation between the coarse samples of this test leaves 0.26)
    assert out[10, 0, 0] < 0.3 * feet[10, 0, 0]
    assert 0.2 - out[19, 0, 0] < 0.3 * (0.2 - feet[19, 0, 0])
    assert np.all(np.diff(out[9:21, 0, 0]) >= 0)        # still monotonic, same end points
    lifted = reshape_swings(t, feet, contact, lift=0.02)
    np.testing.assert_allclose(lifted[:, 0, 2] - feet[:, 0, 2],
                               np.where(contact[:, 0], 0.0, 0.02 * np.sin(np.pi * s) ** 2),
                               atol=1e-12)
    np.testing.assert_array_equal(reshape_swings(t, feet, contact), feet)


def test_stance_shift_moves_the_base_back_over_the_stance(urdf):
    """A base 4 cm ahead of the plan at touchdown: the stance legs' targets place the planned
    feet as if the base stood 4 cm * s further back (s: the share of the stance gone), so that
    the legs carry it back; the error is frozen for the phase; swing legs keep the plan's
    targets; the shift is limited."""
    from trajectory_optimizer.tracking import PlanState, StanceShift, stance_phases
    kin = kinematics(urdf, radius=0.02)
    t, contact = trot_contact()
    base, rpy = np.array([0.0, 0.0, 0.32]), np.zeros(3)
    feet = NOMINAL + [0, 0, 0.32 - 0.02]
    feet[:, 2] = 0.0
    q_plan, _ = kin.ik(base, rpy, feet, STAND)
    shift = StanceShift(kin, stance_phases(t, contact), gain=1.0, limit=0.05)
    plan = PlanState(base, rpy, feet, contact[15])
    # FL/RR swing at 0.15; FR/RL are in their first stance (0 .. 0.19): s = 0.15 / 0.19
    q, shifts = shift.targets(plan, 0.15, q_plan, base + [0.04, 0.0, 0.0], rpy)
    s = 0.15 / 0.19
    np.testing.assert_allclose(shifts[1], [0.04 * s, 0, 0])
    np.testing.assert_allclose(shifts[0], 0.0)
    np.testing.assert_array_equal(q[0:3], q_plan[0:3])  # swing leg: the plan's
    moved = kin.foot_positions(base - [0.04 * s, 0, 0], rpy, q)
    np.testing.assert_allclose(moved[[1, 2]], feet[[1, 2]], atol=1e-6)
    # frozen: a later, different measurement in the same phase does not change the error
    _, again = shift.targets(plan, 0.15, q_plan, base + [0.01, 0.0, 0.0], rpy)
    np.testing.assert_allclose(again[1], shifts[1])
    # limited
    big = StanceShift(kin, stance_phases(t, contact), gain=1.0, limit=0.05)
    _, far = big.targets(plan, 0.19, q_plan, base + [0.3, 0.4, 0.0], rpy)
    assert np.hypot(*far[1, :2]) == pytest.approx(0.05)


def test_slip_meter_counts_sliding_not_rolling():
    """A foot sphere (r = 0.02) rolling 0.1 rad about y moves its centre 2 mm without slipping;
    sliding 5 mm counts 5 mm; swing feet and feet above the ground do not count."""
    from trajectory_optimizer.tracking import SlipMeter, rpy_matrix
    meter = SlipMeter(2, radius=0.02)
    stance, ground = np.array([True, True]), np.zeros(2)
    feet = np.zeros((2, 3))
    rot = np.array([np.eye(3), np.eye(3)])
    meter.update(feet, rot, stance, ground)
    rolled = feet.copy()
    rolled[0, 0] = 0.02 * 0.1           # rolled forwards (rotation +0.1 about y)
    rolled[1, 0] = 0.005                # slid
    rot2 = np.array([rpy_matrix([0, 0.1, 0]), np.eye(3)])
    meter.update(rolled, rot2, stance, ground)
    np.testing.assert_allclose(meter.total, [0.0, 0.005], atol=1e-5)
    lifted = rolled + [0.01, 0.0, 0.0]
    lifted[1, 2] = 0.03                 # foot 1 off the ground
    meter.update(lifted, rot2, np.array([False, True]), ground)
    np.testing.assert_allclose(meter.total, [0.0, 0.005], atol=1e-5)


def test_sequence_can_end_lying_down():
    """R5.4's last ramp: after the plan, to the lying pose over one ramp, then held."""
    t = np.linspace(0.0, 1.0, 101)
    q_plan = np.tile(STAND, (len(t), 1))
    lie = np.tile([0.0, 1.2, -2.7], 4)
    traj = JointTrajectory(STAND, [], 0.5, t, q_plan, np.zeros_like(q_plan), end=lie)
    assert traj.duration == pytest.approx(0.5 + 1.0 + 0.5)
    np.testing.assert_allclose(traj.at(traj.track_end + 0.25).q, (STAND + lie) / 2)
    np.testing.assert_allclose(traj.at(traj.duration + 1.0).q, lie)


# -- StanceForces (issue 28) -----------------------------------------------------------------------
SOLES = np.array([[0.19, 0.125, 0.0], [0.19, -0.125, 0.0], [-0.19, 0.125, 0.0],
                  [-0.19, -0.125, 0.0]])
BASE = np.array([0.0, 0.0, 0.32])


def _forces(stancer, stance, plan_forces, pos=BASE, vel=np.zeros(3), rot=np.eye(3)):
    return stancer.forces(BASE, np.zeros(3), np.zeros(3), np.zeros(3), plan_forces, stance,
                          pos, rot, vel, np.zeros(3), SOLES)


def test_stance_forces_on_the_plan_are_the_plans():
    from trajectory_optimizer.tracking import StanceForces
    plan = np.tile([1.0, -2.0, 30.0], (4, 1))
    out = _forces(StanceForces(13.0, np.diag([0.1, 0.3, 0.3])), np.array([1, 0, 0, 1], bool), plan)
    assert np.allclose(out[[0, 3]], plan[[0, 3]]) and not out[[1, 2]].any()


def test_a_base_below_the_plan_gets_the_pd_force_and_no_moment():
    """4 feet down, base 1 cm low: the feet add m kp 0.01 N up between them, no net moment."""
    from trajectory_optimizer.tracking import StanceForces
    stancer = StanceForces(13.0, np.diag([0.1, 0.3, 0.3]), kp=(150.0, 150.0), kd=(25.0, 25.0))
    plan = np.tile([0.0, 0.0, 31.9], (4, 1))
    out = _forces(stancer, np.ones(4, bool), plan, pos=BASE - [0.0, 0.0, 0.01])
    added = out - plan
    assert added.sum(axis=0) == pytest.approx([0.0, 0.0, 13.0 * 150.0 * 0.01], abs=0.05)
    moment = sum(np.cross(p - (BASE - [0, 0, 0.01]), f) for p, f in zip(SOLES, added))
    assert np.abs(moment).max() < 0.01


def test_stance_forces_stay_in_the_pyramid_and_press_down():
    """A large sideways error asks for more friction than mu allows, a lifting one for a pull:
    each force stays within mu f_z and at least fz_min down."""
    from trajectory_optimizer.tracking import StanceForces
    stancer = StanceForces(13.0, np.diag([0.1, 0.3, 0.3]), mu=0.4, fz_min=2.0)
    stance = np.array([0, 1, 1, 0], bool)
    out = _forces(stancer, stance, np.tile([0.0, 0.0, 5.0], (4, 1)),
                  pos=BASE + [0.0, 0.2, 0.1], vel=np.array([0.0, 1.0, 1.0]))
    for f in out[stance]:
        assert f[2] >= 2.0 - 1e-12 and np.hypot(f[0], f[1]) <= 0.4 * f[2] + 1e-12


def test_foot_heights_aim_the_swing_foot_at_its_touchdown_from_the_measured_body(urdf):
    """Issue 28: a body 5 mm high and rolled 0.02 rad (as the trot's is at a touchdown) lifts a
    swing foot that the plan's angles put on the ground; over the last ``aim_s`` of the swing
    its height target moves (smoothstep) to ``depth`` below the planned touchdown, seen from the
    measured body, and its x, y stay the law's. A landed foot is held at the planned height.
    Legs not asked keep their targets; outside the window the swing keeps the law."""
    from trajectory_optimizer.tracking import FootHeights, stance_phases
    kin, measured, tilt, q_plan, law, plan = _raised_body(urdf)
    heights = FootHeights(kin, stance_phases(*trot_contact()), aim_s=0.08, depth=0.005)

    np.testing.assert_array_equal(heights.swing(0, 0.10, plan, measured, tilt, q_plan), q_plan)
    q = heights.swing(0, 0.15, plan, measured, tilt, q_plan)
    s = 1.0 - 0.05 / 0.08
    w = s * s * (3 - 2 * s)
    got = kin.foot_positions(measured, tilt, q)
    np.testing.assert_allclose(got[0], [*law[0, :2], (1 - w) * law[0, 2] - w * 0.005], atol=1e-6)
    np.testing.assert_array_equal(q[3:], q_plan[3:])
    at_touchdown = kin.foot_positions(measured, tilt, heights.swing(0, 0.1999, plan, measured,
                                                                    tilt, q_plan))
    assert at_touchdown[0, 2] == pytest.approx(-0.005, abs=1e-5)
    off = FootHeights(kin, stance_phases(*trot_contact()), aim_s=0.0, depth=0.005)
    np.testing.assert_array_equal(off.swing(0, 0.19, plan, measured, tilt, q_plan), q_plan)

    q = heights.stance(1, plan, measured, tilt, q_plan)  # FR is down at 0.15
    got = kin.foot_positions(measured, tilt, q)
    np.testing.assert_allclose(got[1], [*law[1, :2], 0.0], atol=1e-6)
    np.testing.assert_array_equal(np.delete(q, [3, 4, 5]), np.delete(q_plan, [3, 4, 5]))


def _raised_body(urdf):
    """The Go1 legs, the plan's feet on the ground under a planned body at 0.32 m, and a
    measured body 5 mm higher and rolled 0.02 rad: (kin, body, tilt, the plan's angles, where
    they put the feet under the measured body, the plan at 0.15 s of ``trot_contact``)."""
    from trajectory_optimizer.tracking import PlanState
    kin = kinematics(urdf, radius=0.02)
    t, contact = trot_contact()  # FL swings 0.10-0.19, touches down at 0.20
    base, rpy = np.array([0.0, 0.0, 0.32]), np.zeros(3)
    feet = NOMINAL + [0, 0, 0.32]
    feet[:, 2] = 0.0
    q_plan, _ = kin.ik(base, rpy, feet, STAND)
    measured, tilt = base + [0, 0, 0.005], np.array([0.02, 0.0, 0.0])
    law = kin.foot_positions(measured, tilt, q_plan)
    assert law[0, 2] > 0.005  # the problem: the law's FL foot is above the ground
    return kin, measured, tilt, q_plan, law, PlanState(base, rpy, feet, contact[15])


def test_planted_heights_meet_the_ground_on_time_and_hold_where_the_foot_landed(urdf):
    """Issue 28, planted_stance: the aimed height moves to a line that meets the planned
    touchdown height at the touchdown, descending at ``speed``; a landed foot is held at x, y
    where it landed (here 1 cm from the law's point), at the planned height."""
    from trajectory_optimizer.tracking import FootHeights, stance_phases
    kin, measured, tilt, q_plan, law, plan = _raised_body(urdf)
    heights = FootHeights(kin, stance_phases(*trot_contact()), aim_s=0.08, depth=0.005,
                          speed=0.05)
    q = heights.swing(0, 0.15, plan, measured, tilt, q_plan)
    s = 1.0 - 0.05 / 0.08
    w = s * s * (3 - 2 * s)
    np.testing.assert_allclose(kin.foot_positions(measured, tilt, q)[0],
                               [*law[0, :2], (1 - w) * law[0, 2] + w * 0.05 * 0.05], atol=1e-6)
    at_touchdown = kin.foot_positions(measured, tilt, heights.swing(0, 0.1999, plan, measured,
                                                                    tilt, q_plan))
    assert at_touchdown[0, 2] == pytest.approx(0.05 * 0.0001, abs=1e-6)  # on the ground, on time

    landed_at = law[1] + [0.01, -0.005, 0.0]
    q = heights.stance(1, plan, measured, tilt, q_plan, landed_at)
    np.testing.assert_allclose(kin.foot_positions(measured, tilt, q)[1], [*landed_at[:2], 0.0],
                               atol=1e-6)
    np.testing.assert_array_equal(np.delete(q, [3, 4, 5]), np.delete(q_plan, [3, 4, 5]))


def test_planted_rates_keep_the_feet_still_under_a_moving_base(urdf):
    """Issue 28: the joint rates of a landed leg's velocity target: with the base moving at v and
    turning at w, every foot's world velocity v + w x r + J dq is zero."""
    kin = kinematics(urdf, radius=0.02)
    base, rpy = np.array([0.1, -0.02, 0.31]), np.array([0.03, -0.05, 0.2])
    feet = NOMINAL + [0.1, -0.02, 0.31]
    q, _ = kin.ik(base, rpy, feet, STAND)
    v, w = np.array([0.5, -0.1, 0.05]), np.array([0.2, -0.4, 0.3])
    dq = kin.planted_rates(base, rpy, q, v, w)
    h = 1e-6  # the feet after a small step of base and joints
    from trajectory_optimizer.tracking import rotation_vector, rpy_matrix
    rot = rpy_matrix(w * h) @ rpy_matrix(rpy)
    rpy_next = np.array([np.arctan2(rot[2, 1], rot[2, 2]), -np.arcsin(rot[2, 0]),
                         np.arctan2(rot[1, 0], rot[0, 0])])
    assert np.allclose(rotation_vector(rpy_matrix(rpy_next) @ rpy_matrix(rpy).T), w * h)
    moved = kin.foot_positions(base + v * h, rpy_next, q + dq * h) + [0, 0, 0.02]
    still = kin.foot_positions(base, rpy, q) + [0, 0, 0.02]
    np.testing.assert_allclose((moved - still) / h, 0.0, atol=1e-4)
