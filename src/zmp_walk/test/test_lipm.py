"""The pendulum: com_from_zmp's centre of mass has a pendulum ZMP (x - x'' z_c / g, by our own
finite differences) that follows the reference as closely as the jerk weight allows, from rest;
multibody_zmp agrees with statics and with the ground wrench that pinocchio's inverse dynamics
asks for."""
import numpy as np
import pinocchio as pin
import pytest

from zmp_walk.lipm import G, com_from_zmp, multibody_zmp

DT, ZC, W = 0.004, 0.27, 1e-7   # the Nao plan's sampling, pendulum height and jerk weight


def pendulum_zmp(x):
    """x - x'' z_c / g at samples 1..n-2 (central second differences)."""
    return x[1:-1] - (x[2:] - 2.0 * x[1:-1] + x[:-2]) / DT ** 2 * ZC / G


def test_a_constant_reference_keeps_the_com_at_rest():
    x = com_from_zmp(np.full(400, 0.03), 0.03, DT, ZC, W)
    # rounding in the normal equations (entries ~ (z_c / g / dt^2)^2 ~ 1e6), grown by the
    # pendulum's unstable mode towards the free end: 0.1 to 2 um at 1.6 s depending on the last
    # digits of g (0.09 um at 9.81, 1.8 um at 9.80665, 1.0 um at 9.8), nothing physical
    np.testing.assert_allclose(x, 0.03, atol=5e-6)


def test_a_sine_is_followed_as_the_jerk_weight_predicts():
    # Steady state at frequency w: p = k x with k = 1 + w^2 z_c / g and jerk = w^3 x, so the
    # cost (p - p_ref)^2 + W jerk^2 is least at p = p_ref k^2 / (k^2 + W w^6): the ZMP falls
    # short by W w^6 / (k^2 + W w^6) of the amplitude. At the walk's lateral frequency (one
    # sway per two 0.42 s steps) that is 0.27 %, 0.12 mm of a 45 mm sway.
    t = np.arange(0.0, 6.0, DT)
    w, a = 2 * np.pi / 0.84, 0.045
    ref = a * np.sin(w * t)
    x = com_from_zmp(ref, 0.0, DT, ZC, W)
    assert np.all(x[:3] == 0.0)
    k = 1 + w * w * ZC / G
    short = W * w ** 6 / (k * k + W * w ** 6)
    mid = (t[1:-1] > 1.5) & (t[1:-1] < 4.5)     # the start's transient (e^-6/s) and the end's
    err = np.abs(pendulum_zmp(x) - ref[1:-1])[mid].max()
    assert err == pytest.approx(short * a, rel=0.05)
    assert err < 2e-4


def test_a_step_is_anticipated_and_then_held():
    # the ZMP moves 5 cm sideways at 3 s: the centre of mass must start before (preview) and
    # come to rest over the new ZMP; the tracking error is confined to the step's neighbourhood
    t = np.arange(0.0, 6.0, DT)
    ref = np.where(t >= 3.0, 0.05, 0.0)
    x = com_from_zmp(ref, 0.0, DT, ZC, W)
    i = int(round(3.0 / DT))
    assert 0.002 < x[int(round(2.8 / DT))] < 0.025 < x[int(round(3.2 / DT))]
    assert abs(x[-1] - 0.05) < 1e-5 and abs(x[-1] - x[-2]) < 1e-7
    err = np.abs(pendulum_zmp(x) - ref[1:-1])
    far = np.abs(t[1:-1] - 3.0) > 0.5
    assert err[far].max() < 1e-5
    assert np.all(np.diff(x[i - 100:i + 100]) > 0.0)          # a smooth, one-way move


def test_start_at_rest_and_too_short_input():
    t = np.arange(0.0, 4.0, DT)
    ref = 0.01 + 0.04 * np.clip((t - 0.5) / 0.5, 0.0, 1.0)     # moves off at once after rest
    x = com_from_zmp(ref, 0.01, DT, ZC, W)
    assert np.all(x[:3] == 0.01) and x[3] != 0.01 and x[500] == pytest.approx(0.05, abs=1e-4)
    with pytest.raises(ValueError, match='com_from_zmp: expected at least 8 samples, got 7'):
        com_from_zmp(np.zeros(7), 0.0, DT, ZC, W)


def _posture(model, base_z=0.35):
    q = pin.neutral(model)
    q[2] = base_z
    for name, v in (('LShoulderPitch', 0.3), ('RShoulderPitch', 1.4), ('LHipPitch', -0.4),
                    ('LKneePitch', 0.8), ('RHipRoll', -0.2), ('LElbowRoll', -1.0)):
        q[model.joints[model.getJointId(name)].idx_q] = v
    return q


def test_standing_still_the_zmp_is_under_the_centre_of_mass(nao_model):
    model = nao_model
    data = model.createData()
    q = _posture(model)
    com = pin.centerOfMass(model, data, q).copy()
    zx, zy = multibody_zmp(model, data, np.tile(q, (20, 1)), DT)
    np.testing.assert_allclose(zx, com[0], atol=1e-12)
    np.testing.assert_allclose(zy, com[1], atol=1e-12)
    assert abs(com[0]) > 0.003 and abs(com[1]) > 0.003       # the posture is not symmetric


def _zmp_error_against_rnea(model, dt):
    """Largest distance between multibody_zmp and the ZMP of the base wrench that pinocchio's
    RNEA needs (-n_y / f_z, n_x / f_z about the ground origin), for a motion of base and limbs
    at walking amplitudes, with velocities and accelerations from the same central differences."""
    data = model.createData()
    t = np.arange(0.0, 1.0, dt)
    q = np.tile(_posture(model), (len(t), 1))
    q[:, 0] += 0.03 * np.sin(2 * np.pi * 1.5 * t)
    q[:, 1] += 0.02 * np.sin(2 * np.pi * 2.0 * t)
    q[:, 2] += 0.01 * np.sin(2 * np.pi * 3.0 * t)
    for name, amp, f in (('LHipPitch', 0.5, 2.0), ('RShoulderPitch', 1.0, 3.0),
                         ('RHipRoll', 0.3, 2.5), ('LShoulderRoll', 0.4, 2.0)):
        q[:, model.joints[model.getJointId(name)].idx_q] += amp * np.sin(2 * np.pi * f * t)
    zx, zy = multibody_zmp(model, data, q, dt)
    n = len(t)
    v = np.zeros((n, model.nv))
    for i in range(1, n - 1):
        v[i] = pin.difference(model, q[i - 1], q[i + 1]) / (2 * dt)
    a = np.zeros_like(v)
    a[1:-1] = (v[2:] - v[:-2]) / (2 * dt)
    err = 0.0
    for i in range(2, n - 2):
        w = pin.rnea(model, data, q[i], v[i], a[i])[:6]   # base upright: local = world axes
        f, n_o = w[:3], w[3:] + np.cross(q[i, :3], w[:3])
        err = max(err, abs(zx[i] + n_o[1] / f[2]), abs(zy[i] - n_o[0] / f[2]))
    return err


def test_in_motion_the_zmp_agrees_with_inverse_dynamics(nao_model):
    """The two differ only by how the finite differences pass through the kinematics: O(dt^2)
    (0.8 mm at 2 ms, 0.2 mm at 1 ms for this brisk motion). A wrong sign or
    frame of the angular momentum term would not shrink with dt."""
    coarse, fine = _zmp_error_against_rnea(nao_model, 0.002), _zmp_error_against_rnea(nao_model,
                                                                                   0.001)
    assert fine < 3e-4
    assert coarse / fine > 3.0                                  # second order: ~4
