"""Tracking a plan on the robot: URDF-exact leg IK, feed-forward torques from the planned forces,
and the joint-space sequence around the plan (spec go1.md §7, R5.2-R5.4). No ROS here.

- IK (R2.3b, "URDF-exact"): per leg, damped Newton on the foot frame's position with pinocchio,
  the base at its planned pose, so base roll/pitch/yaw are honoured (R2.4: R_wb^T (p_W - r_W));
  the result is clamped to the joint limits. The plan's foot points are contact points on the
  ground; the foot frame is the sphere's centre, ``foot_radius`` above it.
- Feed-forward (R5.3, spec §12 row 8): tau_ff = -J^T f with f the ground-on-robot force of the
  plan and J the foot's linear Jacobian in world-aligned axes over the leg's joints.
- Sequence (R5.4): linear ramps between joint keyframes (current -> stand -> the plan's first
  sample), the plan at a playback speed (R5.6), then a hold of its last sample (or a ramp to a
  lying pose).
- Base feedback (issue 11; the thesis tracked open loop): ``reshape_swings`` makes the commanded
  swings lift off and touch down vertically, ``StanceShift`` moves the stance legs' targets so
  the base returns to the plan by a ramp per stance phase, ``SlipMeter`` measures stance slip.
"""
from __future__ import annotations

import dataclasses

import numpy as np

IK_TOLERANCE = 1e-7      # m: foot position error at which the Newton iteration stops
IK_MAX_ITERATIONS = 30
IK_DAMPING = 1e-6        # damped least squares, keeps the knee singularity (straight leg) finite


def rpy_matrix(rpy) -> np.ndarray:
    """World-from-base rotation of roll-pitch-yaw (x then y then z, fixed axes)."""
    r, p, y = rpy
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


class LegKinematics:
    """The feet of a floating-base robot in pinocchio. ``joints`` is the order of every joint
    vector here (the simulator's); ``legs`` lists, per foot frame, its leg's joint names."""

    def __init__(self, urdf_text: str, feet: list[str], legs: list[list[str]],
                 joints: list[str], foot_radius: float = 0.0):
        import pinocchio as pin
        from zoo_description_tools import load_pinocchio

        self.pin = pin
        self.model, self.data = load_pinocchio(urdf_text, floating=True)
        self.joints = list(joints)
        self.feet = [self.model.getFrameId(f) for f in feet]
        missing = [f for f, fid in zip(feet, self.feet) if fid >= len(self.model.frames)]
        if missing:
            raise ValueError(f'foot frame {missing[0]!r} is not in the URDF')
        jid = [self.model.getJointId(j) for j in self.joints]
        self.q_index = np.array([self.model.joints[i].idx_q for i in jid])
        self.v_index = np.array([self.model.joints[i].idx_v for i in jid])
        self.lower = self.model.lowerPositionLimit[self.q_index]
        self.upper = self.model.upperPositionLimit[self.q_index]
        self.legs = [np.array([self.joints.index(j) for j in leg]) for leg in legs]
        self.foot_offset = np.array([0.0, 0.0, foot_radius])

    def _configuration(self, base_pos, base_rpy, q: np.ndarray) -> np.ndarray:
        pin = self.pin
        config = pin.neutral(self.model)
        config[:3] = base_pos
        quat = pin.Quaternion(rpy_matrix(base_rpy))
        config[3:7] = [quat.x, quat.y, quat.z, quat.w]
        config[self.q_index] = q
        return config

    def foot_positions(self, base_pos, base_rpy, q: np.ndarray) -> np.ndarray:
        """(n_feet, 3) world positions of the contact points (foot frames minus the radius)."""
        pin = self.pin
        pin.framesForwardKinematics(self.model, self.data, self._configuration(base_pos, base_rpy,
                                                                                 q))
        return np.array([self.data.oMf[f].translation - self.foot_offset for f in self.feet])

    def foot_poses(self, base_pos, base_rpy, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(contact points (n_feet, 3), foot frame rotations (n_feet, 3, 3)), world."""
        pin = self.pin
        pin.framesForwardKinematics(self.model, self.data, self._configuration(base_pos, base_rpy,
                                                                                 q))
        return (np.array([self.data.oMf[f].translation - self.foot_offset for f in self.feet]),
                np.array([self.data.oMf[f].rotation for f in self.feet]))

    def _jacobians(self, config: np.ndarray) -> list[np.ndarray]:
        pin = self.pin
        pin.computeJointJacobians(self.model, self.data, config)
        pin.updateFramePlacements(self.model, self.data)
        frame = pin.ReferenceFrame.LOCAL_WORLD_ALIGNED
        return [pin.getFrameJacobian(self.model, self.data, f, frame)[:3, self.v_index[leg]]
                for f, leg in zip(self.feet, self.legs)]

    def ik(self, base_pos, base_rpy, feet_world: np.ndarray, q_guess: np.ndarray,
           which: np.ndarray | None = None) -> tuple[np.ndarray, float]:
        """Joint angles putting each contact point at ``feet_world`` with the base at its pose,
        from ``q_guess``; only the legs flagged in ``which`` (default: all) are solved, the others
        keep ``q_guess``. Returns (q clamped to the limits, worst foot error in m)."""
        q = np.clip(np.asarray(q_guess, dtype=float).copy(), self.lower, self.upper)
        target = np.asarray(feet_world, dtype=float) + self.foot_offset
        which = np.ones(len(self.legs), dtype=bool) if which is None else np.asarray(which, bool)
        error = 0.0
        for _ in range(IK_MAX_ITERATIONS):
            config = self._configuration(base_pos, base_rpy, q)
            jacobians = self._jacobians(config)
            residual = target - np.array([self.data.oMf[f].translation for f in self.feet])
            error = float(np.abs(residual[which]).max()) if which.any() else 0.0
            if error < IK_TOLERANCE:
                break
            for solve, leg, jac, res in zip(which, self.legs, jacobians, residual):
                if solve:
                    step = jac.T @ np.linalg.solve(jac @ jac.T + IK_DAMPING * np.eye(3), res)
                    q[leg] = np.clip(q[leg] + step, self.lower[leg], self.upper[leg])
        return q, error

    def planted_rates(self, base_pos, base_rpy, q: np.ndarray, base_vel, base_omega
                      ) -> np.ndarray:
        """Joint velocities that keep every foot still in the world while the base moves with
        ``base_vel``, ``base_omega`` (world axes): per leg J dq = -(v + w x (p_foot - p_base))."""
        config = self._configuration(base_pos, base_rpy, q)
        jacobians = self._jacobians(config)
        dq = np.zeros(len(self.joints))
        for f, leg, jac in zip(self.feet, self.legs, jacobians):
            lever = self.data.oMf[f].translation - np.asarray(base_pos, float)
            moved = np.asarray(base_vel, float) + np.cross(base_omega, lever)
            dq[leg] = -np.linalg.solve(jac + IK_DAMPING * np.eye(3), moved)
        return dq

    def feed_forward(self, base_pos, base_rpy, q: np.ndarray, forces_world: np.ndarray
                     ) -> np.ndarray:
        """tau_ff = -J^T f per leg: the joint torques with which the feet push the ground so that
        the ground pushes the robot with ``forces_world`` (ground-on-robot, world axes)."""
        tau = np.zeros(len(self.joints))
        jacobians = self._jacobians(self._configuration(base_pos, base_rpy, q))
        for leg, jac, f in zip(self.legs, jacobians, np.asarray(forces_world, dtype=float)):
            tau[leg] = -jac.T @ f
        return tau


@dataclasses.dataclass
class Ramp:
    """A linear move from ``start`` to ``end`` joint angles over ``duration`` seconds."""
    start: np.ndarray
    end: np.ndarray
    duration: float

    def at(self, t: float) -> tuple[np.ndarray, np.ndarray]:
        if self.duration <= 0:
            return self.end.copy(), np.zeros_like(self.end)
        s = min(max(t / self.duration, 0.0), 1.0)
        rate = (self.end - self.start) / self.duration if s < 1.0 else np.zeros_like(self.end)
        return self.start + s * (self.end - self.start), rate


@dataclasses.dataclass
class TrackedSample:
    """What the joints are told at one tick: PD targets and the feed-forward torque."""
    phase: str                 # 'ramp', 'track' or 'hold'
    q: np.ndarray
    dq: np.ndarray
    tau: np.ndarray
    plan_time: float | None    # the plan's time being tracked ('track' only)


class JointTrajectory:
    """Joint targets of the whole run, precomputed: ramps to the plan's first pose, the plan
    sampled at ``dt`` of plan time and played at ``speed``, then a hold (``end``: None) or a
    ramp to the ``end`` pose. ``q_plan``/``tau_plan`` are (N, n_joints) at plan times ``t``."""

    def __init__(self, q_start: np.ndarray, keyframes: list[np.ndarray], ramp_s: float,
                 t: np.ndarray, q_plan: np.ndarray, tau_plan: np.ndarray, speed: float = 1.0,
                 end: np.ndarray | None = None):
        if speed <= 0:
            raise ValueError(f'playback speed {speed}: expected > 0')
        poses = [np.asarray(q_start, float)] + [np.asarray(k, float) for k in keyframes]
        poses.append(q_plan[0])
        self.ramps = [Ramp(a, b, ramp_s) for a, b in zip(poses, poses[1:])]
        self.t, self.q_plan, self.tau_plan, self.speed = t, q_plan, tau_plan, float(speed)
        self.dq_plan = np.gradient(q_plan, t, axis=0) if len(t) > 1 else np.zeros_like(q_plan)
        self.track_start = ramp_s * len(self.ramps)
        self.track_end = self.track_start + (t[-1] - t[0]) / self.speed
        self.final = Ramp(q_plan[-1], end, ramp_s) if end is not None else None

    @property
    def duration(self) -> float:
        return self.track_end + (self.final.duration if self.final else 0.0)

    def at(self, time_s: float) -> TrackedSample:
        n = len(self.tau_plan[0])
        if time_s < self.track_start:
            i = min(int(time_s // self.ramps[0].duration), len(self.ramps) - 1) \
                if self.ramps[0].duration > 0 else len(self.ramps) - 1
            q, dq = self.ramps[i].at(time_s - i * self.ramps[0].duration)
            return TrackedSample('ramp', q, dq, np.zeros(n), None)
        if time_s <= self.track_end:
            plan_t = self.t[0] + (time_s - self.track_start) * self.speed
            q = _interp(self.t, self.q_plan, plan_t)
            dq = _interp(self.t, self.dq_plan, plan_t) * self.speed
            return TrackedSample('track', q, dq, _interp(self.t, self.tau_plan, plan_t), plan_t)
        if self.final is not None:
            q, dq = self.final.at(time_s - self.track_end)
            return TrackedSample('ramp', q, dq, np.zeros(n), None)
        return TrackedSample('hold', self.q_plan[-1].copy(), np.zeros(n), self.tau_plan[-1].copy(),
                             None)


def interpolate(t: np.ndarray, values: np.ndarray, at: float) -> np.ndarray:
    """``values`` (sampled at ``t``) at time ``at``, linearly, held beyond the ends."""
    return _interp(t, values, at)


def _interp(t: np.ndarray, values: np.ndarray, at: float) -> np.ndarray:
    i = int(np.clip(np.searchsorted(t, at) - 1, 0, len(t) - 2)) if len(t) > 1 else 0
    if len(t) == 1:
        return values[0].copy()
    s = float(np.clip((at - t[i]) / (t[i + 1] - t[i]), 0.0, 1.0))
    return values[i] + s * (values[i + 1] - values[i])


def plan_to_joints(kin: LegKinematics, t: np.ndarray, base_pos: np.ndarray,
                   base_euler: np.ndarray, foot_pos: np.ndarray, foot_force: np.ndarray,
                   q_guess: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Joint angles and feed-forward torques at every plan sample (R5.3); returns (q, tau,
    worst IK error in m). Each sample's IK starts from the previous one's solution."""
    q_all, tau_all, worst = [], [], 0.0
    q = np.asarray(q_guess, float)
    for k in range(len(t)):
        q, err = kin.ik(base_pos[k], base_euler[k], foot_pos[k], q)
        worst = max(worst, err)
        q_all.append(q.copy())
        tau_all.append(kin.feed_forward(base_pos[k], base_euler[k], q, foot_force[k]))
    return np.array(q_all), np.array(tau_all), worst


# -- base feedback and swing shaping (issue 11: closing the loop the thesis left open) -------------

def rotation_vector(rot: np.ndarray) -> np.ndarray:
    """The axis * angle of a rotation matrix (its matrix logarithm), angle in [0, pi]."""
    cos = float(np.clip((np.trace(rot) - 1.0) / 2.0, -1.0, 1.0))
    angle = np.arccos(cos)
    skew = np.array([rot[2, 1] - rot[1, 2], rot[0, 2] - rot[2, 0], rot[1, 0] - rot[0, 1]])
    if angle < 1e-9:
        return 0.5 * skew
    if np.pi - angle < 1e-6:  # 180 degrees: the axis from the symmetric part
        return np.pi * np.sqrt(np.clip((np.diag(rot) + 1.0) / 2.0, 0.0, None))
    return angle / (2.0 * np.sin(angle)) * skew


@dataclasses.dataclass
class PlanState:
    """The plan at one instant (world frame)."""
    base_pos: np.ndarray
    base_rpy: np.ndarray
    foot_pos: np.ndarray      # (n_feet, 3) contact points
    contact: np.ndarray       # (n_feet,) bool


class PlanSampler:
    """The plan's base and feet at any plan time (linear interpolation between the samples);
    contact flags from the plan's ``schedule`` (exact phase boundaries), or else from the
    nearest sample (which moves every boundary up to half a sample: 5 ms at the plans' 10 ms)."""

    def __init__(self, plan, schedule=None):
        self.schedule = schedule
        self.t = np.asarray(plan['t'], float)
        self.base_pos = np.asarray(plan['base_pos'], float)
        self.base_rpy = np.asarray(plan['base_euler'], float)
        self.foot_pos = np.asarray(plan['foot_pos'], float)
        self.contact = np.asarray(plan['contact'], bool)

    def at(self, plan_t: float) -> PlanState:
        if self.schedule is not None:
            contact = self.schedule.contact([plan_t])[0]
        else:
            contact = self.contact[int(np.argmin(np.abs(self.t - plan_t)))].copy()
        return PlanState(_interp(self.t, self.base_pos, plan_t),
                         _interp(self.t, self.base_rpy, plan_t),
                         _interp(self.t, self.foot_pos, plan_t), contact)


def stance_phases(t: np.ndarray, contact: np.ndarray) -> list[list[tuple[float, float]]]:
    """Per foot, its stance phases as (touchdown, lift-off) plan times from sampled contact
    flags; a stance running to the plan's end lifts off at its last sample. (A plan's exact
    phases: ``schedule.ContactSchedule.stances``.)"""
    out = []
    for flags in np.asarray(contact, bool).T:
        phases, start = [], None
        for k, down in enumerate(flags):
            if down and start is None:
                start = t[k]
            elif not down and start is not None:
                phases.append((start, t[k - 1]))
                start = None
        if start is not None:
            phases.append((start, t[-1]))
        out.append(phases)
    return out


class StanceShift:
    """Base feedback through the stance legs' joint targets (issue 11).

    At each planned touchdown a foot takes the base's measured error to the plan (x, y, yaw) at
    that instant, frozen for the phase; over that stance its joint targets are the IK of its
    planned foot with the planned base moved back by ``s * gain * error`` (s ramps 0 -> 1 from
    touchdown to lift-off; the shift is at most ``limit`` m and ``limit / 0.25`` rad). The stiff
    joint PD then carries the base back towards the plan relative to the feet that hold the
    ground, by a few centimetres per step, with the small extra forces of a ramp over 0.3 s.
    Nothing measured enters a target during a phase (no loop inside a step; the earlier
    attempts that aimed the swing feet from the measured base closed one through the swing
    legs' reaction), and the swing legs keep the open-loop law."""

    def __init__(self, kin: LegKinematics, phases: list[list[tuple[float, float]]],
                 gain: float = 1.0, limit: float = 0.05):
        self.kin, self.gain, self.limit = kin, float(gain), float(limit)
        self.phases = phases  # per foot, (touchdown, lift-off) of each stance
        self.errors: dict[tuple[int, int], np.ndarray] = {}

    def _phase(self, foot: int, plan_t: float) -> int | None:
        for j, (a, b) in enumerate(self.phases[foot]):
            if a <= plan_t <= b:
                return j
        return None

    def targets(self, plan: PlanState, plan_t: float, q_plan: np.ndarray, base_pos,
                base_rpy) -> tuple[np.ndarray, np.ndarray]:
        """(joint targets, (n_feet, 3) shift x, y, yaw per foot) at plan time ``plan_t`` with
        the base measured at ``base_pos``, ``base_rpy``."""
        q = np.array(q_plan, float)
        shifts = np.zeros((len(self.kin.legs), 3))
        error = np.array([base_pos[0] - plan.base_pos[0], base_pos[1] - plan.base_pos[1],
                          _wrap(base_rpy[2] - plan.base_rpy[2])])
        for i, leg in enumerate(self.kin.legs):
            j = self._phase(i, plan_t)
            if j is None:
                continue
            frozen = self.errors.setdefault((i, j), error.copy())
            a, b = self.phases[i][j]
            s = 1.0 if b <= a else min(max((plan_t - a) / (b - a), 0.0), 1.0)
            shift = s * self.gain * frozen
            norm = np.hypot(shift[0], shift[1])
            if norm > self.limit:
                shift[:2] *= self.limit / norm
            shift[2] = np.clip(shift[2], -self.limit / 0.25, self.limit / 0.25)
            shifts[i] = shift
            if not shift.any():
                continue
            which = np.zeros(len(self.kin.legs), bool)
            which[i] = True
            q_i, _ = self.kin.ik(plan.base_pos - [shift[0], shift[1], 0.0],
                                 plan.base_rpy - [0.0, 0.0, shift[2]], plan.foot_pos, q,
                                 which=which)
            q[leg] = q_i[leg]
        return q, shifts


def _wrap(angle: float) -> float:
    return float((angle + np.pi) % (2 * np.pi) - np.pi)


def reshape_swings(t: np.ndarray, foot_pos: np.ndarray, contact: np.ndarray,
                   warp: float = 0.0, lift: float = 0.0) -> np.ndarray:
    """The plan's swing foot paths made to leave and meet the ground vertically (issue 11: the
    feet slid at lift-off and touchdown, where TOWR's swing cubics move the foot ~2-3x faster
    forwards than up). Per swing (from the last stance sample to the first next one, s in
    0..1 of its time): the horizontal path is run on the time (1 - warp) s + warp s^2 (3 - 2 s),
    which with ``warp`` = 1 starts and ends with zero slope (the foot rises before it moves
    forwards and stops before it comes down; mid-swing it moves 1.5x faster), and ``lift``
    sin^2(pi s) metres are added to the height. Stance samples are unchanged."""
    out = np.array(foot_pos, dtype=float)
    if lift <= 0 and warp <= 0:
        return out
    source = np.asarray(foot_pos, dtype=float)
    for f, flags in enumerate(np.asarray(contact, bool).T):
        k = 0
        while k < len(flags):
            if flags[k]:
                k += 1
                continue
            a = k
            while k < len(flags) and not flags[k]:
                k += 1
            lo, td = max(a - 1, 0), min(k, len(flags) - 1)  # the stance samples around it
            if td <= lo:
                continue
            span = t[td] - t[lo]
            for j in range(a, k):
                s = (t[j] - t[lo]) / span
                if warp > 0:
                    tw = t[lo] + ((1 - warp) * s + warp * s * s * (3 - 2 * s)) * span
                    out[j, f, :2] = _interp(t, source[:, f, :2], tw)
                out[j, f, 2] = source[j, f, 2] + lift * np.sin(np.pi * s) ** 2
    return out


class SlipMeter:
    """Stance-foot slip on measured feet: per foot, the horizontal path length of the foot's
    material point at the ground while the plan has it in stance and it is within ``on_ground``
    of the planned foot height (a foot not down yet, or already lifted, is not slipping). The
    foot is a sphere of ``radius`` fixed to the calf: rolling moves its centre by r * angle
    without slipping, so the contact point moves by the centre's step plus d_phi x (-r z) for a
    small world rotation d_phi of the foot (without this, rolling counted as a quarter to a half
    of the slip of the open-loop Earth run). ``per_stance``: per foot, the slip of each planned
    stance in turn (a stance starts where the plan's stance flag rises)."""

    def __init__(self, n_feet: int, radius: float = 0.0, on_ground: float = 0.01):
        self.total = np.zeros(n_feet)
        self.per_stance: list[list[float]] = [[] for _ in range(n_feet)]
        self._last_stance = np.zeros(n_feet, dtype=bool)
        self.radius, self.on_ground = radius, on_ground
        self.samples = 0
        self._last: tuple[np.ndarray, np.ndarray] | None = None
        self._last_down = np.zeros(n_feet, dtype=bool)

    def update(self, feet: np.ndarray, rotations: np.ndarray, stance: np.ndarray,
               ground_z: np.ndarray) -> None:
        """One measurement: contact points (n_feet, 3), foot rotations (n_feet, 3, 3), the
        plan's stance flags and the ground height under each foot."""
        feet, rotations = np.asarray(feet, float), np.asarray(rotations, float)
        stance = np.asarray(stance, bool)
        for i in np.flatnonzero(stance & ~self._last_stance):
            self.per_stance[i].append(0.0)
        down = stance & (feet[:, 2] - np.asarray(ground_z) < self.on_ground)
        if self._last is not None:
            for i in np.flatnonzero(down & self._last_down):
                d_phi = rotation_vector(rotations[i] @ self._last[1][i].T)
                step = feet[i] - self._last[0][i] + np.cross(d_phi, [0.0, 0.0, -self.radius])
                slip = float(np.hypot(step[0], step[1]))
                self.total[i] += slip
                self.per_stance[i][-1] += slip
        self._last, self._last_down, self._last_stance = (feet, rotations), down, stance
        self.samples += 1


def skew(v) -> np.ndarray:
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


class StanceForces:
    """Stance-leg forces with base feedback (issue 28): the plan's ground forces plus the
    least-norm change that adds a PD wrench on the base's pose and twist error to the plan
    (the balance controller of force-controlled quadrupeds), each force then kept inside a
    friction pyramid ``mu`` with at least ``fz_min`` N down. The stance legs apply them as
    torques -J^T f: a foot pushed with a force inside its cone stays where it landed. Gains per
    unit mass and inertia: position 150 /s^2, 25 /s (2 Hz, damping ratio 1); attitude 1000 /s^2,
    65 /s (5 Hz, 1.03): the body turns about the diagonal of two stance feet, which their forces
    cannot resist, so the attitude takes the stiffer loop whenever another axis can act."""

    def __init__(self, mass: float, inertia: np.ndarray, kp=(150.0, 1000.0), kd=(25.0, 65.0),
                 mu: float = 0.4, fz_min: float = 2.0, regularisation: float = 1e-3):
        self.mass, self.inertia = float(mass), np.asarray(inertia, float)
        self.kp, self.kd = kp, kd
        self.mu, self.fz_min, self.reg = float(mu), float(fz_min), float(regularisation)

    def forces(self, plan_pos, plan_rpy, plan_vel, plan_omega, plan_forces, stance,
               pos, rot, vel, omega, feet) -> np.ndarray:
        """(n_feet, 3) ground-on-robot forces, zero for the feet not in ``stance``. Plan and
        measured base in world axes; ``rot`` world-from-base; ``feet`` measured contact points."""
        stance = np.asarray(stance, bool)
        out = np.zeros((len(stance), 3))
        if not stance.any():
            return out
        rot_plan = rpy_matrix(plan_rpy)
        inertia_w = rot @ self.inertia @ rot.T
        w = np.concatenate([
            self.mass * (self.kp[0] * (np.asarray(plan_pos) - pos)
                         + self.kd[0] * (np.asarray(plan_vel) - vel)),
            inertia_w @ (self.kp[1] * rotation_vector(rot_plan @ rot.T)
                         + self.kd[1] * (np.asarray(plan_omega) - omega))])
        idx = np.flatnonzero(stance)
        a = np.zeros((6, 3 * len(idx)))
        for k, i in enumerate(idx):
            a[:3, 3 * k:3 * k + 3] = np.eye(3)
            a[3:, 3 * k:3 * k + 3] = skew(np.asarray(feet[i]) - pos)
        scale = np.diag([1.0, 1.0, 1.0, 10.0, 10.0, 10.0])  # moments weigh as forces at 10 cm
        aw = scale @ a
        delta = aw.T @ np.linalg.solve(aw @ aw.T + self.reg * np.eye(6), scale @ w)
        for k, i in enumerate(idx):
            f = np.asarray(plan_forces[i], float) + delta[3 * k:3 * k + 3]
            f[2] = max(f[2], self.fz_min)
            tangential = np.hypot(f[0], f[1])
            if tangential > self.mu * f[2]:
                f[:2] *= self.mu * f[2] / tangential
            out[i] = f
        return out


class FootHeights:
    """Issue 28: the legs' targets put the feet at the plan's heights in the world, from the
    measured base, whatever the body's height and tilt; horizontally they stay where the
    open-loop law puts them. During a two-foot stance the body turns about the diagonal of its
    stance feet, which their forces cannot resist, and rides 4-5 mm high: the swing feet, aimed
    from the plan's body, were then 10-16 mm above the ground at their touchdown and landed
    5-19 ms late (a stance is in contact 98 % of its time with 6.5 ms missing).

    - ``swing``: over the last ``aim_s`` of a swing the foot's height target moves (smoothstep)
      from the open-loop law's to ``depth`` below the planned touchdown height, so that the foot
      meets the ground on time and with some speed (aimed at the ground itself, the plan's
      touchdown speed of about zero left it creeping the last millimetres down). With a
      ``speed`` instead, it moves to a line that meets the planned touchdown height at the
      touchdown, descending at ``speed`` (m/s): on time, neither creeping nor early.
    - ``stance``: a landed foot's target is at the planned height, at x, y of the law (the
      plan's angles put it 10-15 mm up, which the stance PD pulled it to) or of the point where
      it landed (``planted_stance``: the law's x, y drag a foot centimetres aside when the body
      is off the plan; the feet slid at the friction limit and chattered)."""

    def __init__(self, kin: LegKinematics, phases: list[list[tuple[float, float]]], aim_s: float,
                 depth: float, speed: float | None = None):
        """``phases``: per foot, (touchdown, lift-off) of each stance."""
        self.kin, self.aim_s, self.depth, self.speed = kin, float(aim_s), float(depth), speed
        self.touchdowns = [np.array([a for a, _ in foot]) for foot in phases]

    def _at(self, foot: int, point, base_pos, base_rpy, q: np.ndarray,
            feet: np.ndarray) -> np.ndarray:
        """``q`` with ``foot``'s leg solved to put its contact point at ``point`` (``feet``: the
        contact points of ``q`` from the base, solved once by the caller)."""
        target = feet.copy()
        target[foot] = point
        which = np.zeros(len(self.kin.legs), bool)
        which[foot] = True
        return self.kin.ik(base_pos, base_rpy, target, q, which=which)[0]

    def swing(self, foot: int, plan_t: float, plan: PlanState, base_pos, base_rpy,
              q: np.ndarray) -> np.ndarray:
        """Joint targets ``q`` with the swinging ``foot`` aimed at its touchdown, if it is due
        within ``aim_s``; else ``q``."""
        ahead = self.touchdowns[foot][self.touchdowns[foot] > plan_t]
        if self.aim_s <= 0 or not len(ahead) or ahead[0] - plan_t >= self.aim_s:
            return q
        s = 1.0 - (ahead[0] - plan_t) / self.aim_s
        w = s * s * (3.0 - 2.0 * s)
        feet = self.kin.foot_positions(base_pos, base_rpy, q)
        law = feet[foot]
        goal = (plan.foot_pos[foot, 2] - self.depth if self.speed is None
                else plan.foot_pos[foot, 2] + self.speed * (ahead[0] - plan_t))
        return self._at(foot, [law[0], law[1], (1.0 - w) * law[2] + w * goal], base_pos,
                        base_rpy, q, feet)

    def stance(self, foot: int, plan: PlanState, base_pos, base_rpy, q: np.ndarray,
               landed_at=None) -> np.ndarray:
        """Joint targets ``q`` with the landed ``foot`` at its planned height, at x, y of the law
        or of ``landed_at``."""
        feet = self.kin.foot_positions(base_pos, base_rpy, q)
        point = feet[foot] if landed_at is None else landed_at
        return self._at(foot, [point[0], point[1], plan.foot_pos[foot, 2]], base_pos, base_rpy, q,
                        feet)
