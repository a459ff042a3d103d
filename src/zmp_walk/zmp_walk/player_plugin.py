"""The ZMP walk as a gait-player plug-in, ``nao_zmp_walk`` (entry-point group
``gait_player.generators``, this package's setup.py): planned on the robot's URDF, its own
parameters (:class:`~.params.ZmpWalkParams`) declared by the player as ``gait.<name>`` (schema
part ``params/_zmp_walk.yaml``), played as joint PD commands."""
from __future__ import annotations

from gait_player.generator import Generator

from .params import ZmpWalkParams


def _make(params, version, arm_swing: bool, *, urdf: str, options: dict, **_):
    from .generator import NaoZmpWalk  # pinocchio: only when this gait is played
    return NaoZmpWalk(urdf, ZmpWalkParams.from_mapping(options))


def _defaults() -> dict:
    return ZmpWalkParams().as_dict()


def _check(options: dict) -> None:
    ZmpWalkParams.from_mapping(options)


def nao_zmp_walk() -> Generator:
    return Generator(_make, needs_description=True, options=_defaults, check=_check,
                     command_interface='pd', parameters=('zmp_walk', '_zmp_walk'))
