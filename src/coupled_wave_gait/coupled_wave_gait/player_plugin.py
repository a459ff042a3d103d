"""The coupled-wave Nao walks as gait-player plug-ins (entry-point group
``gait_player.generators``, this package's setup.py):

- ``nao_wave_walk``: the spec's 10-parameter walk (:class:`~.nao_wave_walk.NaoWaveWalk`);
- ``nao_wave_walk_flat``: with sole-parallel ankles (``nao_wave_walk.sole_parallel``; ours);
- ``nao_wave_walk_smooth``: the same with the hip pitch's flat top entered by a ramp instead of
  a step (``waves.hip_pitch_ramped``; ours).

Each plays the 10 walk parameters (``WALK_PARAMETERS``) in one of the seed's two versions.
"""
from __future__ import annotations

from gait_player.generator import Generator, WalkParameters

from .nao_wave_walk import PARAM_NAMES, VERSIONS, NaoWaveWalk, WalkParams

WALK_PARAMETERS = WalkParameters(PARAM_NAMES, WalkParams.from_sequence, VERSIONS)


def _variant(**shape) -> Generator:
    def make(params, version, arm_swing: bool, **_) -> NaoWaveWalk:
        return NaoWaveWalk(params, version.base_phase, arm_swing, **shape)
    return Generator(make, walk_params=WALK_PARAMETERS)


def nao_wave_walk() -> Generator:
    return _variant()


def nao_wave_walk_flat() -> Generator:
    return _variant(sole='parallel')


def nao_wave_walk_smooth() -> Generator:
    return _variant(sole='parallel', hip='ramped')
