"""The plan tracker node (spec go1.md §7, R5): plans at start-up (or loads ``plan_file``), turns
the plan into joint targets with URDF-exact IK and feed-forward torques (``tracking``), and
streams PD + feed-forward commands at ``rate`` Hz on ``/<robot>/joint_pd_commands``
(zoo_interfaces/JointPDCommand: the simulator's motors, or a Go1 bridge, evaluate the law).

Gravity and terrain: the world's, from the simulator's latched ``/sim/gravity`` and ``/sim/world``;
the plan is made when both are known (joint states before that wait). Under real ROS the node
waits for them in its constructor (up to ``WORLD_WAIT_S``), so that it is ready with its plan as
before. The ``gravity`` (|g|, m/s^2; > 0) and ``world`` (a world name or path; non-empty)
parameters override the simulator's; with both (or ``plan_file``) the plan is made at once.

Sequence: from the measured joints to the stand pose, to the plan's first pose (``ramp_s`` each),
the plan at ``playback_speed``, then a hold of its last pose.

Base feedback (issue 11; the go1_trot_* scenarios turn it on): ``base_feedback`` moves the stance
legs' targets so the base returns to the plan (``tracking.StanceShift``, from
``/<robot>/odometry/ground_truth``), ``swing_warp`` re-times the commanded swings so that they leave
and meet the ground vertically (``tracking.reshape_swings``; no longer needed since the planner's
swings lift before they move, so the scenarios keep 0), ``command_lead_s`` sends the PD targets
(q, dq) that far ahead of the plan's clock (the joints follow their targets ~10 ms late; the
feed-forward torques stay on time). The defaults (false, 0, 0) are the thesis' open loop, which
other scenarios (go1_trot_udp) track unchanged. ``stance_force`` (issue 28; the go1_trot_*
scenarios) replaces the stance shift: the stance legs push with the plan's forces plus a base PD
wrench on the measured base pose and twist (``tracking.StanceForces``) at a tenth of their joint
gains, so the feet stay where they landed instead of being held to targets from the planned base.

Metrics (summary.json): the plan's status, gravity and solve time; during the plan (R5.5) the
joint error at each tick against the plan's joint angles (``joint_rms_error_rad``, worst joint;
per joint; maximum), and at each joint-state sample's own time against the plan's angles and
against the held command; the base's xy error to the plan;
stance-foot slip per foot and per planned stance (measured feet, rolling removed); the final
base pose and its distance
to the goal. ``robozoo run`` writes the plan into the run folder (plan.npz).
"""
from __future__ import annotations

import collections
import math
import time
from pathlib import Path

import numpy as np

from zoo_runtime import EMBEDDED, parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.tick_time import tick_time
from zoo_runtime.interfaces.geometry_msgs.msg import Vector3
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.std_msgs.msg import String
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand

from zoo_description_tools.physics import STANDARD_GRAVITY  # landing_aim_depth is given for it
from zoo_sim import WORLD_GRAVITY_TOPIC, WORLD_TOPIC

from .tracking import (FootHeights, JointTrajectory, LegKinematics, PlanSampler, SlipMeter,
                       StanceForces, StanceShift, interpolate, plan_to_joints, reshape_swings,
                       rpy_matrix)

Node = rclpy.node.Node

LEG_JOINTS = ('hip', 'thigh', 'calf')
# m: with planted_stance a foot has landed within at most this of its planned height (3 mm let
# a foot take the stance's soft gains 10-30 ms before it touched)
LANDED_WITHIN_PLANTED = 0.0005
# wall seconds the node waits for the world's gravity: the simulator's start-up under ros2 launch
WORLD_WAIT_S = 60.0


class PlanTracker(Node):
    def __init__(self, **kwargs):
        super().__init__('plan_tracker', **kwargs)
        p = parameter_schema.load('trajectory_optimizer', 'plan_tracker').declare(self)
        self.robot, self.robot_config = p['robot'], p['robot_config']
        self.plan_file, self.gravity = p['plan_file'], p['gravity']  # the plan's; 0: the world's
        self.goal, self.duration, self.gait = list(p['goal']), p['duration'], p['gait']
        self.world, self.mu, self.budget = p['world'], p['mu'], p['budget']
        self.max_rise = p['max_rise']
        self.rate, self.speed, self.ramp_s = p['rate'], p['playback_speed'], p['ramp_s']
        self.stand, self.end, self.lie = list(p['stand_pose']), p['end'], list(p['lie_pose'])
        self.kp, self.kd, self.foot_radius = list(p['kp']), list(p['kd']), p['foot_radius']
        # issue 11: base feedback through the stance legs' targets, and commanded swings that
        # lift off and touch down vertically; the defaults are the thesis' open loop
        self.base_feedback = p['base_feedback']
        self.shift_gain, self.shift_limit = p['shift_gain'], p['shift_limit']
        self.swing_warp, self.swing_lift = p['swing_warp'], p['swing_lift']
        self.lead_s = p['command_lead_s']
        self.stance_force = p['stance_force']
        self.stance_kp, self.stance_kd = p['stance_kp_scale'], p['stance_kd_scale']
        self.landing_depth = p['landing_depth']
        self.landed_within = (min(p['landed_within'], LANDED_WITHIN_PLANTED)
                              if p['planted_stance'] else p['landed_within'])
        self.foot_heights = p['foot_heights']
        self.landing_aim_s, self.landing_aim_depth = p['landing_aim_s'], p['landing_aim_depth']
        self.planted, self.landing_speed = p['planted_stance'], p['landing_speed']
        self.base_twist: tuple[np.ndarray, np.ndarray] | None = None  # world linear, angular
        self.base_rot: np.ndarray | None = None  # world-from-base, with base_pose and base_twist

        self.plan = None
        if self.plan_file or (self.gravity > 0 and self.world):
            self.plan = self._make_plan()
        else:
            self._wait_for_world()
        self.joints: list[str] | None = None
        self.trajectory: JointTrajectory | None = None
        self.q_measured: np.ndarray | None = None
        self.base_xy: np.ndarray | None = None
        self.base_pose: tuple[np.ndarray, np.ndarray] | None = None  # position, roll-pitch-yaw
        self.sampler: PlanSampler | None = None
        self.shifter: StanceShift | None = None
        self.stancer: StanceForces | None = None
        self.landed: np.ndarray | None = None  # per foot: landed in its current planned stance
        self.slip: SlipMeter | None = None
        self.base_errors: list[np.ndarray] = []
        self.q_reference: np.ndarray | None = None  # the plan's joints (targets may differ)
        self.command_errors: list[np.ndarray] = []
        self.sampled_errors: list[np.ndarray] = []
        self.sent_log: collections.deque = collections.deque(maxlen=64)  # (time ns, q sent)
        self.t0_ns: int | None = None
        self.errors: list[np.ndarray] = []
        self.sent = 0
        self.ik_error = float('nan')
        ns = f'/{self.robot}'
        self.pub = self.create_publisher(JointPDCommand, f'{ns}/joint_pd_commands', 10)
        self.create_subscription(JointState, f'{ns}/joint_states', self._on_joints, 10)
        self.create_subscription(Odometry, f'{ns}/odometry/ground_truth', self._on_odometry, 10)
        self._timer = self.create_timer(1.0 / self.rate, self._tick)

    # -- the plan ---------------------------------------------------------------------------------
    def _make_plan(self):
        from .plan_file import load_plan
        if self.plan_file:
            return load_plan(self.plan_file)
        from .planning import PlanRequest, make_plan
        plan, _ = make_plan(PlanRequest(robot=self.robot_config, gait=self.gait,
                                        duration=self.duration, goal=tuple(self.goal),
                                        gravity=self.gravity, world=self.world, mu=self.mu,
                                        budget_s=self.budget, max_rise=self.max_rise))
        if not plan.success:
            self.get_logger().error(f"plan failed: {plan['status']}; the robot keeps standing")
        return plan

    def _wait_for_world(self) -> None:
        """Plan once the world's gravity and terrain are known (the simulator's latched topics).
        A process of its own (real ROS) waits here; in the embedded world the messages come with
        the first spin (with --processes only once the lockstep runs: no node may wait here)."""
        qos = rclpy.qos.QoSProfile(depth=1,
                                   durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)
        if not self.gravity > 0:
            self.create_subscription(Vector3, WORLD_GRAVITY_TOPIC, self._on_world_gravity, qos)
        if not self.world:
            self.create_subscription(String, WORLD_TOPIC, self._on_world, qos)
        if EMBEDDED:
            return
        deadline = time.monotonic() + WORLD_WAIT_S
        while self.plan is None and time.monotonic() < deadline:
            rclpy.spin_once(self, timeout_sec=0.1)
        if self.plan is None:
            raise ValueError(f'plan_tracker: no gravity and world on {WORLD_GRAVITY_TOPIC}, '
                             f'{WORLD_TOPIC} within {WORLD_WAIT_S:g} s: no simulator runs (set '
                             'parameters gravity and world)')

    def _on_world_gravity(self, g: Vector3) -> None:
        if not self.gravity > 0:
            self.gravity = math.sqrt(g.x ** 2 + g.y ** 2 + g.z ** 2)
            self._plan_once_known()

    def _on_world(self, msg: String) -> None:
        if not self.world:
            self.world = msg.data or 'empty'   # no world file: flat ground
            self._plan_once_known()

    def _plan_once_known(self) -> None:
        if self.plan is None and self.gravity > 0 and self.world:
            self.plan = self._make_plan()

    def _prepare(self, joints: list[str], q_now: np.ndarray) -> None:
        """Joint targets for the whole run, once the robot's joints are known."""
        from zoo_description_tools import xacro_to_urdf
        from .robot_model import load_robot

        model = load_robot(self.robot_config)
        urdf = xacro_to_urdf(model.package, model.xacro_args)
        legs = [[j for j in joints if j.startswith(foot.split('_')[0] + '_')]
                for foot in model.feet]
        kin = self.kin = LegKinematics(urdf, list(model.feet), legs, joints, self.foot_radius)
        stand = np.array([self.stand[LEG_JOINTS.index(_kind(j))] for j in joints])
        self.kp_joint = np.array([self.kp[LEG_JOINTS.index(_kind(j))] for j in joints])
        self.kd_joint = np.array([self.kd[LEG_JOINTS.index(_kind(j))] for j in joints])
        p = self.plan
        if not p.success:  # stand up and stay: a failed plan is never tracked
            self.trajectory = JointTrajectory(q_now, [], self.ramp_s, np.zeros(1), stand[None],
                                              np.zeros((1, len(joints))))
            return
        q_plan, tau_plan, self.ik_error = plan_to_joints(
            kin, p['t'], p['base_pos'], p['base_euler'], p['foot_pos'], p['foot_force'], stand)
        self.q_reference = q_plan
        if self.swing_warp > 0 or self.swing_lift > 0:  # stance samples (and tau_ff) unchanged
            feet = reshape_swings(p['t'], p['foot_pos'], p['contact'], self.swing_warp,
                                  self.swing_lift)
            q_plan, _, _ = plan_to_joints(kin, p['t'], p['base_pos'], p['base_euler'], feet,
                                          p['foot_force'], stand)
        lie = (np.array([self.lie[LEG_JOINTS.index(_kind(j))] for j in joints])
               if self.end == 'lie' else None)
        self.trajectory = JointTrajectory(q_now, [stand], self.ramp_s, p['t'], q_plan, tau_plan,
                                          self.speed, end=lie)
        self.sampler = PlanSampler(p, p.schedule)  # contacts switch at the exact boundaries
        self.slip = SlipMeter(len(model.feet), self.foot_radius)
        self.stancer = (StanceForces(float(p['mass']), np.asarray(p['inertia']))
                        if self.stance_force else None)
        self.landed = np.zeros(len(model.feet), bool)
        self.landed_at = np.zeros((len(model.feet), 3))  # where each landed foot landed
        aim_depth = self.landing_aim_depth * float(p['gravity']) / STANDARD_GRAVITY
        self.heights = (FootHeights(kin, p.schedule.stances(), self.landing_aim_s, aim_depth,
                                    self.landing_speed if self.planted else None)
                        if self.stance_force and self.foot_heights else None)
        if self.base_feedback and not self.stance_force:
            self.shifter = StanceShift(kin, p.schedule.stances(), self.shift_gain,
                                       self.shift_limit)

    # -- callbacks --------------------------------------------------------------------------------
    def _on_joints(self, msg: JointState) -> None:
        if self.plan is None:
            return  # no world's gravity yet: nothing to track
        if self.joints is None:
            self.joints = list(msg.name)
            self._prepare(self.joints, np.asarray(msg.position, dtype=float))
        self.q_measured = np.asarray(msg.position, dtype=float)
        self._record_error(msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec)

    def _record_error(self, stamp_ns: int) -> None:
        """The joint error at the measurement's own time: against the plan's joint angles then,
        and against the target the motors held then (the last command sent before it). The
        per-tick figure (R5.5's ``joint_rms_error_rad``) also counts the readout's age as error
        (up to 0.02 rad at 10 rad/s swing speeds and a 2 ms sample)."""
        if self.t0_ns is None or self.trajectory is None or not self.sent_log:
            return
        sample = self.trajectory.at((stamp_ns - self.t0_ns) * 1e-9)
        if sample.phase != 'track':
            return
        held = [q for t, q in self.sent_log if t <= stamp_ns]
        if not held:
            return
        reference = interpolate(self.sampler.t, self.q_reference, sample.plan_time)
        self.sampled_errors.append(self.q_measured - reference)
        self.command_errors.append(self.q_measured - held[-1])

    def _on_odometry(self, msg: Odometry) -> None:
        p, o = msg.pose.pose.position, msg.pose.pose.orientation
        self.base_xy = np.array([p.x, p.y])
        self.base_pose = (np.array([p.x, p.y, p.z]), _rpy(o.w, o.x, o.y, o.z))
        rot = self.base_rot = rpy_matrix(self.base_pose[1])
        t = msg.twist.twist
        self.base_twist = (rot @ [t.linear.x, t.linear.y, t.linear.z],
                           rot @ [t.angular.x, t.angular.y, t.angular.z])

    def _tick(self) -> None:
        if self.trajectory is None:
            return  # no joint states yet
        tick = tick_time(self._timer)  # late on a loaded machine, it still computes for its tick
        now = tick.nanoseconds
        if self.t0_ns is None:
            self.t0_ns = now
        sample = self.trajectory.at((now - self.t0_ns) * 1e-9)
        q, dq = sample.q, sample.dq
        target = sample  # the PD targets' sample: ``command_lead_s`` ahead while tracking
        if self.lead_s > 0 and sample.phase == 'track':
            target = self.trajectory.at((now - self.t0_ns) * 1e-9 + self.lead_s)
            q, dq = target.q, target.dq
        if sample.phase == 'track' and self.q_measured is not None:
            # R5.5 per tick: the newest joint state against the plan's angles (what the
            # commands would be without base feedback and swing shaping)
            self.errors.append(self.q_measured - interpolate(self.sampler.t, self.q_reference,
                                                             sample.plan_time))
        kp, kd, tau = self.kp_joint, self.kd_joint, sample.tau
        if (self.sampler is not None and sample.phase != 'ramp'
                and self.q_measured is not None and self.base_pose is not None):
            plan_t = sample.plan_time if sample.phase == 'track' else float(self.sampler.t[-1])
            plan = self.sampler.at(plan_t)
            if sample.phase == 'track':
                self.base_errors.append(self.base_pose[0][:2] - plan.base_pos[:2])
                feet, rotations = self.kin.foot_poses(*self.base_pose, self.q_measured)
                self.slip.update(feet, rotations, plan.contact, plan.foot_pos[:, 2])
                if self.stancer is not None:  # (then no shifter)
                    # planted_stance: the law one tick earlier, for an aimed swing's rate
                    t_s, dt = (now - self.t0_ns) * 1e-9, 1.0 / self.rate
                    before = ((self.sampler.at(plan_t - dt * self.speed),
                               self.trajectory.at(t_s + self.lead_s - dt).q)
                              if self.planted else None)
                    kp, kd, tau, q, dq = self._stance_forces(plan, plan_t, feet, kp, kd, tau,
                                                             q, dq, before, dt)
            if self.shifter is not None:  # also in the hold: the last stance keeps its shift
                if target is not sample:
                    plan_t = (target.plan_time if target.phase == 'track'
                              else float(self.sampler.t[-1]))
                    plan = self.sampler.at(plan_t)
                q, _ = self.shifter.targets(plan, plan_t, q, *self.base_pose)
        self.sent_log.append((now, q))
        msg = JointPDCommand(name=self.joints, position=q.tolist(), velocity=dq.tolist(),
                             effort=tau.tolist(), kp=kp.tolist(), kd=kd.tolist())
        msg.header.stamp = tick.to_msg()  # the simulator syncs on it (ROS)
        self.pub.publish(msg)
        self.sent += 1

    def _stance_forces(self, plan, k: float, feet: np.ndarray, kp, kd, tau, q, dq, before,
                       dt: float):
        """Issue 28: the legs the plan has in stance and whose foot has landed get the plan's
        forces plus the base PD wrench (``tracking.StanceForces``, from the measured base and
        feet) as torques -J^T f, and a ``stance_kp_scale`` / ``stance_kd_scale`` share of their
        PD gains. A foot the plan has down that has not landed yet (the body tilted or high)
        reaches, stiffly and without force, for its planned point ``landing_depth`` below the
        ground, solved from the measured base; the landed feet share the wrench meanwhile. With
        ``foot_heights`` (``tracking.FootHeights``) the swing feet are aimed at their touchdown
        and the landed ones held at the planned height, from the measured base. With
        ``planted_stance`` a landed foot is held where it landed, with the joint rates that keep
        it still under the measured base's twist as velocity target, and an aimed swing meets
        the ground at ``landing_speed`` with its aim's own rate as velocity target (the law's,
        10 ms ahead, braked it: feet 4-7 mm high at touchdown). ``plan`` is the plan at plan
        time ``k``, ``feet`` the measured contact points, ``before`` (plan, law's targets) one
        tick of ``dt`` s earlier (with ``planted_stance`` only)."""
        p = self.plan
        forces_plan = interpolate(self.sampler.t, np.asarray(p['foot_force']), k)
        vel = interpolate(self.sampler.t, np.asarray(p['base_lin_vel']), k)
        omega = interpolate(self.sampler.t, np.asarray(p['base_ang_vel']), k)
        pos, rpy = self.base_pose
        down = feet[:, 2] - plan.foot_pos[:, 2] < self.landed_within
        now_landed = plan.contact & ~self.landed & down
        self.landed_at[now_landed] = feet[now_landed]
        self.landed = np.where(plan.contact, self.landed | down, False)  # latched per stance
        landed = plan.contact & self.landed
        f = self.stancer.forces(plan.base_pos, plan.base_rpy, vel, omega, forces_plan,
                                landed, pos, self.base_rot, *self.base_twist, feet)
        tau_f = self.kin.feed_forward(pos, rpy, self.q_measured, f)
        kp, kd, tau, q, dq = kp.copy(), kd.copy(), tau.copy(), q.copy(), dq.copy()
        planted = self.heights is not None and self.planted
        if planted and landed.any():
            still = self.kin.planted_rates(pos, rpy, self.q_measured, *self.base_twist)
        for i, leg in enumerate(self.kin.legs):
            if landed[i]:
                kp[leg] *= self.stance_kp
                kd[leg] *= self.stance_kd
                tau[leg] = tau_f[leg]
                if self.heights is not None:
                    q[leg] = self.heights.stance(i, plan, pos, rpy, q, self.landed_at[i]
                                                 if planted else None)[leg]
                if planted:
                    dq[leg] = still[leg]
            elif not plan.contact[i]:  # swinging
                if self.heights is not None:
                    aimed = self.heights.swing(i, k, plan, pos, rpy, q)
                    if planted and not np.array_equal(aimed[leg], q[leg]):  # within the aim
                        earlier = self.heights.swing(i, k - dt * self.speed, before[0], pos,
                                                     rpy, before[1])
                        dq[leg] = (aimed[leg] - earlier[leg]) / dt
                    q[leg] = aimed[leg]
            else:  # late: reach for the planned foot from the measured base
                which = np.zeros(len(self.kin.legs), bool)
                which[i] = True
                q_i, _ = self.kin.ik(pos, rpy, plan.foot_pos - [0.0, 0.0, self.landing_depth],
                                     q, which=which)
                q[leg] = q_i[leg]
                tau[leg] = 0.0
        return kp, kd, tau, q, dq

    # -- results ----------------------------------------------------------------------------------
    def robozoo_metrics(self) -> dict:
        p = self.plan
        if p is None:
            return {'plan_status': 'no world from the simulator', 'plan_success': False,
                    'commands': self.sent}
        out = {'plan_status': p['status'], 'plan_success': bool(p['success']),
               'gravity': float(p['gravity']), 'solve_time_s': float(p['solve_time_s']),
               'iterations': int(p['iterations']), 'commands': self.sent,
               'ik_error_m': self.ik_error, 'base_feedback': self.base_feedback,
               'stance_force': self.stance_force, 'foot_heights': self.foot_heights,
               'planted_stance': self.planted,
               'swing_warp': float(self.swing_warp),
               'playback_speed': float(self.speed),
               'command_lead_s': float(self.lead_s)}
        if self.errors:
            e = np.array(self.errors)
            rms = np.sqrt((e ** 2).mean(axis=0))
            out.update(joint_rms_error_rad=float(rms.max()), joint_rms_error_mean_rad=float(
                rms.mean()), joint_max_error_rad=float(np.abs(e).max()),
                tracked_samples=len(e), joint_rms_error_per_joint_rad=dict(zip(
                    self.joints, np.round(rms, 4).tolist())))
        if self.sampled_errors:
            out.update(
                joint_rms_error_sampled_rad=float(np.sqrt((np.array(
                    self.sampled_errors) ** 2).mean(axis=0)).max()),
                joint_rms_error_vs_command_rad=float(np.sqrt((np.array(
                    self.command_errors) ** 2).mean(axis=0)).max()))
        if self.base_errors:
            e = np.linalg.norm(np.array(self.base_errors), axis=1)
            out.update(base_xy_rms_error_m=float(np.sqrt((e ** 2).mean())),
                       base_xy_max_error_m=float(e.max()))
        if self.slip is not None and self.slip.samples:
            out.update(foot_slip_m=self.slip.total.tolist(), foot_slip_samples=self.slip.samples,
                       foot_slip_per_stance_m=self.slip.per_stance)
        if self.base_xy is not None:
            goal = np.asarray(p['base_pos'][-1][:2])
            out.update(base_final_xy=self.base_xy.tolist(),
                       distance_to_goal_m=float(np.linalg.norm(self.base_xy - goal)),
                       base_final_yaw_rad=float(self.base_pose[1][2]))
        if self.trajectory is not None:
            out['sequence_s'] = {'plan_start': self.trajectory.track_start,
                                 'plan_end': self.trajectory.track_end}
        return out

    def robozoo_write_outputs(self, folder: Path) -> list[Path]:
        from .plan_file import save_plan
        if self.plan is None:
            return []
        return [save_plan(Path(folder) / 'plan.npz', dict(self.plan))]


def _rpy(w: float, x: float, y: float, z: float) -> np.ndarray:
    """Roll-pitch-yaw of a unit quaternion (the plan's Euler convention, Rz Ry Rx)."""
    return np.array([math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
                     math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x)))),
                     math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))])


def _kind(joint: str) -> str:
    for kind in LEG_JOINTS:
        if f'_{kind}' in joint:
            return kind
    raise ValueError(f'plan_tracker: joint {joint!r} is not a hip, thigh or calf joint')


def main(args=None) -> None:
    spin_node(PlanTracker, args)
