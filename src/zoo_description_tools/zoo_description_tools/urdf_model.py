"""The workspace's one URDF parser: a read-only view of links, joints (limits, dynamics, mimic),
inertials and Gazebo blocks, plus physical checks. The simulator, the PID controllers, the gait
nodes and the description tests all read URDFs through :func:`parse_urdf`.

Limits follow the URDF specification, with one deliberate strictness: a revolute or prismatic
joint must give ``<limit lower upper>`` (the specification lets them default to 0, which silently
locks the joint); a missing ``effort`` or ``velocity`` means unbounded (None)."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np

from .errors import DescriptionError

# The joint kinds that move (the simulator actuates them; the rest are fixed or unsupported)
MOVABLE = ('revolute', 'continuous', 'prismatic')
# Gazebo's contact tags in a URDF <gazebo reference="<link>"> block -> the SDF surface names
# (zoo_sim.sdf_world.Surface fields) the simulator maps onto its contacts
GAZEBO_CONTACT_TAGS = {'mu1': 'mu', 'mu2': 'mu2', 'kp': 'kp', 'kd': 'kd', 'minDepth': 'min_depth',
                       'maxVel': 'max_vel'}


@dataclass(frozen=True)
class Inertial:
    mass: float
    xyz: np.ndarray
    rpy: np.ndarray
    inertia: np.ndarray  # 3x3, about the centre of mass, in the inertial frame


@dataclass(frozen=True)
class Link:
    name: str
    inertial: Inertial | None
    collisions: int
    visuals: int

    @property
    def is_frame(self) -> bool:
        """A pure frame: no inertial and no geometry."""
        return self.inertial is None and self.collisions == 0 and self.visuals == 0


@dataclass(frozen=True)
class Joint:
    name: str
    type: str
    parent: str
    child: str
    xyz: np.ndarray
    rpy: np.ndarray
    axis: np.ndarray
    lower: float | None = None
    upper: float | None = None
    effort: float | None = None
    velocity: float | None = None
    damping: float | None = None
    friction: float | None = None
    mimic: tuple[str, float, float] | None = None  # (joint, multiplier, offset)

    @property
    def position_range(self) -> tuple[float, float]:
        """(lower, upper); a continuous or floating joint is unbounded."""
        if self.lower is None or self.upper is None:
            return -math.inf, math.inf
        return self.lower, self.upper

    @property
    def velocity_limit(self) -> float:
        return math.inf if self.velocity is None or self.velocity <= 0 else self.velocity

    @property
    def effort_limit(self) -> float:
        return math.inf if self.effort is None or self.effort <= 0 else self.effort


@dataclass(frozen=True)
class UrdfModel:
    name: str
    links: dict[str, Link]
    joints: dict[str, Joint]
    gazebo: dict[str, dict[str, str]] = field(default_factory=dict)  # reference -> {tag: text}
    gazebo_blocks: tuple[ET.Element, ...] = ()  # every <gazebo> element, in document order
    source: str = 'URDF'

    @property
    def root(self) -> str:
        children = {j.child for j in self.joints.values()}
        roots = [n for n in self.links if n not in children]
        if len(roots) != 1:
            raise DescriptionError(f'{self.source}: expected exactly one root link, found '
                                   f"{', '.join(roots) or 'none'}")
        return roots[0]

    def movable_joints(self) -> dict[str, Joint]:
        return {n: j for n, j in self.joints.items() if j.type in MOVABLE}


def _floats(text: str | None, n: int, default: float, where: str) -> np.ndarray:
    if text is None:
        return np.full(n, default)
    try:
        values = np.array([float(v) for v in text.split()])
    except ValueError:
        raise DescriptionError(f'{where}: expected {n} numbers, got {text!r}') from None
    if values.shape != (n,):
        raise DescriptionError(f'{where}: expected {n} numbers, got {text!r}')
    return values


def _attr(el: ET.Element | None, name: str, where: str) -> float | None:
    if el is None or el.get(name) is None:
        return None
    try:
        return float(el.get(name))
    except ValueError:
        raise DescriptionError(f'{where}: {name}={el.get(name)!r} is not a number') from None


def _origin(el: ET.Element, where: str) -> tuple[np.ndarray, np.ndarray]:
    origin = el.find('origin')
    if origin is None:
        return np.zeros(3), np.zeros(3)
    return (_floats(origin.get('xyz'), 3, 0.0, where + '/origin@xyz'),
            _floats(origin.get('rpy'), 3, 0.0, where + '/origin@rpy'))


def _inertial(el: ET.Element | None, where: str) -> Inertial | None:
    if el is None:
        return None
    xyz, rpy = _origin(el, where)
    mass = _attr(el.find('mass'), 'value', where + '/mass') or 0.0
    i = el.find('inertia')
    names = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
    v = {n: (_attr(i, n, where + '/inertia') or 0.0) for n in names}
    tensor = np.array([[v['ixx'], v['ixy'], v['ixz']],
                       [v['ixy'], v['iyy'], v['iyz']],
                       [v['ixz'], v['iyz'], v['izz']]])
    return Inertial(mass=mass, xyz=xyz, rpy=rpy, inertia=tensor)


def parse_urdf(urdf_text: str, source: str = 'URDF') -> UrdfModel:
    """Parse URDF text; errors are one :class:`DescriptionError` line starting with ``source``
    (a file name, or 'URDF')."""
    try:
        root = ET.fromstring(urdf_text)
    except ET.ParseError as exc:
        raise DescriptionError(f'{source}: not well-formed XML: {exc}') from None
    if root.tag != 'robot':
        raise DescriptionError(f'{source}: root element is <{root.tag}>, expected <robot>')
    name = root.get('name', 'robot')
    links = {}
    for el in root.findall('link'):
        n = el.get('name')
        links[n] = Link(name=n, inertial=_inertial(el.find('inertial'), f'{source} link {n}'),
                        collisions=len(el.findall('collision')), visuals=len(el.findall('visual')))
    joints = {}
    for el in root.findall('joint'):
        joints[el.get('name')] = _joint(el, f"{source} joint {el.get('name')}")
    gazebo = {}
    for el in root.findall('gazebo'):
        ref = el.get('reference')
        if ref is not None:
            gazebo.setdefault(ref, {}).update({c.tag: (c.text or '').strip() for c in el})
    return UrdfModel(name=name, links=links, joints=joints, gazebo=gazebo,
                     gazebo_blocks=tuple(root.findall('gazebo')), source=source)


def _joint(el: ET.Element, where: str) -> Joint:
    xyz, rpy = _origin(el, where)
    kind = el.get('type', '')
    limit, dyn, mimic = el.find('limit'), el.find('dynamics'), el.find('mimic')
    parent, child = el.find('parent'), el.find('child')
    if parent is None or child is None:
        raise DescriptionError(f'{where}: needs <parent link> and <child link>')
    lower, upper = _attr(limit, 'lower', where), _attr(limit, 'upper', where)
    if kind in ('revolute', 'prismatic') and (lower is None or upper is None):
        raise DescriptionError(f'{where}: a {kind} joint needs <limit lower=... upper=...> '
                               '(URDF would default them to 0, locking the joint)')
    if kind not in ('revolute', 'prismatic'):
        lower = upper = None  # continuous, fixed, floating, planar: no position range
    axis_el = el.find('axis')
    mimicked = None
    if mimic is not None:
        mult, offset = _attr(mimic, 'multiplier', where), _attr(mimic, 'offset', where)
        mimicked = (mimic.get('joint', ''), 1.0 if mult is None else mult, offset or 0.0)
    return Joint(
        name=el.get('name'), type=kind, parent=parent.get('link'), child=child.get('link'),
        xyz=xyz, rpy=rpy,
        axis=np.array([1.0, 0.0, 0.0]) if axis_el is None or axis_el.get('xyz') is None
        else _floats(axis_el.get('xyz'), 3, 0.0, where + '/axis'),
        lower=lower, upper=upper,
        effort=_attr(limit, 'effort', where), velocity=_attr(limit, 'velocity', where),
        damping=_attr(dyn, 'damping', where), friction=_attr(dyn, 'friction', where),
        mimic=mimicked)


def parse_links_joints(urdf_text: str) -> tuple[dict[str, Link], dict[str, Joint]]:
    model = parse_urdf(urdf_text)
    return model.links, model.joints


def total_mass(urdf_text: str) -> float:
    return float(sum(l.inertial.mass for l in parse_urdf(urdf_text).links.values() if l.inertial))


def inertia_problems(urdf_text: str, rel_tol: float = 1e-9) -> list[str]:
    """Every physically invalid inertial: a non-positive mass on a link that is not a pure frame,
    a tensor that is not symmetric positive definite or whose principal moments break the triangle
    inequality, and a massless link moved by a joint (no engine can integrate it)."""
    model = parse_urdf(urdf_text)
    problems = []
    for link in model.links.values():
        if link.is_frame:
            continue
        if link.inertial is None or link.inertial.mass <= 0.0:
            problems.append(f'link {link.name}: not a pure frame (it has an inertial or geometry) '
                            f'but no positive mass')
            continue
        tensor = link.inertial.inertia
        moments = np.linalg.eigvalsh(tensor)
        scale = max(abs(moments).max(), 1e-300)
        if moments.min() <= rel_tol * scale:
            problems.append(f'link {link.name}: inertia is not positive definite '
                            f'(principal moments {moments.tolist()})')
            continue
        a, b, c = moments
        if a + b < c * (1.0 - rel_tol):
            problems.append(f'link {link.name}: principal moments {moments.tolist()} break the '
                            f'triangle inequality')
    for joint in model.joints.values():
        child = model.links.get(joint.child)
        if joint.type in MOVABLE and child is not None and (
                child.inertial is None or child.inertial.mass <= 0.0) and not _carries_mass(
                    model, child.name):
            problems.append(f'joint {joint.name}: moves link {child.name}, which carries no mass')
    return problems


def _carries_mass(model: UrdfModel, link: str) -> bool:
    """True when ``link`` or a link rigidly fixed below it has a positive mass."""
    here = model.links[link]
    if here.inertial is not None and here.inertial.mass > 0.0:
        return True
    return any(_carries_mass(model, j.child) for j in model.joints.values()
               if j.parent == link and j.type == 'fixed')
