"""Build one MuJoCo model (``MjSpec``) from an SDF world description and robot descriptions.

World models become static geoms or free bodies; each robot's URDF is parsed by MuJoCo's URDF
reader and attached with the prefix ``<robot>/`` (joint names on topics stay the URDF names).
Per actuated joint a joint motor of the chosen model is added (:mod:`zoo_sim.joint_motors`), and
the motor's reflected rotor inertia (:mod:`zoo_sim.joint_armature`).
Contact parameters follow :mod:`zoo_sim.contact_params`.
"""
from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path
from typing import Mapping, Sequence

import mujoco
import numpy as np
import yaml
from zoo_description_tools.physics import EARTH_GRAVITY

from . import SimConfigError, joint_armature, sliding_contacts
from .contact_params import ContactParams, from_ode, priorities
from .ax12_servo import add_servo, check_model as check_servo
from .joint_motors import DEFAULT_MOTOR, add_caps, add_driver, add_motor, check_model
from .sdf_world import HeightField, Link, Model, Shape, World
from . import sensor_plugins  # noqa: F401  (registers the IR and camera plug-ins)
from .sensors import SENSOR_KINDS, Sensor, SensorSpec
from .nominal_pose import nominal_pose
from .transforms import quat_from_rpy
from .urdf_robot import RobotDescription, absolutize_meshes, load_description, parse_urdf

ROBOT_NAME = re.compile(r'^[A-Za-z][A-Za-z0-9_]*$')
BUILT_IN_SENSORS = ('imu', 'contact')  # published as the imu and contacts topics
DEFAULT_CONTACT_LINKS = re.compile(r'(foot|feet|sole|toe)', re.IGNORECASE)
WORLD_BIT = 1  # collision bit of world geoms; each robot owns two more (body, self-collision)
ALL_BITS = 0x7FFFFFFF
MAX_ROBOTS = 15
FRICTION_IMPRATIO = 100.0   # friction rows 100x harder than normal ones: a pushed box below its
                            # sliding force does not creep (zoo_sim README, "Contacts")
LIMIT_TIMECONST_STEPS = 2.0  # joint stops: MuJoCo's stiffest safe limit, at its maximum impedance
LIMIT_IMPEDANCE = 0.9999
URDF_COMPILER = ('<mujoco><compiler discardvisual="false" fusestatic="false" '
                 'balanceinertia="false" strippath="false"/></mujoco>')


@dataclasses.dataclass
class RobotSpec:
    """What to spawn: a description package (or URDF text) with xacro args and a pose."""
    name: str
    package: str | None = None
    model: str | None = None                    # urdf/<model>.urdf.xacro; None: package stem
    urdf: str | None = None                     # URDF text instead of a package (tests, tools)
    xacro_args: Mapping[str, object] = dataclasses.field(default_factory=dict)
    pose: Sequence[float] | None = None         # x y z roll pitch yaw; None: the description's
                                                # nominal pose (config/initial_pose.yaml)
    fixed_base: bool = False
    contact_links: Sequence[str] | None = None  # None: links named like foot/sole/toe
    imu_link: str | None = None                 # None: the base link
    initial_positions: Mapping[str, float] = dataclasses.field(default_factory=dict)  # over the
    # description's nominal joint positions
    fall_height: float | None = None            # None: half the spawn height
    fall_tilt_deg: float | None = None          # None: 45 degrees; 180: never by tilt (a snake
                                                # pitches its head and rolls by design)
    servo: str | None = None                    # 'ax12': joints are AX-12 servos (ax12_servo)
    servo_params: Mapping[str, str] = dataclasses.field(default_factory=dict)  # name -> value
    sliding_links: Sequence[str] | None = None  # Coulomb sliding contacts (sliding_contacts.py);
    # None: the description's config/contacts.yaml sliding_links


@dataclasses.dataclass
class BuiltRobot:
    spec: RobotSpec
    desc: RobotDescription
    prefix: str
    base_link: str
    fixed_base: bool
    joints: list[str]            # actuated URDF joint names, actuator order
    contact_links: list[str]
    imu_link: str
    mass: float = 0.0
    sensors: list[Sensor] = dataclasses.field(default_factory=list)  # registered kinds
    pose: Sequence[float] = (0, 0, 0, 0, 0, 0)                      # resolved spawn pose
    initial_positions: Mapping[str, float] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Scene:
    spec: mujoco.MjSpec
    model: mujoco.MjModel
    world: World | None
    robots: dict[str, BuiltRobot]
    world_bodies: dict[str, list[str]]  # world model name -> its MuJoCo body names
    static_models: set[str]
    warnings: list[str]
    joint_motor: str = DEFAULT_MOTOR
    sliding_geoms: list[int] = dataclasses.field(default_factory=list)  # sliding_contacts.py


def build_scene(world: World | None, robots: Sequence[RobotSpec], *,
                gravity: Sequence[float] | None = None, step: float | None = None,
                joint_motor: str = DEFAULT_MOTOR) -> Scene:
    check_model(joint_motor)
    spec = mujoco.MjSpec()
    spec.modelname = world.name if world else 'robozoo'
    opt = spec.option
    opt.timestep = float(step if step is not None else (world.step if world else 0.001))
    opt.gravity = list(gravity if gravity is not None else
                       (world.gravity if world else EARTH_GRAVITY))
    # No velocity-dependent actuator forces (the motors are constraints): semi-implicit Euler,
    # with joint damping integrated implicitly, is exact enough and the cheapest.
    opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    opt.cone = (mujoco.mjtCone.mjCONE_PYRAMIDAL if world and world.cone == 'pyramidal'
                else mujoco.mjtCone.mjCONE_ELLIPTIC)
    opt.impratio = FRICTION_IMPRATIO
    if world and world.iterations:
        opt.iterations = int(world.iterations)
    _dress_for_rendering(spec)
    b = _Builder(spec, opt.timestep, joint_motor)
    if robots:
        add_driver(spec)
    if world is not None:
        for model in world.models:
            b.add_world_model(model)
    if len(robots) > MAX_ROBOTS:
        raise SimConfigError(f'at most {MAX_ROBOTS} robots fit the collision bitmasks, got '
                             f'{len(robots)}')
    built: dict[str, BuiltRobot] = {}
    for i, r in enumerate(robots):
        _check_name(r.name, built, b.world_bodies)
        if r.servo:
            check_servo(r.servo)
        built[r.name] = b.add_robot(r, i)
    b.assign_priorities()
    try:
        model = spec.compile()
    except ValueError as exc:
        raise SimConfigError(f'MuJoCo cannot compile the scene: {_one_line(exc)}') from None
    if model.ntree <= 1:
        # constraint islands are independent kinematic trees: with one tree there is one island,
        # and discovering it costs ~2 us per step (8 % of the 25-DOF benchmark humanoid)
        model.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_ISLAND
    sliding = sorted(g.id for g in b.sliding)
    designated = np.zeros(model.ngeom, dtype=bool)
    designated[sliding] = True
    sliding_contacts.attach(model, designated)
    warnings = list(world.warnings if world else []) + b.warnings
    return Scene(spec, model, world, built, b.world_bodies, b.static_models, warnings,
                 joint_motor, sliding)


def _dress_for_rendering(spec: mujoco.MjSpec) -> None:
    """Lights and a ground texture for pictures (SDF lights are rendering-only and ignored);
    nothing here touches the physics."""
    spec.visual.global_.offwidth = 1280
    spec.visual.global_.offheight = 960
    spec.visual.headlight.ambient = [0.35, 0.35, 0.35]
    spec.visual.headlight.diffuse = [0.5, 0.5, 0.5]
    spec.worldbody.add_light(name='zoo_sun', pos=[0, 0, 10], dir=[-0.3, 0.2, -1.0],
                             diffuse=[0.6, 0.6, 0.6], type=mujoco.mjtLightType.mjLIGHT_DIRECTIONAL)
    spec.add_texture(name='zoo_grid', type=mujoco.mjtTexture.mjTEXTURE_2D,
                     builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER, rgb1=[0.75, 0.75, 0.75],
                     rgb2=[0.6, 0.6, 0.6], width=256, height=256)
    spec.add_material(name='zoo_grid', textures=['', 'zoo_grid'], texrepeat=[1, 1],
                      texuniform=True)


def default_sensor_links(r: RobotSpec, desc: RobotDescription, base_link: str
                         ) -> tuple[str, list[str]]:
    """(IMU link, contact links): as given, else where the description's Gazebo IMU and contact
    sensors sit, else the base link and the links named like feet/soles/toes."""
    imu = r.imu_link or next(iter(desc.sensor_links('imu')), base_link)
    if r.contact_links is not None:
        return imu, list(r.contact_links)
    contact = desc.sensor_links('contact') or \
        [ln for ln in desc.links if DEFAULT_CONTACT_LINKS.search(ln)]
    return imu, list(dict.fromkeys(contact))


def check_initial_positions(robot: str, desc: RobotDescription, initial: Mapping[str, float]
                            ) -> None:
    """A scenario's initial joint positions are finite and within the joints' limits: outside,
    the joint's hard stop throws the robot at the first step (the Nao falls)."""
    joints = {j.name: j for j in desc.joints}
    for name, q in initial.items():
        joint = joints.get(name)
        if joint is None:
            continue  # the backends name an unknown joint with the robot's joints
        lo, hi = joint.position_range
        if not (math.isfinite(q) and lo - 1e-9 <= q <= hi + 1e-9):
            raise SimConfigError(f"robot '{robot}': initial_positions: {name} = {q:g}: expected "
                                 f"a position within the joint's limits [{lo:g}, {hi:g}] "
                                 f'({desc.source})')


def _contact_links(package: str, key: str) -> list[str]:
    """``key`` of the description's ``config/contacts.yaml``: a list of link names (none if the
    file or the key is absent)."""
    from zoo_description_tools import find_description
    path = find_description(package) / 'config' / 'contacts.yaml'
    if not path.is_file():
        return []
    data = yaml.safe_load(path.read_text()) or {}
    links = (data.get(key) if isinstance(data, dict) else None) or []
    if not isinstance(links, list) or not all(isinstance(x, str) for x in links):
        raise SimConfigError(f'{path}: {key}: expected a list of link names, got {links!r}')
    return links


def sliding_links(package: str) -> list[str]:
    """The links whose contacts get Coulomb sliding (sliding_contacts.py): ``sliding_links`` in
    the description's ``config/contacts.yaml``."""
    return _contact_links(package, 'sliding_links')


def surface_layer_links(package: str) -> list[str]:
    """The links whose ``minDepth`` is ODE's surface layer (contact_params.from_ode):
    ``surface_layer_links`` in the description's ``config/contacts.yaml``."""
    return _contact_links(package, 'surface_layer_links')


def _check_name(name: str, built: Mapping[str, BuiltRobot], world_bodies: Mapping) -> None:
    if not ROBOT_NAME.match(name):
        raise SimConfigError(f"robot name '{name}': expected letters, digits and underscores, "
                             'starting with a letter (it becomes a ROS namespace)')
    if name in built:
        raise SimConfigError(f"robot name '{name}' is used twice")
    if name in world_bodies:
        raise SimConfigError(f"robot name '{name}' is used twice: the world has a model of that "
                             'name')


def _one_line(exc: Exception) -> str:
    return ' '.join(str(exc).split())


class _Builder:
    def __init__(self, spec: mujoco.MjSpec, step: float, joint_motor: str):
        self.spec = spec
        self.step = step
        self.joint_motor = joint_motor
        self.geoms: list[tuple[mujoco.MjsGeom, ContactParams]] = []
        self.sliding: list[mujoco.MjsGeom] = []  # Coulomb sliding contacts (sliding_contacts)
        self.world_bodies: dict[str, list[str]] = {}
        self.static_models: set[str] = set()
        self.warnings: list[str] = []
        self._n_hfield = 0
        self._n_mesh = 0

    def warn(self, msg: str) -> None:
        if msg not in self.warnings:
            self.warnings.append(msg)

    # -- world --------------------------------------------------------------------------------
    def add_world_model(self, model: Model) -> None:
        names = []
        if model.static:
            self.static_models.add(model.name)
        mass = sum(link.inertial.mass for link in model.links)
        for link in model.links:
            pose = model.pose.then(link.pose)
            if model.static:
                parent, frame_pose = self.spec.worldbody, pose
            else:
                name = model.name if len(model.links) == 1 else f'{model.name}/{link.name}'
                parent = self.spec.worldbody.add_body(name=name, pos=pose.pos, quat=pose.quat)
                parent.add_freejoint(name=f'{name}/free')
                if not link.gravity:
                    parent.gravcomp = 1.0
                ine = link.inertial
                parent.mass = ine.mass
                parent.ipos = ine.pose.pos
                parent.iquat = ine.pose.quat
                ixx, iyy, izz, ixy, ixz, iyz = ine.inertia
                parent.fullinertia = [ixx, iyy, izz, ixy, ixz, iyz]
                parent.explicitinertial = True
                names.append(name)
                frame_pose = None
            self._link_geoms(model, link, parent, frame_pose, mass)
        self.world_bodies[model.name] = names

    def _link_geoms(self, model: Model, link: Link, parent, frame_pose, mass: float) -> None:
        base = f'{model.name}/{link.name}'
        for c in link.collisions:
            pose = frame_pose.then(c.pose) if frame_pose is not None else c.pose
            s = c.surface
            params = from_ode(s.mu, s.mu2, s.kp, s.kd, s.min_depth, s.max_vel,
                              None if model.static else mass, self.step)
            for note in params.notes:
                self.warn(f'{model.source}: model[{model.name}]/link[{link.name}]/collision'
                          f'[{c.name}]: {note}')
            geom = self._shape(parent, c.shape, pose, f'{base}/{c.name}')
            geom.contype, geom.conaffinity = WORLD_BIT, ALL_BITS
            self.geoms.append((geom, params))
            if not model.static:
                self.sliding.append(geom)  # objects slide over floors and tables
        for v in link.visuals:
            pose = frame_pose.then(v.pose) if frame_pose is not None else v.pose
            if v.shape.kind == 'heightfield':
                continue  # the collision hfield is drawn already
            geom = self._shape(parent, v.shape, pose, f'{base}/visual/{v.name}')
            geom.contype = geom.conaffinity = 0
            geom.group = 1
            geom.density = 0.0
            geom.rgba = list(v.rgba)
            if v.shape.kind == 'plane':
                geom.material = 'zoo_grid'  # 1 m squares: motion is visible in pictures

    def _shape(self, parent, shape: Shape, pose, name: str):
        g = parent.add_geom(name=name, pos=pose.pos, quat=pose.quat)
        k = shape.kind
        T = mujoco.mjtGeom
        if k == 'box':
            g.type, g.size = T.mjGEOM_BOX, [x / 2 for x in shape.size]
        elif k == 'sphere':
            g.type, g.size = T.mjGEOM_SPHERE, [shape.size[0], 0, 0]
        elif k in ('cylinder', 'capsule'):
            g.type = T.mjGEOM_CYLINDER if k == 'cylinder' else T.mjGEOM_CAPSULE
            g.size = [shape.size[0], shape.size[1] / 2, 0]
        elif k == 'ellipsoid':
            g.type, g.size = T.mjGEOM_ELLIPSOID, list(shape.size)
        elif k == 'plane':
            g.type = T.mjGEOM_PLANE
            g.size = [shape.size[0] / 2, shape.size[1] / 2, 1.0]
            g.quat = _quat_z_to(shape.normal, pose.quat)
        elif k == 'mesh':
            self._n_mesh += 1
            mesh = self.spec.add_mesh(name=f'mesh{self._n_mesh}', file=str(shape.mesh),
                                      scale=list(shape.scale))
            g.type, g.meshname = T.mjGEOM_MESH, mesh.name
        elif k == 'heightfield':
            self._hfield(g, shape.heightfield, pose)
        else:  # sdf_world only produces the kinds above
            raise SimConfigError(f'{name}: unknown shape kind {k}')
        return g

    def _hfield(self, g, hf: HeightField, pose) -> None:
        self._n_hfield += 1
        h = hf.heights
        lo, hi = float(h.min()), float(h.max())
        span = hi - lo
        # MuJoCo normalises elevation data to [0, 1] and scales it by size[2]: store the range.
        norm = (h - lo) / span if span > 0 else np.zeros_like(h)
        base = max(0.1, 0.1 * max(hf.size))  # solid thickness below the lowest point
        field = self.spec.add_hfield(name=f'hfield{self._n_hfield}', nrow=h.shape[0],
                                     ncol=h.shape[1],
                                     size=[hf.size[0] / 2, hf.size[1] / 2, max(span, 1e-6), base],
                                     userdata=norm.ravel().tolist())
        g.type, g.hfieldname = mujoco.mjtGeom.mjGEOM_HFIELD, field.name
        g.pos = pose.pos + np.array(hf.pos) + np.array([0.0, 0.0, lo])

    # -- robots -------------------------------------------------------------------------------
    def add_robot(self, r: RobotSpec, index: int) -> BuiltRobot:
        if r.urdf is not None:
            desc = parse_urdf(r.urdf, f'<robot {r.name}>')
            base_dir = Path.cwd()
            nominal_base, nominal_joints = None, {}
        elif r.package:
            desc = load_description(r.package, r.xacro_args, r.model)
            base_dir = Path(desc.source).parent
            nominal_base, nominal_joints = nominal_pose(r.package, r.xacro_args)
        else:
            raise SimConfigError(f"robot '{r.name}': needs a description package")
        for w in desc.warnings:
            self.warn(w)
        fixed = r.fixed_base or desc.root_link == 'world'
        base_link = desc.root_link
        if desc.root_link == 'world':
            base_link = next(j.child for j in desc.joints if j.parent == 'world')
        urdf = absolutize_meshes(desc.urdf, base_dir, desc.source)
        urdf = re.sub(r'(<robot\b[^>]*>)', lambda m: m.group(1) + URDF_COMPILER, urdf, count=1)
        try:
            child = mujoco.MjSpec.from_string(urdf)
            mass = float(np.sum(child.compile().body_mass))
        except ValueError as exc:
            raise SimConfigError(f'{desc.source}: MuJoCo cannot load robot \'{r.name}\': '
                                 f'{_one_line(exc)}') from None
        if not fixed:
            child.body(base_link).add_freejoint(name='floating_base')
        imu_link, contact_links = default_sensor_links(r, desc, base_link)
        for ln in [imu_link, *contact_links]:
            if ln not in desc.links or ln == 'world':
                raise SimConfigError(f"robot '{r.name}': link '{ln}' is not a link of "
                                     f'{desc.source}')
        child.body(imu_link).add_site(name='imu')
        pose = list(r.pose if r.pose is not None else nominal_base or [0.0] * 6)
        pos = np.array(pose[:3], dtype=float)
        quat = quat_from_rpy(*pose[3:6])
        frame = self.spec.worldbody.add_frame(pos=pos, quat=quat)
        prefix = f'{r.name}/'
        try:
            self.spec.attach(child, frame=frame, prefix=prefix)
        except ValueError as exc:
            raise SimConfigError(f"robot '{r.name}': attach failed: {_one_line(exc)}") from None
        sliding = r.sliding_links if r.sliding_links is not None else \
            (sliding_links(r.package) if r.package else [])
        layered = surface_layer_links(r.package) if r.package else []
        for what, links in (('sliding link', sliding), ('surface layer link', layered)):
            for ln in links:
                if ln not in desc.links or ln == 'world':
                    raise SimConfigError(f"robot '{r.name}': {what} '{ln}' is not a link of "
                                         f'{desc.source}')
        self._robot_contacts(desc, prefix, index, mass, set(sliding), set(layered))
        joints = [j.name for j in desc.actuated]
        by_name = {j.name: j for j in desc.joints}
        check_initial_positions(r.name, desc, r.initial_positions)
        for jname, value in (joint_armature.armature(r.package, joints) if r.package
                             else {}).items():
            self.spec.joint(prefix + jname).armature = value
        for jname in joints:
            add_motor(self.spec, prefix, jname, by_name[jname].effort, self.step)
            if r.servo:
                add_servo(self.spec, prefix, jname)
        add_caps(self.spec, prefix, joints, self.step)
        self._hard_stops(prefix, [j.name for j in desc.joints
                                  if j.lower is not None and j.type != 'continuous'])
        self._mimic(desc, prefix)
        for sensor, kind in (('gyro', mujoco.mjtSensor.mjSENS_GYRO),
                             ('accelerometer', mujoco.mjtSensor.mjSENS_ACCELEROMETER)):
            self.spec.add_sensor(name=f'{prefix}imu_{sensor}', type=kind,
                                 objtype=mujoco.mjtObj.mjOBJ_SITE, objname=f'{prefix}imu')
        built = BuiltRobot(r, desc, prefix, base_link, fixed, joints, contact_links, imu_link,
                           mass, pose=pose,
                           # nominal values of mimic joints are implied by their masters
                           initial_positions={**{j: q for j, q in nominal_joints.items()
                                                 if j in joints}, **r.initial_positions})
        for link, kind, name, element in desc.sensors:
            if kind in BUILT_IN_SENSORS:
                continue
            if kind not in SENSOR_KINDS:
                self.warn(f'{desc.source}: gazebo[{link}]/sensor[{name}]: {kind} sensors are '
                          'not simulated by zoo_sim (no sensor class registered); ignored')
                continue
            sensor = SENSOR_KINDS[kind](SensorSpec(r.name, link, name, kind, element), prefix)
            sensor.add_to_spec(self.spec, self.spec.body(prefix + link))
            built.sensors.append(sensor)
        return built

    def _robot_contacts(self, desc: RobotDescription, prefix: str, index: int,
                        mass: float, sliding: set[str], layered: set[str]) -> None:
        own, selfbit = 1 << (1 + 2 * index), 1 << (2 + 2 * index)
        for link in desc.links:
            if link == 'world':
                continue
            body = self.spec.body(prefix + link)
            surf = desc.surfaces.get(link)
            params = from_ode(*(dataclasses.astuple(surf) if surf else (None,) * 6), mass,
                              self.step, surface_layer=link in layered)
            for note in params.notes:
                self.warn(f'{desc.source}: gazebo[{link}]: {note}')
            for g in body.geoms:
                if g.contype == 0 and g.conaffinity == 0:
                    continue  # visual
                g.contype = own
                g.conaffinity = ALL_BITS & ~own
                if link in desc.self_collide:
                    g.contype |= selfbit
                    g.conaffinity |= selfbit
                self.geoms.append((g, params))
                if link in sliding:
                    self.sliding.append(g)

    def _hard_stops(self, prefix: str, joints: Sequence[str]) -> None:
        """Joint position limits as hard stops: MuJoCo's default limit (time constant 20 ms,
        impedance 0.9-0.95) lets a motor at its effort limit push a light joint far past it."""
        for jname in joints:
            j = self.spec.joint(prefix + jname)
            j.solref_limit = [LIMIT_TIMECONST_STEPS * self.step, 1.0]
            j.solimp_limit = [LIMIT_IMPEDANCE, LIMIT_IMPEDANCE, 0.001, 0.5, 2.0]

    def _mimic(self, desc: RobotDescription, prefix: str) -> None:
        """URDF mimic joints as joint equalities: q = offset + multiplier * q_mimicked."""
        for j in desc.joints:
            if j.mimic is not None:
                eq = self.spec.add_equality(type=mujoco.mjtEq.mjEQ_JOINT, name1=prefix + j.name,
                                            name2=prefix + j.mimic[0])
                eq.data[0], eq.data[1] = j.mimic[2], j.mimic[1]

    def assign_priorities(self) -> None:
        prio = priorities([p for _, p in self.geoms])
        for (g, p), pr in zip(self.geoms, prio):
            g.friction = [p.mu, g.friction[1], g.friction[2]]
            if p.solref is not None:
                g.solref = list(p.solref)
            if p.solimp is not None:
                g.solimp = list(p.solimp)
            g.priority = pr


def _quat_z_to(normal: Sequence[float], frame_quat: np.ndarray) -> np.ndarray:
    """The geom quaternion whose z axis is ``normal`` (given in the frame of ``frame_quat``)."""
    n = np.asarray(normal, dtype=float)
    n = n / np.linalg.norm(n)
    z = np.array([0.0, 0.0, 1.0])
    axis = np.cross(z, n)
    s, c = np.linalg.norm(axis), float(np.dot(z, n))
    if s < 1e-12:
        q = np.array([1.0, 0, 0, 0]) if c > 0 else np.array([0.0, 1, 0, 0])
    else:
        angle = np.arctan2(s, c)
        q = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis / s])
    out = np.empty(4)
    mujoco.mju_mulQuat(out, np.asarray(frame_quat, dtype=float), q)
    return out
