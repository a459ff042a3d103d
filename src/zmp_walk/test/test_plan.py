"""The Nao ZMP walk plan, built once (~1-2 s): it starts from the reset posture, stays inside the
URDF's position, velocity and effort limits, loops without a jump, and its motion's ZMP (from
pinocchio's inverse dynamics, computed here independently of the plan's own estimate) stays
inside the feet on the ground, and its feed-forward torques stand for foot wrenches the soles
can give. Then WalkPlan's playback and JSON form, and the generator the
Walker plays, with its cache."""
import json

import numpy as np
import pinocchio as pin
import pytest

from zoo_description_tools.urdf_model import parse_urdf
import zmp_walk.generator as generator
from zmp_walk.generator import NaoZmpWalk
from zmp_walk.params import ZmpWalkParams
from zmp_walk.plan import ARM_POSTURE, WalkPlan, build_plan

P = ZmpWalkParams()
SOLE_HALF = (0.08, 0.04)     # the Nao's sole collision box (URDF), half sides in x and y
SOLE_CENTRE_X = 0.025        # ahead of the sole frame


@pytest.fixture(scope='module')
def plan(nao_model, nao_urdf):
    return build_plan(nao_model, nao_urdf, P)


@pytest.fixture(scope='module')
def limits(nao_urdf, plan):
    joints = parse_urdf(nao_urdf).movable_joints()
    lo, hi = np.array([joints[j].position_range for j in plan.joints]).T
    vel = np.array([joints[j].velocity_limit for j in plan.joints])
    eff = np.array([joints[j].effort_limit for j in plan.joints])
    return lo, hi, vel, eff


def _played(plan):
    """Samples the Walker plays: up to the end of the looped cycle (the stop planned after it
    is never reached)."""
    return slice(0, int(round(plan.loop_end / plan.dt)) + 1)


def test_the_plan_starts_from_the_reset_posture(plan, limits):
    lo, hi, _, _ = limits
    # straight legs by IK: acos(1 - rounding) leaves ~sqrt(2e-16) = 2e-8 rad at the knees
    np.testing.assert_allclose(plan.q[0], np.clip(0.0, lo, hi), rtol=0, atol=1e-7)
    elbows = {j: plan.q[0][plan.joints.index(j)] for j in ('LElbowRoll', 'RElbowRoll')}
    assert elbows == {'LElbowRoll': -0.0349066, 'RElbowRoll': 0.0349066}
    np.testing.assert_array_equal(plan.dq[0], 0.0)
    assert plan.joints[:10] == tuple(s + j for s in 'LR' for j in (
        'HipRoll', 'HipPitch', 'KneePitch', 'AnklePitch', 'AnkleRoll'))
    # the hip yaw-pitch joints stay at 0 throughout (straight walking)
    for j in ('LHipYawPitch', 'RHipYawPitch'):
        assert np.all(plan.q[:, plan.joints.index(j)] == 0.0)


def test_positions_inside_the_urdf_limits(plan, limits):
    lo, hi, _, _ = limits
    assert np.all(plan.q >= lo) and np.all(plan.q <= hi)


def _worst(ratio, plan):
    i, j = np.unravel_index(np.argmax(ratio), ratio.shape)
    return f'{ratio[i, j]:.3f} ({plan.joints[j]} at {i * plan.dt:.3f} s)'


def test_velocities_are_the_positions_derivative_and_within_the_limits(plan, limits):
    _, _, vel, _ = limits
    # the PD's target velocity must be the target's own rate, or kd fights kp
    np.testing.assert_allclose(plan.dq[1:-1], (plan.q[2:] - plan.q[:-2]) / (2 * plan.dt),
                               atol=1e-9)
    ratio = np.abs(plan.dq) / vel
    print('worst velocity / limit: whole plan', _worst(ratio, plan), '; played',
          _worst(ratio[_played(plan)], plan))
    assert ratio.max() <= 1.0


def test_feed_forward_torques_within_the_effort_limits(plan, limits):
    _, _, _, eff = limits
    ratio = np.abs(plan.tau) / eff
    print('worst torque / effort limit: whole plan', _worst(ratio, plan), '; played',
          _worst(ratio[_played(plan)], plan))
    assert ratio.max() <= 1.0


def test_the_looped_cycle_has_no_seam(plan):
    """The cycle [loop_start, loop_end) is two steps long and replayed forever: its end must meet
    its start. What is left is the pendulum's start transient and the planned stop, both decaying
    as exp(-t sqrt(g / z_c)) ~ e^-6/s over the 2 s between them and the loop: ~1e-5 rad here.
    1e-4 rad is 6 mN m at kp 60 N m/rad, 0.2 % of the leg motors' 3 N m."""
    assert plan.period == pytest.approx(2 * P.step_time, abs=1e-12)
    i0, i1 = (int(round(t / plan.dt)) for t in (plan.loop_start, plan.loop_end))
    assert abs(plan.loop_start / plan.dt - i0) < 1e-9 and abs(plan.loop_end / plan.dt - i1) < 1e-9
    assert np.abs(plan.q[i1] - plan.q[i0]).max() < 1e-4
    assert np.abs(plan.dq[i1] - plan.dq[i0]).max() < 1e-3
    assert np.abs(plan.tau[i1] - plan.tau[i0]).max() < 1e-3
    # the same phase of the feet: two steps on, each foot at the same height
    for foot in 'LR':
        a, b = (plan.footsteps.foot(foot, t) for t in (plan.loop_start, plan.loop_end))
        assert b[0] - a[0] == pytest.approx(2 * P.step_length) and b[2] == a[2]
    for s in (0.0, 0.0123, 0.5, 0.83):
        for x, y in zip(plan.at(plan.loop_end + s), plan.at(plan.loop_start + s)):
            np.testing.assert_allclose(x, y, atol=1e-12)
        for x, y in zip(plan.at(plan.loop_end + 3 * plan.period + s),
                        plan.at(plan.loop_start + s)):
            np.testing.assert_allclose(x, y, atol=1e-9)


def _full_q(model, plan):
    q = np.tile(pin.neutral(model), (len(plan.q), 1))
    q[:, :3] = plan.torso
    q[:, 3:7] = (0.0, 0.0, 0.0, 1.0)
    for k, j in enumerate(plan.joints):
        q[:, model.joints[model.getJointId(j)].idx_q] = plan.q[:, k]
    return q


def _support_margin(plan, t, zmp):
    """Signed distance (m, > 0 inside) of ``zmp`` from the edge of the convex hull of the soles
    on the ground at ``t`` (feet flat and straight: axis-aligned boxes)."""
    corners = [(f[0] + SOLE_CENTRE_X + sx * SOLE_HALF[0], f[1] + sy * SOLE_HALF[1])
               for f in (plan.footsteps.foot(foot, t) for foot in 'LR') if f[2] == 0.0
               for sx in (-1, 1) for sy in (-1, 1)]
    return _hull_margin(np.array(corners), np.asarray(zmp))


def _hull_margin(points, z):
    """Signed distance of ``z`` from the edge of the convex hull of ``points`` (> 0 inside)."""
    pts = sorted(map(tuple, points))

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for chain, seq in ((lower, pts), (upper, pts[::-1])):
        for p in seq:
            while len(chain) >= 2 and cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
    hull = np.array(lower[:-1] + upper[:-1])                    # counter-clockwise
    edges = np.roll(hull, -1, axis=0) - hull
    normals = np.column_stack([-edges[:, 1], edges[:, 0]]) / np.linalg.norm(edges, axis=1)[:, None]
    return float(np.min(np.einsum('ij,ij->i', z - hull, normals)))


def _inverse_dynamics_zmp(model, plan):
    """The ZMP of the planned motion from the ground wrench pinocchio's RNEA needs at the free
    base (upright, so its axes are the world's): -n_y / f_z, n_x / f_z about the ground origin."""
    data = model.createData()
    q = _full_q(model, plan)
    n, dt = len(q), plan.dt
    v = np.zeros((n, model.nv))
    for i in range(1, n - 1):
        v[i] = pin.difference(model, q[i - 1], q[i + 1]) / (2 * dt)
    a = np.zeros_like(v)
    a[1:-1] = (v[2:] - v[:-2]) / (2 * dt)
    zmp = np.zeros((n, 2))
    for i in range(n):
        w = pin.rnea(model, data, q[i], v[i], a[i])[:6]
        f, moment = w[:3], w[3:] + np.cross(q[i, :3], w[:3])
        zmp[i] = (-moment[1] / f[2], moment[0] / f[2])
    return zmp


def test_the_zmp_of_the_motion_stays_inside_the_feet_on_the_ground(plan, nao_model):
    """The physical check: the ground can only push inside the support polygon. Over all the
    played motion (the crouch included), the ZMP of the planned motion (inverse dynamics,
    independent of the plan's own estimate) keeps a centimetre inside the stance sole, or the
    hull of both soles in double support; after the crouch it is near the reference the plan
    tracked."""
    zmp = _inverse_dynamics_zmp(nao_model, plan)
    last = _played(plan).stop
    margins = np.array([_support_margin(plan, i * plan.dt, zmp[i]) for i in range(last)])
    worst = int(np.argmin(margins))
    print(f'smallest ZMP margin inside the support: {margins[worst] * 1000:.1f} mm at '
          f'{worst * plan.dt:.3f} s')
    assert margins.min() > 0.01
    first = int(round(P.crouch_time / plan.dt))
    # the plan's own estimate (centroidal momentum) is the same ZMP, O(dt^2) apart (28 um
    # measured; at the very first samples its one-sided differences are off by 24 mm)
    np.testing.assert_allclose(plan.zmp_multibody[first:last], zmp[first:last], atol=1e-4)
    # and its one correction brought the motion's ZMP to the reference (28 mm off without it)
    assert np.abs(zmp[first:last] - plan.zmp_ref[first:last]).max() < 0.01


LEG = ('HipYawPitch', 'HipRoll', 'HipPitch', 'KneePitch', 'AnklePitch', 'AnkleRoll')


def test_the_torques_need_only_ground_wrenches_the_soles_can_give(plan, nao_model):
    """The feed-forward torques stand for foot wrenches: each leg's six joints give its sole's
    wrench (rnea = tau + J^T w on the leg's rows). Those wrenches must carry the free base
    (its six rows balance), push (f_z >= 0) with their centre of pressure inside the sole and a
    modest friction demand, and be nothing on a foot in the air."""
    model = nao_model
    data = model.createData()
    q = _full_q(model, plan)
    dt, last = plan.dt, _played(plan).stop
    v = np.zeros((last + 1, model.nv))
    for i in range(1, last + 1):
        v[i] = pin.difference(model, q[i - 1], q[i + 1]) / (2 * dt)
    rows = {s: [model.joints[model.getJointId(s + j)].idx_v for j in LEG] for s in 'LR'}
    cols = {s: [plan.joints.index(s + j) for j in LEG] for s in 'LR'}
    worst_friction = 0.0
    for i in range(last):
        a = (v[i + 1] - v[i - 1]) / (2 * dt) if i else np.zeros(model.nv)
        need = pin.rnea(model, data, q[i], v[i], a).copy()
        pin.computeJointJacobians(model, data, q[i])
        pin.updateFramePlacements(model, data)
        base = np.zeros(6)
        for s in 'LR':
            jac = pin.getFrameJacobian(model, data, model.getFrameId(s.lower() + '_sole'),
                                       pin.LOCAL_WORLD_ALIGNED)
            w = np.linalg.solve(jac[:, rows[s]].T, need[rows[s]] - plan.tau[i, cols[s]])
            base += jac[:, :6].T @ w
            if plan.footsteps.foot(s, i * dt)[2] > 0.0:
                assert np.abs(w).max() < 1e-6                    # a foot in the air: nothing
                continue
            assert w[2] > -1e-6                                   # the ground only pushes
            if w[2] > 1.0:                                        # N: carrying weight
                cop = np.array([-w[4], w[3]]) / w[2]              # from the sole frame
                assert abs(cop[0] - SOLE_CENTRE_X) < SOLE_HALF[0] - 0.01
                assert abs(cop[1]) < SOLE_HALF[1] - 0.01
                worst_friction = max(worst_friction, np.hypot(w[0], w[1]) / w[2])
        np.testing.assert_allclose(base, need[:6], atol=1e-6)
    print(f'largest tangential / normal force of a foot: {worst_friction:.3f}')
    assert worst_friction < 0.5


def test_playback_interpolates_the_samples(plan):
    """at(): the samples at sample times (to rounding: k dt / dt is not always k), cubic
    Hermite between them, so its positions have the plan's velocities; velocities and torques
    linear."""
    m = _played(plan).stop - 1
    for k in range(m):
        q, dq, tau = plan.at(k * plan.dt)
        np.testing.assert_allclose(q, plan.q[k], rtol=0, atol=1e-12)
        np.testing.assert_allclose(dq, plan.dq[k], rtol=0, atol=1e-9)
        np.testing.assert_allclose(tau, plan.tau[k], rtol=0, atol=1e-9)
    h = plan.dt
    for k in (5, 150, 333, 700):
        q0, q1, v0, v1 = plan.q[k], plan.q[k + 1], plan.dq[k], plan.dq[k + 1]
        q, dq, tau = plan.at((k + 0.5) * h)
        np.testing.assert_allclose(q, (q0 + q1) / 2 + h * (v0 - v1) / 8, atol=1e-12)
        np.testing.assert_allclose(dq, (v0 + v1) / 2, atol=1e-12)
        np.testing.assert_allclose(tau, (plan.tau[k] + plan.tau[k + 1]) / 2, atol=1e-12)
        e = 1e-6 * h                    # the position's slope at a sample is the velocity there
        slope = (plan.at(k * h + e)[0] - plan.at(k * h - e)[0]) / (2 * e)
        np.testing.assert_allclose(slope, v0, atol=1e-4)
    np.testing.assert_array_equal(plan.at(-1.0)[0], plan.q[0])  # before the start: the start


def test_json_round_trip_is_bit_exact(plan):
    text = json.dumps(plan.to_json())
    back = WalkPlan.from_json(json.loads(text), P)
    for name in WalkPlan.ARRAYS:
        a, b = getattr(plan, name), getattr(back, name)
        assert a.shape == b.shape and a.tobytes() == b.tobytes(), name
    assert back.joints == plan.joints and back.dt == plan.dt
    assert (back.loop_start, back.loop_end) == (plan.loop_start, plan.loop_end)
    assert back.footsteps.sole_center_x == plan.footsteps.sole_center_x == SOLE_CENTRE_X


def test_a_torso_too_high_for_bent_knees_is_refused(nao_model, nao_urdf):
    with pytest.raises(ValueError, match=r'^torso_height: expected below the straight-legged '
                                         r'0\.3330 m \(the knees must bend\), got 0\.34$'):
        build_plan(nao_model, nao_urdf, ZmpWalkParams(torso_height=0.34))


@pytest.fixture
def walk_from_plan(plan, monkeypatch, tmp_path):
    """NaoZmpWalk on a fresh cache folder whose planning returns the module's plan (counted)."""
    calls = []

    def build(model, urdf, params):
        calls.append(params)
        return plan
    monkeypatch.setenv('ROBOZOO_CACHE_DIR', str(tmp_path))
    monkeypatch.setattr(generator, 'build_plan', build)
    return calls


def test_the_generator_is_the_walkers_pd_gait(plan, nao_urdf, limits, walk_from_plan):
    # coupled_wave_gait exec-depends on zmp_walk: a test_depend back would be a cycle for colcon
    GaitGenerator = pytest.importorskip('gait_player.generator').GaitGenerator
    walk = NaoZmpWalk(nao_urdf)
    assert isinstance(walk, GaitGenerator)
    assert walk.joints == plan.joints and walk.period == plan.period
    assert walk.sample_interval == plan.dt
    arms = [j in ARM_POSTURE for j in walk.joints]
    assert sum(arms) == 8
    assert walk.kp == [P.kp_arm if a else P.kp for a in arms]       # arms softer
    assert walk.kd == [P.kd_arm if a else P.kd for a in arms]
    assert P.kp_arm < P.kp and P.kd_arm < P.kd
    for t in (0.0, 0.37, 1.2345, 5.5, 40.0, 40.001):
        lists = walk.pd_lists(t)
        assert len(lists) == 3 and all(type(x) is list and len(x) == len(walk.joints)
                                       for x in lists)
        for got, want in zip(lists, plan.at(t)):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
        np.testing.assert_allclose(walk.continuous_list(t), lists[0], rtol=0, atol=1e-12)
    # on a sample (the Walker's 250 Hz on the 4 ms plan) the sample itself, looped after the start
    i0 = int(round(plan.loop_start / plan.dt))
    for k, t in ((7, 7 * plan.dt), (i0 + 3, plan.loop_end + 3 * plan.dt)):
        for got, want in zip(walk.pd_lists(t), (plan.q[k], plan.dq[k], plan.tau[k])):
            np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(walk.sample_rad(7), plan.q[7], rtol=0, atol=1e-12)
    lo, hi, _, _ = limits
    assert walk.limit_violations(dict(zip(walk.joints, zip(lo, hi)))) == {}
    knee = walk.joints.index('LKneePitch')
    tight = {'LKneePitch': (lo[knee], 0.5)}
    assert walk.limit_violations(tight) == {'LKneePitch': int(np.sum(plan.q[:, knee] > 0.5))}


def test_a_second_generator_is_the_cached_plan_bit_for_bit(plan, nao_urdf, walk_from_plan,
                                                          monkeypatch):
    NaoZmpWalk(nao_urdf)
    assert len(walk_from_plan) == 1

    def fail(*_):
        raise AssertionError('planned again despite the cache')
    monkeypatch.setattr(generator, 'build_plan', fail)
    again = NaoZmpWalk(nao_urdf)
    for name in WalkPlan.ARRAYS:
        assert getattr(again.plan, name).tobytes() == getattr(plan, name).tobytes(), name
    # other parameters are another plan; no cache at all plans every time
    monkeypatch.setattr(generator, 'build_plan', lambda m, u, p: walk_from_plan.append(p) or plan)
    NaoZmpWalk(nao_urdf, ZmpWalkParams(step_length=0.05))
    monkeypatch.setenv('ROBOZOO_CACHE_DIR', 'off')
    NaoZmpWalk(nao_urdf)
    NaoZmpWalk(nao_urdf)
    assert [p.step_length for p in walk_from_plan] == [0.065, 0.05, 0.065, 0.065]
