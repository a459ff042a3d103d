"""Issue 27, the soft low-level stand-up's hips, on the physics itself (the diagnosis behind
tests/test_go1_udp_stand_up.py; unitree_udp README, Limits): the SDK stand-up's commands (damping
until the Go1 lies with splayed hips, then every joint ramped to the stand in 1 s with Kp 20,
Kd 2, held 2 s) applied to the MuJoCo model at every physics step. About each rear hip's axis the
ground's normal forces splay the leg (the foot stands ~0.1 m outside the axis), the feet's
friction pulls it back in, and the hip's PD holds the rest: its error is its share / Kp, below
the normal forces' moment / Kp. So friction does not hold the hips out; it reduces their error."""
from __future__ import annotations

import mujoco
import numpy as np

from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec

STAND = np.array([0.0, 0.67, -1.3] * 4)       # FL FR RL RR (the URDF's order)
KP, KD, DAMPING_KD, STEP = 20.0, 2.0, 3.0, 0.0005


def moments_about(ph: MujocoPhysics, joint: str, leg: str) -> tuple[float, float]:
    """(normal, tangential) moment about ``joint``'s axis of the ground's forces on ``leg``."""
    m, d = ph.model, ph.data
    j = m.joint(f'go1/{joint}').id
    normal = tangential = 0.0
    for i in range(d.ncon):
        c = d.contact[i]
        if not m.body(m.geom_bodyid[c.geom2]).name.startswith(f'go1/{leg}_'):
            continue
        f = np.zeros(6)
        mujoco.mj_contactForce(m, d, i, f)
        frame, r = c.frame.reshape(3, 3), c.pos - d.xanchor[j]
        normal += np.cross(r, frame[0] * f[0]) @ d.xaxis[j]
        tangential += np.cross(r, frame[1:].T @ f[1:3]) @ d.xaxis[j]
    return normal, tangential


def test_the_rear_hips_carry_the_normal_forces_moment_less_what_friction_takes():
    ph = MujocoPhysics.create('empty', [RobotSpec('go1', 'go1_description')], step=STEP)
    joints, n = np.arange(12), np.zeros(12)
    ph.pd_commands('go1', joints, ph.joint_state('go1')[0], n, n, np.full(12, DAMPING_KD), n)
    ph.step(int(4.0 / STEP))
    q0 = ph.joint_state('go1')[0].copy()
    assert abs(q0[6]) > 0.25 and abs(q0[9]) > 0.25, q0      # lying, rear hips splayed
    for k in range(int(3.0 / STEP)):
        rate = min(k * STEP, 1.0)
        ph.pd_commands('go1', joints, q0 * (1 - rate) + STAND * rate, n, np.full(12, KP),
                       np.full(12, KD), n)
        ph.step(1)
    q, _, tau = ph.joint_state('go1')
    assert np.allclose(tau, KP * (STAND - q), atol=1e-3)    # the PD law, nothing else
    for k, leg, outward in ((6, 'RL', 1.0), (9, 'RR', -1.0)):
        normal, friction = moments_about(ph, f'{leg}_hip_joint', leg)
        assert outward * normal > 3.0, (leg, normal)          # splays the leg (N m)
        assert outward * friction < 0.0, (leg, friction)      # pulls it back in
        assert abs(q[k]) < outward * normal / KP, (leg, q[k], normal)  # its error: less
