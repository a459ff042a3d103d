"""Robots from description packages for the simulator: xacro -> URDF text -> the parsed model
(:func:`zoo_description_tools.parse_urdf`, the workspace's one URDF parser) plus the Gazebo tags
the simulator interprets.

``<gazebo reference="link">`` blocks give the Gazebo-classic contact parameters of each link
(``mu1 mu2 kp kd minDepth maxVel selfCollide``) and its sensors (IMU and contact sensors choose
the simulator's IMU and contact links); unknown children are reported as warnings. Xacro runs
through :func:`zoo_description_tools.run_xacro` (``$(find)`` with or without ROS).
"""
from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Mapping

from zoo_description_tools import DescriptionError, Joint, parse_urdf as parse_model
from zoo_description_tools import run_xacro as _run_xacro, xacro_to_urdf
from zoo_description_tools.urdf_model import GAZEBO_CONTACT_TAGS, MOVABLE
from zoo_description_tools.xacro_args import ARGS_FILE

from . import SimConfigError
from .resources import find_description, resolve_uri
from .sdf_world import Surface

# Rendering-only or ROS-plumbing tags of <gazebo> blocks: nothing for the physics to do.
GAZEBO_IGNORED = {'material', 'visual', 'turnGravityOff', 'provideFeedback',
                  'implicitSpringDamper', 'stopCfm', 'stopErp', 'static', 'fdir1', 'laserRetro',
                  'maxContacts'}


@dataclasses.dataclass
class RobotDescription:
    name: str                  # <robot name>
    urdf: str                  # the processed URDF text
    source: str                # the xacro/URDF file it came from
    root_link: str
    links: list[str]
    joints: list[Joint]        # every joint, in document order (zoo_description_tools.Joint)
    surfaces: dict[str, Surface]  # per link, from <gazebo reference> mu1/mu2/kp/...
    self_collide: set[str]     # links whose <gazebo> block enables self collision
    gazebo_blocks: list[ET.Element]
    # Gazebo sensors: (link, type, name, <sensor> element)
    sensors: list[tuple[str, str, str, ET.Element]] = dataclasses.field(default_factory=list)
    warnings: list[str] = dataclasses.field(default_factory=list)

    def sensor_links(self, kind: str) -> list[str]:
        """Links carrying Gazebo sensors of a type (``imu``, ``contact`` ...), in order."""
        return [link for link, t, _, _ in self.sensors if t == kind]

    @property
    def actuated(self) -> list[Joint]:
        """Joints that get a motor: movable and not mimicking another joint."""
        return [j for j in self.joints if j.type in MOVABLE and j.mimic is None]


def description_file(package: str, robot: str | None = None) -> Path:
    """``<pkg>/urdf/<robot>.urdf.xacro`` (robot defaults to the package name without
    ``_description``), else ``<robot>.urdf``."""
    pkg_dir = find_description(package)
    robot = robot or package.removesuffix('_description')
    for name in (f'{robot}.urdf.xacro', f'{robot}.urdf', f'{robot}.xacro'):
        if (pkg_dir / 'urdf' / name).is_file():
            return pkg_dir / 'urdf' / name
    found = sorted(p.name for p in (pkg_dir / 'urdf').glob('*')) if (pkg_dir / 'urdf').is_dir() \
        else []
    raise SimConfigError(f"{pkg_dir / 'urdf'}: no {robot}.urdf.xacro or {robot}.urdf "
                         f"(found: {', '.join(found) or 'nothing'})")


def run_xacro(path: Path, args: Mapping[str, object] | None = None) -> str:
    """The URDF text of a xacro file; any xacro failure -> one error naming the file."""
    try:
        return _run_xacro(path, args)
    except DescriptionError as exc:
        raise SimConfigError(str(exc)) from None


def load_description(package: str, args: Mapping[str, object] | None = None,
                     robot: str | None = None) -> RobotDescription:
    """A robot from its description package. A package that declares its xacro arguments
    (``config/xacro_args.yaml``) goes through :func:`zoo_description_tools.xacro_to_urdf`, which
    validates them (one clear line for an unknown arg or a bad value) and fills the defaults."""
    path = description_file(package, robot)
    if path.suffix != '.xacro':
        text = path.read_text()
    elif robot is None and (path.parent.parent / ARGS_FILE).is_file():
        try:
            text = xacro_to_urdf(package, args)
        except DescriptionError as exc:
            raise SimConfigError(f"{package}: {' '.join(str(exc).split())}") from None
    else:
        text = run_xacro(path, args)
    return parse_urdf(text, str(path))


def parse_urdf(text: str, source: str = '<urdf>') -> RobotDescription:
    try:
        model = parse_model(text, source)
        root_link = model.root
    except DescriptionError as exc:
        raise SimConfigError(' '.join(str(exc).split())) from None
    desc = RobotDescription(name=model.name, urdf=text,
                            source=source, root_link=root_link, links=list(model.links),
                            joints=list(model.joints.values()), surfaces={},
                            self_collide=set(), gazebo_blocks=list(model.gazebo_blocks))
    for block in desc.gazebo_blocks:
        _gazebo_block(block, desc)
    return desc


def _gazebo_block(block: ET.Element, desc: RobotDescription) -> None:
    ref = block.get('reference')
    where = f"{desc.source}: gazebo[{ref or '<robot>'}]"
    if ref is not None and ref not in desc.links:
        if ref in {j.name for j in desc.joints}:
            return  # joint-level Gazebo tags (implicitSpringDamper ...): nothing for MuJoCo
        raise SimConfigError(f"{where}: reference '{ref}' names no link of the robot")
    surface = desc.surfaces.setdefault(ref, Surface()) if ref else None
    for child in block:
        tag = child.tag
        if surface is not None and tag in GAZEBO_CONTACT_TAGS:
            try:
                setattr(surface, GAZEBO_CONTACT_TAGS[tag], float(child.text))
            except (TypeError, ValueError):
                raise SimConfigError(f'{where}/{tag}: expected a number, got '
                                     f"'{child.text}'") from None
        elif tag in ('selfCollide', 'self_collide'):
            if (child.text or '').strip().lower() in ('1', 'true'):
                desc.self_collide.update([ref] if ref else desc.links)
        elif tag in GAZEBO_IGNORED:
            continue
        elif tag == 'sensor' and ref is not None:
            desc.sensors.append((ref, child.get('type', ''), child.get('name', ''), child))
        else:
            desc.warnings.append(f'{where}/{tag}: not represented by the MuJoCo backend; '
                                 'ignored')


def absolutize_meshes(urdf: str, base_dir: Path, source: str) -> str:
    """URDF text with every mesh filename resolved to an absolute path (MuJoCo knows no
    ``package://``)."""
    root = ET.fromstring(urdf)
    changed = False
    for mesh in root.iter('mesh'):
        fn = mesh.get('filename')
        if fn:
            mesh.set('filename', str(resolve_uri(fn, base_dir, f'{source}: mesh')))
            changed = True
    return ET.tostring(root, encoding='unicode') if changed else urdf
