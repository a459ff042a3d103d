"""SDF worlds -> a plain description (gravity, step, models, links, shapes, surfaces, heightfields).

The file is first validated by libsdformat (:func:`zoo_sim.sdf_spec.validate_sdf`) and checked for
elements the SDF specification does not define (errors). Valid elements that the physics backends
cannot represent are collected in ``World.warnings``, one line each; rendering-only content
(lights, scene, GUI, visual materials beyond a colour) is ignored by design.
"""
from __future__ import annotations

import dataclasses
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
from zoo_description_tools.physics import EARTH_GRAVITY

from . import SimConfigError
from .resources import resolve_uri
from .sdf_spec import ign_available, unknown_elements, validate_sdf
from .transforms import compose, quat_from_rpy

SDF_DEFAULT_STEP = 0.001  # s, <physics><max_step_size> default
MESH_FORMATS = ('.stl', '.obj', '.msh')  # what MuJoCo loads
# Gazebo system plugins whose job the simulator node does itself (physics, ROS-facing state).
KNOWN_SYSTEMS = ('physics', 'user-commands', 'scene-broadcaster', 'sensors', 'imu', 'contact')


@dataclasses.dataclass
class Pose:
    pos: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(3))
    quat: np.ndarray = dataclasses.field(default_factory=lambda: np.array([1.0, 0, 0, 0]))

    def then(self, child: 'Pose') -> 'Pose':
        """``child`` (given in this frame) expressed in this frame's parent."""
        return Pose(*compose((self.pos, self.quat), (child.pos, child.quat)))


@dataclasses.dataclass
class Surface:
    """Contact surface in Gazebo/ODE terms (None = not given): an SDF collision's
    <surface>, or a URDF link's <gazebo> mu1 (here `mu`), mu2, kp, kd, minDepth, maxVel."""
    mu: float | None = None
    mu2: float | None = None
    kp: float | None = None
    kd: float | None = None
    min_depth: float | None = None
    max_vel: float | None = None


@dataclasses.dataclass
class HeightField:
    """Terrain heights in metres: ``heights[i, j]`` at x = -sx/2 + j*sx/(cols-1),
    y = -sy/2 + i*sy/(rows-1) around ``pos`` (row 0 is the -y edge)."""
    heights: np.ndarray
    size: tuple[float, float]
    pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    source: str = '<array>'

    def __post_init__(self):
        h = np.asarray(self.heights, dtype=float)
        if h.ndim != 2 or min(h.shape) < 2 or not np.all(np.isfinite(h)):
            raise SimConfigError(f'heightfield {self.source}: expected a finite 2-D array of at '
                                 f'least 2 x 2 heights, got shape {h.shape}')
        if not (self.size[0] > 0 and self.size[1] > 0):
            raise SimConfigError(f'heightfield {self.source}: size must be positive, got '
                                 f'{self.size}')
        self.heights = h

    @classmethod
    def from_image(cls, path: Path, size: tuple[float, float, float],
                   pos: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> 'HeightField':
        """Gazebo's heightmap rule: grey level / max level * size z; the image's top row is the
        +y edge (a map seen from above)."""
        from PIL import Image
        try:
            img = Image.open(path)
            img.load()
        except (OSError, ValueError) as exc:
            raise SimConfigError(f'heightmap image {path}: {exc}') from None
        if img.mode in ('I;16', 'I;16B', 'I'):
            data, full = np.asarray(img, dtype=float), 65535.0
        else:
            data, full = np.asarray(img.convert('L'), dtype=float), 255.0
        heights = np.flipud(data) / full * float(size[2])
        return cls(heights, (float(size[0]), float(size[1])), tuple(map(float, pos)), str(path))


@dataclasses.dataclass
class Shape:
    kind: str  # box | sphere | cylinder | capsule | ellipsoid | plane | mesh | heightfield
    size: tuple[float, ...] = ()  # box: full x y z; sphere: r; cylinder/capsule: r, length;
    #                              ellipsoid: radii; plane: x y extent
    normal: tuple[float, float, float] = (0.0, 0.0, 1.0)
    mesh: Path | None = None
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    heightfield: HeightField | None = None


@dataclasses.dataclass
class Collision:
    name: str
    pose: Pose
    shape: Shape
    surface: Surface = dataclasses.field(default_factory=Surface)


@dataclasses.dataclass
class Visual:
    name: str
    pose: Pose
    shape: Shape
    rgba: tuple[float, float, float, float] = (0.7, 0.7, 0.7, 1.0)


@dataclasses.dataclass
class Inertial:
    mass: float = 1.0  # SDF defaults
    pose: Pose = dataclasses.field(default_factory=Pose)
    # ixx iyy izz ixy ixz iyz
    inertia: tuple[float, float, float, float, float, float] = (1, 1, 1, 0, 0, 0)


@dataclasses.dataclass
class Link:
    name: str
    pose: Pose  # in the model frame
    inertial: Inertial = dataclasses.field(default_factory=Inertial)
    collisions: list[Collision] = dataclasses.field(default_factory=list)
    visuals: list[Visual] = dataclasses.field(default_factory=list)
    gravity: bool = True


@dataclasses.dataclass
class Model:
    name: str
    pose: Pose  # in the world frame
    static: bool = False
    links: list[Link] = dataclasses.field(default_factory=list)
    source: str = ''


@dataclasses.dataclass
class World:
    name: str
    path: str
    gravity: tuple[float, float, float] = EARTH_GRAVITY
    step: float = SDF_DEFAULT_STEP
    iterations: int | None = None
    cone: str = 'elliptic'  # isotropic Coulomb unless the world asks for ODE's pyramid (Gazebo's
                            # default, 29 % weaker on the diagonal): zoo_sim README, "Contacts"
    models: list[Model] = dataclasses.field(default_factory=list)
    warnings: list[str] = dataclasses.field(default_factory=list)

    def warn(self, msg: str) -> None:
        if msg not in self.warnings:
            self.warnings.append(msg)

    def model(self, name: str) -> Model:
        for m in self.models:
            if m.name == name:
                return m
        raise KeyError(name)


def load_world(path: str | Path, validate: bool = True) -> World:
    """Parse a world file. ``validate`` runs libsdformat first (skipped with a warning when the
    ``ign`` tool is absent)."""
    path = Path(path)
    if not path.is_file():
        raise SimConfigError(f"world file '{path}' does not exist")
    notes = []
    if validate and ign_available():
        validate_sdf(path)
    elif validate:
        notes.append(f"{path}: not validated: the 'ign' tool (libsdformat) is not installed")
    root = _parse_xml(path)
    world_el = root.find('world')
    if root.tag != 'sdf' or world_el is None:
        raise SimConfigError(f'{path}: expected <sdf><world>...</world></sdf>')
    _check_spec(root, path, validate)
    world = World(name=world_el.get('name', 'default'), path=str(path))
    for n in notes:
        world.warn(n)
    _Parser(world, path).world(world_el)
    return world


def _parse_xml(path: Path) -> ET.Element:
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise SimConfigError(f'{path}: XML syntax error: {exc}') from None


def _check_spec(root: ET.Element, path: Path, validate: bool) -> None:
    if not (validate and ign_available()):
        return
    bad = unknown_elements(root, root.get('version', '1.9'))
    if bad:
        raise SimConfigError(f'{path}: element {bad[0]} is not defined by SDF '
                             f"{root.get('version', '1.9')}" +
                             (f' (and {len(bad) - 1} more)' if len(bad) > 1 else ''))


def _floats(el: ET.Element | None, n: int, where: str, default=None) -> tuple[float, ...]:
    if el is None or el.text is None:
        if default is None:
            raise SimConfigError(f'{where}: missing value')
        return tuple(default)
    try:
        vals = tuple(float(v) for v in el.text.split())
    except ValueError:
        raise SimConfigError(f"{where}: expected {n} numbers, got '{el.text.strip()}'") from None
    if len(vals) != n:
        raise SimConfigError(f"{where}: expected {n} numbers, got '{el.text.strip()}'")
    return vals


def _float(el: ET.Element | None, where: str, default: float | None = None) -> float | None:
    if el is None or el.text is None or not el.text.strip():
        return default
    return _floats(el, 1, where)[0]


def _bool(el: ET.Element | None, default: bool) -> bool:
    if el is None or el.text is None:
        return default
    return el.text.strip().lower() in ('1', 'true')


class _Parser:
    def __init__(self, world: World, path: Path):
        self.w = world
        self.path = path

    # -- helpers ----------------------------------------------------------------------------
    def warn(self, where: str, what: str) -> None:
        self.w.warn(f'{where}: {what}')

    def unsupported(self, el: ET.Element, where: str, handled: set[str], ignored=()) -> None:
        for child in el:
            if not isinstance(child.tag, str) or child.tag in handled or child.tag in ignored:
                continue
            if child.tag.startswith('{') or ':' in child.tag:
                continue  # a custom element (SDF >= 1.8) is for its own consumer, not physics
            label = child.tag + (f"[{child.get('name')}]" if child.get('name') else '')
            self.warn(f'{where}/{label}', 'not represented by the MuJoCo backend; ignored')

    def pose(self, el: ET.Element | None, where: str) -> Pose:
        if el is None or el.text is None or not el.text.strip():
            return Pose()
        rel = el.get('relative_to')
        if rel not in (None, '', '__model__', 'world'):
            self.warn(f'{where}/pose', f"relative_to='{rel}' is not supported; the pose is taken "
                      'relative to the parent frame')
        if el.get('rotation_format') == 'quat_xyzw':
            v = _floats(el, 7, f'{where}/pose')
            q = np.array([v[6], v[3], v[4], v[5]])
            return Pose(np.array(v[:3]), q / np.linalg.norm(q))
        v = _floats(el, 6, f'{where}/pose')
        degrees = el.get('degrees', 'false').strip().lower() in ('1', 'true')
        rpy = [math.radians(a) for a in v[3:]] if degrees else v[3:]
        return Pose(np.array(v[:3], dtype=float), quat_from_rpy(*rpy))

    # -- world ------------------------------------------------------------------------------
    def world(self, el: ET.Element) -> None:
        where = f"{self.path}: world[{self.w.name}]"
        g = el.find('gravity')
        if g is not None:
            self.w.gravity = _floats(g, 3, f'{where}/gravity')
        physics = el.findall('physics')
        if physics:
            chosen = next((p for p in physics if p.get('default') in ('1', 'true')), physics[0])
            self.physics(chosen, f"{where}/physics[{chosen.get('name', '')}]")
        for child in el:
            if child.tag == 'model':
                self.model_tree(child, Pose(), f'{where}', child.get('name'))
            elif child.tag == 'include':
                self.include(child, Pose(), where)
            elif child.tag == 'plugin':
                self.plugin(child, where)
        self.unsupported(el, where, {'gravity', 'physics', 'model', 'include', 'plugin'},
                         ignored={'light', 'scene', 'gui', 'audio'})

    def plugin(self, el: ET.Element, where: str) -> None:
        fname = el.get('filename', '')
        if not any(f'-{s}-system' in fname for s in KNOWN_SYSTEMS):
            self.warn(f"{where}/plugin[{fname}]", 'Gazebo plugin has no MuJoCo equivalent; ignored')

    def physics(self, el: ET.Element, where: str) -> None:
        step = _float(el.find('max_step_size'), f'{where}/max_step_size')
        if step is not None:
            if not step > 0:
                raise SimConfigError(f'{where}/max_step_size: expected a positive step, got {step}')
            self.w.step = step
        # pacing is the simulator's real_time_factor parameter; other engines' blocks do not
        # apply to MuJoCo
        self.unsupported(el, where, {'max_step_size', 'ode'},
                         ignored={'real_time_factor', 'real_time_update_rate', 'max_contacts',
                                  'dart', 'bullet', 'simbody'})
        ode = el.find('ode')
        if ode is None:
            return
        solver = ode.find('solver')
        if solver is not None:
            iters = _float(solver.find('iters'), f'{where}/ode/solver/iters')
            if iters is not None:
                self.w.iterations = int(iters)
            fm = solver.find('friction_model')
            if fm is not None and fm.text:
                model = fm.text.strip()
                if model == 'pyramid_model':
                    self.w.cone = 'pyramidal'
                elif model != 'cone_model':
                    self.warn(f'{where}/ode/solver/friction_model',
                              f"'{model}' has no MuJoCo equivalent; using the cone")
            self.unsupported(solver, f'{where}/ode/solver', {'iters', 'friction_model'},
                             ignored={'type', 'island_threads', 'thread_position_correction'})
        constraints = ode.find('constraints')
        if constraints is not None:
            self.unsupported(constraints, f'{where}/ode/constraints', set())
        self.unsupported(ode, f'{where}/ode', {'solver', 'constraints'})

    # -- models -----------------------------------------------------------------------------
    def include(self, el: ET.Element, parent: Pose, where: str) -> None:
        uri_el = el.find('uri')
        uri = (uri_el.text or '').strip() if uri_el is not None else ''
        iwhere = f'{where}/include[{uri}]'
        target = resolve_uri(uri, self.path.parent, f'{self.path}: include uri')
        sdf_file = _model_file(target, iwhere)
        root = _parse_xml(sdf_file)
        _check_spec(root, sdf_file, ign_available())
        model_el = root.find('model')
        if model_el is None:
            raise SimConfigError(f'{iwhere}: {sdf_file} holds no <model>')
        name = (el.findtext('name') or model_el.get('name', '')).strip()
        pose = self.pose(el.find('pose'), iwhere) if el.find('pose') is not None else None
        static = el.find('static')
        # relative URIs inside the included model resolve against its own file
        _Parser(self.w, sdf_file).model_tree(
            model_el, parent, f'{sdf_file}', name, pose_override=pose,
            static_override=None if static is None else _bool(static, False))
        self.unsupported(el, iwhere, {'uri', 'name', 'pose', 'static'})

    def model_tree(self, el: ET.Element, parent: Pose, where: str, name: str,
                   pose_override: Pose | None = None, static_override: bool | None = None,
                   parent_static: bool = False) -> None:
        mwhere = f'{where}/model[{name}]'
        local = pose_override if pose_override is not None else self.pose(el.find('pose'), mwhere)
        pose = parent.then(local)
        static = static_override if static_override is not None else \
            _bool(el.find('static'), False) or parent_static
        model = Model(name=name, pose=pose, static=static, source=str(self.path))
        for link_el in el.findall('link'):
            model.links.append(self.link(link_el, f"{mwhere}/link[{link_el.get('name')}]"))
        if model.links:
            self.w.models.append(model)
        for child in el.findall('model'):
            self.model_tree(child, pose, mwhere, f"{name}::{child.get('name')}",
                            parent_static=static)
        for inc in el.findall('include'):
            self.include(inc, pose, mwhere)
        for plug in el.findall('plugin'):
            self.plugin(plug, mwhere)
        for joint in el.findall('joint'):
            self.warn(f"{mwhere}/joint[{joint.get('name')}]",
                      'joints in world models are not simulated (links stay independent); '
                      'spawn articulated things as robots from a URDF')
        self.unsupported(el, mwhere, {'pose', 'static', 'link', 'model', 'include', 'plugin',
                                      'joint'}, ignored={'allow_auto_disable'})

    def link(self, el: ET.Element, where: str) -> Link:
        link = Link(name=el.get('name', 'link'), pose=self.pose(el.find('pose'), where))
        inertial = el.find('inertial')
        if inertial is not None:
            link.inertial = self.inertial(inertial, f'{where}/inertial')
        link.gravity = _bool(el.find('gravity'), True)
        for c in el.findall('collision'):
            cwhere = f"{where}/collision[{c.get('name')}]"
            shape = self.geometry(c.find('geometry'), cwhere, collision=True)
            if shape is not None:
                link.collisions.append(Collision(
                    c.get('name', ''), self.pose(c.find('pose'), cwhere), shape,
                    self.surface(c.find('surface'), cwhere)))
            self.unsupported(c, cwhere, {'pose', 'geometry', 'surface'},
                             ignored={'laser_retro', 'max_contacts'})
        for v in el.findall('visual'):
            vwhere = f"{where}/visual[{v.get('name')}]"
            shape = self.geometry(v.find('geometry'), vwhere, collision=False)
            if shape is not None:
                link.visuals.append(Visual(v.get('name', ''), self.pose(v.find('pose'), vwhere),
                                           shape, _rgba(v.find('material'))))
        self.unsupported(el, where, {'pose', 'inertial', 'collision', 'visual', 'gravity'},
                         ignored={'light', 'self_collide', 'must_be_base_link'})
        return link

    def inertial(self, el: ET.Element, where: str) -> Inertial:
        mass = _float(el.find('mass'), f'{where}/mass', 1.0)
        if not mass > 0:
            raise SimConfigError(f'{where}/mass: expected a positive mass, got {mass}')
        i = el.find('inertia')
        names = ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz')
        defaults = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
        inertia = tuple(_float(i.find(n), f'{where}/inertia/{n}', d) if i is not None else d
                        for n, d in zip(names, defaults))
        self.unsupported(el, where, {'mass', 'pose', 'inertia'})
        return Inertial(mass, self.pose(el.find('pose'), where), inertia)

    def surface(self, el: ET.Element | None, where: str) -> Surface:
        s = Surface()
        if el is None:
            return s
        swhere = f'{where}/surface'
        friction = el.find('friction')
        if friction is not None:
            ode = friction.find('ode')
            if ode is not None:
                s.mu = _float(ode.find('mu'), f'{swhere}/friction/ode/mu')
                s.mu2 = _float(ode.find('mu2'), f'{swhere}/friction/ode/mu2')
                self.unsupported(ode, f'{swhere}/friction/ode', {'mu', 'mu2'})
            self.unsupported(friction, f'{swhere}/friction', {'ode'}, ignored={'bullet'})
        contact = el.find('contact')
        if contact is not None:
            ode = contact.find('ode')
            if ode is not None:
                cw = f'{swhere}/contact/ode'
                s.kp = _float(ode.find('kp'), f'{cw}/kp')
                s.kd = _float(ode.find('kd'), f'{cw}/kd')
                s.min_depth = _float(ode.find('min_depth'), f'{cw}/min_depth')
                s.max_vel = _float(ode.find('max_vel'), f'{cw}/max_vel')
                erp = _float(ode.find('soft_erp'), f'{cw}/soft_erp')
                cfm = _float(ode.find('soft_cfm'), f'{cw}/soft_cfm')
                if s.kp is None and erp is not None and cfm is not None and cfm > 0:
                    # ERP/CFM are the spring-damper of one step (ODE manual, "Soft constraint"):
                    # kp = erp / (cfm h), kd = (1 - erp) / cfm.
                    s.kp, s.kd = erp / (cfm * self.w.step), (1.0 - erp) / cfm
                elif erp is not None or cfm is not None:
                    self.warn(cw, 'soft_erp/soft_cfm are used only as a pair without kp/kd')
                self.unsupported(ode, cw, {'kp', 'kd', 'min_depth', 'max_vel', 'soft_erp',
                                           'soft_cfm'})
            self.unsupported(contact, f'{swhere}/contact', {'ode'}, ignored={'bullet'})
        bounce = el.find('bounce')
        if bounce is not None and (_float(bounce.find('restitution_coefficient'),
                                          f'{swhere}/bounce', 0.0) or 0.0) > 0:
            self.warn(f'{swhere}/bounce', 'restitution has no MuJoCo equivalent; contacts are '
                      'inelastic')
        self.unsupported(el, swhere, {'friction', 'contact', 'bounce'})
        return s

    def geometry(self, el: ET.Element | None, where: str, collision: bool) -> Shape | None:
        if el is None or len(el) == 0:
            return None
        g = el[0]
        gw = f'{where}/geometry/{g.tag}'
        if g.tag == 'box':
            return Shape('box', _floats(g.find('size'), 3, f'{gw}/size', (1, 1, 1)))
        if g.tag == 'sphere':
            return Shape('sphere', (_float(g.find('radius'), f'{gw}/radius', 1.0),))
        if g.tag in ('cylinder', 'capsule'):
            return Shape(g.tag, (_float(g.find('radius'), f'{gw}/radius', 1.0),
                                 _float(g.find('length'), f'{gw}/length', 1.0)))
        if g.tag == 'ellipsoid':
            return Shape('ellipsoid', _floats(g.find('radii'), 3, f'{gw}/radii', (1, 1, 1)))
        if g.tag == 'plane':
            return Shape('plane', _floats(g.find('size'), 2, f'{gw}/size', (1, 1)),
                         normal=_floats(g.find('normal'), 3, f'{gw}/normal', (0, 0, 1)))
        if g.tag == 'mesh':
            uri = (g.findtext('uri') or '').strip()
            mesh = resolve_uri(uri, self.path.parent, f'{gw}/uri')
            if mesh.suffix.lower() not in MESH_FORMATS:
                self.warn(gw, f"mesh '{uri}': MuJoCo loads only {', '.join(MESH_FORMATS)}; "
                          f"this {'collision' if collision else 'visual'} is left out")
                return None
            if not mesh.is_file():
                raise SimConfigError(f"{gw}/uri: mesh file '{mesh}' does not exist")
            self.unsupported(g, gw, {'uri', 'scale'})
            return Shape('mesh', mesh=mesh, scale=_floats(g.find('scale'), 3, f'{gw}/scale',
                                                           (1, 1, 1)))
        if g.tag == 'heightmap':
            uri = (g.findtext('uri') or '').strip()
            image = resolve_uri(uri, self.path.parent, f'{gw}/uri')
            size = _floats(g.find('size'), 3, f'{gw}/size', (1, 1, 1))
            pos = _floats(g.find('pos'), 3, f'{gw}/pos', (0, 0, 0))
            self.unsupported(g, gw, {'uri', 'size', 'pos'},
                             ignored={'texture', 'blend', 'use_terrain_paging', 'sampling'})
            return Shape('heightfield', heightfield=HeightField.from_image(image, size, pos))
        if g.tag == 'empty':
            return None
        self.warn(gw, 'geometry type not represented by the MuJoCo backend; left out')
        return None


def _model_file(target: Path, where: str) -> Path:
    """The SDF file of an included model: the path itself, or the file model.config names."""
    if target.is_file():
        return target
    config = target / 'model.config'
    if config.is_file():
        try:
            cfg = ET.parse(config).getroot()
        except ET.ParseError as exc:
            raise SimConfigError(f'{config}: XML syntax error: {exc}') from None
        for sdf in cfg.findall('sdf'):
            if sdf.text and (target / sdf.text.strip()).is_file():
                return target / sdf.text.strip()
        raise SimConfigError(f'{config}: no <sdf> entry names an existing file ({where})')
    if (target / 'model.sdf').is_file():
        return target / 'model.sdf'
    raise SimConfigError(f'{where}: {target} has neither model.config nor model.sdf')


def _rgba(material: ET.Element | None) -> tuple[float, float, float, float]:
    if material is None:
        return (0.7, 0.7, 0.7, 1.0)
    for tag in ('diffuse', 'ambient'):
        el = material.find(tag)
        if el is not None and el.text:
            vals = [float(v) for v in el.text.split()]
            if len(vals) in (3, 4):
                return tuple(vals + [1.0] * (4 - len(vals)))
    return (0.7, 0.7, 0.7, 1.0)
