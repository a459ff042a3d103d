"""Gazebo Harmonic physics through the gz.sim8 Python bindings (specs/ros_stack.md 5), behind the
same ``step_ns`` / ``advance(n)`` / state interface as the MuJoCo backend.

The bindings are not on PyPI (ros_stack.md 5.7): without them :meth:`GazeboPhysics.create` raises
a clear error and the tests skip. What the bindings cannot give is left out, not faked: IMU and
contact readings come from Gazebo's sensors over ros_gz_bridge (see :mod:`.bridge`), so
``features`` lacks them and the simulator node publishes neither; joint effort is the commanded
torque (Gazebo's velocity command is an ideal constraint whose torque is not reported,
gazebo_ros2_control #276).
"""
from __future__ import annotations

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
from ..mujoco_scene import BuiltRobot, RobotSpec, default_sensor_links
from ..nominal_pose import nominal_pose
from ..resources import find_world
from ..robot_interface import RobotInfo, robot_info_from
from ..sdf_world import World
from ..transforms import compose, quat_conj, quat_from_rpy, quat_rotate
from ..urdf_robot import load_description, parse_urdf
from .plugins import robot_gazebo_blocks, weld_to_world, with_gazebo_blocks

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


class GazeboPhysics:
    features = frozenset({'joint_states', 'odometry', 'tf'})

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
        self.robots: dict[str, _GzRobot] = {}
        for spec in robots:
            built = self._write_robot(spec, world_el)
            self.robots[spec.name] = _GzRobot(built)
        composed = Path(self._tmp.name) / 'world.sdf'
        tree.write(composed)
        self.warnings: list[str] = []
        self.paused = False
        self.sim_ns = 0
        self.steps = 0
        self._pose_requests: list[tuple[str, Sequence[float], Sequence[float]]] = []
        self._composed = composed
        self._load()

    def _load(self) -> None:
        """A server for the composed world, with the callbacks; :meth:`_resolve` runs at its
        first update."""
        from gz.sim8 import TestFixture
        import gz.math7  # noqa: F401  the bindings return gz.math7 types (Link.world_pose)
        self._resolved = False
        self._fixture = TestFixture(str(self._composed))
        self._fixture.on_pre_update(self._pre_update)
        self._fixture.on_post_update(self._post_update)
        self._fixture.finalize()
        self._server = self._fixture.server()

    def _write_robot(self, spec: RobotSpec, world_el: ET.Element) -> BuiltRobot:
        desc = parse_urdf(spec.urdf, f'<robot {spec.name}>') if spec.urdf is not None else \
            load_description(spec.package, spec.xacro_args, spec.model)
        base = desc.root_link if desc.root_link != 'world' else \
            next(j.child for j in desc.joints if j.parent == 'world')
        imu, contact = default_sensor_links(spec, desc, base)
        urdf = with_gazebo_blocks(desc.urdf, robot_gazebo_blocks(
            spec.name, desc, base_link=base, imu_link=imu, contact_links=contact,
            rates=GZ_RATES))
        fixed = desc.root_link == 'world' or spec.fixed_base
        if spec.fixed_base and desc.root_link != 'world':
            urdf = weld_to_world(urdf, base)
        # as the MuJoCo scene does: the scenario's pose, else the description's nominal one
        nominal_base, nominal_joints = (None, {}) if spec.package is None else \
            nominal_pose(spec.package, spec.xacro_args)
        pose = list(spec.pose if spec.pose is not None else nominal_base or [0.0] * 6)
        actuated = [j.name for j in desc.actuated]
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

    # -- gz callbacks ---------------------------------------------------------------------------
    def _resolve(self, ecm) -> None:
        from gz.sim8 import K_NULL_ENTITY, Joint, Link, Model, World, world_entity
        world = World(world_entity(ecm))
        for r in self.robots.values():
            model = Model(world.model_by_name(ecm, r.name))
            joints = [Joint(model.joint_by_name(ecm, j)) for j in r.joints]
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
            self._resolve(ecm)
            self._resolved = True
        for r in self.robots.values():
            _, joints, _, _ = r.handles
            for i, j in enumerate(joints):
                if math.isnan(r.effort[i]):
                    j.set_velocity(ecm, [float(r.velocity[i])])
                else:
                    j.set_force(ecm, [float(r.effort[i])])
        if self._pose_requests:
            from gz.math7 import Pose3d
            for name, xyz, q in self._pose_requests:
                model = self.robots[name].handles[0]
                model.set_world_pose_cmd(ecm, Pose3d(*xyz, q[0], q[1], q[2], q[3]))
            self._pose_requests.clear()

    def _post_update(self, info, ecm) -> None:
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
        raise SimConfigError('imu: the Gazebo backend publishes IMUs through ros_gz_bridge '
                             '(features lacks imu)')

    def contacts(self, robot: str):
        raise SimConfigError('contacts: the Gazebo backend publishes contacts through '
                             'ros_gz_bridge (features lacks contacts)')

    def sensor_values(self, robot: str, sensor):
        raise SimConfigError(f'{sensor.topic}: Gazebo publishes its sensors through '
                             'ros_gz_bridge')

    def advance(self, n_steps: int) -> None:
        if not self.paused and n_steps > 0:
            self.step(n_steps)

    def step(self, n_steps: int) -> None:
        self._server.run(True, int(n_steps), False)  # blocking, iterations, paused
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
        self._pose_requests.clear()
        for r in self.robots.values():
            r.velocity[:] = 0.0
            r.effort[:] = np.nan
            r.forced[:] = False  # the new world has no JointForceCmd either
            r.handles = None
        self._load()

    def command(self, robot: str, joint: int, kind: str, value: float) -> bool:
        r = self.robots[robot]
        v = r.sanitizer.one(kind, joint, value)
        if v is None:
            return False
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
