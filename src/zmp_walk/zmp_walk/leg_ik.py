"""Analytic inverse kinematics of a Nao leg with the torso upright and the foot flat.

The naoV40 leg from the torso: hip yaw-pitch (held at 0 here), hip roll (x), hip pitch (y), knee
pitch (y), ankle pitch (y), ankle roll (x); the three hip joints share an origin, the thigh and
the tibia hang straight down (knee and ankle on the hip's vertical with all angles 0), the ankle
joints share an origin and the sole frame lies straight below it. With the torso upright and the
sole parallel to the ground the ankle undoes the rest: ankle roll = -hip roll and ankle pitch =
-(hip pitch + knee). The geometry comes from the URDF (through pinocchio), not from constants:
:meth:`LegGeometry.from_model` checks the structure above (origins and axes) and says what differs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LEG_JOINTS = ('HipRoll', 'HipPitch', 'KneePitch', 'AnklePitch', 'AnkleRoll')


@dataclass(frozen=True)
class LegGeometry:
    hip: np.ndarray      # hip joints' origin in the torso frame
    thigh: float         # hip to knee
    tibia: float         # knee to ankle
    foot: float          # ankle to sole plane

    @classmethod
    def from_model(cls, model, side: str, base_frame: str = 'torso') -> 'LegGeometry':
        """The leg ``side`` ('L' or 'R') of a pinocchio model of the Nao, all joints at 0."""
        import pinocchio as pin
        data = model.createData()
        pin.framesForwardKinematics(model, data, pin.neutral(model))

        def origin(joint: str) -> np.ndarray:
            if not model.existJointName(joint):
                raise ValueError(f'leg IK: the model has no joint {joint}')
            return data.oMi[model.getJointId(joint)].translation.copy()
        base = data.oMf[model.getFrameId(base_frame)].translation
        names = [f'{side}Hip{n}' for n in ('YawPitch', 'Roll', 'Pitch')]
        hip = origin(names[0])
        knee, ankle = origin(f'{side}KneePitch'), origin(f'{side}AnklePitch')
        sole = data.oMf[model.getFrameId(f'{side.lower()}_sole')].translation
        problems = [f'{j} is not at the hip yaw-pitch origin' for j in names[1:]
                    if np.linalg.norm(origin(j) - hip) > 1e-9]
        if np.linalg.norm(origin(f'{side}AnkleRoll') - ankle) > 1e-9:
            problems.append(f'{side}AnkleRoll is not at the ankle pitch origin')
        for joint, axis in zip(LEG_JOINTS, ('x', 'y', 'y', 'y', 'x')):
            kind = model.joints[model.getJointId(f'{side}{joint}')].shortname()
            if kind != f'JointModelR{axis.upper()}':  # pinocchio's revolute joint about +x / +y
                problems.append(f'{side}{joint} turns about {kind}, expected +{axis}')
        for a, b, what in ((hip, knee, 'knee below the hip'), (knee, ankle, 'ankle below the knee'),
                           (ankle, sole, 'sole below the ankle')):
            if np.linalg.norm((b - a)[:2]) > 1e-9:
                problems.append(f'expected the {what}, offset {(b - a)[:2].round(6).tolist()}')
        if problems:
            raise ValueError('leg IK: the model is not a Nao leg: ' + '; '.join(problems))
        return cls(hip - base, float(hip[2] - knee[2]), float(knee[2] - ankle[2]),
                   float(ankle[2] - sole[2]))

    @property
    def length(self) -> float:
        return self.thigh + self.tibia


def leg_angles(g: LegGeometry, torso: np.ndarray, sole: np.ndarray) -> list[float]:
    """[hip roll, hip pitch, knee, ankle pitch, ankle roll] (rad) that put the sole frame at
    ``sole`` with the torso (upright) at ``torso``, both in the same world frame. Out-of-reach
    targets straighten the knee (the caller checks reach with :func:`reach`)."""
    d = (np.asarray(sole, dtype=float) + (0.0, 0.0, g.foot)) - (np.asarray(torso, float) + g.hip)
    px, py, pz = d
    hip_roll = math.atan2(py, -pz)
    c = -math.hypot(py, pz)
    a = px
    cos_knee = (a * a + c * c - g.thigh ** 2 - g.tibia ** 2) / (2.0 * g.thigh * g.tibia)
    knee = math.acos(max(-1.0, min(1.0, cos_knee)))
    hip_pitch = math.atan2(-a, -c) - math.atan2(g.tibia * math.sin(knee),
                                                 g.thigh + g.tibia * math.cos(knee))
    return [hip_roll, hip_pitch, knee, -(hip_pitch + knee), -hip_roll]


def reach(g: LegGeometry, torso: np.ndarray, sole: np.ndarray) -> float:
    """Hip-to-ankle distance over the leg's length (> 1: out of reach)."""
    d = (np.asarray(sole, dtype=float) + (0.0, 0.0, g.foot)) - (np.asarray(torso, float) + g.hip)
    return float(np.linalg.norm(d)) / g.length
