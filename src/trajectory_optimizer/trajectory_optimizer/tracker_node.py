"""The plan tracker node (spec go1.md §7, R5): plans at start-up (or loads ``plan_file``), turns
the plan into joint targets with URDF-exact IK and feed-forward torques (``tracking``), and
streams PD + feed-forward commands at ``rate`` Hz on ``/<robot>/joint_pd_commands``
(zoo_interfaces/JointPDCommand: the simulator's motors, or a Go1 bridge, evaluate the law).

Sequence: from the measured joints to the stand pose, to the plan's first pose (``ramp_s`` each),
the plan at ``playback_speed``, then a hold of its last pose. Metrics (summary.json): the plan's
status, gravity and solve time, and the tracking error during the plan (R5.5): per-joint RMS and
maximum, and the base's final distance to the goal. ``robozoo run`` writes the plan into the run
folder (plan.npz).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from zoo_runtime import rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand

from .tracking import JointTrajectory, LegKinematics, plan_to_joints

Node = rclpy.node.Node

LEG_JOINTS = ('hip', 'thigh', 'calf')


class PlanTracker(Node):
    def __init__(self, **kwargs):
        super().__init__('plan_tracker', **kwargs)
        d = self.declare_parameter
        self.robot = d('robot', 'go1').value
        self.robot_config = d('robot_config', 'go1').value      # optimizer robot YAML
        self.plan_file = d('plan_file', '').value                # '' = plan at start-up
        self.gravity = d('gravity', 9.80665).value               # m/s^2, the plan's
        self.goal = list(d('goal', [1.7, 0.0]).value)
        self.duration = d('duration', 3.2).value
        self.gait = d('gait', 'trot4').value
        self.world = d('world', 'empty').value
        self.mu = d('mu', 0.5).value
        self.budget = d('budget', 40.0).value
        self.rate = d('rate', 500.0).value
        self.speed = d('playback_speed', 1.0).value
        self.ramp_s = d('ramp_s', 2.0).value
        self.stand = list(d('stand_pose', [0.0, 0.67, -1.3]).value)       # spec §2.2
        self.kp = list(d('kp', [100.0, 300.0, 300.0]).value)              # robot_control.yaml
        self.kd = list(d('kd', [5.0, 8.0, 8.0]).value)                    # (spec §2.4)
        self.foot_radius = d('foot_radius', 0.02).value
        for name, value in (('rate', self.rate), ('playback_speed', self.speed)):
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f'plan_tracker: parameter {name} = {value}: expected > 0')
        for name, value in (('stand_pose', self.stand), ('kp', self.kp), ('kd', self.kd)):
            if len(value) != 3:
                raise ValueError(f'plan_tracker: parameter {name}: expected 3 values '
                                 f'(hip, thigh, calf), got {len(value)}')

        self.plan = self._make_plan()
        self.joints: list[str] | None = None
        self.trajectory: JointTrajectory | None = None
        self.q_measured: np.ndarray | None = None
        self.base_xy: np.ndarray | None = None
        self.base_pose: tuple[np.ndarray, np.ndarray] | None = None  # position, roll-pitch-yaw
        self.t0_ns: int | None = None
        self.errors: list[np.ndarray] = []
        self.sent = 0
        self.ik_error = float('nan')
        ns = f'/{self.robot}'
        self.pub = self.create_publisher(JointPDCommand, f'{ns}/joint_pd_commands', 10)
        self.create_subscription(JointState, f'{ns}/joint_states', self._on_joints, 10)
        self.create_subscription(Odometry, f'{ns}/odometry/ground_truth', self._on_odometry, 10)
        self.create_timer(1.0 / self.rate, self._tick)

    # -- the plan ---------------------------------------------------------------------------------
    def _make_plan(self):
        from .plan_file import load_plan
        if self.plan_file:
            return load_plan(self.plan_file)
        from .planning import PlanRequest, make_plan
        plan, _ = make_plan(PlanRequest(robot=self.robot_config, gait=self.gait,
                                        duration=self.duration, goal=tuple(self.goal),
                                        gravity=self.gravity, world=self.world, mu=self.mu,
                                        budget_s=self.budget))
        if not plan.success:
            self.get_logger().error(f"plan failed: {plan['status']}; the robot keeps standing")
        return plan

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
        self.trajectory = JointTrajectory(q_now, [stand], self.ramp_s, p['t'], q_plan, tau_plan,
                                          self.speed)

    # -- callbacks --------------------------------------------------------------------------------
    def _on_joints(self, msg: JointState) -> None:
        if self.joints is None:
            self.joints = list(msg.name)
            self._prepare(self.joints, np.asarray(msg.position, dtype=float))
        self.q_measured = np.asarray(msg.position, dtype=float)

    def _on_odometry(self, msg: Odometry) -> None:
        p, o = msg.pose.pose.position, msg.pose.pose.orientation
        self.base_xy = np.array([p.x, p.y])
        self.base_pose = (np.array([p.x, p.y, p.z]), _rpy(o.w, o.x, o.y, o.z))

    def _tick(self) -> None:
        if self.trajectory is None:
            return  # no joint states yet
        now = self.get_clock().now().nanoseconds
        if self.t0_ns is None:
            self.t0_ns = now
        sample = self.trajectory.at((now - self.t0_ns) * 1e-9)
        if sample.phase == 'track' and self.q_measured is not None:
            self.errors.append(self.q_measured - sample.q)
        self.pub.publish(JointPDCommand(name=self.joints, position=sample.q.tolist(),
                                        velocity=sample.dq.tolist(), effort=sample.tau.tolist(),
                                        kp=self.kp_joint.tolist(), kd=self.kd_joint.tolist()))
        self.sent += 1

    # -- results ----------------------------------------------------------------------------------
    def robozoo_metrics(self) -> dict:
        p = self.plan
        out = {'plan_status': p['status'], 'plan_success': bool(p['success']),
               'gravity': float(p['gravity']), 'solve_time_s': float(p['solve_time_s']),
               'iterations': int(p['iterations']), 'commands': self.sent,
               'ik_error_m': self.ik_error}
        if self.errors:
            e = np.array(self.errors)
            rms = np.sqrt((e ** 2).mean(axis=0))
            out.update(joint_rms_error_rad=float(rms.max()), joint_rms_error_mean_rad=float(
                rms.mean()), joint_max_error_rad=float(np.abs(e).max()),
                tracked_samples=len(e))
        if self.base_xy is not None:
            goal = np.asarray(p['base_pos'][-1][:2])
            out.update(base_final_xy=self.base_xy.tolist(),
                       distance_to_goal_m=float(np.linalg.norm(self.base_xy - goal)))
        if self.trajectory is not None:
            out['sequence_s'] = {'plan_start': self.trajectory.track_start,
                                 'plan_end': self.trajectory.track_end}
        return out

    def robozoo_write_outputs(self, folder: Path) -> list[Path]:
        from .plan_file import save_plan
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
