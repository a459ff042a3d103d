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
