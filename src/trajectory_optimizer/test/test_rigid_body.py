"""The Euler convention and the SRBD residual agree between the NLP (casadi) and the plan side
(numpy): the checks recompute Eqs. 4.6a/b independently of the optimizer."""
import casadi as ca
import numpy as np

from trajectory_optimizer import checks, rigid_body
from trajectory_optimizer.nlp import PARAMS


def test_rotation_and_rates_match_between_casadi_and_numpy():
    rng = np.random.default_rng(1)
    e, ed, edd = rng.normal(scale=0.4, size=(3, 5, 3))
    E = ca.SX.sym('e', 3)
    R = ca.Function('R', [E], [rigid_body.euler_rotation(ca, E)])
    Rn = rigid_body.euler_to_rotation(e)
    for k in range(5):
        np.testing.assert_allclose(np.array(R(e[k])), Rn[k], atol=1e-12)
        (cr, cp, cy), (sr, sp, sy) = np.cos(e[k]), np.sin(e[k])
        rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
        ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
        rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
        np.testing.assert_allclose(Rn[k], rz @ ry @ rx, atol=1e-12)  # ZYX
    # ω is the rotation rate: skew(ω) = Ṙ Rᵀ, by finite differences
    h = 1e-6
    w = rigid_body.angular_velocity(e, ed)
    rot = rigid_body.euler_to_rotation
    dR = (rot(e + h * ed) - rot(e - h * ed)) / (2 * h)
    S = dR @ np.transpose(Rn, (0, 2, 1))
    np.testing.assert_allclose(np.stack([S[:, 2, 1], S[:, 0, 2], S[:, 1, 0]], -1), w, atol=1e-6)
    wd = rigid_body.angular_acceleration(e, ed, edd)
    num = (rigid_body.angular_velocity(e + h * ed, ed + h * edd)
           - rigid_body.angular_velocity(e - h * ed, ed - h * edd)) / (2 * h)
    np.testing.assert_allclose(wd, num, atol=1e-6)


def test_srbd_residual_matches_the_checks():
    rng = np.random.default_rng(2)
    n = 6
    plan = {'base_pos': rng.normal(size=(n, 3)), 'base_lin_acc': rng.normal(size=(n, 3)),
            'base_euler': rng.normal(scale=0.3, size=(n, 3)),
            'foot_pos': rng.normal(size=(n, 4, 3)), 'foot_force': rng.normal(size=(n, 4, 3)),
            'inertia': np.array([[0.16, -0.001, -0.016], [-0.001, 0.42, -0.0001],
                                 [-0.016, -0.0001, 0.42]]), 'mass': 13.0, 'gravity': 3.72111}
    ed, edd = rng.normal(size=(2, n, 3))
    plan['base_ang_vel'] = rigid_body.angular_velocity(plan['base_euler'], ed)
    plan['base_ang_acc'] = rigid_body.angular_acceleration(plan['base_euler'], ed, edd)
    ref = checks.srbd_residual(plan)
    f = rigid_body.srbd_function(ca, 4, len(PARAMS))
    i = plan['inertia']
    p = [plan['gravity'], 0.5, plan['mass'], i[0, 0], i[1, 1], i[2, 2], i[0, 1], i[0, 2], i[1, 2],
         0, 0, 0, 1]
    for k in range(n):
        out = f(plan['base_pos'][k], plan['base_lin_acc'][k], plan['base_euler'][k], ed[k],
                edd[k], *plan['foot_pos'][k], *plan['foot_force'][k], p)
        np.testing.assert_allclose(np.array(out).ravel(), ref[k], atol=1e-10)
