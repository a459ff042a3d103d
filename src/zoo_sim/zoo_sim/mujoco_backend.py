"""The MuJoCo physics the lockstep executor drives: commands in, state out, reset, pose, pause.

Joint motors work like Gazebo/ODE joint motors (the seeds' ``vel`` + ``fmax``): in velocity mode
the joint turns at the target velocity using at most the joint's effort limit, holds still at
target 0 and stalls at the limit when that is not enough; in effort mode a torque input applies
the command. The mode of a joint follows the type of its last command
(:mod:`zoo_sim.joint_motors`).

Commands are written straight into the motors' target arrays (one element per message, no copy):
the per-message path is a range check and one store; a mode switch (rare) reconfigures the motor.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, Sequence

import mujoco
import numpy as np

from . import SimConfigError, sliding_contacts
from .ax12_servo import Ax12Params, Ax12Servos, registers_of
from .commands import CommandSanitizer
from .joint_motors import (CORRECTION_PERIOD_STEPS, DEFAULT_MOTOR, DRIVER, EFFORT, PD, VELOCITY,
                           JointMotors)
from .mujoco_scene import BuiltRobot, RobotSpec, Scene, build_scene
from .noise import encoder_noise, imu_noise
from .robot_interface import RobotInfo, robot_info_from
from .sdf_world import World, load_world
from .resources import find_world

SPAWN_TOLERANCE = 1e-4  # m of initial penetration accepted without lifting the robot
_NO_SENSORS = int(mujoco.mjtDisableBit.mjDSBL_SENSOR)
_argmin = np.argmin  # (not a min reduction: see joint_motors._argmax)
PD_STABILITY_LIMIT = 1.0  # kd h / I; a Go1 calf rings at 1.4 (kd 8, 1 ms, without its rotor
                          # inertia; 0.54 with it) and is still at 0.7
PD_RECHECK_COMMANDS = 500  # PD commands between two stability checks at unchanged gains


class _Robot:
    """Index arrays of one robot into the MuJoCo model."""

    def __init__(self, m: mujoco.MjModel, d: mujoco.MjData, built: BuiltRobot):
        p = built.prefix
        self.name = built.spec.name
        self.built = built
        self.joints = list(built.joints)
        self.index = {j: i for i, j in enumerate(self.joints)}
        jid = [m.joint(p + j).id for j in self.joints]
        self.qadr = np.array([m.jnt_qposadr[i] for i in jid], dtype=int)
        self.dadr = np.array([m.jnt_dofadr[i] for i in jid], dtype=int)
        by_name = {j.name: j for j in built.desc.joints}
        self.vel_limit = np.array([by_name[j].velocity_limit for j in self.joints])
        self.effort_limit = np.array([by_name[j].effort_limit for j in self.joints])
        self.motors = JointMotors(m, d, p, self.joints, self.effort_limit, self.vel_limit)
        self.servos = None  # AX-12 servos (ax12_servo): goal positions instead of motor commands
        if built.spec.servo:
            self.servos = Ax12Servos(
                m, d, p, self.joints, Ax12Params.from_strings(
                    built.spec.servo_params, f"robot '{self.name}' servo_params"),
                self.motors.lower, self.motors.upper)
            self.motors.force = np.zeros(len(self.joints))  # the velocity rows stay silent
            self.motors.reset()
        self.mode = np.full(len(self.joints), VELOCITY)
        self.pd_warned: set[int] = set()  # joints whose PD gains were said to be unstable
        self.pd_checked_kd = np.full(len(self.joints), np.nan)  # kd last checked, per joint
        self.pd_commands_since_check = 0
        self.mode_list = self.mode.tolist()  # plain-Python copy for the per-message path
        self.limit_lists = {'velocity': self.vel_limit.tolist(),
                            'effort': self.effort_limit.tolist()}
        self.sanitizer = CommandSanitizer(self.name, self.joints, self.vel_limit,
                                          self.effort_limit)
        self.base_body = m.body(p + built.base_link).id
        # the base's rows of the world poses, as views (kept: the metrics read them at 50 Hz)
        self.base_xpos, self.base_xquat = d.xpos[self.base_body], d.xquat[self.base_body]
        self.free_qadr = (m.jnt_qposadr[m.joint(p + 'floating_base').id]
                          if not built.fixed_base else None)
        self.free_dadr = (m.jnt_dofadr[m.joint(p + 'floating_base').id]
                          if not built.fixed_base else None)
        self.imu_body = m.body(p + built.imu_link).id
        self.imu_noise = next((imu_noise(el, f'{built.desc.source}: gazebo[{link}]/sensor[{name}]')
                               for link, kind, name, el in built.desc.sensors
                               if kind == 'imu' and link == built.imu_link), None)
        self.imu_bias = (np.zeros(3), np.zeros(3))  # drawn at reset
        # the joint encoders' noise/resolution (noise.py), applied to joint_state positions
        self.encoder_noise = encoder_noise(built.desc.sensors, built.desc.source)
        self.encoder_bias = np.zeros(len(self.joints))  # drawn at reset
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
        # fall_height is set by MujocoPhysics once the spawn pose is final
        self.info = robot_info_from(built, self.vel_limit, self.effort_limit)
        self.info.servo_goals = self.servos is not None  # goal positions on joint_targets

    @property
    def target(self) -> np.ndarray:
        """The velocity targets in force (those of joints in effort mode are 0)."""
        return self.motors.commanded('velocity')


class MujocoPhysics:
    """Owns the MuJoCo model and data; implements :class:`zoo_sim.robot_interface.RobotBackend`.
    ``advance(n)`` is what the lockstep executor calls."""

    features = frozenset({'joint_states', 'odometry', 'imu', 'contacts', 'tf'})

    def __init__(self, scene: Scene, seed: int = 0):
        self.scene = scene
        self.seed = int(seed)  # sensor noise (noise.py): the same seed, the same streams
        self._pending_warnings: list[str] = []  # said once by command_warnings()
        self.joint_motor = scene.joint_motor
        self.model = m = scene.model
        self.data = d = mujoco.MjData(m)
        sliding_contacts.bind(m, d)  # Coulomb sliding of designated contacts
        self.step_ns = int(round(m.opt.timestep * 1e9))
        if abs(self.step_ns * 1e-9 - m.opt.timestep) > 1e-15:
            raise SimConfigError(f'physics step {m.opt.timestep} s is not a whole number of ns')
        self.warnings = list(scene.warnings)
        self.observers: list = []  # called after each step call (e.g. a viewer refresh)
        self.step_observers: list = []  # called after every physics step (recorders; slower)
        self.paused = False
        self.sim_ns = 0
        self.steps = 0
        self.resets = 0
        self.robots = {name: _Robot(m, d, built) for name, built in scene.robots.items()}
        self._motors = [r.motors for r in self.robots.values() if r.joints]
        self._servos = [r.servos for r in self.robots.values() if r.servos is not None]
        # servo goals are consumed every _servo_steps physics steps (one rate per world)
        rates = {s.params.goal_rate for s in self._servos}
        if len(rates) > 1:
            raise SimConfigError(f'servo goal_rate: one rate per world, got {sorted(rates)}')
        self._servo_steps = (max(1, int(round(1.0 / (rates.pop() * m.opt.timestep))))
                             if rates else 0)
        self._servo_tick_ns = -1  # sim ns at which the servos last consumed their goals
        # a robot alone among static things is on one side of every contact (two static geoms
        # never collide): its penetration is then the deepest contact, no per-contact masking
        dynamic = m.body_weldid[m.geom_bodyid] != 0
        for r in self.robots.values():
            r.all_contacts = not bool((dynamic & ~r.geom_mask).any())
        # (plain ints: a numpy integer index costs more on every write)
        self._driver_dof = int(m.jnt_dofadr[m.joint(DRIVER).id]) if self._motors else None
        self._driver_qpos = int(m.jnt_qposadr[m.joint(DRIVER).id]) if self._motors else None
        self._opt = m.opt
        self._qpos, self._qvel, self._warm = d.qpos, d.qvel, d.qacc_warmstart  # views, kept
        self._step_s, self._per_step = m.opt.timestep, 1.0 / m.opt.timestep
        # each robot's rows of the warm start, as a view where its DOFs are contiguous (a
        # warm-start hint is then one in-place add, not a get, an add and a set)
        self._warm_rows = [(self._warm[mo.dofs] if mo.dofs.__class__ is slice else None,
                            mo.dofs) for mo in self._motors]
        self._sensors_once = bool((m.sensor_historyadr < 0).all() and
                                  (m.sensor_interval[:, 0] <= 0).all())
        # set by a node shell that is the only reader of imu/contacts/sensor_values: while it
        # returns False nobody will read them, and no step evaluates the sensors (the readings
        # stay those of the last step that did); None: the last step of each call does
        self.sensors_wanted: Callable[[], bool] | None = None
        self.sensors_fresh = True  # the sensor readings are those of the last step
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
        for r in self.robots.values():
            fall = r.built.spec.fall_height
            if fall is None:  # half the spawn height
                fall = 0.5 * float(self._q0[r.free_qadr + 2]) if r.free_qadr is not None \
                    else -math.inf
            r.info.fall_height = fall
            if r.built.spec.fall_tilt_deg is not None:
                r.info.fall_tilt_deg = float(r.built.spec.fall_tilt_deg)
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
               validate: bool = True, joint_motor: str = DEFAULT_MOTOR,
               seed: int = 0) -> 'MujocoPhysics':
        """A world name/path/description (None: an empty world without ground) plus robots."""
        if isinstance(world, (str, Path)):
            world = load_world(find_world(str(world)), validate=validate)
        return cls(build_scene(world, robots, gravity=gravity, step=step,
                               joint_motor=joint_motor), seed=seed)

    @property
    def gravity(self) -> list[float]:
        """The world's gravity vector, m/s^2 (the contract's optional ``gravity``)."""
        return self.model.opt.gravity.tolist()

    @classmethod
    def from_config(cls, config) -> 'MujocoPhysics':
        """The backend registry's constructor (backends.BackendConfig)."""
        return cls.create(config.world, config.robots, gravity=config.gravity, step=config.step,
                          validate=config.validate, joint_motor=config.joint_motor,
                          seed=config.seed)

    # -- time ---------------------------------------------------------------------------------
    def advance(self, n_steps: int) -> None:
        """Run ``n_steps`` physics steps with the current commands (nothing while paused)."""
        if not self.paused and n_steps > 0:
            self.step(n_steps)

    def step(self, n_steps: int) -> None:
        """Run ``n_steps`` even while paused (the step service)."""
        n = int(n_steps)
        done = self.steps
        all_motors, servo_steps = self._motors, self._servo_steps
        while n > 0:
            # the motors' slip correction runs at fixed steps of sim time, so how the steps are
            # split into calls does not change the result
            phase = done % CORRECTION_PERIOD_STEPS
            if phase == 0 and all_motors:
                for motors in all_motors:
                    motors.correct()
                # the motors' reference: exactly 1 rad/s (the motors' reaction slows it by
                # ~1e-6 per step); its angle is of no use, kept small
                self._qvel[self._driver_dof] = 1.0
                self._qpos[self._driver_qpos] = 0.0
            if servo_steps and done % servo_steps == 0:
                for servos in self._servos:
                    servos.latch()
                self._servo_tick_ns = self.sim_ns + (done - self.steps) * self.step_ns
            k = min(n, CORRECTION_PERIOD_STEPS - phase)
            if servo_steps:
                k = min(k, servo_steps - done % servo_steps)
            self._motor_steps(k, last=k == n)
            done += k
            n -= k
        self.steps += int(n_steps)
        self.sim_ns += int(n_steps) * self.step_ns
        for observer in self.observers:
            observer()

    def _motor_steps(self, n: int, last: bool) -> None:
        """``n`` steps with the motors' current targets. Where a target changed, the step that
        takes the change starts the solver from the acceleration it needs (joint_motors)."""
        hints = []
        for motors, (view, dofs) in zip(self._motors, self._warm_rows):
            change = motors.impose(n, self._step_s)
            if change is not None:
                hints.append((view, dofs, change * self._per_step))
        if self.step_observers:
            self._mj_step(n, last, hints)
        else:
            self._steps(n, last, hints)

    def _mj_step(self, n: int, last: bool, hints: list = ()) -> None:
        """``n`` MuJoCo steps; ``hints`` (view, dofs, acceleration) are added to the warm start of the
        first step only. Sensors (outputs only, read between step calls) are evaluated on the
        last step of the call only, unless a sensor keeps a history or an interval. With
        ``step_observers`` the steps run one at a time, each followed by the observers: the same
        steps, so the same result bitwise, only slower."""
        if self.step_observers:
            for i in range(n):
                self._steps(1, last and i == n - 1, hints if i == 0 else ())
                for observer in self.step_observers:
                    observer()
        else:
            self._steps(n, last, hints)

    def _steps(self, n: int, last: bool, hints) -> None:
        m, d, opt = self.model, self.data, self._opt
        quiet = (n - 1 if last else n) if self._sensors_once else 0  # steps nobody reads
        if last and quiet == n - 1 and self.sensors_wanted is not None and \
                not self.sensors_wanted():
            quiet = n  # nor the last one: nobody will read it
        self.sensors_fresh = quiet < n  # the last step evaluated the sensors
        flags = None
        if quiet > 0:
            flags = opt.disableflags
            opt.disableflags = flags | _NO_SENSORS
        if hints:  # (view: the robot's rows of the warm start, or None: index them by dofs)
            warm = self._warm
            for view, dofs, acc in hints:
                if view is not None:
                    np.add(view, acc, out=view)
                else:
                    warm[dofs] += acc
            mujoco.mj_step(m, d)
            for view, dofs, acc in hints:
                if view is not None:
                    np.subtract(view, acc, out=view)
                else:
                    warm[dofs] -= acc
            n -= 1
            quiet -= 1
        if quiet > 0:
            mujoco.mj_step(m, d, nstep=quiet)
            n -= quiet
        if flags is not None:
            opt.disableflags = flags
        if n > 0:
            mujoco.mj_step(m, d, nstep=n)

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
            r.mode_list[:] = r.mode.tolist()
            r.motors.reset()
        if self._motors:
            d.qvel[self._driver_dof] = 1.0  # the motors' reference speed from the first step
        for k, r in enumerate(self.robots.values()):
            # noise streams restart with the world; one generator per robot, so that what is
            # read of one robot does not change another's stream
            r.rng = np.random.default_rng([self.seed, k])
            n = r.imu_noise
            if n is not None:
                r.imu_bias = (n.gyro.draw_bias(r.rng) if n.gyro else np.zeros(3),
                              n.accel.draw_bias(r.rng) if n.accel else np.zeros(3))
            if r.encoder_noise is not None:
                r.encoder_bias = r.encoder_noise.draw_bias(r.rng, len(r.joints))
        for r in self.robots.values():
            if r.servos is not None:
                r.servos.reset()
        self._servo_tick_ns = -1  # a goal sent before the reset is not taken late after it
        mujoco.mj_forward(m, d)
        self.sensors_fresh = True
        self.resets += 1

    # -- the robot contract ---------------------------------------------------------------------
    def robot_names(self) -> list[str]:
        return list(self.robots)

    def robot_info(self, robot: str) -> RobotInfo:
        return self.robot(robot).info

    def command_warnings(self, now_ns: int) -> list[str]:
        """The sanitisers' throttled summaries of rejected or clamped commands, and the one-time
        warnings about commands that the physics cannot follow (PD gains at this step)."""
        out, self._pending_warnings = self._pending_warnings, []
        return out + [w for r in self.robots.values() if (w := r.sanitizer.warning(now_ns))]

    def sensor_values(self, robot: str, sensor) -> object:
        """The current reading of one of the robot's sensor plug-ins (``RobotInfo.sensors``);
        one that ``wants_rng`` draws its noise from the robot's seeded generator."""
        if sensor.wants_rng:
            return sensor.read(self.model, self.data, self.robot(robot).rng)
        return sensor.read(self.model, self.data)

    # -- commands -----------------------------------------------------------------------------
    def robot(self, name: str) -> _Robot:
        try:
            return self.robots[name]
        except KeyError:
            raise SimConfigError(f"no robot '{name}' (robots: {', '.join(self.robots)})") from None

    def command(self, robot: str, joint: int, kind: str, value: float) -> bool:
        """One joint command (kind 'velocity' or 'effort'); False when rejected."""
        return self.commander(robot, kind)(joint, value)

    def commander(self, robot: str, kind: str) -> Callable[[int, float], bool]:
        """``command(joint, value) -> bool`` for one robot and command kind: what runs for every
        per-joint command message, so an in-range value costs a comparison and one store."""
        r = self.robot(robot)
        array, slot, sign = r.motors.slots[kind]
        limits = r.limit_lists[kind]
        modes = r.mode_list
        mode = VELOCITY if kind == 'velocity' else EFFORT
        sanitize = r.sanitizer.one
        switch = self._switch_modes

        def command(joint: int, value: float) -> bool:
            limit = limits[joint]
            if not -limit <= value <= limit:  # also catches NaN
                value = sanitize(kind, joint, value)
                if value is None:
                    return False
            array[slot[joint]] = sign * value
            if modes[joint] != mode:
                switch(r, np.array([joint]), mode)
            return True

        def command_unsigned(joint: int, value: float) -> bool:  # sign 1: one multiply less
            limit = limits[joint]
            if not -limit <= value <= limit:  # also catches NaN
                value = sanitize(kind, joint, value)
                if value is None:
                    return False
            array[slot[joint]] = value
            if modes[joint] != mode:
                switch(r, np.array([joint]), mode)
            return True
        return command_unsigned if sign == 1.0 else command

    def command_callback(self, robot: str, kind: str, joint: int, counter):
        """The callback of one joint's per-joint command topic (std_msgs/Float64) for the node
        shell: ``counter.commands += 1`` and what ``commander(robot, kind)(joint, msg.data)``
        does, in one call (25 such messages per control period on the Nao: bench_sim). None
        where the commander's sign is not 1 (the shell then calls the commander)."""
        r = self.robot(robot)
        array, slots, sign = r.motors.slots[kind]
        if sign != 1.0:
            return None
        slot = slots[joint]
        limit = r.limit_lists[kind][joint]
        low = -limit
        modes = r.mode_list
        mode = VELOCITY if kind == 'velocity' else EFFORT
        sanitize = r.sanitizer.one
        switch = self._switch_modes

        def callback(msg) -> None:
            counter.commands += 1
            value = msg.data
            if not low <= value <= limit:  # also catches NaN
                value = sanitize(kind, joint, value)
                if value is None:
                    return
            array[slot] = value
            if modes[joint] != mode:
                switch(r, np.array([joint]), mode)
        return callback

    def commands(self, robot: str, joints: np.ndarray, kind: str, values: np.ndarray) -> int:
        """Batch form of :meth:`command`; returns how many were applied."""
        r = self.robot(robot)
        joints, values = r.sanitizer.many(kind, np.asarray(joints, dtype=int), values)
        r.motors.set(kind, joints, values)
        mode = VELOCITY if kind == 'velocity' else EFFORT
        if mode != VELOCITY or not r.motors.all_velocity:  # (else no joint switches mode)
            switch = joints[r.mode[joints] != mode]
            if switch.size:
                self._switch_modes(r, switch, mode)
        return int(joints.size)

    def pd_commands(self, robot: str, joints: np.ndarray, position: np.ndarray,
                    velocity: np.ndarray, kp: np.ndarray, kd: np.ndarray,
                    effort: np.ndarray) -> int:
        """PD + feed-forward commands, evaluated at every physics step (joint_motors, "PD
        commands"); sanitised by the robot's CommandSanitizer. Returns how many were applied."""
        r = self.robot(robot)
        joints, q, dq, kp, kd, tau = r.sanitizer.pd(
            np.asarray(joints, dtype=int), position, velocity, kp, kd, effort,
            r.motors.lower, r.motors.upper)
        switch = joints[r.mode[joints] != PD]
        if switch.size:
            self._switch_modes(r, switch, PD)
        r.motors.set_pd(joints, q, dq, kp, kd, tau)
        self._check_pd_stability(r, joints, kd)
        return int(joints.size)

    def _check_pd_stability(self, r: _Robot, joints: np.ndarray, kd: np.ndarray) -> None:
        """The damping term is explicit in the integrator: kd h / I above ~1 on a joint (I: its
        diagonal of the mass matrix now) makes it ring or diverge. Said once per joint. Checked
        when a joint's kd changes and every PD_RECHECK_COMMANDS commands (the posture changes I):
        the full mass matrix costs ~9 us, more than the rest of a Nao's PD command."""
        r.pd_commands_since_check += 1
        if (r.pd_commands_since_check < PD_RECHECK_COMMANDS
                and np.array_equal(r.pd_checked_kd[joints], kd)):
            return
        r.pd_commands_since_check = 0
        r.pd_checked_kd[joints] = kd
        h = self.model.opt.timestep
        ratio = kd * h / self._joint_inertia(r)[joints]
        for j, x in zip(joints[ratio > PD_STABILITY_LIMIT].tolist(),
                        ratio[ratio > PD_STABILITY_LIMIT].tolist()):
            if j in r.pd_warned:
                continue
            r.pd_warned.add(j)
            self._pending_warnings.append(
                f'{r.name}: {r.joints[j]} kd {kd[list(joints).index(j)]:g} is explicit at a '
                f'{h * 1e3:g} ms step (kd h / I = {x:.2f} > {PD_STABILITY_LIMIT:g}): it will '
                f'ring or diverge; use a physics step <= {h * PD_STABILITY_LIMIT / x * 1e3:.2g} '
                'ms or a smaller kd')

    def _joint_inertia(self, r: _Robot) -> np.ndarray:
        full = np.zeros((self.model.nv, self.model.nv))
        mujoco.mj_fullM(self.model, self.data, full)
        return full[r.dadr, r.dadr]

    @staticmethod
    def _switch_modes(r: _Robot, joints: np.ndarray, mode: int) -> None:
        r.mode[joints] = mode
        for j in joints.tolist():
            r.mode_list[j] = mode
        r.motors.apply_modes(r.mode, joints)

    # -- state --------------------------------------------------------------------------------
    def joint_state(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(position, velocity, effort) of the actuated joints; effort is the motor's torque
        (velocity mode) or the applied torque input (effort mode)."""
        r, d = self.robots[robot], self.data
        if r.servos is not None:
            return r.servos.position(), d.qvel[r.dadr], r.servos.effort()
        q = d.qpos[r.qadr]
        if r.encoder_noise is not None:  # the description's encoders (noise.py)
            q = r.encoder_noise.apply(q, r.encoder_bias, r.rng)
        return q, d.qvel[r.dadr], r.motors.effort()

    def servo_goals(self, robot: str, joints: np.ndarray, positions: np.ndarray,
                    stamp_ns: int = 0) -> int:
        """Goal positions (rad) for a robot with servos; written into the goal registers, which
        the servos consume at their goal rate. Goals computed for sim time ``stamp_ns`` at or
        before the last consumption (a command that reached the simulator late; 0: unstamped)
        are consumed at once, as that consumption would have. NaN/inf are dropped; returns how
        many were taken."""
        r = self.robot(robot)
        if r.servos is None:
            raise SimConfigError(f"robot '{robot}' has no servos (set robots.{robot}.servo)")
        joints = np.asarray(joints, dtype=int)
        positions = np.asarray(positions, dtype=float)
        ok = np.isfinite(positions)
        r.servos.set_goals(joints[ok], positions[ok], late=0 < stamp_ns <= self._servo_tick_ns)
        return int(ok.sum())

    def servo_settings(self, robot: str, joints: np.ndarray, torque_enable: np.ndarray,
                       speed_limit: np.ndarray, torque_limit: np.ndarray) -> None:
        """A bus's RAM settings for the robot's servos (ServoSettings: torque off = limp, speed
        cap in rad/s with 0 = none, torque limit as a fraction), written as the AX-12 registers
        they are (``ax12_servo.registers_of``); a bad value raises SimConfigError."""
        r = self.robot(robot)
        if r.servos is None:
            raise SimConfigError(f"robot '{robot}' has no servos (set robots.{robot}.servo)")
        moving_speed, limit = registers_of(np.asarray(speed_limit, dtype=float),
                                           np.asarray(torque_limit, dtype=float))
        r.servos.set_registers(np.asarray(joints, dtype=int),
                               torque_enable=np.asarray(torque_enable, dtype=bool),
                               moving_speed=moving_speed, torque_limit=limit)

    def base_pose(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        r = self.robots[robot]
        return r.base_xpos.copy(), r.base_xquat.copy()

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
        gyro, acc = d.sensordata[r.gyro].copy(), d.sensordata[r.acc].copy()
        n = r.imu_noise
        if n is not None:  # the description's Gazebo <noise>, from the seeded generator
            if n.gyro is not None:
                gyro = n.gyro.apply(gyro, r.imu_bias[0], r.rng)
            if n.accel is not None:
                acc = n.accel.apply(acc, r.imu_bias[1], r.rng)
        return d.xquat[r.imu_body].copy(), gyro, acc

    def contacts(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        """(in contact, total contact force in the world frame) per contact link."""
        r, m, d = self.robots[robot], self.model, self.data
        touching = np.zeros(m.nbody, dtype=bool)
        n = d.ncon
        if n:  # no geom margins: every detected contact is an active constraint
            touching[m.geom_bodyid[d.contact.geom[:n]]] = True
        return touching[r.contact_bodies], d.cfrc_ext[r.contact_bodies, 3:]

    def link_poses(self, robot: str) -> tuple[list[str], np.ndarray, np.ndarray]:
        r = self.robots[robot]  # (fancy indexing copies)
        return r.links, self.data.xpos[r.link_bodies], self.data.xquat[r.link_bodies]

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
        self.sensors_fresh = True

    # -- reports ------------------------------------------------------------------------------
    def penetration(self, robot: str) -> float:
        """The deepest current penetration of the robot into anything (itself included), m."""
        r, d = self.robots[robot], self.data
        if not d.ncon:
            return 0.0
        contact = d.contact  # (the current contacts: ncon of them)
        dist = contact.dist
        if not r.all_contacts:
            mine = r.geom_mask[contact.geom].any(axis=1)
            if not mine.any():
                return 0.0
            dist = dist[mine]
        return max(0.0, float(-dist[_argmin(dist)]))  # the deepest (a NaN: none, as before)

    def command_counts(self, robot: str) -> tuple[int, int]:
        s = self.robot(robot).sanitizer
        return s.rejected, s.clamped

    def metrics(self) -> dict:
        return {'backend': 'mujoco', 'steps': self.steps, 'sim_time': self.sim_ns * 1e-9,
                'resets': self.resets,
                'contacts': int(self.data.ncon), 'warnings': len(self.warnings),
                'robots': len(self.robots), 'gravity': self.model.opt.gravity.tolist(),
                'physics_step': float(self.model.opt.timestep)}
