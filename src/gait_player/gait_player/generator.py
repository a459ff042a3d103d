"""The gait-generator interface: what the gait player plays, whatever the robot.

A generator turns gait parameters into joint targets over time, either as the seed's sampled
playback (``sample_rad(k)``, a fixed number of commands per period) or continuously
(``continuous_rad(elapsed)``). Gait packages provide them as plug-ins (:mod:`.registry`): the
coupled-wave Nao walks (coupled_wave_gait), the ZMP walk (zmp_walk), the snake gaits
(snake_gaits). The player node picks one by name (parameter ``generator``), so a new gait needs
a class and an entry point, not a new node.

A generator registered with ``command_interface='pd'`` (the ZMP walk) also gives target velocities
and feed-forward torques (``pd_lists(elapsed)``) and its gains (``kp``, ``kd``, lists in joint
order); the player then sends zoo_interfaces/JointPDCommand on ``joint_pd_commands`` instead of
positions on ``joint_targets``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

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


@dataclass(frozen=True)
class WalkParameters:
    """A gait's own parameter vector, played through the seed's Walker interface (the
    ``params`` parameter, the ``set_params`` service): its field ``names`` (those of
    zoo_interfaces/WalkParams), ``from_sequence(values)`` (ValueError naming what is wrong) and
    the generator ``versions`` by name (each with ``apply(params)``, the parameters that version
    hard-codes, and ``base_phase``)."""
    names: tuple[str, ...]
    from_sequence: Callable[[Sequence[float]], Any]
    versions: Mapping[str, Any]


@dataclass(frozen=True)
class Generator:
    """The registry entry of a walk: ``make(params, version, arm_swing, urdf=..., options=...)``.
    ``walk_params``: the parameter vector it plays (``params``; None: it has none);
    ``needs_description``: it needs the robot's URDF (``urdf``, from ``robot_description``);
    ``options``: defaults of its own parameters (the player declares them as ``gait.<name>``,
    from the schema part ``parameters``, ``(package, '_part')``), checked by ``check``;
    ``command_interface``: ``'targets'`` or ``'pd'``."""
    make: Callable[..., GaitGenerator]
    walk_params: WalkParameters | None = None
    needs_description: bool = False
    options: Callable[[], dict] = field(default=dict)
    check: Callable[[dict], None] | None = None
    command_interface: str = 'targets'
    parameters: tuple[str, str] | None = None

    def __call__(self, params, version, arm_swing: bool, **context) -> GaitGenerator:
        return self.make(params, version, arm_swing, **context)
