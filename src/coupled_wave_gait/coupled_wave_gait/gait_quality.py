"""Gait quality: how a walk walks, not only how far, from simulator data sampled every physics step.

Plain Python (numpy), no ROS. A :class:`GaitRecording` holds, per sample (one per physics step,
1 kHz on the Nao's 1 ms step): the base position, per foot (the robot's contact links, for the
Nao ``l_ankle``/``r_ankle``, whose only collision shape is the sole box) its contact state, how
many of the sole box's four bottom corners touch and the sole's horizontal position, and per
joint its velocity and effort. :func:`measure` turns it into a :class:`GaitQuality`:

- ``touchdowns_per_s`` per foot: contact state going from no contact to contact, per second of
  the recording; a foot that chatters (bounces in and out of contact) counts every bounce;
- ``flat_fraction`` per foot: of the samples in which the foot is loaded (in contact), the
  fraction in which the whole sole patch is loaded, i.e. all four corners of the sole box touch
  (MuJoCo's box-plane contact gives one contact point per touching corner; a foot on its edge,
  toe or heel touches with two or one);
- ``median_slip_m_s`` per foot: median horizontal speed of the sole (the centre of its box) over
  the steps in which the foot is in contact before and after;
- ``max_velocity_ratio``: the largest |joint velocity| / joint velocity limit (URDF) over joints
  and samples (and ``max_velocity_joint``);
- ``effort_limit_fraction`` per hip pitch joint (L/RHipPitch): the fraction of samples in which
  |effort| >= 0.99 x its effort limit (the motor saturated);
- ``flat_by_stance_fifth`` per foot (a diagnostic, no target): the flat fraction in each fifth of
  the foot's stances (contact runs of at least ``STANCE_MIN_S``, bounces shorter than
  ``STANCE_GAP_S`` bridged), which tells touchdown and lift-off from mid-stance, and
  ``corners_by_stance_fifth``, the mean number of sole corners touching in each (4: flat, 2: an
  edge, 1: a corner);
- the base path: forward progress (x), the largest sideways offset (|y - y0|) at any sample, the
  lowest base height, and whether it fell below ``fall_height_m``.
- ``sole_contact`` per foot (a diagnostic, when the recording holds :class:`SoleSamples`, i.e.
  ``StepRecorder(..., soles=True)``): why loaded samples are not flat: by stance fifth the height
  of the highest sole corner above the lowest, the sole's tilt and its normal force, whether the
  centre of pressure lies inside the sole's core, and what the flat fraction would be with a
  tolerance on the corner heights (:func:`sole_contact`).

:class:`QualityTargets` holds the acceptance limits (issue "Joints and contacts you can trust",
point 5) and :meth:`GaitQuality.failures` lists what misses them.

:class:`StepRecorder` collects a recording from a running ``zoo_sim`` MuJoCo physics after every
physics step, while ``active()`` is true, without changing the walk (see its docstring for how).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from zoo_sim.metrics import has_fallen

HIP_PITCH_JOINTS = ('LHipPitch', 'RHipPitch')
EFFORT_LIMIT_SHARE = 0.99  # |effort| >= 0.99 x the limit counts as "at the limit"
SOLE_CORNERS = 4
STANCE_GAP_S = 0.005   # contact gaps up to this long (bounces) do not end a stance
STANCE_MIN_S = 0.04    # shorter contact runs are not stances (taps, bounces)
STANCE_PARTS = 5


@dataclass(frozen=True)
class QualityTargets:
    """The acceptance limits of a walk (6 s, the Nao)."""
    min_forward_m: float = 0.6
    max_lateral_m: float = 0.15          # |y - y0| at every sample
    max_touchdowns_per_s: float = 10.0   # per foot
    min_flat_fraction: float = 0.8       # per foot, of its loaded time
    max_median_slip_m_s: float = 0.02    # per foot
    max_velocity_ratio: float = 1.1      # any joint, any sample
    max_effort_limit_fraction: float = 0.2  # per hip pitch joint

    def scaled(self, margin: float) -> 'QualityTargets':
        """Stricter by ``margin`` (0.1: upper limits x0.9, lower limits x1.1, fraction 0.8 ->
        0.82, i.e. 10 % of its distance to 1): what a search aims at to keep a margin."""
        k = 1.0 - margin
        return QualityTargets(
            min_forward_m=self.min_forward_m / k, max_lateral_m=self.max_lateral_m * k,
            max_touchdowns_per_s=self.max_touchdowns_per_s * k,
            min_flat_fraction=1.0 - (1.0 - self.min_flat_fraction) * k,
            max_median_slip_m_s=self.max_median_slip_m_s * k,
            max_velocity_ratio=self.max_velocity_ratio * k,
            max_effort_limit_fraction=self.max_effort_limit_fraction * k)


@dataclass
class GaitRecording:
    """Samples of one walk, ``n`` of them one physics step ``dt`` apart (arrays first indexed by
    sample)."""
    dt: float
    base_xyz: np.ndarray         # (n, 3) m
    feet: list[str]
    contact: np.ndarray          # (n, F) bool: the foot's contact state
    corners: np.ndarray          # (n, F) int: sole corners touching, 0..4
    sole_xy: np.ndarray          # (n, F, 2) m: horizontal position of the sole's centre
    joints: list[str]
    velocity: np.ndarray         # (n, J) rad/s (or m/s)
    effort: np.ndarray           # (n, J) N m (or N)
    velocity_limit: np.ndarray   # (J,)
    effort_limit: np.ndarray     # (J,)
    fall_height_m: float = 0.15
    t: np.ndarray | None = None  # (n,) s, increasing; default: dt apart from 0 (every step)
    # optional, for :func:`sole_contact` (``StepRecorder(..., soles=True)``); None: not recorded
    soles: 'SoleSamples | None' = None

    def __post_init__(self):
        n = len(self.base_xyz)
        self.t = np.arange(n) * self.dt if self.t is None else np.asarray(self.t, dtype=float)
        if self.t.shape != (n,) or (n > 1 and not np.all(np.diff(self.t) > 0.0)):
            raise ValueError(f'gait recording t: expected {n} increasing times')
        f, j = len(self.feet), len(self.joints)
        shapes = {'base_xyz': (n, 3), 'contact': (n, f), 'corners': (n, f),
                  'sole_xy': (n, f, 2), 'velocity': (n, j), 'effort': (n, j),
                  'velocity_limit': (j,), 'effort_limit': (j,)}
        for name, shape in shapes.items():
            value = np.asarray(getattr(self, name))
            if value.shape != shape:
                raise ValueError(f'gait recording {name}: expected shape {shape}, got '
                                 f'{value.shape}')
            setattr(self, name, value)
        if not self.dt > 0.0:
            raise ValueError(f'gait recording dt: expected > 0 s, got {self.dt}')
        if self.soles is not None:
            self.soles.check(n, f)

    @property
    def samples(self) -> int:
        return len(self.base_xyz)

    @property
    def duration_s(self) -> float:
        """What the samples cover: each stands for ``dt`` (one physics step)."""
        return float(self.t[-1] - self.t[0]) + self.dt


@dataclass
class SoleSamples:
    """Per sample and foot, what decides whether a loaded sole counts as flat (diagnostics only;
    the flat fraction stays the four-corner count)."""
    lift: np.ndarray          # (n, F, 4) m: height of each bottom corner above the lowest one
    tilt: np.ndarray          # (n, F, 2) rad: the sole's roll (about x) and pitch (about y)
    normal_force: np.ndarray  # (n, F) N: total normal contact force on the sole
    cop: np.ndarray           # (n, F, 2) m: centre of pressure in the sole box frame (0 unloaded)
    half_size: np.ndarray     # (F, 2) m: the sole box's half length and half width
    weight_n: float           # N: the robot's weight

    def check(self, n: int, f: int) -> None:
        shapes = {'lift': (n, f, 4), 'tilt': (n, f, 2), 'normal_force': (n, f),
                  'cop': (n, f, 2), 'half_size': (f, 2)}
        for name, shape in shapes.items():
            value = np.asarray(getattr(self, name), dtype=float)
            if value.shape != shape:
                raise ValueError(f'gait recording soles.{name}: expected shape {shape}, got '
                                 f'{value.shape}')
            setattr(self, name, value)


LIFT_TOLERANCES_MM = (0.1, 0.3, 1.0, 3.0)


def sole_contact(rec: GaitRecording) -> dict[str, dict]:
    """Per foot, why loaded samples are not flat: for the not-flat ones, the share in single
    support (the other foot in the air) and, per fifth of the stances, how many there are, the
    median height of the highest corner above the lowest (mm), the median tilt (the larger of
    |roll| and |pitch|, deg) and the median normal force (share of the weight). ``core``: the
    share of loaded samples whose centre of pressure lies inside the sole's core, the rhombus
    |x|/half length + |y|/half width < 1 (a rigid box on four corner springs keeps all four in
    compression exactly there), and of those the share that is flat. ``flat_if_lift_below_mm``:
    what the flat fraction would be if a corner within that height of the lowest counted as
    touching (not the metric; for comparison with a contact that has a surface layer, e.g. ODE's
    minDepth)."""
    so = rec.soles
    if so is None:
        return {}
    out = {}
    for i, foot in enumerate(rec.feet):
        loaded = rec.contact[:, i]
        other = rec.contact[:, [k for k in range(len(rec.feet)) if k != i]].any(axis=1)
        flat = loaded & (rec.corners[:, i] >= SOLE_CORNERS)
        off = loaded & ~flat
        lift = so.lift[:, i].max(axis=1) * 1e3
        tilt = np.degrees(np.abs(so.tilt[:, i]).max(axis=1))
        force = so.normal_force[:, i] / so.weight_n
        hx, hy = so.half_size[i]
        core = np.abs(so.cop[:, i, 0]) / hx + np.abs(so.cop[:, i, 1]) / hy < 1.0
        part = np.full(rec.samples, -1)
        for a, b in stances(loaded, rec.t):
            k = np.arange(a, b + 1)
            part[k] = np.minimum(((k - a) * STANCE_PARTS) // (b - a + 1), STANCE_PARTS - 1)

        def med(v, sel):
            return float(np.median(v[sel])) if sel.any() else math.nan
        n_loaded = max(1, int(loaded.sum()))
        out[foot] = {
            'not_flat_share': float(off.sum()) / n_loaded,
            'not_flat_in_single_support': float(np.mean(~other[off])) if off.any() else 0.0,
            'by_stance_fifth': [
                {'not_flat_share': float((off & (part == p)).sum()) / max(
                    1, int((loaded & (part == p)).sum())),
                 'lift_mm': med(lift, off & (part == p)),
                 'tilt_deg': med(tilt, off & (part == p)),
                 'force_share': med(force, off & (part == p))}
                for p in range(STANCE_PARTS)],
            'flat': {'lift_mm': med(lift, flat), 'tilt_deg': med(tilt, flat)},
            'core': {'loaded_share': float((loaded & core).sum()) / n_loaded,
                     'flat_share_inside': float((flat & core).sum()) / max(
                         1, int((loaded & core).sum()))},
            'flat_if_lift_below_mm': {
                f'{tol:g}': float((loaded & (lift < tol)).sum()) / n_loaded
                for tol in LIFT_TOLERANCES_MM},
        }
    return out


@dataclass
class GaitQuality:
    duration_s: float
    samples: int
    forward_m: float
    lateral_end_m: float
    max_lateral_m: float
    min_base_z_m: float
    fell: bool
    touchdowns_per_s: dict[str, float]
    flat_fraction: dict[str, float]
    median_slip_m_s: dict[str, float]
    max_velocity_ratio: float
    max_velocity_joint: str
    effort_limit_fraction: dict[str, float]
    targets: QualityTargets = field(default_factory=QualityTargets)
    flat_by_stance_fifth: dict[str, list[float]] = field(default_factory=dict)
    corners_by_stance_fifth: dict[str, list[float]] = field(default_factory=dict)
    sole_contact: dict[str, dict] = field(default_factory=dict)  # when the soles were recorded

    def failures(self, targets: QualityTargets | None = None) -> list[str]:
        """What misses ``targets`` (default: the ones measured against), one line each."""
        t = targets or self.targets
        out = []
        if self.fell:
            out.append(f'fell (base below its fall height, lowest {self.min_base_z_m:.3f} m)')
        if not self.forward_m >= t.min_forward_m:
            out.append(f'forward {self.forward_m:.3f} m < {t.min_forward_m} m')
        if not self.max_lateral_m <= t.max_lateral_m:
            out.append(f'sideways up to {self.max_lateral_m:.3f} m > {t.max_lateral_m} m')
        for foot, v in self.touchdowns_per_s.items():
            if not v <= t.max_touchdowns_per_s:
                out.append(f'{foot}: {v:.2f} touchdowns/s > {t.max_touchdowns_per_s}')
        for foot, v in self.flat_fraction.items():
            if not v >= t.min_flat_fraction:
                out.append(f'{foot}: flat {100 * v:.1f} % of loaded time < '
                           f'{100 * t.min_flat_fraction:g} %')
        for foot, v in self.median_slip_m_s.items():
            if not v <= t.max_median_slip_m_s:
                out.append(f'{foot}: median stance slip {v:.4f} m/s > {t.max_median_slip_m_s}')
        if not self.max_velocity_ratio <= t.max_velocity_ratio:
            out.append(f'{self.max_velocity_joint}: {self.max_velocity_ratio:.2f}x its velocity '
                       f'limit > {t.max_velocity_ratio}x')
        for joint, v in self.effort_limit_fraction.items():
            if not v <= t.max_effort_limit_fraction:
                out.append(f'{joint}: at its effort limit {100 * v:.1f} % of the time > '
                           f'{100 * t.max_effort_limit_fraction:g} %')
        return out

    def ok(self, targets: QualityTargets | None = None) -> bool:
        return not self.failures(targets)

    def to_dict(self) -> dict:
        """Plain JSON values (a non-finite number becomes None) and the ``failures``."""
        def clean(v):
            if isinstance(v, dict):
                return {k: clean(x) for k, x in v.items()}
            if isinstance(v, list):
                return [clean(x) for x in v]
            if isinstance(v, float) and not math.isfinite(v):
                return None
            return v
        d = clean(dataclasses.asdict(self))
        d['failures'] = self.failures()
        return d


def touchdowns(contact: np.ndarray) -> np.ndarray:
    """Per column, how many times the state goes from False to True."""
    c = np.asarray(contact, dtype=bool)
    if len(c) < 2:
        return np.zeros(c.shape[1:], dtype=int)
    return np.count_nonzero(~c[:-1] & c[1:], axis=0)


def stances(contact: np.ndarray, t: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) sample of each stance in one foot's contact column: runs of contact with
    gaps of at most STANCE_GAP_S bridged, lasting at least STANCE_MIN_S."""
    idx = np.flatnonzero(contact)
    if not idx.size:
        return []
    cuts = np.flatnonzero(np.diff(t[idx]) > STANCE_GAP_S + 1e-9) + 1
    return [(int(r[0]), int(r[-1])) for r in np.split(idx, cuts)
            if t[r[-1]] - t[r[0]] >= STANCE_MIN_S - 1e-9]


def by_stance_part(loaded: np.ndarray, values: np.ndarray, t: np.ndarray,
                   parts: int = STANCE_PARTS) -> list[float]:
    """Mean of ``values`` over the loaded samples in each of ``parts`` equal parts of the stances
    (NaN where a part has no loaded sample); with ``values`` the flat state, the flat fraction."""
    hit, n = np.zeros(parts), np.zeros(parts)
    for a, b in stances(loaded, t):
        k = np.arange(a, b + 1)
        part = np.minimum(((k - a) * parts) // (b - a + 1), parts - 1)
        on = loaded[k]
        np.add.at(n, part[on], 1)
        np.add.at(hit, part[on], values[k][on])
    with np.errstate(invalid='ignore', divide='ignore'):
        return (hit / n).tolist()


def measure(rec: GaitRecording, hip_pitch: Sequence[str] = HIP_PITCH_JOINTS,
            targets: QualityTargets | None = None) -> GaitQuality:
    if rec.samples < 2:
        raise ValueError(f'gait quality: need at least 2 samples, got {rec.samples}')
    t = rec.duration_s
    xyz = rec.base_xyz
    lateral = xyz[:, 1] - xyz[0, 1]
    tds = touchdowns(rec.contact)
    flat, slip, by_part, corners_by_part = {}, {}, {}, {}
    for i, foot in enumerate(rec.feet):
        loaded = rec.contact[:, i]
        by_part[foot] = by_stance_part(loaded, rec.corners[:, i] >= SOLE_CORNERS, rec.t)
        corners_by_part[foot] = by_stance_part(loaded, rec.corners[:, i], rec.t)
        n_loaded = int(np.count_nonzero(loaded))
        flat[foot] = (float(np.count_nonzero(loaded & (rec.corners[:, i] >= SOLE_CORNERS)))
                      / n_loaded) if n_loaded else 0.0
        stance = loaded[:-1] & loaded[1:]
        step = np.linalg.norm(np.diff(rec.sole_xy[:, i], axis=0), axis=1) / np.diff(rec.t)
        slip[foot] = float(np.median(step[stance])) if stance.any() else math.inf
    with np.errstate(divide='ignore', invalid='ignore'):
        ratio = np.abs(rec.velocity) / rec.velocity_limit  # inf limit: 0
    ratio = np.where(np.isfinite(rec.velocity_limit), ratio, 0.0)
    peak = np.max(ratio, axis=0)
    worst = int(np.argmax(peak))
    index = {j: k for k, j in enumerate(rec.joints)}
    at_limit = {}
    for joint in hip_pitch:
        if joint not in index:
            raise ValueError(f"gait quality: no joint '{joint}' in the recording")
        k = index[joint]
        at_limit[joint] = float(np.mean(
            np.abs(rec.effort[:, k]) >= EFFORT_LIMIT_SHARE * rec.effort_limit[k]))
    min_z = float(np.min(xyz[:, 2]))
    return GaitQuality(
        duration_s=t, samples=rec.samples, forward_m=float(xyz[-1, 0] - xyz[0, 0]),
        lateral_end_m=float(lateral[-1]), max_lateral_m=float(np.max(np.abs(lateral))),
        min_base_z_m=min_z, fell=has_fallen(min_z, rec.fall_height_m),
        touchdowns_per_s={f: float(n) / t for f, n in zip(rec.feet, tds.tolist())},
        flat_fraction=flat, median_slip_m_s=slip, max_velocity_ratio=float(peak[worst]),
        max_velocity_joint=rec.joints[worst], effort_limit_fraction=at_limit,
        targets=targets or QualityTargets(), flat_by_stance_fifth=by_part,
        corners_by_stance_fifth=corners_by_part, sole_contact=sole_contact(rec))


class StepRecorder:
    """Records a :class:`GaitRecording` from a ``zoo_sim.mujoco_backend.MujocoPhysics`` (duck
    typed: ``model``, ``data``, ``robots``, ``joint_state`` and ``step_observers`` or
    ``observers``).

    ``install()`` hooks the sampler in, ``remove()`` takes it out, ``clear()`` starts a new
    recording; ``active()`` (default: always) says whether the current sample belongs to the walk.

    Sampling every physics step: the backend's ``step_observers`` run after each MuJoCo step
    (the backend then steps one at a time, bitwise the same walk; ``test_gait_quality`` checks
    it on the Nao). A backend without them is sampled by an observer, once per step call
    (``per_step`` False, ``dt`` then the calls' median length).
    A sample taken after a MuJoCo step holds what that step computed: contacts and link poses at
    its start, joint velocities after it, efforts (constraint forces) of it."""

    def __init__(self, physics, robot: str, active: Callable[[], bool] | None = None,
                 fall_height_m: float = 0.15, soles: bool = False):
        self.physics = physics
        self.robot_name = robot
        self.active = active or (lambda: True)
        m = physics.model
        r = physics.robots[robot]
        self._r = r
        self.feet = list(r.contact_links)
        self.joints = list(r.joints)
        self.step_s = float(m.opt.timestep)
        self.fall_height_m = float(fall_height_m)
        self._foot_body = np.asarray(r.contact_bodies, dtype=int)
        colliding = (m.geom_contype != 0) | (m.geom_conaffinity != 0)
        sole_geoms = []
        for foot, body in zip(self.feet, self._foot_body.tolist()):
            geoms = np.flatnonzero((m.geom_bodyid == body) & colliding)
            if len(geoms) != 1 or int(m.geom_type[geoms[0]]) != 6:  # mjGEOM_BOX
                raise ValueError(f"gait quality: foot '{foot}' of robot '{robot}': expected one "
                                 f'colliding box (the sole), found {len(geoms)} colliding geoms')
            sole_geoms.append(int(geoms[0]))
        self._sole = np.array(sole_geoms, dtype=int)
        # foot index of each body / sole geom (-1: none), to map contacts to feet
        self._foot_of_body = np.full(m.nbody, -1, dtype=int)
        self._foot_of_body[self._foot_body] = np.arange(len(self.feet))
        self._foot_of_geom = np.full(m.ngeom, -1, dtype=int)
        self._foot_of_geom[self._sole] = np.arange(len(self.feet))
        self._geom_body = np.asarray(m.geom_bodyid)
        self.soles = soles
        if soles:  # (sole_contact diagnostics) corner offsets of each sole box's bottom face
            half = np.asarray(m.geom_size)[self._sole]
            signs = np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]], dtype=float)
            self._corner_local = np.stack([np.column_stack([signs * h[:2], np.full(4, -h[2])])
                                           for h in half])  # (F, 4, 3)
            self._half_size = half[:, :2].copy()
            self._weight_n = float(m.body_subtreemass[r.base_body]) * float(
                np.linalg.norm(m.opt.gravity))
        self.per_step = hasattr(physics, 'step_observers')
        self._installed = False
        self.clear()

    # -- installation -------------------------------------------------------------------------
    def install(self) -> 'StepRecorder':
        if not self._installed:
            hooks = self.physics.step_observers if self.per_step else self.physics.observers
            hooks.append(self._observe)
            self._installed = True
        return self

    def remove(self) -> None:
        if self._installed:
            hooks = self.physics.step_observers if self.per_step else self.physics.observers
            hooks.remove(self._observe)
            self._installed = False

    def __enter__(self):
        return self.install()

    def __exit__(self, *exc):
        self.remove()

    # -- sampling -------------------------------------------------------------------------------
    def clear(self) -> None:
        self._t, self._base, self._contact, self._corners, self._sole_xy = [], [], [], [], []
        self._vel, self._eff = [], []
        self._lift, self._tilt, self._force, self._cop = [], [], [], []

    def _observe(self) -> None:
        if not self.active():
            return
        p, r = self.physics, self._r
        d = p.data
        nf = len(self.feet)
        contact = np.zeros(nf, dtype=bool)
        corners = [0] * nf
        n = d.ncon
        if n:
            geom = d.contact.geom[:n]
            body_foot = self._foot_of_body[self._geom_body[geom]]  # (n, 2)
            contact[body_foot[body_foot >= 0]] = True
            sole_foot = self._foot_of_geom[geom].max(axis=1)
            rows = np.flatnonzero(sole_foot >= 0)
            if rows.size:
                pos = d.contact.pos[:n]
                for row in rows.tolist():
                    f = int(sole_foot[row])
                    g = self._sole[f]
                    local = d.geom_xmat[g].reshape(3, 3).T @ (pos[row] - d.geom_xpos[g])
                    corners[f] |= 1 << (int(local[0] > 0.0) * 2 + int(local[1] > 0.0))
                corners = [bin(c).count('1') for c in corners]
        _, dq, tau = p.joint_state(self.robot_name)
        self._t.append(0 if self.per_step else int(p.sim_ns))  # integer ns: exact, repeatable
        self._base.append(d.xpos[r.base_body].copy())
        self._contact.append(contact)
        self._corners.append(corners)
        self._sole_xy.append(d.geom_xpos[self._sole, :2].copy())
        self._vel.append(np.array(dq, dtype=float))
        self._eff.append(np.array(tau, dtype=float))
        if self.soles:
            self._observe_soles(d, n)

    def _observe_soles(self, d, n: int) -> None:
        import mujoco  # only the sole diagnostics need the contact forces
        m, nf = self.physics.model, len(self.feet)
        rot = d.geom_xmat[self._sole].reshape(nf, 3, 3)
        centre = d.geom_xpos[self._sole]
        z = np.einsum('fij,fcj->fci', rot, self._corner_local)[..., 2] + centre[:, None, 2]
        self._lift.append(z - z.min(axis=1, keepdims=True))
        zax = rot[:, :, 2]  # each sole's normal in the world
        self._tilt.append(np.column_stack([np.arctan2(-zax[:, 1], zax[:, 2]),
                                           np.arctan2(zax[:, 0], zax[:, 2])]))
        force, moment = np.zeros(nf), np.zeros((nf, 2))
        f6 = np.zeros(6)
        for row in range(n):
            c = d.contact[row]
            f = int(max(self._foot_of_geom[c.geom1], self._foot_of_geom[c.geom2]))
            if f < 0:
                continue
            mujoco.mj_contactForce(m, d, row, f6)
            local = rot[f].T @ (c.pos - centre[f])
            force[f] += f6[0]
            moment[f] += f6[0] * local[:2]
        cop = np.divide(moment, force[:, None], out=np.zeros_like(moment),
                        where=force[:, None] > 0)
        self._force.append(force)
        self._cop.append(cop)

    @property
    def samples(self) -> int:
        return len(self._t)

    def recording(self) -> GaitRecording:
        if len(self._t) < 2:
            raise ValueError(f'gait quality: {len(self._t)} sample(s) recorded (was the walk '
                             'active?)')
        if self.per_step:  # a sample per physics step: times on the step grid from the first
            t, dt = None, self.step_s
        else:
            ns = np.array(self._t, dtype=np.int64)
            t = (ns - ns[0]) * 1e-9
            dt = float(np.median(np.diff(t)))
        return GaitRecording(
            dt=dt, t=t, base_xyz=np.array(self._base), feet=list(self.feet),
            contact=np.array(self._contact), corners=np.array(self._corners, dtype=int),
            sole_xy=np.array(self._sole_xy), joints=list(self.joints),
            velocity=np.array(self._vel), effort=np.array(self._eff),
            velocity_limit=np.array(self._r.vel_limit, dtype=float),
            effort_limit=np.array(self._r.effort_limit, dtype=float),
            fall_height_m=self.fall_height_m,
            soles=SoleSamples(np.array(self._lift), np.array(self._tilt), np.array(self._force),
                              np.array(self._cop), self._half_size, self._weight_n)
            if self.soles else None)


def violations(q: GaitQuality, targets: QualityTargets | None = None) -> dict[str, float]:
    """How far ``q`` misses each of ``targets`` (default: its own), relative to the target, 0
    where it is met: what a search penalises (a fall is the fitness's business)."""
    t = targets or q.targets

    def over(value: float, limit: float) -> float:
        return max(0.0, value / limit - 1.0) if math.isfinite(value) else 1e3

    def under(value: float, limit: float) -> float:
        return max(0.0, 1.0 - value / limit)

    out = {'forward': under(q.forward_m, t.min_forward_m),
           'lateral': over(q.max_lateral_m, t.max_lateral_m)}
    for foot, v in q.touchdowns_per_s.items():
        out[f'touchdowns/{foot}'] = over(v, t.max_touchdowns_per_s)
    for foot, v in q.flat_fraction.items():
        out[f'flat/{foot}'] = under(v, t.min_flat_fraction)
    for foot, v in q.median_slip_m_s.items():
        out[f'slip/{foot}'] = over(v, t.max_median_slip_m_s)
    out['joint_velocity'] = over(q.max_velocity_ratio, t.max_velocity_ratio)
    for joint, v in q.effort_limit_fraction.items():
        out[f'effort_limit/{joint}'] = over(v, t.max_effort_limit_fraction)
    return out


WALK_TARGETS = ('forward', 'lateral')


def penalty_factor(q: GaitQuality, targets: QualityTargets | None = None,
                   weight: float = 1.0, walk_weight: float | None = None) -> float:
    """exp(-(weight x the sum of :func:`violations`)): 1 when every target is met, and smaller the
    more they are missed, so that a search multiplying its fitness by it prefers any walk that
    misses less to one that walks farther. ``walk_weight`` (default: ``weight``) weighs the
    walk's own targets (forward, lateral) instead, e.g. higher to keep them first."""
    v = violations(q, targets)
    ww = weight if walk_weight is None else walk_weight
    return math.exp(-sum((ww if k in WALK_TARGETS else weight) * x for k, x in v.items()))
