"""The ZMP walk's parameters, with their defaults (the shipped Nao walk) and checks.

Lengths in m, times in s, gains in N m/rad and N m s/rad. Straight walking only: the feet stay at
``foot_y`` either side of the midline and the torso upright; the first step is the right foot's.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True)
class ZmpWalkParams:
    step_length: float = 0.065     # each step puts the swing foot this far ahead of the other
    single_support: float = 0.30   # one foot in the air
    double_support: float = 0.12   # both feet down while the ZMP moves from one to the other
    lift: float = 0.015            # swing foot's highest point above the ground
    swing_peak: float = 0.5        # where in the swing (0..1) the foot is highest
    torso_height: float = 0.305    # torso (base_link) above the soles while walking (knees bent)
    zmp_y: float = 0.045           # ZMP reference under a stance foot, from the midline
    zmp_x: float = 0.0             # ZMP reference ahead of the sole's centre
    foot_y: float = 0.05           # feet from the midline (the Nao's hip offset)
    crouch_time: float = 0.6       # from the reset posture (straight legs) to the walking height
    shift_time: float = 0.4        # standing crouched before the first step
    plan_steps: int = 12           # steps planned before the plan loops its last full cycle
    dt: float = 0.004              # plan sampling (the Walker's 250 Hz lands on the samples)
    jerk_weight: float = 1e-7      # regularises the centre of mass against ZMP tracking
    kp: float = 60.0               # leg PD gains (the motor driver's loop in the simulator)
    kd: float = 0.3
    kp_arm: float = 10.0           # arms held in a carrying posture, softly
    kd_arm: float = 0.05

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f'{f.name}: expected a finite number, got {v!r}')
        positive = ('single_support', 'double_support', 'torso_height', 'foot_y', 'crouch_time',
                    'dt', 'kp', 'kp_arm')
        for name in positive:
            if not getattr(self, name) > 0.0:
                raise ValueError(f'{name}: expected > 0, got {getattr(self, name)}')
        for name in ('step_length', 'lift', 'zmp_y', 'shift_time', 'jerk_weight', 'kd', 'kd_arm'):
            if not getattr(self, name) >= 0.0:
                raise ValueError(f'{name}: expected >= 0, got {getattr(self, name)}')
        if not 0.0 < self.swing_peak < 1.0:
            raise ValueError(f'swing_peak: expected between 0 and 1, got {self.swing_peak}')
        if not (isinstance(self.plan_steps, int) and self.plan_steps >= 10):
            raise ValueError(f'plan_steps: expected an integer >= 10 (the looped two steps end '
                             f'five before the last, after the start has died out), got '
                             f'{self.plan_steps!r}')
        if self.dt > min(self.single_support, self.double_support) / 4:
            raise ValueError(f'dt: expected at most a quarter of each support phase, got {self.dt}')

    @property
    def step_time(self) -> float:
        return self.single_support + self.double_support

    @classmethod
    def from_mapping(cls, values: dict) -> 'ZmpWalkParams':
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f'unknown parameter(s) {", ".join(unknown)}; expected some of '
                             f'{", ".join(sorted(known))}')
        kw = dict(values)
        if 'plan_steps' in kw and isinstance(kw['plan_steps'], float) and \
                kw['plan_steps'].is_integer():
            kw['plan_steps'] = int(kw['plan_steps'])
        return cls(**kw)

    def as_dict(self) -> dict:
        return asdict(self)
