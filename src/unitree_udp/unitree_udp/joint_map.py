"""SDK motor index <-> URDF joint name. The SDK orders motors FR FL RR RL x (hip, thigh, calf)
(``quadruped.h``: FR_0 = 0 ... RL_2 = 11); the workspace's Go1 URDF orders its joints FL FR RL RR
(spec go1.md §12 #13). Nothing is ever matched by position: always through these maps."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .constants import GO1_POSITION_LIMITS, SDK_JOINTS, SDK_LEGS

SDK_JOINT_NAMES: tuple[str, ...] = tuple(f'{leg}_{j}_joint' for leg in SDK_LEGS
                                         for j in SDK_JOINTS)


class JointMap:
    """Index maps between the SDK's 12 motors and a robot's joint list (any order)."""

    def __init__(self, joints: Sequence[str], sdk_names: Sequence[str] = SDK_JOINT_NAMES):
        self.joints = list(joints)
        index = {j: i for i, j in enumerate(self.joints)}
        missing = [n for n in sdk_names if n not in index]
        if missing:
            raise ValueError(f'JointMap: joints {missing} are not among {self.joints}')
        self.sdk_names = list(sdk_names)
        # robot_index[k]: the robot's index of SDK motor k
        self.robot_index = np.array([index[n] for n in sdk_names], dtype=int)

    def to_robot(self, sdk_values: Sequence[float]) -> np.ndarray:
        """SDK-ordered values -> robot order (joints the SDK does not drive: NaN)."""
        out = np.full(len(self.joints), np.nan)
        out[self.robot_index] = np.asarray(sdk_values, dtype=float)[:len(self.robot_index)]
        return out

    def to_sdk(self, robot_values: Sequence[float]) -> np.ndarray:
        return np.asarray(robot_values, dtype=float)[self.robot_index]


def sdk_position_limits() -> tuple[np.ndarray, np.ndarray]:
    """go1_const.h's table per SDK motor: (low, high)."""
    lo = np.array([GO1_POSITION_LIMITS[j][0] for _ in SDK_LEGS for j in SDK_JOINTS])
    hi = np.array([GO1_POSITION_LIMITS[j][1] for _ in SDK_LEGS for j in SDK_JOINTS])
    return lo, hi
