"""The Nao coupled-wave walk: 10 parameters -> 18 joint trajectories (specs/nao.md §4-§5).

Values are generated in degrees, as in the original, and converted with ×π/180 when commanded.
Two playback modes:
- ``sampled`` (the seed's): 18 vectors per period taken at t_i = i·T/18, i = 1..18; vector i-1 is
  held from (i-1)·T/18 to i·T/18 of walking time, looping.
- ``continuous``: the same waves evaluated at every control tick. The time axis is advanced by one
  sample (T/18) so that at each instant where the sampled mode switches to a new vector both modes
  command the same value; the sampled mode is then a zero-order hold of the continuous one.

``sole='parallel'`` (generator ``nao_wave_walk_flat``; ours, not the spec's) replaces the ankle
waves so that the soles stay parallel to the torso (:func:`sole_parallel`).
"""
from __future__ import annotations

import math
from dataclasses import astuple, dataclass, fields, replace
from typing import Mapping, Sequence

import numpy as np

from gait_player.generator import PLAYBACK_MODES
from .oscillator_bank import Coupling, Oscillator, OscillatorBank
from .waves import SHAPES

N_SAMPLES = 18  # n_pos: samples per period
DEG = math.pi / 180.0

# Constants of §5.2 (degrees for amplitude scales and offsets, radians for phases), literal values.
HIP_ROLL_A, HIP_ROLL_S, HIP_ROLL_P = 0.2, 1.0, 1.047
KNEE_PITCH_P = 2.67
ANKLE_PITCH_P = 3.455
ANKLE_ROLL_A, ANKLE_ROLL_S, ANKLE_ROLL_P = 0.23, -2.9, 2.0943
HIP_ROLL_LEFT_SHIFT = -1.0    # left hip roll offset = 1 - 1 = 0
ANKLE_ROLL_LEFT_SHIFT = 5.0   # left ankle roll offset = -2.9 + 5 = 2.1
ARMS_AMPLITUDE = 50.0
ARM_WAVES = {  # joint suffix: (A, S, P)
    'ShoulderPitch': (0.37, 90.5, 3.14),
    'ShoulderRoll': (0.05, -12.5, 0.0),
    'ElbowYaw': (0.2, 75.0, 3.14),
    'ElbowRoll': (0.22, 31.0, 0.0),
}
BASE_PHASE_LATER = -1.5
BASE_PHASE_EARLIER = 0.0

LEG_JOINTS = ('HipPitch', 'HipRoll', 'KneePitch', 'AnklePitch', 'AnkleRoll')
ARM_JOINTS = tuple(ARM_WAVES)
# The 18 generated trajectories, in this column order (naoV40 joint names, specs/nao.md §2.7).
GAIT_JOINTS = tuple(f'R{j}' for j in LEG_JOINTS) + tuple(f'L{j}' for j in LEG_JOINTS) + \
    tuple(f'R{j}' for j in ARM_JOINTS) + tuple(f'L{j}' for j in ARM_JOINTS)
# Straight walking: hip yaw-pitch commanded 0 throughout (§4.1 step 2, R14).
HOLD_ZERO_JOINTS = ('LHipYawPitch', 'RHipYawPitch')


@dataclass(frozen=True)
class WalkParams:
    """The 10 gait parameters, param1..param10 in this order (§4.2). Degrees, phases in rad."""
    period_s: float           # param1, the seed's "frequency" w: actually the period T
    hip_amplitude: float      # param2
    hip_offset: float         # param3
    knee_amplitude: float     # param4
    knee_phase: float         # param5
    knee_offset: float        # param6
    ankle_amplitude: float    # param7
    ankle_phase: float        # param8
    ankle_offset: float       # param9
    balance: float            # param10

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f'walk parameter {f.name}: expected a finite number, got {v!r}')
        if not self.period_s > 0.0:
            raise ValueError(f'walk parameter period_s (param1): expected > 0 s, '
                             f'got {self.period_s}')

    @classmethod
    def from_sequence(cls, values: Sequence[float]) -> 'WalkParams':
        values = list(values)
        if len(values) != len(PARAM_NAMES):
            raise ValueError(f'walk parameters: expected {len(PARAM_NAMES)} values '
                             f'(param1..param10), got {len(values)}')
        return cls(*(float(v) for v in values))

    def as_tuple(self) -> tuple[float, ...]:
        return astuple(self)


PARAM_NAMES = tuple(f.name for f in fields(WalkParams))


@dataclass(frozen=True)
class GeneratorVersion:
    """The two published versions of the original Walking plugin (§4.2): their base phase and the
    parameters their setParams hard-codes (ignoring what the caller sent)."""
    name: str
    base_phase: float
    hardcoded: Mapping[str, float]

    def apply(self, params: WalkParams) -> WalkParams:
        return replace(params, **self.hardcoded)


LATER = GeneratorVersion('later', BASE_PHASE_LATER, {
    'knee_offset': 42.1, 'ankle_amplitude': 7.5, 'ankle_offset': -21.4, 'balance': 38.29999})
EARLIER = GeneratorVersion('earlier', BASE_PHASE_EARLIER, {'balance': 20.0})
VERSIONS = {v.name: v for v in (LATER, EARLIER)}


def nao_wave_walk_bank(p: WalkParams, base_phase: float = BASE_PHASE_LATER,
                  arm_swing: bool = True, hip: str = 'spec') -> OscillatorBank:
    """The 18 waves of §5.3 as an oscillator bank (right side primary, left side coupled);
    ``hip='ramped'``: the hip pitch's flat top entered by a ramp (``waves.hip_pitch_ramped``)."""
    T = p.period_s
    b = base_phase
    hip_shape = SHAPES['hip_pitch_ramped' if hip == 'ramped' else 'hip_pitch']
    osc = [
        Oscillator('RHipPitch', hip_shape, p.hip_amplitude, p.hip_offset, b, T),
        Oscillator('RHipRoll', SHAPES['sine'], HIP_ROLL_A * p.balance, HIP_ROLL_S,
                   b + HIP_ROLL_P, T),
        Oscillator('RKneePitch', SHAPES['knee_pitch'], p.knee_amplitude, p.knee_offset,
                   b + KNEE_PITCH_P + p.knee_phase, T),
        Oscillator('RAnklePitch', SHAPES['ankle_pitch'], p.ankle_amplitude, p.ankle_offset,
                   b + ANKLE_PITCH_P + p.ankle_phase, T),
        Oscillator('RAnkleRoll', SHAPES['sine'], ANKLE_ROLL_A * p.balance, ANKLE_ROLL_S,
                   b - ANKLE_ROLL_P, T),
    ]
    # Arms: phase = BASE_PHASE + P_joint (§11 item 13); amplitude A·50.
    for joint, (a, s, ph) in ARM_WAVES.items():
        amp = a * ARMS_AMPLITUDE if arm_swing else 0.0
        osc.append(Oscillator(f'R{joint}', SHAPES['sine'], amp, s, b + ph, T))
    half = math.pi  # half a period in a 2π domain
    cpl = [
        Coupling('LHipPitch', 'RHipPitch', phase_shift=half),
        Coupling('LHipRoll', 'RHipRoll', offset_shift=HIP_ROLL_LEFT_SHIFT),
        Coupling('LKneePitch', 'RKneePitch', phase_shift=2.0 * math.pi),  # half of the 4π domain
        Coupling('LAnklePitch', 'RAnklePitch', phase_shift=half),
        Coupling('LAnkleRoll', 'RAnkleRoll', offset_shift=ANKLE_ROLL_LEFT_SHIFT),
        Coupling('LShoulderPitch', 'RShoulderPitch', phase_shift=half),
        Coupling('LShoulderRoll', 'RShoulderRoll', gain=-1.0),
        Coupling('LElbowYaw', 'RElbowYaw', gain=-1.0),
        Coupling('LElbowRoll', 'RElbowRoll', gain=-1.0),
    ]
    return OscillatorBank(osc, cpl, order=GAIT_JOINTS)


def sample_times(period_s: float) -> np.ndarray:
    """t_i = i·T/18 for i = 1..18."""
    return sample_cycles() * period_s


def sample_cycles() -> np.ndarray:
    """t_i/T = i/18: where the 18 samples fall within the period."""
    return np.arange(1, N_SAMPLES + 1) / N_SAMPLES


SOLES = ('spec', 'parallel')
HIPS = ('spec', 'ramped')
_COL = {j: k for k, j in enumerate(GAIT_JOINTS)}


def sole_parallel(values: np.ndarray) -> np.ndarray:
    """The ``parallel`` sole variant (ours, not the spec's) of generated values (n, 18), degrees.

    With the torso upright, a sole stays parallel to the ground when its ankle undoes the leg's
    other pitch and roll joints: AnklePitch = -(HipPitch + KneePitch), AnkleRoll = -HipRoll (naoV40
    axes: hip, knee and ankle pitch all about y, hip and ankle roll both about x). On top of that
    the ankle pitch wave (param7-9) is added as the sole's pitch relative to the torso, so the 10
    parameters keep their meaning (param9 = 0: the sole parallel to the torso's horizontal), and
    the ankle roll wave is dropped: the balance amplitude drives the hip roll alone. The spec's
    ankle waves (§5.3) and fixed roll offsets leave the loaded sole on an edge (README, "Gait
    quality")."""
    out = values.copy()
    for side in 'RL':
        hp, hr, kp = (values[:, _COL[f'{side}{j}']] for j in ('HipPitch', 'HipRoll', 'KneePitch'))
        out[:, _COL[f'{side}AnklePitch']] = values[:, _COL[f'{side}AnklePitch']] - (hp + kp)
        out[:, _COL[f'{side}AnkleRoll']] = -hr
    return out


class NaoWaveWalk:
    """Targets for the 18 gait joints plus the hip yaw-pitch joints held at 0; a
    :class:`~gait_player.generator.GaitGenerator`. ``sole='parallel'`` plays the
    sole-parallel variant (:func:`sole_parallel`), ``hip='ramped'`` the ramped hip pitch wave
    (``waves.hip_pitch_ramped``)."""

    MODES = PLAYBACK_MODES

    def __init__(self, params: WalkParams, base_phase: float = BASE_PHASE_LATER,
                 arm_swing: bool = True, sole: str = 'spec', hip: str = 'spec'):
        if sole not in SOLES:
            raise ValueError(f'nao walk sole: expected one of {", ".join(SOLES)}, got {sole!r}')
        if hip not in HIPS:
            raise ValueError(f'nao walk hip: expected one of {", ".join(HIPS)}, got {hip!r}')
        self.params = params
        self.period = params.period_s
        self.sole = sole
        self.hip = hip
        self.bank = nao_wave_walk_bank(params, base_phase, arm_swing, hip)
        self.joints: tuple[str, ...] = GAIT_JOINTS + HOLD_ZERO_JOINTS
        self._samples = self._shape(self.bank.values_at_cycles(sample_cycles()))
        zeros = np.zeros((N_SAMPLES, len(HOLD_ZERO_JOINTS)))
        self._samples_rad = np.hstack([self._samples, zeros]) * DEG
        self._held_rad = (zeros[0] * DEG).tolist()
        self._sole_cols = [tuple(_COL[f'{side}{j}'] for j in (
            'HipPitch', 'HipRoll', 'KneePitch', 'AnklePitch', 'AnkleRoll')) for side in 'RL']

    def _shape(self, values: np.ndarray) -> np.ndarray:
        return sole_parallel(values) if self.sole == 'parallel' else values

    @property
    def sample_interval(self) -> float:
        return self.period / N_SAMPLES

    def samples_deg(self) -> np.ndarray:
        """The 18 vectors of the seed: (18, 18) degrees, rows t_1..t_18, columns GAIT_JOINTS."""
        return self._samples.copy()

    def sample_rad(self, k: int) -> np.ndarray:
        """The k-th command of sampled playback (k = 0, 1, ...; loops every 18), all joints, rad."""
        return self._samples_rad[k % N_SAMPLES].copy()

    def continuous_rad(self, elapsed: float) -> np.ndarray:
        """Continuous mode at ``elapsed`` s of walking, all joints, rad."""
        return np.array(self.continuous_list(elapsed))

    def continuous_list(self, elapsed: float) -> list[float]:
        """:meth:`continuous_rad` as a list of floats, evaluated in plain floats (the Walker's
        per-tick path): bit for bit the vectorised ``sole_parallel(bank.values(t))`` with the
        held joints appended, × π/180 (tested)."""
        v = self.bank.value_list(elapsed + self.sample_interval)
        if self.sole == 'parallel':
            for hp, hr, kp, ap, ar in self._sole_cols:
                v[ap] = v[ap] - (v[hp] + v[kp])
                v[ar] = -v[hr]
        return [x * DEG for x in v] + self._held_rad

    def limit_violations(self, limits: Mapping[str, tuple[float, float]]) -> dict[str, int]:
        """How many of the 18 samples of each joint lie outside its [lower, upper] (rad); joints
        without a limit entry are not checked. Empty when every sample is inside."""
        out = {}
        for k, joint in enumerate(self.joints):
            if joint in limits:
                lo, hi = limits[joint]
                col = self._samples_rad[:, k]
                n = int(np.count_nonzero((col < lo) | (col > hi)))
                if n:
                    out[joint] = n
        return out
