"""Robot models from YAML: a new legged robot is a YAML file, not code (R3, R1.1, R1.2).

The file names the URDF (a description package + xacro args, run through
``zoo_description_tools.xacro_to_urdf``, the workspace's one xacro runner), the foot frames in the
order FL, FR, RL, RR, the nominal stance and range-of-motion half-widths in the base frame, the
joint pose for the inertia and the body presets. Mass and centroidal inertia come from pinocchio's
ccrba at that pose (spec go1.md §2.3: Eq. 5.1b at the stand pose, Code 5.1 at q = 0).

Inertia sign convention (spec go1.md §2.3, §12 row 1). ``Body.inertia`` is the 3x3 matrix TOWR
calls ``I_b``: pinocchio's centroidal inertia matrix, whose off-diagonal entries are the negated
products of inertia. TOWR's ``SingleRigidBodyDynamics(mass, Ixx, Iyy, Izz, Ixy, Ixz, Iyz)``
(ethz-adrl/towr towr/src/single_rigid_body_dynamics.cc, BuildInertiaTensor) takes *products* and
puts ``-Ixy, -Ixz, -Iyz`` off the diagonal (:func:`towr_inertia`). The thesis passed pinocchio's
matrix entries as those products, so the matrix its TOWR used has the off-diagonal signs flipped:
the preset option ``entries_as_towr_products: true`` reproduces that.
"""
from __future__ import annotations

import dataclasses
import fnmatch
from pathlib import Path
from typing import Any

import numpy as np
import yaml

FOOT_ORDER = ('FL', 'FR', 'RL', 'RR')
_TOP_FIELDS = {'name', 'urdf', 'feet', 'hips', 'nominal_stance', 'max_dev', 'nominal_joints',
               'body', 'reach'}
_PRESET_FIELDS = {'joints', 'mass', 'entries_as_towr_products'}


class RobotConfigError(ValueError):
    """A robot YAML that cannot be used; the message is one line naming the file and field."""


@dataclasses.dataclass(frozen=True)
class Body:
    """The single rigid body of the optimizer (spec go1.md §4)."""
    preset: str
    mass: float
    inertia: np.ndarray  # 3x3, base frame, about the CoM (TOWR's I_b)
    joints: str  # 'nominal' or 'zero': the pose the inertia was computed at


@dataclasses.dataclass(frozen=True)
class LegReach:
    """What a leg can reach (issue 28), from the URDF by pinocchio, per foot in the base frame
    at hip angle 0: the hip abduction axis (base x) through ``hip``; the thigh joint ``thigh_dx``
    along it and ``lateral`` off it; ``distance``: thigh joint to foot centre with the knee at
    its most extended limit, the farthest the foot gets from the thigh joint. The foot stays in
    the leg's plane, ``lateral`` off the hip axis whatever the hip angle, so a foot centre f is
    reachable iff (v_x - thigh_dx)^2 + v_y^2 + v_z^2 - lateral^2 <= distance^2, v = f - hip: a
    sphere about the hip. ``foot_radius``: the foot sphere's (planned feet are contact points;
    the foot frame is the centre, foot_radius above)."""
    hip: np.ndarray          # (n_feet, 3)
    thigh_dx: np.ndarray     # (n_feet,)
    lateral: np.ndarray      # (n_feet,)
    distance: np.ndarray     # (n_feet,)
    foot_radius: float
    margin: float            # m the planner keeps the foot inside ``distance``

    def used(self, v: np.ndarray) -> np.ndarray:
        """The thigh-to-foot distance each foot centre ``v - hip`` (..., n_feet, 3) asks for."""
        return np.sqrt(np.maximum((v[..., 0] - self.thigh_dx) ** 2 + v[..., 1] ** 2
                                  + v[..., 2] ** 2 - self.lateral ** 2, 0.0))


@dataclasses.dataclass(frozen=True)
class RobotModel:
    name: str
    source: str
    package: str
    xacro_args: dict
    feet: tuple[str, ...]
    nominal_stance: np.ndarray  # (n_feet, 3) base frame
    max_dev: np.ndarray  # (3,) half-widths
    body: Body
    urdf_mass: float
    hip_pos: np.ndarray  # (n_feet, 3) hip abduction joint origin, base frame (NaN: no hips)
    hip_lateral: np.ndarray  # (n_feet,) foot y minus hip y at the nominal pose
    reach: LegReach | None = None  # the legs' reach (pinocchio), None without hips

    @property
    def n_feet(self) -> int:
        return len(self.feet)


def towr_inertia(ixx: float, iyy: float, izz: float, ixy: float, ixz: float,
                 iyz: float) -> np.ndarray:
    """The matrix TOWR builds from its arguments (single_rigid_body_dynamics.cc): products of
    inertia appear negated off the diagonal."""
    return np.array([[ixx, -ixy, -ixz], [-ixy, iyy, -iyz], [-ixz, -iyz, izz]])


def find_robot_file(name_or_path: str) -> Path:
    """A robot YAML from a path, or ``config/robots/<name>.yaml`` of this package (installed share
    first, then the source tree, as every description is found)."""
    p = Path(name_or_path).expanduser()
    if p.suffix in ('.yaml', '.yml') or '/' in name_or_path:
        if not p.is_file():
            raise RobotConfigError(f"robot file '{p}' does not exist")
        return p.resolve()
    from zoo_description_tools import DescriptionError, find_description
    try:
        robots = find_description('trajectory_optimizer') / 'config' / 'robots'
    except DescriptionError:
        robots = Path(__file__).resolve().parents[1] / 'config' / 'robots'
    path = robots / f'{name_or_path}.yaml'
    if not path.is_file():
        known = sorted(f.stem for f in robots.glob('*.yaml'))
        raise RobotConfigError(f"robot '{name_or_path}' not found in {robots} "
                               f"(known: {', '.join(known) or 'none'})")
    return path


def load_robot(name_or_path: str, preset: str | None = None) -> RobotModel:
    """The robot of a YAML file (a name in config/robots or a path) with body preset ``preset``
    (default: the file's ``body.preset``)."""
    path = find_robot_file(name_or_path)
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise RobotConfigError(f'{path}: not a readable YAML file: '
                               f'{" ".join(str(exc).split())}') from None
    return robot_from_dict(data, str(path), preset)


def robot_from_dict(data: Any, source: str, preset: str | None = None) -> RobotModel:
    f = _Fields(source)
    if not isinstance(data, dict):
        f.fail('', f'expected a mapping of fields, got {type(data).__name__}')
    unknown = sorted(set(data) - _TOP_FIELDS)
    if unknown:
        f.fail(unknown[0], f"unknown field (known: {', '.join(sorted(_TOP_FIELDS))})")
    name = f.string(data, 'name')
    urdf = f.mapping(data, 'urdf')
    package = f.string(urdf, 'package', 'urdf.package')
    xacro_args = urdf.get('xacro_args') or {}
    if not isinstance(xacro_args, dict):
        f.fail('urdf.xacro_args', 'expected a mapping name: value')
    feet = f.names(data, 'feet')
    n = len(feet)
    hips = f.names(data, 'hips', required=False)
    if hips and len(hips) != n:
        f.fail('hips', f'expected {n} joint names (one per foot), got {len(hips)}')
    nominal = f.array(data, 'nominal_stance', (n, 3))
    max_dev = f.array(data, 'max_dev', (3,))
    if np.any(max_dev <= 0):
        f.fail('max_dev', f'half-widths must be positive, got {max_dev.tolist()}')
    patterns = f.mapping(data, 'nominal_joints')
    body_cfg = f.mapping(data, 'body')
    presets = f.mapping(body_cfg, 'presets', 'body.presets')
    chosen = preset or body_cfg.get('preset')
    if chosen not in presets:
        where = 'body.preset' if preset is None else 'preset'
        f.fail(where, f"'{chosen}' is not among body.presets ({', '.join(presets)})")
    cfg = presets[chosen]
    where = f'body.presets.{chosen}'
    if not isinstance(cfg, dict):
        f.fail(where, 'expected a mapping (joints, mass, entries_as_towr_products)')
    bad = sorted(set(cfg) - _PRESET_FIELDS)
    if bad:
        f.fail(f'{where}.{bad[0]}', f"unknown field (known: {', '.join(sorted(_PRESET_FIELDS))})")
    if cfg.get('joints', 'nominal') not in ('nominal', 'zero'):
        f.fail(f'{where}.joints', f"expected 'nominal' or 'zero', got {cfg.get('joints')!r}")

    from zoo_description_tools import DescriptionError, xacro_to_urdf
    try:
        urdf_text = xacro_to_urdf(package, xacro_args)
        model = _pinocchio(urdf_text)
    except DescriptionError as exc:
        f.fail('urdf', str(exc))
    joints = _resolve_joints(f, model, patterns)
    for field, names in (('feet', feet), ('hips', hips or [])):
        for frame in names:
            if not model.existFrame(frame):
                f.fail(field, f"'{frame}' is not a frame of {package}'s URDF")
    q_nominal = _configuration(model, joints)
    q_body = q_nominal if cfg.get('joints', 'nominal') == 'nominal' else _configuration(model, {})
    urdf_mass, inertia = _centroidal(model, q_body)
    mass = cfg.get('mass', urdf_mass)
    if not (isinstance(mass, (int, float)) and not isinstance(mass, bool) and mass > 0):
        f.fail(f'{where}.mass', f'expected a positive number of kg, got {mass!r}')
    if cfg.get('entries_as_towr_products', False):
        inertia = towr_inertia(*np.diag(inertia), inertia[0, 1], inertia[0, 2], inertia[1, 2])
    hip_pos, hip_lateral = _hip_geometry(model, q_nominal, feet, hips)
    reach = None
    if data.get('reach') is not None:
        if not hips:
            f.fail('reach', 'needs hips (the legs are measured from the hip joints)')
        r = f.mapping(data, 'reach')
        bad = sorted(set(r) - {'margin', 'foot_radius'})
        if bad:
            f.fail(f'reach.{bad[0]}', 'unknown field (known: foot_radius, margin)')
        numbers = {k: r.get(k) for k in ('margin', 'foot_radius')}
        for k, v in numbers.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 0.2:
                f.fail(f'reach.{k}', f'expected a number of m in [0, 0.2), got {v!r}')
        reach = _leg_reach(f, model, q_nominal, feet, hips, float(numbers['foot_radius']),
                           float(numbers['margin']))
    return RobotModel(
        name=name, source=source, package=package, xacro_args=dict(xacro_args), feet=tuple(feet),
        nominal_stance=nominal, max_dev=max_dev,
        body=Body(chosen, float(mass), inertia, cfg.get('joints', 'nominal')),
        urdf_mass=urdf_mass, hip_pos=hip_pos, hip_lateral=hip_lateral, reach=reach)


class _Fields:
    """Typed field access that fails with one line naming the file and the field."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, field: str, problem: str):
        where = f'{self.source}: {field}: ' if field else f'{self.source}: '
        raise RobotConfigError(where + problem)

    def _get(self, data: dict, key: str, field: str, required: bool = True):
        if not isinstance(data, dict) or key not in data or data[key] is None:
            if required:
                self.fail(field, 'missing')
            return None
        return data[key]

    def string(self, data: dict, key: str, field: str | None = None) -> str:
        v = self._get(data, key, field or key)
        if not isinstance(v, str) or not v:
            self.fail(field or key, f'expected a non-empty string, got {v!r}')
        return v

    def mapping(self, data: dict, key: str, field: str | None = None) -> dict:
        v = self._get(data, key, field or key)
        if not isinstance(v, dict) or not v:
            self.fail(field or key, f'expected a non-empty mapping, got {v!r}')
        return v

    def names(self, data: dict, key: str, required: bool = True) -> list[str] | None:
        v = self._get(data, key, key, required)
        if v is None:
            return None
        if not (isinstance(v, list) and v and all(isinstance(s, str) and s for s in v)):
            self.fail(key, f'expected a list of frame names, got {v!r}')
        if len(set(v)) != len(v):
            self.fail(key, f'names repeat: {v}')
        return v

    def array(self, data: dict, key: str, shape: tuple[int, ...]) -> np.ndarray:
        v = self._get(data, key, key)
        try:
            a = np.array(v, dtype=float)
        except (TypeError, ValueError):
            a = None
        if a is None or a.shape != shape or not np.all(np.isfinite(a)):
            self.fail(key, f'expected finite numbers of shape {list(shape)}, got {v!r}')
        return a


def _pinocchio(urdf_text: str):
    from zoo_description_tools import load_pinocchio
    return load_pinocchio(urdf_text)[0]


def _resolve_joints(f: _Fields, model, patterns: dict) -> dict[str, float]:
    names = [n for n in model.names[1:] if n != 'root_joint']
    joints: dict[str, float] = {}
    for pattern, value in patterns.items():
        matched = fnmatch.filter(names, str(pattern))
        if not matched:
            f.fail(f'nominal_joints.{pattern}', 'matches no joint of the URDF')
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            f.fail(f'nominal_joints.{pattern}', f'expected a number of rad, got {value!r}')
        joints.update({n: float(value) for n in matched})
    return joints


def _configuration(model, joints: dict[str, float]) -> np.ndarray:
    import pinocchio as pin
    q = pin.neutral(model)
    for name, value in joints.items():
        q[model.joints[model.getJointId(name)].idx_q] = value
    return q


def _centroidal(model, q: np.ndarray) -> tuple[float, np.ndarray]:
    """Total mass and the centroidal inertia (about the CoM, base axes) by ccrba (R1.1)."""
    import pinocchio as pin
    data = model.createData()
    pin.ccrba(model, data, q, np.zeros(model.nv))
    return float(data.Ig.mass), np.array(data.Ig.inertia)


def _hip_geometry(model, q: np.ndarray, feet: list[str],
                  hips: list[str] | None) -> tuple[np.ndarray, np.ndarray]:
    """Hip joint origins and the foot's lateral offset from them, at the nominal pose: enough
    for the hip-abduction proxy of check C9 (checks.hip_abduction)."""
    n = len(feet)
    if not hips:
        return np.full((n, 3), np.nan), np.full(n, np.nan)
    import pinocchio as pin
    data = model.createData()
    pin.framesForwardKinematics(model, data, q)
    hip = np.array([data.oMf[model.getFrameId(h)].translation for h in hips])
    foot = np.array([data.oMf[model.getFrameId(ft)].translation for ft in feet])
    return hip, foot[:, 1] - hip[:, 1]


def _leg_reach(f: _Fields, model, q_nominal: np.ndarray, feet: list[str], hips: list[str],
               foot_radius: float, margin: float) -> LegReach:
    """LegReach of a hip-thigh-knee leg (the thigh and knee axes parallel, the foot in their
    plane: checked to 1 mm), the knee at whichever of its limits leaves the foot farther."""
    import pinocchio as pin
    data = model.createData()
    hip_at, thigh_dx, lateral, distance = [], [], [], []
    for foot, hip in zip(feet, hips):
        fid, hid = model.getFrameId(foot), model.getFrameId(hip)
        knee = model.frames[fid].parentJoint
        thigh = model.parents[knee]
        if model.parents[thigh] != model.frames[hid].parentJoint:
            f.fail('reach', f'{foot}: expected hip, thigh and knee joints above it')
        best = None
        for limit in (model.lowerPositionLimit, model.upperPositionLimit):
            q = q_nominal.copy()
            iq = model.joints[knee].idx_q
            q[iq] = limit[iq]
            q[model.joints[model.frames[hid].parentJoint].idx_q] = 0.0
            pin.framesForwardKinematics(model, data, q)
            foot_p = data.oMf[fid].translation
            thigh_p = data.oMi[thigh].translation
            d = float(np.linalg.norm(foot_p - thigh_p))
            if best is None or d > best[0]:
                best = (d, foot_p.copy(), thigh_p.copy())
        d, foot_p, thigh_p = best
        hip_p = data.oMf[hid].translation.copy()
        if abs(foot_p[1] - thigh_p[1]) > 1e-3:
            f.fail('reach', f'{foot}: the foot is {abs(foot_p[1] - thigh_p[1]):.4f} m off its '
                   'thigh joint\'s plane; the reach model needs it in that plane')
        t = thigh_p - hip_p
        hip_at.append(hip_p)
        thigh_dx.append(float(t[0]))
        lateral.append(float(np.hypot(t[1], t[2])))
        distance.append(d)
    return LegReach(np.array(hip_at), np.array(thigh_dx), np.array(lateral), np.array(distance),
                    foot_radius, margin)
