"""Gazebo Harmonic physics through the gz.sim8 Python bindings (specs/ros_stack.md 5), behind the
same ``step_ns`` / ``advance(n)`` / state interface as the MuJoCo backend.

The bindings are not on PyPI (ros_stack.md 5.7): without them :meth:`GazeboPhysics.create` raises
a clear error (the shared build of ../shared/gz, unpacked by `make setup`, has them). The IMU and
contacts come from gz-sim's own sensor systems (:mod:`.sensors`); sensors that need a rendering
engine are said to be missing, not faked; joint effort is the commanded torque (Gazebo's velocity
command is a constraint whose torque is not reported, gazebo_ros2_control #276). zoo_sim's README,
"Gazebo Harmonic", says what differs from MuJoCo and why.
"""
from __future__ import annotations

import contextlib
import importlib
import math
import os
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Sequence

import numpy as np

from .. import SimConfigError
from ..commands import CommandSanitizer
from ..joint_motors import CORRECTION_BAND, CORRECTION_TIME
from ..mujoco_scene import (BuiltRobot, RobotSpec, check_initial_positions,
                            default_sensor_links)
from ..nominal_pose import nominal_pose
from ..resources import find_world, model_search_paths
from ..robot_interface import RobotInfo, robot_info_from
from ..sdf_world import World
from ..transforms import compose, quat_conj, quat_from_rpy, quat_rotate
from ..urdf_robot import load_description, parse_urdf
from .plugins import (physics_engines, rendering_engines, robot_gazebo_blocks, weld_to_world, with_gazebo_blocks,
                      sensor_topics, with_sensor_topics, without_rendering_sensors)
from .sensors import GzSensors

GZ_CORRECTION_BAND = 10 * CORRECTION_BAND  # rad: see slip_correction
GZ_RATES = {'joint_states_rate': 100.0, 'odometry_rate': 50.0, 'imu_rate': 100.0,
            'tf_rate': 25.0, 'contacts_rate': 50.0}


class _GzRobot:
    def __init__(self, built: BuiltRobot):
        self.built = built
        self.name = built.spec.name
        self.joints = list(built.joints)
        self.index = {j: i for i, j in enumerate(self.joints)}
        self.contact_links = list(built.contact_links)
        limits = {j.name: j for j in built.desc.joints}
        vel = np.array([limits[j].velocity_limit for j in self.joints], dtype=float)
        eff = np.array([limits[j].effort_limit for j in self.joints], dtype=float)
        self.sanitizer = CommandSanitizer(self.name, self.joints, vel, eff)
        ranges = np.array([limits[j].position_range for j in self.joints], dtype=float)
        self.lower, self.upper = ranges[:, 0], ranges[:, 1]
        self.effort_limit = eff
        # PD + feed-forward joints (joint_pd_commands): target q, dq, kp, kd, tau per joint,
        # evaluated at every step as the MuJoCo backend does, applied as a clamped torque
        self.pd = np.zeros(len(self.joints), dtype=bool)
        self.pd_gains = np.zeros((5, len(self.joints)))
        self.info = robot_info_from(built, vel, eff)
        self.velocity = np.zeros(len(self.joints))
        self.effort = np.full(len(self.joints), np.nan)  # NaN: velocity mode
        self.forced = np.zeros(len(self.joints), dtype=bool)
        self.sanitizer_warned = False
        self.q = np.zeros(len(self.joints))
        self.dq = np.zeros(len(self.joints))
        self.links = [ln for ln in built.desc.links if ln != 'world']
        self.link_pos = np.zeros((len(self.links), 3))
        self.link_quat = np.tile([1.0, 0, 0, 0], (len(self.links), 1))
        self.base_lin = np.zeros(3)
        self.base_ang = np.zeros(3)
        self.handles = None  # (model, joints, links, base), resolved on the first update
        # links the fixed-joint reduction merged into an ancestor: link index -> (ancestor
        # index, offset pos, offset quat), so /tf still has every URDF link
        self.merged: dict[int, tuple[int, np.ndarray, np.ndarray]] = {}
        self.initial = dict(built.initial_positions)
        # until the first step reads them from gz: where the robot starts (the observers and
        # summary.json take their first sample before any step)
        for k, q in enumerate(self.joints):
            self.q[k] = self.initial.get(q, 0.0)
        self.reference = self.q.copy()  # slip correction: the angle a velocity motor holds
        self.link_pos, self.link_quat = initial_link_poses(built.desc, self.links, built.pose,
                                                           self.initial)


class GazeboPhysics:
    features = frozenset({'joint_states', 'odometry', 'tf', 'imu', 'contacts'})

    @classmethod
    def from_config(cls, config) -> 'GazeboPhysics':
        """The backend registry's constructor (backends.BackendConfig); gz-sim draws its own
        noise, so the seed and MuJoCo's joint-motor model do not apply."""
        return cls.create(config.world, config.robots, gravity=config.gravity, step=config.step,
                          validate=config.validate)

    @classmethod
    def create(cls, world: str | Path | World | None, robots: Sequence[RobotSpec] = (), *,
               gravity: Sequence[float] | None = None, step: float | None = None,
               validate: bool = True) -> 'GazeboPhysics':
        if not import_gz_sim8():
            raise SimConfigError("backend 'gazebo' needs Gazebo Harmonic's Python bindings "
                                 '(gz.sim8), which are not installed here; use backend '
                                 "'mujoco', or install ros-jazzy-gz-sim-vendor >= 0.0.13 or "
                                 "OSRF's python3-gz-sim8 (see ROS2.md)") from None
        if isinstance(world, World):
            world = world.path
        path = find_world(str(world or 'empty'))
        return cls(path, list(robots), gravity, step)

    def __init__(self, world_path: Path, robots: list[RobotSpec],
                 gravity: Sequence[float] | None, step: float | None):
        self._tmp = tempfile.TemporaryDirectory(prefix='zoo_gz_')
        tree = ET.parse(world_path)
        absolute_uris(tree.getroot(), world_path)  # the world is rewritten into self._tmp
        world_el = tree.getroot().find('world')
        self.world_name = world_el.get('name', 'default')
        if gravity is not None:
            _set(world_el, 'gravity', ' '.join(f'{g:g}' for g in gravity))
        physics = world_el.find('physics')
        if physics is None:
            physics = ET.SubElement(world_el, 'physics')
        if step is not None:
            _set(physics, 'max_step_size', f'{step:g}')
        step_s = float(physics.findtext('max_step_size') or 0.001)
        self.step_ns = round(step_s * 1e9)
        self.warnings: list[str] = []
        plugins = [pl.get('filename', '') for pl in world_el.findall('plugin')]
        if plugins and not any('physics' in f for f in plugins):
            # gz-sim loads its default systems only for a world that names none
            raise SimConfigError(f'{world_path}: the world names gz-sim systems but not '
                                 'gz-sim-physics-system: nothing would move under Gazebo')
        if 'dartsim' not in physics_engines():  # bullet-featherstone alone: no heightmap shape
            from ..sdf_world import load_world  # (resolves the includes: snake_terrain's model)
            for m in load_world(world_path).models:
                for ln in m.links:
                    if any(g.shape.heightfield is not None for g in ln.collisions):
                        self.warnings.append(
                            f'{world_path}: model {m.name!r} link {ln.name!r} is a heightmap, '
                            "which gz-physics' bullet-featherstone (this Gazebo's only engine) "
                            'does not collide with: nothing stands on it under Gazebo')
        self._rendering = bool(rendering_engines())
        if not self._rendering:  # its Sensors system would load ogre2, fail, and log errors
            for plugin in world_el.findall('plugin'):
                if plugin.get('name') == 'gz::sim::systems::Sensors':
                    world_el.remove(plugin)
        self.robots: dict[str, _GzRobot] = {}
        for spec in robots:
            built = self._write_robot(spec, world_el)
            self.robots[spec.name] = _GzRobot(built)
        composed = Path(self._tmp.name) / 'world.sdf'
        tree.write(composed)
        self.paused = False
        self.sim_ns = 0
        self.steps = 0
        self._pose_requests: list[tuple[str, Sequence[float], Sequence[float]]] = []
        self._composed = composed
        self._world_path = world_path
        self._sensors: dict[str, GzSensors] = {}
        self._load()

    def _load(self) -> None:
        """A server for the composed world, with the callbacks; :meth:`_resolve` runs at its
        first update. gz resolves the worlds' ``model://`` includes (ground_plane) itself, through
        GZ_SIM_RESOURCE_PATH: the workspace's model folders go first on it, in every process."""
        from gz.sim8 import TestFixture
        import gz.math7  # noqa: F401  the bindings return gz.math7 types (Link.world_pose)
        ours = [str(p) for p in model_search_paths()]
        theirs = [p for p in os.environ.get('GZ_SIM_RESOURCE_PATH', '').split(os.pathsep)
                  if p and p not in ours]
        os.environ['GZ_SIM_RESOURCE_PATH'] = os.pathsep.join(ours + theirs)
        # gz-transport (the sensors' topics) discovers peers by multicast on every interface:
        # this process's server and subscribers talk on loopback, in a partition of their own, so
        # two runs on one machine never read each other's /<robot>/imu (set both to share one)
        os.environ.setdefault('GZ_IP', '127.0.0.1')
        os.environ.setdefault('GZ_PARTITION', f'robozoo_{os.getpid()}')
        self._resolved = False
        self._error: str | None = None
        self._sim_ns_seen: int | None = None
        with process_signal_handlers_kept():
            self._fixture = TestFixture(str(self._composed))
            self._fixture.on_pre_update(self._pre_update)
            self._fixture.on_post_update(self._post_update)
            self._fixture.finalize()
            self._server = self._fixture.server()
        if not self._sensors:  # subscriptions outlive a reset's reload: same topics
            self._sensors = {name: GzSensors(name, *sensor_topics(name, r.contact_links))
                             for name, r in self.robots.items()}
        # gz-sim8 logs a world it cannot load ("[Err] ... Failed to load a world") and then runs
        # an empty server whose iterations call no system: ask for every robot before stepping
        missing = [n for n in self.robots if not self._server.has_entity(n, 0)]
        if missing:
            raise SimConfigError(f'{self._world_path}: gz-sim8 has no robot {", ".join(missing)} '
                                 "in the world it loaded (see Gazebo's [Err] lines above)")

    def _write_robot(self, spec: RobotSpec, world_el: ET.Element) -> BuiltRobot:
        desc = parse_urdf(spec.urdf, f'<robot {spec.name}>') if spec.urdf is not None else \
            load_description(spec.package, spec.xacro_args, spec.model)
        base = desc.root_link if desc.root_link != 'world' else \
            next(j.child for j in desc.joints if j.parent == 'world')
        imu, contact = default_sensor_links(spec, desc, base)
        urdf = with_gazebo_blocks(with_sensor_topics(desc.urdf, spec.name, imu, contact),
                                  robot_gazebo_blocks(spec.name, desc, base_link=base,
                                                      imu_link=imu, contact_links=contact,
                                                      rates=GZ_RATES))
        if not self._rendering:
            urdf, lines = without_rendering_sensors(urdf, spec.name)
            self.warnings += lines
        fixed = desc.root_link == 'world' or spec.fixed_base
        if spec.fixed_base and desc.root_link != 'world':
            urdf = weld_to_world(urdf, base)
        # as the MuJoCo scene does: the scenario's pose, else the description's nominal one
        nominal_base, nominal_joints = (None, {}) if spec.package is None else \
            nominal_pose(spec.package, spec.xacro_args)
        pose = list(spec.pose if spec.pose is not None else nominal_base or [0.0] * 6)
        actuated = [j.name for j in desc.actuated]
        check_initial_positions(spec.name, desc, spec.initial_positions)
        initial = {**{j: q for j, q in nominal_joints.items() if j in actuated},
                   **spec.initial_positions}
        path = Path(self._tmp.name) / f'{spec.name}.urdf'
        path.write_text(urdf)
        inc = ET.SubElement(world_el, 'include')
        ET.SubElement(inc, 'uri').text = f'file://{path}'
        ET.SubElement(inc, 'name').text = spec.name
        ET.SubElement(inc, 'pose').text = ' '.join(f'{v:g}' for v in pose)
        return BuiltRobot(spec, desc, '', base, fixed, actuated, contact, imu, pose=pose,
                          initial_positions=initial)

    def _check(self) -> None:
        """Raise what a callback found (a callback must not raise into gz-sim's C++ loop)."""
        error, self._error = self._error, None
        if error:
            raise SimConfigError(error)

    # -- gz callbacks ---------------------------------------------------------------------------
    def _resolve(self, ecm) -> None:
        from gz.sim8 import K_NULL_ENTITY, Joint, Link, Model, World, world_entity
        world = World(world_entity(ecm))
        for r in self.robots.values():
            entity = world.model_by_name(ecm, r.name)
            if entity == K_NULL_ENTITY:
                raise SimConfigError(f'{self._world_path}: robot {r.name!r}: gz-sim8 has no model '
                                     'of that name in the world (its URDF did not load: see '
                                     "Gazebo's [Err] lines above)")
            model = Model(entity)
            found = [model.joint_by_name(ecm, j) for j in r.joints]
            lost = [j for j, e in zip(r.joints, found) if e == K_NULL_ENTITY]
            if lost:
                raise SimConfigError(f'robot {r.name!r}: gz-sim8 has no joint {", ".join(lost)} '
                                     '(the URDF to SDF conversion merged or dropped it)')
            joints = [Joint(e) for e in found]
            for name, j in zip(r.joints, joints):
                j.enable_position_check(ecm, True)
                j.enable_velocity_check(ecm, True)
                if name in r.initial:
                    j.reset_position(ecm, [float(r.initial[name])])
            entities = [model.link_by_name(ecm, ln) for ln in r.links]
            kept = {ln for ln, e in zip(r.links, entities) if e != K_NULL_ENTITY}
            r.merged = merged_links(r.built.desc, r.links, kept)
            links = [Link(e) for e in entities]
            base = links[r.links.index(r.built.base_link)]
            base.enable_velocity_checks(ecm, True)
            r.handles = (model, joints, links, base)

    def _pre_update(self, info, ecm) -> None:
        if not self._resolved:
            self._resolved = True
            try:
                self._resolve(ecm)
            except SimConfigError as exc:
                self._error = str(exc)
        if self._error:
            return
        dt = self.step_ns * 1e-9
        for r in self.robots.values():
            _, joints, _, _ = r.handles
            velocity = r.velocity + slip_correction(r, dt)
            if r.pd.any():
                q_ref, dq_ref, kp, kd, tau = r.pd_gains
                torque = np.clip(kp * (q_ref - r.q) + kd * (dq_ref - r.dq) + tau,
                                 -r.effort_limit, r.effort_limit)
                r.effort[r.pd] = torque[r.pd]
            for i, j in enumerate(joints):
                if math.isnan(r.effort[i]):
                    j.set_velocity(ecm, [float(velocity[i])])
                else:
                    j.set_force(ecm, [float(r.effort[i])])
        if self._pose_requests:
            from gz.math7 import Pose3d
            for name, xyz, q in self._pose_requests:
                model = self.robots[name].handles[0]
                model.set_world_pose_cmd(ecm, Pose3d(*xyz, q[0], q[1], q[2], q[3]))
            self._pose_requests.clear()

    def _post_update(self, info, ecm) -> None:
        self._sim_ns_seen = _ns(info.sim_time)
        for r in self.robots.values():
            if r.handles is None:
                continue
            _, joints, links, base = r.handles
            for i, j in enumerate(joints):
                q, dq = j.position(ecm), j.velocity(ecm)
                r.q[i] = q[0] if q else 0.0
                r.dq[i] = dq[0] if dq else 0.0
            for k, link in enumerate(links):
                if k in r.merged:
                    continue
                pose = link.world_pose(ecm)
                if pose is not None:
                    p, o = pose.pos(), pose.rot()
                    r.link_pos[k] = (p.x(), p.y(), p.z())
                    r.link_quat[k] = (o.w(), o.x(), o.y(), o.z())
            for k, (a, pos, quat) in r.merged.items():  # ancestors come first: resolved
                r.link_pos[k], r.link_quat[k] = compose((r.link_pos[a], r.link_quat[a]),
                                                        (pos, quat))
            lin, ang = base.world_linear_velocity(ecm), base.world_angular_velocity(ecm)
            if lin is not None and ang is not None:
                r.base_lin[:] = (lin.x(), lin.y(), lin.z())
                r.base_ang[:] = (ang.x(), ang.y(), ang.z())

    # -- the robot contract (zoo_sim.robot_interface.RobotBackend) -------------------------------
    def robot_names(self) -> list[str]:
        return list(self.robots)

    def robot_info(self, robot: str) -> RobotInfo:
        return self.robots[robot].info

    def command_warnings(self, now_ns: int) -> list[str]:
        return [w for r in self.robots.values() if (w := r.sanitizer.warning(now_ns))]

    def imu(self, robot: str):
        """gz-sim8's IMU sensor on the IMU link (the last sample, at its update rate)."""
        return self._sensors[robot].imu()

    def contacts(self, robot: str):
        """gz-sim8's contact sensors of the contact links, as of the last step."""
        # stamped with the server's sim time at the start of the step that found them (a reset's
        # reload restarts it at 0): the last step's are stamped one step before now
        return self._sensors[robot].contacts((self._sim_ns_seen or 0) - 3 * self.step_ns // 2)

    def sensor_values(self, robot: str, sensor):
        raise SimConfigError(f'{sensor.topic}: the Gazebo backend serves no description sensor '
                             'beyond the IMU and contacts (cameras and lidars need a rendering '
                             'engine, which the shared headless build lacks)')

    def advance(self, n_steps: int) -> None:
        if not self.paused and n_steps > 0:
            self.step(n_steps)

    def step(self, n_steps: int) -> None:
        before = self._sim_ns_seen
        self._server.run(True, int(n_steps), False)  # blocking, iterations, paused
        self._check()
        advanced = (self._sim_ns_seen or 0) - (before or 0)
        if abs(advanced - int(n_steps) * self.step_ns) > 2000:  # the bindings' clock is in us
            raise SimConfigError(
                f'gz-sim8: {n_steps} step(s) of {self.step_ns} ns advanced its sim time by '
                f'{advanced} ns (a server that steps nothing must not report a run)')
        self.steps += int(n_steps)
        self.sim_ns += int(n_steps) * self.step_ns

    def reset(self) -> None:
        """The world as loaded, by loading it again. gz-sim8's own reset (``Server.reset_all``)
        cannot serve (gazebosim/gz-sim gz-sim8 b81e26da): it restores the ECM's load-time copy
        (src/SimulationRunner.cc ``ResetTo(initialEntityCompMgr)``), which drops the joint
        position / velocity and base velocity components and the initial positions that
        :meth:`_resolve` added, and SystemManager::Reset does not reload TestFixture's in-memory
        HelperSystem, which lacks ISystemReset (src/SystemManager.cc), so the pre-update
        callback that would add them again, and that applies every command, never runs again
        (measured with the real gz-sim 8.14.0 bindings; post-update ones go on): every joint read
        0 and no command reached Gazebo. Sim time keeps running, as with MuJoCo."""
        self._fixture = self._server = None  # the old server stops before the new one loads
        for sensors in self._sensors.values():
            sensors.clear()
        self._pose_requests.clear()
        for r in self.robots.values():
            r.velocity[:] = 0.0
            r.effort[:] = np.nan
            r.forced[:] = False  # the new world has no JointForceCmd either
            r.pd[:] = False
            r.q[:] = [r.initial.get(j, 0.0) for j in r.joints]
            r.reference = r.q.copy()
            r.handles = None
        self._load()

    def close(self) -> None:
        """Stop gz-sim's server and the sensor subscriptions now (left to interpreter exit, a
        server torn down beside rclpy's threads hung the simulator under ros2 launch)."""
        self._fixture = self._server = None
        self._sensors.clear()

    def command(self, robot: str, joint: int, kind: str, value: float) -> bool:
        r = self.robots[robot]
        v = r.sanitizer.one(kind, joint, value)
        if v is None:
            return False
        r.pd[joint] = False
        if kind == 'velocity':
            # once set, a JointForceCmd stays (Physics.cc zeroes it, never removes it) and wins
            # over velocity commands; the bindings cannot remove a component
            if not r.forced[joint]:
                r.velocity[joint], r.effort[joint] = v, np.nan
            elif not r.sanitizer_warned:
                r.sanitizer_warned = True
                self.warnings.append(f'{robot}: velocity commands after effort commands on one '
                                     'joint are ignored by gz-sim8 (JointForceCmd persists)')
        else:
            r.effort[joint], r.forced[joint] = v, True
        return True

    def pd_commands(self, robot: str, joints: np.ndarray, position: np.ndarray,
                    velocity: np.ndarray, kp: np.ndarray, kd: np.ndarray,
                    effort: np.ndarray) -> int:
        """PD + feed-forward commands (the contract of the MuJoCo backend's): sanitised, then
        evaluated before every step on the last state read, as a torque within the joint's
        effort limit (a JointForceCmd)."""
        r = self.robots[robot]
        joints, q, dq, kp, kd, tau = r.sanitizer.pd(
            np.asarray(joints, dtype=int), position, velocity, kp, kd, effort, r.lower, r.upper)
        r.pd[joints] = True
        r.forced[joints] = True
        r.pd_gains[:, joints] = (q, dq, kp, kd, tau)
        r.effort[joints] = 0.0  # not NaN: these joints are in effort mode from now on
        return int(joints.size)

    def commander(self, robot: str, kind: str):
        """``command(joint, value) -> bool`` for one robot and kind (the node's per-message path)."""
        return lambda joint, value: self.command(robot, joint, kind, value)

    def commands(self, robot: str, joints: np.ndarray, kind: str, values: np.ndarray) -> int:
        return sum(self.command(robot, int(j), kind, float(v)) for j, v in zip(joints, values))

    def joint_state(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r = self.robots[robot]
        return r.q.copy(), r.dq.copy(), np.nan_to_num(r.effort, nan=0.0)

    def base_pose(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        r = self.robots[robot]
        b = r.links.index(r.built.base_link)
        return r.link_pos[b].copy(), r.link_quat[b].copy()

    def base_twist(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        r = self.robots[robot]
        q = quat_conj(self.base_pose(robot)[1])
        return quat_rotate(q, r.base_lin), quat_rotate(q, r.base_ang)

    def link_poses(self, robot: str) -> tuple[list[str], np.ndarray, np.ndarray]:
        r = self.robots[robot]
        return r.links, r.link_pos.copy(), r.link_quat.copy()

    def set_pose(self, name: str, xyz: Sequence[float], quat_wxyz: Sequence[float]) -> None:
        if name not in self.robots:
            raise SimConfigError(f"set_pose: no robot '{name}' (robots: {', '.join(self.robots)})")
        self._pose_requests.append((name, list(xyz), list(quat_wxyz)))

    def penetration(self, robot: str) -> float:
        return 0.0  # not reported by gz-sim's ECM: unknown

    def command_counts(self, robot: str) -> tuple[int, int]:
        s = self.robots[robot].sanitizer
        return s.rejected, s.clamped

    def metrics(self) -> dict:
        return {'steps': self.steps, 'sim_time': self.sim_ns * 1e-9, 'backend': 'gazebo'}


def _ns(duration) -> int:
    """UpdateInfo.sim_time (a datetime.timedelta in the bindings) in nanoseconds."""
    return (duration.days * 86400 + duration.seconds) * 1_000_000_000 + \
        duration.microseconds * 1000


def _set(parent: ET.Element, tag: str, text: str) -> None:
    el = parent.find(tag)
    if el is None:
        el = ET.SubElement(parent, tag)
    el.text = text


def absolute_uris(root: ET.Element, world_path: Path) -> None:
    """Make every relative ``<uri>`` under ``root`` the absolute path of its file. gz-sim resolves
    a relative URI against the folder of the SDF file it loaded (gazebosim/gz-sim gz-sim8
    src/Util.cc ``asFullPath``), and the backend loads a copy written to a temporary folder, where
    e.g. go1_steps' ``media/go1_steps_heightmap.png`` does not exist. URIs with a scheme
    (``model://``, ``file://``, ``https://``) and absolute paths are left as they are."""
    base = Path(world_path).resolve().parent
    for el in root.iter('uri'):
        uri = (el.text or '').strip()
        if not uri or '://' in uri or Path(uri).is_absolute():
            continue
        target = (base / uri).resolve()
        if not target.exists():
            raise SimConfigError(f'{world_path}: <uri>{uri}</uri>: no file {target} (a relative '
                                 "URI is resolved against the world file's folder)")
        el.text = str(target)


def merged_links(desc, links: list[str], kept: set[str]
                 ) -> dict[int, tuple[int, np.ndarray, np.ndarray]]:
    """For each of ``links`` not in ``kept`` (merged into its parent by libsdformat's fixed-joint
    reduction): (index of its nearest kept ancestor, pose relative to it). Ordered parents first,
    so composing in order resolves chains."""
    parent = {j.child: j for j in desc.joints}
    out: dict[int, tuple[int, np.ndarray, np.ndarray]] = {}
    for k, link in enumerate(links):
        if link in kept:
            continue
        pos, quat, up = np.zeros(3), np.array([1.0, 0, 0, 0]), link
        while up not in kept and up in parent:
            j = parent[up]
            pos, quat = compose((np.asarray(j.xyz, float), quat_from_rpy(*j.rpy)), (pos, quat))
            up = j.parent
        if up in kept:
            out[k] = (links.index(up), pos, quat)
    return out


def slip_correction(r: _GzRobot, dt: float) -> np.ndarray:
    """The velocity to add to the velocity-mode joints' targets this step so that a held load
    stays at a fixed angle. Like MuJoCo's rows (zoo_sim.joint_motors, "Slip correction"),
    bullet-featherstone's joint motor is soft: a Nao standing on zero-velocity motors crept
    0.03 rad/s at the ankles and fell within 6 s. The same law: the reference angle integrates
    the target, kept within a band of the joint (anti-windup), and the lag is closed in
    CORRECTION_TIME; the band is ten times MuJoCo's, as bullet's motor slips ten times faster
    (5 mrad / 50 ms = up to 0.1 rad/s corrected; a stalled joint runs on by at most 5 mrad)."""
    velocity_mode = np.isnan(r.effort)
    r.reference += np.where(velocity_mode, r.velocity, 0.0) * dt
    lag = np.clip(r.reference - r.q, -GZ_CORRECTION_BAND, GZ_CORRECTION_BAND)
    r.reference = np.where(velocity_mode, r.q + lag, r.q)
    return np.where(velocity_mode, lag / CORRECTION_TIME, 0.0)


def initial_link_poses(desc, links: list[str], pose: Sequence[float], q: dict[str, float]
                       ) -> tuple[np.ndarray, np.ndarray]:
    """World (pos, quat wxyz) of ``links`` with the root at ``pose`` (x y z roll pitch yaw) and
    the joints at ``q`` (0 where absent): forward kinematics through the URDF joints."""
    placed = {}
    root = desc.root_link
    placed[root] = (np.asarray(pose[:3], float), quat_from_rpy(*pose[3:6]))
    pending = list(desc.joints)
    while pending:
        rest = [j for j in pending if j.parent not in placed]
        for j in pending:
            if j.parent not in placed:
                continue
            at = compose(placed[j.parent], (np.asarray(j.xyz, float), quat_from_rpy(*j.rpy)))
            value, axis = q.get(j.name, 0.0), np.asarray(j.axis, float)
            axis = axis / (np.linalg.norm(axis) or 1.0)
            if j.type in ('revolute', 'continuous') and value:
                half = 0.5 * value
                at = compose(at, (np.zeros(3), np.array([math.cos(half),
                                                         *(math.sin(half) * axis)])))
            elif j.type == 'prismatic' and value:
                at = compose(at, (axis * value, np.array([1.0, 0, 0, 0])))
            placed[j.child] = at
        if len(rest) == len(pending):
            break  # joints whose parent is not in the tree: left at the origin
        pending = rest
    pos = np.array([placed.get(ln, (np.zeros(3), None))[0] for ln in links])
    quat = np.array([placed[ln][1] if ln in placed else [1.0, 0, 0, 0] for ln in links])
    return pos.reshape(len(links), 3), quat.reshape(len(links), 4)


@contextlib.contextmanager
def process_signal_handlers_kept():
    """Keep this process's SIGINT and SIGTERM handlers across the creation of a gz-sim Server.
    The server installs its own (gz-common SignalHandler, from ServerPrivate's constructor), which
    stop the server and call nobody else: rclpy never heard Ctrl-C, launch's SIGTERM neither, and
    the next blocking ``Server.run`` waited forever for iterations a stopped server never makes
    (the simulator had to be killed). The C-level ``struct sigaction`` is saved and put back as
    it was (rclpy's own handler lives there, not in Python's signal module)."""
    import ctypes
    import signal as _signal
    libc = ctypes.CDLL(None, use_errno=True)
    saved = {sig: ctypes.create_string_buffer(256)  # >= sizeof(struct sigaction) (152 on glibc)
             for sig in (_signal.SIGINT, _signal.SIGTERM)}
    for sig, buf in saved.items():
        libc.sigaction(int(sig), None, buf)
    try:
        yield
    finally:
        for sig, buf in saved.items():
            libc.sigaction(int(sig), buf, None)


def import_gz_sim8() -> bool:
    """Import gz.sim8, also from where Jazzy's vendor package installs it: gz_sim_vendor keeps
    Gazebo under ``<prefix>/opt/gz_sim_vendor`` and its Python modules in ``lib/python`` there
    (gazebosim/gz-sim gz-sim8: python/CMakeLists.txt installs to ``<GZ_LIB_INSTALL_DIR>/python``
    unless USE_SYSTEM_PATHS_FOR_PYTHON_INSTALLATION; the vendor layout is inferred, not seen run);
    OSRF's python3-gz-sim8 deb installs into dist-packages and needs nothing."""
    try:
        importlib.import_module('gz.sim8')
        return True
    except ImportError:
        pass
    prefixes = os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
    for prefix in filter(None, prefixes):
        cand = Path(prefix) / 'opt' / 'gz_sim_vendor' / 'lib' / 'python'
        if (cand / 'gz' / 'sim8').is_dir() and str(cand) not in sys.path:
            sys.path.append(str(cand))
            sys.modules.pop('gz', None)  # a namespace package cached without the new path
            try:
                importlib.import_module('gz.sim8')
                return True
            except ImportError:
                continue
    return False
