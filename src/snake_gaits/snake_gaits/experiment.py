"""The R25 experiment protocol on the simulator, without ROS (for tests, tables and sweeps).

Elastomer snake, all joints at 0 deg; the gait for ``leg_s`` (4 s), then the reversed gait for
another ``leg_s`` (spec §7.1). Goals go to the simulated AX-12 servos at 10 Hz. Per leg: the
centre-of-mass displacement (world x, y), split along and across the body's initial axis, and
the heading change of the body axis (last link -> link 0).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec

from .roll import module_roll_deg
from .serpenoid import SAMPLE_INTERVAL, Serpenoid, SerpenoidParams

ROBOT = 'snake'
WORLDS = {'flat': 'empty', 'heightfield': 'snake_terrain'}
RING_FACES = 24  # as config/scenarios/snake_*.yaml: the elastomer ring's contact patch


@dataclasses.dataclass
class LegResult:
    displacement: tuple[float, float]   # m, CoM in the world plane
    along: float                        # m along the initial body axis, toward link 0
    across: float                       # m across it (left positive)
    heading_deg: float                  # change of the body axis direction
    trajectory: np.ndarray              # (samples, links, 3) link positions at 10 Hz
    max_roll_deg: float = 0.0           # largest module roll about the body axis (roll.py)


@dataclasses.dataclass
class Experiment:
    legs: list[LegResult]
    k: float
    mu: float
    terrain: str
    variant: str


def make_physics(terrain: str = 'flat', k: float = 2.0, mu: float = 0.6,
                 variant: str = 'elastomer', step: float | None = None,
                 ring_faces: int = RING_FACES) -> MujocoPhysics:
    """``ring_faces``: the elastomer ring's collision shape (snake_description's xacro arg; 24
    as in the gait scenarios, 0 the thesis' rigid cylinder, on which linear progression rolls
    the snake onto its side)."""
    if terrain not in WORLDS:
        raise ValueError(f"terrain '{terrain}': expected one of {', '.join(WORLDS)}")
    ph = MujocoPhysics.create(WORLDS[terrain], [RobotSpec(
        ROBOT, 'snake_description',
        xacro_args={'variant': variant, 'mu': mu, 'ring_faces': ring_faces},
        servo='ax12', servo_params={'k': str(k)})], step=step)
    # every surface at mu: the simulator takes the lower of two surfaces' mu (Gazebo's rule),
    # so the ground must not cap a sweep above its own value
    ph.model.geom_friction[:, 0] = mu
    return ph


def _com(ph: MujocoPhysics) -> np.ndarray:
    r = ph.robots[ROBOT]
    mass = ph.model.body_mass[r.link_bodies]
    return (ph.data.xipos[r.link_bodies] * mass[:, None]).sum(0) / mass.sum()


def _axis(ph: MujocoPhysics) -> np.ndarray:
    _, pos, _ = ph.link_poses(ROBOT)
    v = pos[0, :2] - pos[-1, :2]  # toward link 0, the leading end in linear progression
    return v / max(np.linalg.norm(v), 1e-12)


def run_protocol(params: SerpenoidParams, terrain: str = 'flat', k: float = 2.0,
                 mu: float = 0.6, variant: str = 'elastomer', leg_s: float = 4.0,
                 step: float | None = None, physics: MujocoPhysics | None = None,
                 reverse: bool = True) -> Experiment:
    """The R25 protocol; ``reverse=False`` runs the forward leg only."""
    ph = physics or make_physics(terrain, k, mu, variant, step)
    steps = int(round(SAMPLE_INTERVAL / ph.model.opt.timestep))
    joints = np.arange(16)
    legs = []
    for p in (params, params.reversed()) if reverse else (params,):
        gait = Serpenoid(p)
        com0, axis0 = _com(ph), _axis(ph)
        heading0 = math.atan2(axis0[1], axis0[0])
        traj, roll = [], 0.0
        for i in range(int(round(leg_s / SAMPLE_INTERVAL))):
            ph.servo_goals(ROBOT, joints, gait.sample_rad(i))
            ph.advance(steps)
            names, pos, quat = ph.link_poses(ROBOT)
            traj.append(pos.copy())
            roll = max(roll, float(module_roll_deg(names, quat).max()))
        d = _com(ph)[:2] - com0[:2]
        axis = _axis(ph)
        left = np.array([-axis0[1], axis0[0]])
        dh = math.degrees(math.atan2(axis[1], axis[0]) - heading0)
        legs.append(LegResult((float(d[0]), float(d[1])), float(d @ axis0), float(d @ left),
                              (dh + 180.0) % 360.0 - 180.0, np.array(traj), roll))
    return Experiment(legs, k, mu, terrain, variant)
