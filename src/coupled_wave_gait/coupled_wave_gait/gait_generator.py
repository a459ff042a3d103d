"""The gait-generator interface: what the Walker plays, whatever the robot.

A generator turns gait parameters into joint targets over time, either as the seed's sampled
playback (``sample_rad(k)``, a fixed number of commands per period) or continuously
(``continuous_rad(elapsed)``). The Nao 10-parameter walk (:class:`nao_walk.NaoWalk`) is one;
the ZMP walk of the zmp_walk package (``nao_zmp_walk``) another. The Walker node picks one by name
from :data:`GENERATORS` (parameter ``generator``), so a new gait needs a class and a registry
entry, not a new node.

A generator registered with ``command_interface='pd'`` (the ZMP walk) also gives target velocities
and feed-forward torques (``pd_lists(elapsed)``) and its gains (``kp``, ``kd``, lists in joint
order); the Walker then sends zoo_interfaces/JointPDCommand on ``joint_pd_commands`` instead of
positions on ``joint_targets``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Protocol, runtime_checkable

import numpy as np


PLAYBACK_MODES = ('sampled', 'continuous')


@runtime_checkable
class GaitGenerator(Protocol):
    joints: tuple[str, ...]     # the order of every target vector
    period: float               # s, one gait cycle (the walk evaluation samples once per period)

    @property
    def sample_interval(self) -> float: ...  # s between two sampled commands

    def sample_rad(self, k: int) -> np.ndarray: ...          # k-th sampled command, rad
    def continuous_rad(self, elapsed: float) -> np.ndarray: ...  # at elapsed s, rad
    # the same as a list of floats: the Walker's per-tick path (a message takes a list, and one
    # sample costs less in plain floats than through numpy)
    def continuous_list(self, elapsed: float) -> list[float]: ...
    def limit_violations(self, limits: Mapping[str, tuple[float, float]]
                         ) -> dict[str, int]: ...  # samples outside [lower, upper] per joint


def _nao_walk(params, version, arm_swing: bool, **_) -> GaitGenerator:
    from .nao_walk import NaoWalk
    return NaoWalk(params, version.base_phase, arm_swing)


def _nao_walk_flat(params, version, arm_swing: bool, **_) -> GaitGenerator:
    from .nao_walk import NaoWalk
    return NaoWalk(params, version.base_phase, arm_swing, sole='parallel')


def _nao_walk_smooth(params, version, arm_swing: bool, **_) -> GaitGenerator:
    from .nao_walk import NaoWalk
    return NaoWalk(params, version.base_phase, arm_swing, sole='parallel', hip='ramped')


def _nao_zmp_walk(params, version, arm_swing: bool, *, urdf: str, options: dict,
                  **_) -> GaitGenerator:
    from zmp_walk.generator import NaoZmpWalk
    from zmp_walk.params import ZmpWalkParams
    return NaoZmpWalk(urdf, ZmpWalkParams.from_mapping(options))


def _zmp_defaults() -> dict:
    from zmp_walk.params import ZmpWalkParams
    return ZmpWalkParams().as_dict()


def _zmp_check(options: dict) -> None:
    from zmp_walk.params import ZmpWalkParams
    ZmpWalkParams.from_mapping(options)


@dataclass(frozen=True)
class Generator:
    """A registry entry: ``make(params, version, arm_swing, urdf=..., options=...)``.
    ``walk_params``: it plays the 10 Nao walk parameters (``params``); ``needs_description``: it
    needs the robot's URDF (``urdf``, from ``robot_description``); ``options``: defaults of its own
    parameters (the Walker declares them as ``gait.<name>``), checked by ``check``;
    ``command_interface``: ``'targets'`` or ``'pd'``."""
    make: Callable[..., GaitGenerator]
    walk_params: bool = True
    needs_description: bool = False
    options: Callable[[], dict] = field(default=dict)
    check: Callable[[dict], None] | None = None
    command_interface: str = 'targets'

    def __call__(self, params, version, arm_swing: bool, **context) -> GaitGenerator:
        return self.make(params, version, arm_swing, **context)


# ``nao_walk``: the spec's generator; ``nao_walk_flat``: with sole-parallel ankles
# (nao_walk.sole_parallel; ours, not the spec's); ``nao_walk_smooth``: the same with the hip
# pitch's flat top entered by a ramp instead of a step (waves.hip_pitch_ramped; ours);
# ``nao_zmp_walk``: the zmp_walk package's ZMP walk (ours), played as PD commands.
GENERATORS: dict[str, Generator] = {
    'nao_walk': Generator(_nao_walk),
    'nao_walk_flat': Generator(_nao_walk_flat),
    'nao_walk_smooth': Generator(_nao_walk_smooth),
    'nao_zmp_walk': Generator(_nao_zmp_walk, walk_params=False, needs_description=True,
                              options=_zmp_defaults, check=_zmp_check, command_interface='pd'),
}
