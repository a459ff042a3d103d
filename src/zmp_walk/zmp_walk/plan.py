"""The whole walk as joint samples: positions, velocities and feed-forward torques.

:func:`build_plan`, from a pinocchio model of the Nao (floating base) and :class:`ZmpWalkParams`:

1. footsteps and the ZMP reference (:mod:`footsteps`);
2. the centre of mass from the ZMP reference (:func:`lipm.com_from_zmp`, pendulum height = the
   centre of mass's height in the walking posture), starting at rest where the reset posture has it;
3. per sample, the torso position that puts the whole-body centre of mass (pinocchio, arms and
   swing leg included) on that path, with the legs by :func:`leg_ik.leg_angles` (a few fixed-point
   iterations on the torso's x and y);
4. one correction: the multibody ZMP of that motion (:func:`lipm.multibody_zmp`) misses the
   reference by the swing leg's and the arms' dynamics (up to 32 mm on the Nao); the
   centre of mass is moved by the pendulum's answer to that error and step 3 repeated (a second
   round oscillates rather than converges: measured, not used);
5. inverse dynamics (pinocchio RNEA on the floating base): the ground wrench the motion needs is
   split between the feet by where the ZMP reference lies between them (a foot in the air takes
   none; the weighted least-norm split), and the joint torques that remain are the feed-forward.

The plan loops a full cycle (two steps, ending five steps before the planned ones) forever;
the start has died out by then (the pendulum's transients decay as exp(-t sqrt(g / z_c)),
z_c ~ 0.27 m: e^-6 per second).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .footsteps import FEET, Footsteps, quintic
from .leg_ik import LEG_JOINTS, LegGeometry, leg_angles, reach
from .lipm import central_velocities, com_from_zmp, multibody_zmp
from .params import ZmpWalkParams

# A carrying posture for the arms (rad), near the Nao's own "stand init": upper arms down and a
# little out, elbows bent and turned in (naoV40 limits; the left side mirrors the right).
ARM_POSTURE = {'LShoulderPitch': 1.45, 'LShoulderRoll': 0.15, 'LElbowYaw': -1.2,
               'LElbowRoll': -0.5, 'RShoulderPitch': 1.45, 'RShoulderRoll': -0.15,
               'RElbowYaw': 1.2, 'RElbowRoll': 0.5}
HELD_ZERO = ('LHipYawPitch', 'RHipYawPitch')
COM_ITERATIONS = 4
# the looped cycle ends this many steps before the planned ones do: the stop they plan at the end
# reaches back as exp(-t sqrt(g / z_c)), 2e-5 m of the centre of mass three steps before it
LOOP_BEFORE_END = 5


@dataclass
class WalkPlan:
    joints: tuple[str, ...]
    dt: float
    q: np.ndarray            # (n, J) rad
    dq: np.ndarray           # (n, J) rad/s
    tau: np.ndarray          # (n, J) N m, feed-forward
    loop_start: float        # s: the looped cycle [loop_start, loop_end)
    loop_end: float
    torso: np.ndarray        # (n, 3) planned torso position (diagnostics)
    com: np.ndarray          # (n, 2) planned centre of mass
    zmp_ref: np.ndarray      # (n, 2)
    zmp_multibody: np.ndarray  # (n, 2) of the final motion
    footsteps: Footsteps
    _rows: tuple | None = field(default=None, repr=False)

    @property
    def period(self) -> float:
        return self.loop_end - self.loop_start

    ARRAYS = ('q', 'dq', 'tau', 'torso', 'com', 'zmp_ref', 'zmp_multibody')

    def to_json(self) -> dict:
        out = {k: getattr(self, k).tolist() for k in self.ARRAYS}
        out.update(joints=list(self.joints), dt=self.dt, loop_start=self.loop_start,
                   loop_end=self.loop_end, sole_center_x=self.footsteps.sole_center_x)
        return out

    @classmethod
    def from_json(cls, d: dict, p: ZmpWalkParams) -> 'WalkPlan':
        arrays = {k: np.array(d[k], dtype=float) for k in cls.ARRAYS}
        return cls(tuple(d['joints']), d['dt'], loop_start=d['loop_start'],
                   loop_end=d['loop_end'], footsteps=Footsteps(p, d['sole_center_x']), **arrays)

    def index(self, elapsed: float) -> tuple[int, float]:
        """Sample index and fraction for ``elapsed`` s of walking (looped after the start)."""
        t = max(elapsed, 0.0)
        if t >= self.loop_end:
            t = self.loop_start + (t - self.loop_start) % self.period
        f = t / self.dt
        i = min(int(f), len(self.q) - 2)
        return i, f - i

    def at(self, elapsed: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(q, dq, tau) at ``elapsed``: positions by cubic Hermite interpolation of the samples and
        their velocities, velocities and torques linearly."""
        i, a = self.index(elapsed)
        return self._interpolate(i, a)

    def lists_at(self, elapsed: float) -> tuple[list, list, list]:
        """:meth:`at` as lists; on a sample (a command rate that divides the plan's: the
        shipped 250 Hz on its 4 ms) the sample's own lists, prepared once (the Walker's per-tick
        path)."""
        i, a = self.index(elapsed)
        if a < 1e-9 or a > 1.0 - 1e-9:
            k = i if a < 0.5 else i + 1
            if self._rows is None:
                self._rows = (self.q.tolist(), self.dq.tolist(), self.tau.tolist())
            return self._rows[0][k], self._rows[1][k], self._rows[2][k]
        q, dq, tau = self._interpolate(i, a)
        return q.tolist(), dq.tolist(), tau.tolist()

    def _interpolate(self, i: int, a: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        q0, q1, v0, v1 = self.q[i], self.q[i + 1], self.dq[i], self.dq[i + 1]
        h = self.dt
        a2, a3 = a * a, a * a * a
        q = ((2 * a3 - 3 * a2 + 1) * q0 + (a3 - 2 * a2 + a) * h * v0
             + (-2 * a3 + 3 * a2) * q1 + (a3 - a2) * h * v1)
        return q, v0 + (v1 - v0) * a, self.tau[i] + (self.tau[i + 1] - self.tau[i]) * a


def sole_center_x(model, urdf_text: str) -> float:
    """How far ahead of the sole frame the sole box's centre lies (from the URDF collision)."""
    import pinocchio as pin
    geom = pin.buildGeomFromUrdfString(model, urdf_text, pin.GeometryType.COLLISION)
    sole = model.frames[model.getFrameId('l_sole')]
    boxes = [o for o in geom.geometryObjects
             if o.parentJoint == sole.parentJoint and hasattr(o.geometry, 'halfSide')]
    if len(boxes) != 1:
        raise ValueError(f'zmp walk: expected one collision box on the link of l_sole, found '
                         f'{len(boxes)}')
    return float(boxes[0].placement.translation[0] - sole.placement.translation[0])


def build_plan(model, urdf_text: str, p: ZmpWalkParams) -> WalkPlan:
    import pinocchio as pin
    data = model.createData()
    legs = {s: LegGeometry.from_model(model, s) for s in FEET}
    joints = tuple(f'{s}{j}' for s in FEET for j in LEG_JOINTS) + HELD_ZERO + tuple(ARM_POSTURE)
    qidx = {}
    for name in joints:
        if not model.existJointName(name):
            raise ValueError(f'zmp walk: the model has no joint {name}')
        qidx[name] = model.joints[model.getJointId(name)].idx_q
    lower, upper = model.lowerPositionLimit, model.upperPositionLimit
    # the reset posture: every joint 0, kept inside its limits (the elbow rolls' exclude 0)
    start = {j: float(np.clip(0.0, lower[qidx[j]], upper[qidx[j]])) for j in joints}

    steps = Footsteps(p, sole_center_x(model, urdf_text))
    n = int(round((steps.end + 1.0) / p.dt)) + 1
    ts = np.arange(n) * p.dt
    px, py = steps.zmp_reference(ts)

    q0 = pin.neutral(model)
    for j, v in start.items():
        q0[qidx[j]] = v
    pin.centerOfMass(model, data, q0)
    com0 = data.com[0].copy()
    pin.framesForwardKinematics(model, data, q0)
    stand_height = -float(data.oMf[model.getFrameId('l_sole')].translation[2])
    if not p.torso_height < stand_height:
        raise ValueError(f'torso_height: expected below the straight-legged {stand_height:.4f} m '
                         f'(the knees must bend), got {p.torso_height}')
    z_c = p.torso_height + com0[2]  # the pendulum's height: the CoM's in the walking posture

    feet = {f: np.array([steps.foot(f, t) for t in ts]) for f in FEET}
    crouch = quintic(ts / p.crouch_time)
    torso_z = stand_height + (p.torso_height - stand_height) * crouch

    def solve(cx: np.ndarray, cy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        qs = np.zeros((n, model.nq))
        torso = np.zeros((n, 3))
        xy = np.zeros(2)
        q = q0.copy()
        for i in range(n):
            for j, target in ARM_POSTURE.items():
                q[qidx[j]] = start[j] + (target - start[j]) * crouch[i]
            for _ in range(COM_ITERATIONS):
                body = np.array([xy[0], xy[1], torso_z[i]])
                for s in FEET:
                    for j, v in zip(LEG_JOINTS, leg_angles(legs[s], body, feet[s][i])):
                        q[qidx[f'{s}{j}']] = v
                q[:3] = body
                q[3:7] = (0.0, 0.0, 0.0, 1.0)
                pin.centerOfMass(model, data, q)
                xy = xy + (np.array([cx[i], cy[i]]) - data.com[0][:2])
            qs[i] = q
            torso[i] = q[:3]
        return qs, torso

    cx = com_from_zmp(px, com0[0], p.dt, z_c, p.jerk_weight)
    cy = com_from_zmp(py, com0[1], p.dt, z_c, p.jerk_weight)
    qs, torso = solve(cx, cy)
    zx, zy = multibody_zmp(model, data, qs, p.dt)
    cx = cx - com_from_zmp(zx - px, 0.0, p.dt, z_c, p.jerk_weight)
    cy = cy - com_from_zmp(zy - py, 0.0, p.dt, z_c, p.jerk_weight)
    qs, torso = solve(cx, cy)
    zx, zy = multibody_zmp(model, data, qs, p.dt)
    worst = max(reach(legs[s], torso[i], feet[s][i]) for s in FEET for i in range(n))
    if worst > 1.0:
        raise ValueError(f'zmp walk: a foot is out of reach ({worst:.3f} of the leg length); '
                         'lower torso_height or shorten step_length')

    dq_full, tau_full = _velocities_and_torques(model, data, qs, p, steps, ts, py)
    cols = [qidx[j] for j in joints]
    vcols = [model.joints[model.getJointId(j)].idx_v for j in joints]
    last = steps.steps[-LOOP_BEFORE_END].start
    return WalkPlan(joints, p.dt, qs[:, cols], dq_full[:, vcols], tau_full[:, vcols],
                    last - 2 * p.step_time, last, torso, np.column_stack([cx, cy]),
                    np.column_stack([px, py]), np.column_stack([zx, zy]), steps)


def _velocities_and_torques(model, data, qs, p, steps, ts, py):
    import pinocchio as pin
    n = len(qs)
    v = central_velocities(model, qs, p.dt)
    a = np.zeros((n, model.nv))
    a[1:-1] = (v[2:] - v[:-2]) / (2.0 * p.dt)
    soles = [model.getFrameId(f'{s.lower()}_sole') for s in FEET]
    tau = np.zeros((n, model.nv))
    for i in range(n):
        full = pin.rnea(model, data, qs[i], v[i], a[i]).copy()
        pin.computeJointJacobians(model, data, qs[i])
        pin.updateFramePlacements(model, data)
        jac = [pin.getFrameJacobian(model, data, f, pin.LOCAL_WORLD_ALIGNED) for f in soles]
        left = steps.left_share(ts[i], py[i])
        share = np.r_[np.full(6, left), np.full(6, 1.0 - left)] + 1e-9
        base = np.hstack([j[:, :6].T for j in jac])              # 6 x 12: wrenches -> base rows
        wrench = share * (base.T @ np.linalg.solve((base * share) @ base.T, full[:6]))
        tau[i] = full - np.hstack([j.T for j in jac]) @ wrench
    return v, tau
