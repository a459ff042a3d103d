"""The gait-generator interface: what the Walker plays, whatever the robot.

A generator turns gait parameters into joint targets over time, either as the seed's sampled
playback (``sample_rad(k)``, a fixed number of commands per period) or continuously
(``continuous_rad(elapsed)``). The Nao 10-parameter walk (:class:`nao_walk.NaoWalk`) is one;
the snake's serpenoid gaits will be others. The Walker node picks one by name from
:data:`GENERATORS` (parameter ``generator``), so a new gait needs a class and a registry entry,
not a new node.
"""
from __future__ import annotations

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


def _nao_walk(params, version, arm_swing: bool) -> GaitGenerator:
    from .nao_walk import NaoWalk
    return NaoWalk(params, version.base_phase, arm_swing)


def _nao_walk_flat(params, version, arm_swing: bool) -> GaitGenerator:
    from .nao_walk import NaoWalk
    return NaoWalk(params, version.base_phase, arm_swing, sole='parallel')


def _nao_walk_smooth(params, version, arm_swing: bool) -> GaitGenerator:
    from .nao_walk import NaoWalk
    return NaoWalk(params, version.base_phase, arm_swing, sole='parallel', hip='ramped')


# name -> factory(params, version, arm_swing). ``nao_walk_flat``: the Nao walk with sole-parallel
# ankles (nao_walk.sole_parallel; ours, not the spec's); ``nao_walk_smooth``: the same with the
# hip pitch's flat top entered by a ramp instead of a step (waves.hip_pitch_ramped; ours).
GENERATORS: dict[str, Callable[..., GaitGenerator]] = {'nao_walk': _nao_walk,
                                                       'nao_walk_flat': _nao_walk_flat,
                                                       'nao_walk_smooth': _nao_walk_smooth}
