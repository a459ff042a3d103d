"""The MuJoCo physics the lockstep executor drives: commands in, state out, reset, pose, pause.

Joint motors work like Gazebo/ODE joint motors (the seeds' ``vel`` + ``fmax``): in velocity mode
a constraint makes the joint turn at the target velocity using at most the joint's effort limit
(MuJoCo friction loss on a tendon between the joint and a driver DOF spinning at the target, see
``mujoco_scene._Builder._joint_motor``); it holds the joint still at target 0 and stalls at the
limit when that is not enough. In effort mode the friction loss is off and a torque input applies
the command. The mode of a joint follows the type of its last command.
"""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Sequence

import mujoco
import numpy as np

from . import SimConfigError
from .commands import CommandSanitizer
from .mujoco_scene import DRIVER, BuiltRobot, RobotSpec, Scene, build_scene
from .sdf_world import World, load_world
from .resources import find_world
from .transforms import rotation_change_deg, tilt_deg

VELOCITY, EFFORT = 0, 1
UNLIMITED_EFFORT = 1e9  # friction loss of a motor whose joint gives no effort limit
SUMMARY_PERIOD_NS = 20_000_000  # robot summary sampled at 50 Hz of sim time
SPAWN_TOLERANCE = 1e-4  # m of initial penetration accepted without lifting the robot
FALL_TILT_DEG = 45.0


class _Robot:
    """Index arrays of one robot into the MuJoCo model."""

    def __init__(self, m: mujoco.MjModel, built: BuiltRobot):
        p = built.prefix
        self.name = built.spec.name
        self.built = built
        self.joints = list(built.joints)
        self.index = {j: i for i, j in enumerate(self.joints)}
        jid = [m.joint(p + j).id for j in self.joints]
        self.qadr = np.array([m.jnt_qposadr[i] for i in jid], dtype=int)
        self.dadr = np.array([m.jnt_dofadr[i] for i in jid], dtype=int)
        self.act = np.array([m.actuator(p + j).id for j in self.joints], dtype=int)
        self.tendon = np.array([m.tendon(f'{p}motor/{j}').id for j in self.joints], dtype=int)
        self.driver_coef = m.tendon_adr[self.tendon] + 1  # wrap_prm index of the driver term
        by_name = {j.name: j for j in built.desc.joints}
        self.vel_limit = np.array([_limit(by_name[j].velocity) for j in self.joints])
        self.effort_limit = np.array([_limit(by_name[j].effort) for j in self.joints])
        self.motor_force = np.minimum(self.effort_limit, UNLIMITED_EFFORT)
        self.mode = np.full(len(self.joints), VELOCITY)
        self.target = np.zeros(len(self.joints))
        # plain-Python copies for the per-message command path
        self.mode_list = self.mode.tolist()
        self.vel_limit_list = self.vel_limit.tolist()
        self.effort_limit_list = self.effort_limit.tolist()
        self.driver_coef_list = self.driver_coef.tolist()
        self.act_list = self.act.tolist()
        self.sanitizer = CommandSanitizer(self.name, self.joints, self.vel_limit,
                                          self.effort_limit)
        self.base_body = m.body(p + built.base_link).id
        self.free_qadr = (m.jnt_qposadr[m.joint(p + 'floating_base').id]
                          if not built.fixed_base else None)
        self.free_dadr = (m.jnt_dofadr[m.joint(p + 'floating_base').id]
                          if not built.fixed_base else None)
        self.imu_body = m.body(p + built.imu_link).id
        gyro, acc = m.sensor(f'{p}imu_gyro'), m.sensor(f'{p}imu_accelerometer')
        self.gyro = slice(gyro.adr[0], gyro.adr[0] + 3)
        self.acc = slice(acc.adr[0], acc.adr[0] + 3)
        self.contact_links = list(built.contact_links)
        self.contact_bodies = np.array([m.body(p + ln).id for ln in self.contact_links],
                                       dtype=int)
        self.links = [ln for ln in built.desc.links if ln != 'world']
        self.link_bodies = np.array([m.body(p + ln).id for ln in self.links], dtype=int)
        bodies = set(self.link_bodies.tolist())
        self.geom_mask = np.isin(m.geom_bodyid, list(bodies))
        self.summary = _Summary()


def _limit(v: float | None) -> float:
    return float(v) if v is not None and v > 0 else math.inf


@dataclasses.dataclass
class _Summary:
    start: np.ndarray | None = None
    start_quat: np.ndarray | None = None
    min_height: float = math.inf
    max_tilt: float = 0.0
    max_tilt_change: float = 0.0  # vs the start orientation: what "stands still" is judged on
    max_penetration: float = 0.0
    fell_at: float | None = None


class MujocoPhysics:
    """Owns the MuJoCo model and data. ``advance(n)`` is what the lockstep executor calls."""

    features = frozenset({'joint_states', 'odometry', 'imu', 'contacts', 'tf'})

    def __init__(self, scene: Scene):
        self.scene = scene
        self.model = m = scene.model
        self.data = d = mujoco.MjData(m)
        self.step_ns = int(round(m.opt.timestep * 1e9))
        if abs(self.step_ns * 1e-9 - m.opt.timestep) > 1e-15:
            raise SimConfigError(f'physics step {m.opt.timestep} s is not a whole number of ns')
        self.warnings = list(scene.warnings)
        self.observers: list = []  # called after each step call (e.g. a viewer refresh)
        self.paused = False
        self.sim_ns = 0
        self.steps = 0
        self.resets = 0
        self._next_summary_ns = 0
        self.robots = {name: _Robot(m, built) for name, built in scene.robots.items()}
        self._driver_dof = m.jnt_dofadr[m.joint(DRIVER).id] if self.robots else None
        self._friction_tendon = int(mujoco.mjtConstraint.mjCNSTR_FRICTION_TENDON)
        self._world_free = {}
        for model_name, bodies in scene.world_bodies.items():
            self._world_free[model_name] = [
                (m.jnt_qposadr[m.body(b).jntadr[0]], m.jnt_dofadr[m.body(b).jntadr[0]])
                for b in bodies]
        # initial state: spawn poses are the compiled qpos0; joints at their initial positions
        self._q0 = m.qpos0.copy()
        for name, r in self.robots.items():
            for joint, value in r.built.initial_positions.items():
                if joint not in r.index:
                    raise SimConfigError(f"robot '{name}': initial position for unknown joint "
                                         f"'{joint}' (joints: {', '.join(r.joints)})")
                self._q0[r.qadr[r.index[joint]]] = float(value)
        self._body_pos0 = m.body_pos.copy()
        self._body_quat0 = m.body_quat.copy()
        self._lift_spawned_robots()
        self.reset()
        self.resets = 0

    def _lift_spawned_robots(self) -> None:
        """A floating robot spawned into the ground or a prop is raised until it only touches
        it (reported): MuJoCo, unlike ODE with Gazebo's max_vel, would fling it out."""
        m, d = self.model, self.data
        for r in self.robots.values():
            if r.free_qadr is None:
                continue
            for _ in range(5):
                d.qpos[:] = self._q0
                mujoco.mj_forward(m, d)
                g = d.contact.geom[:d.ncon]
                mine = r.geom_mask[g]
                others = mine[:, 0] != mine[:, 1]  # robot against something else
                depth = -float(d.contact.dist[:d.ncon][others].min()) if others.any() else 0.0
                if depth <= SPAWN_TOLERANCE:
                    break
                self._q0[r.free_qadr + 2] += depth
                self.warnings.append(f"robot '{r.name}': spawn pose is {depth * 1e3:.1f} mm into "
                                     'the world; raised to rest on it')

    @classmethod
    def create(cls, world: str | Path | World | None, robots: Sequence[RobotSpec] = (), *,
               gravity: Sequence[float] | None = None, step: float | None = None,
               validate: bool = True) -> 'MujocoPhysics':
        """A world name/path/description (None: an empty world without ground) plus robots."""
        if isinstance(world, (str, Path)):
            world = load_world(find_world(str(world)), validate=validate)
        return cls(build_scene(world, robots, gravity=gravity, step=step))

    # -- time ---------------------------------------------------------------------------------
    def advance(self, n_steps: int) -> None:
        """Run ``n_steps`` physics steps with the current commands (nothing while paused)."""
        if not self.paused and n_steps > 0:
            self.step(n_steps)

    def step(self, n_steps: int) -> None:
        """Run ``n_steps`` even while paused (the step service)."""
        if self._driver_dof is not None:
            self.data.qvel[self._driver_dof] = 1.0  # the motors' reference: exactly 1 rad/s
        mujoco.mj_step(self.model, self.data, nstep=int(n_steps))
        self.steps += int(n_steps)
        self.sim_ns += int(n_steps) * self.step_ns
        if self.sim_ns >= self._next_summary_ns:
            self._sample_summary()
            self._next_summary_ns = self.sim_ns + SUMMARY_PERIOD_NS
        for observer in self.observers:
            observer()

    def reset(self) -> None:
        """Bitwise restore of the initial world and robot state; sim time keeps running."""
        m, d = self.model, self.data
        mujoco.mj_resetData(m, d)
        d.qpos[:] = self._q0
        d.time = self.sim_ns * 1e-9
        m.body_pos[:] = self._body_pos0
        m.body_quat[:] = self._body_quat0
        for r in self.robots.values():
            r.mode[:] = VELOCITY
            r.mode_list = r.mode.tolist()
            r.target[:] = 0.0
            m.wrap_prm[r.driver_coef] = 0.0
            self._apply_modes(r, np.arange(len(r.joints)))
            r.summary = _Summary()
        mujoco.mj_forward(m, d)
        self.resets += 1
        self._sample_summary()

    # -- commands -----------------------------------------------------------------------------
    def robot(self, name: str) -> _Robot:
        try:
            return self.robots[name]
        except KeyError:
            raise SimConfigError(f"no robot '{name}' (robots: {', '.join(self.robots)})") from None

    def command(self, robot: str, joint: int, kind: str, value: float) -> bool:
        """One joint command (kind 'velocity' or 'effort'); False when rejected. Runs for every
        per-joint command message, hence the plain-Python fast path for in-range values."""
        r = self.robots[robot]
        velocity = kind == 'velocity'
        limit = (r.vel_limit_list if velocity else r.effort_limit_list)[joint]
        if not -limit <= value <= limit:  # also catches NaN
            value = r.sanitizer.one(kind, joint, value)
            if value is None:
                return False
        if velocity:
            r.target[joint] = value
            self.model.wrap_prm[r.driver_coef_list[joint]] = -value
        else:
            self.data.ctrl[r.act_list[joint]] = value
        mode = VELOCITY if velocity else EFFORT
        if r.mode_list[joint] != mode:
            r.mode[joint] = r.mode_list[joint] = mode
            self._apply_modes(r, np.array([joint]))
        return True

    def commands(self, robot: str, joints: np.ndarray, kind: str, values: np.ndarray) -> int:
        """Batch form of :meth:`command`; returns how many were applied."""
        r = self.robots[robot]
        joints, values = r.sanitizer.many(kind, np.asarray(joints, dtype=int), values)
        mode = VELOCITY if kind == 'velocity' else EFFORT
        if mode == VELOCITY:
            r.target[joints] = values
            self.model.wrap_prm[r.driver_coef[joints]] = -values
        else:
            self.data.ctrl[r.act[joints]] = values
        switch = joints[r.mode[joints] != mode]
        if switch.size:
            r.mode[switch] = mode
            for j in switch.tolist():
                r.mode_list[j] = mode
            self._apply_modes(r, switch)
        return int(joints.size)

    def _apply_modes(self, r: _Robot, joints: np.ndarray) -> None:
        """Velocity mode: motor friction on, torque input off; effort mode: the reverse."""
        vel = r.mode[joints] == VELOCITY
        self.model.tendon_frictionloss[r.tendon[joints]] = np.where(vel, r.motor_force[joints],
                                                                    0.0)
        acts = r.act[joints]
        self.data.ctrl[acts] = np.where(vel, 0.0, self.data.ctrl[acts])

    # -- state --------------------------------------------------------------------------------
    def joint_state(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(position, velocity, effort) of the actuated joints; effort is the motor's torque
        (velocity mode) or the applied torque input (effort mode)."""
        r, d = self.robots[robot], self.data
        rows = np.flatnonzero(d.efc_type == self._friction_tendon)
        tendon_force = np.zeros(self.model.ntendon)
        tendon_force[d.efc_id[rows]] = d.efc_force[rows]
        return d.qpos[r.qadr], d.qvel[r.dadr], tendon_force[r.tendon] + d.actuator_force[r.act]

    def base_pose(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        r = self.robots[robot]
        return self.data.xpos[r.base_body].copy(), self.data.xquat[r.base_body].copy()

    def base_twist(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        """(linear, angular) velocity of the base frame, expressed in the base frame."""
        r = self.robots[robot]
        v = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, self.data, mujoco.mjtObj.mjOBJ_XBODY, r.base_body,
                                 v, 1)
        return v[3:], v[:3]

    def imu(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(orientation wxyz in the world, angular velocity, linear acceleration incl. gravity
        reaction) of the IMU link, the last two in the link frame."""
        r, d = self.robots[robot], self.data
        return d.xquat[r.imu_body].copy(), d.sensordata[r.gyro].copy(), d.sensordata[r.acc].copy()

    def contacts(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        """(in contact, total contact force in the world frame) per contact link."""
        r, m, d = self.robots[robot], self.model, self.data
        touching = np.zeros(m.nbody, dtype=bool)
        n = d.ncon
        if n:  # no geom margins: every detected contact is an active constraint
            touching[m.geom_bodyid[d.contact.geom[:n]]] = True
        return touching[r.contact_bodies], d.cfrc_ext[r.contact_bodies, 3:]

    def link_poses(self, robot: str) -> tuple[list[str], np.ndarray, np.ndarray]:
        r = self.robots[robot]
        return r.links, self.data.xpos[r.link_bodies].copy(), self.data.xquat[r.link_bodies].copy()

    # -- pose ---------------------------------------------------------------------------------
    def set_pose(self, name: str, xyz: Sequence[float], quat_wxyz: Sequence[float]) -> None:
        """Teleport a robot base or a dynamic world model; velocities of it are zeroed."""
        m, d = self.model, self.data
        q = np.asarray(quat_wxyz, dtype=float)
        if not np.isfinite(q).all() or np.linalg.norm(q) < 1e-9 or \
                not np.isfinite(np.asarray(xyz, dtype=float)).all():
            raise SimConfigError(f"set_pose '{name}': expected a finite position and a non-zero "
                                 'quaternion')
        q = q / np.linalg.norm(q)
        if name in self.robots:
            r = self.robots[name]
            if r.free_qadr is None:
                m.body_pos[r.base_body] = xyz
                m.body_quat[r.base_body] = q
            else:
                d.qpos[r.free_qadr:r.free_qadr + 3] = xyz
                d.qpos[r.free_qadr + 3:r.free_qadr + 7] = q
                d.qvel[r.free_dadr:r.free_dadr + 6] = 0.0
        elif name in self._world_free:
            if name in self.scene.static_models:
                raise SimConfigError(f"set_pose '{name}': the world model is static")
            for qadr, dadr in self._world_free[name]:
                d.qpos[qadr:qadr + 3] = xyz
                d.qpos[qadr + 3:qadr + 7] = q
                d.qvel[dadr:dadr + 6] = 0.0
        else:
            known = ', '.join([*self.robots, *self._world_free]) or 'none'
            raise SimConfigError(f"set_pose: no robot or world model '{name}' (known: {known})")
        mujoco.mj_forward(m, d)

    # -- reports ------------------------------------------------------------------------------
    def _sample_summary(self) -> None:
        d = self.data
        n = d.ncon
        if n:
            geoms = d.contact.geom[:n]
            dist = d.contact.dist[:n]
        for r in self.robots.values():
            s = r.summary
            pos, quat = d.xpos[r.base_body], d.xquat[r.base_body]
            if s.start is None:
                s.start, s.start_quat = pos.copy(), quat.copy()
            tilt = tilt_deg(quat)
            s.max_tilt_change = max(s.max_tilt_change, rotation_change_deg(s.start_quat, quat)[0])
            s.min_height = min(s.min_height, float(pos[2]))
            s.max_tilt = max(s.max_tilt, tilt)
            if n:
                mine = r.geom_mask[geoms].any(axis=1)
                if mine.any():
                    s.max_penetration = max(s.max_penetration, float(-dist[mine].min()))
            fall_h = r.built.spec.fall_height
            if fall_h is None:
                fall_h = 0.5 * float(self._q0[r.free_qadr + 2]) if r.free_qadr is not None \
                    else -math.inf
            if s.fell_at is None and (pos[2] < fall_h or tilt > FALL_TILT_DEG):
                s.fell_at = self.sim_ns * 1e-9

    def robot_summary(self, robot: str) -> dict:
        r = self.robots[robot]
        s = r.summary
        end = self.data.xpos[r.base_body].copy()
        end_quat = self.data.xquat[r.base_body].copy()
        start = s.start if s.start is not None else end
        tilt_change, yaw_change = rotation_change_deg(
            s.start_quat if s.start_quat is not None else end_quat, end_quat)
        return {
            'base_start': [float(x) for x in start],
            'base_end': [float(x) for x in end],
            'drift_xy': float(np.linalg.norm(end[:2] - start[:2])),
            'drift_xyz': float(np.linalg.norm(end - start)),
            'max_tilt_deg': float(max(s.max_tilt, tilt_deg(end_quat))),
            'max_tilt_change_deg': float(max(s.max_tilt_change, tilt_change)),
            'yaw_change_deg': yaw_change,
            'min_base_height': float(min(s.min_height, end[2])),
            'max_penetration': float(s.max_penetration),
            'fell': s.fell_at is not None,
            'fell_at': s.fell_at,
            'joints': len(r.joints),
            'commands_rejected': r.sanitizer.rejected,
            'commands_clamped': r.sanitizer.clamped,
        }

    def metrics(self) -> dict:
        return {'steps': self.steps, 'sim_time': self.sim_ns * 1e-9, 'resets': self.resets,
                'contacts': int(self.data.ncon), 'warnings': len(self.warnings),
                'robots': len(self.robots)}
