"""Keyboard teleop as pure logic: which key moves which joint (specs/nao.md §10.2).

The seed had one keyboard program per joint group; here one teleop switches between groups with
the digit keys. In every group the same four key pairs move up to four joints, as the seed's
ankle program did: ``w``/``s`` = first joint +/-, ``a``/``d`` = second, ``i``/``k`` = third,
``j``/``l`` = fourth (for the ankles: right pitch, right roll, left pitch, left roll). ``r`` sets
every joint back to 0 and ``q`` quits.
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

KEY_PAIRS = (('w', 's'), ('a', 'd'), ('i', 'k'), ('j', 'l'))

# The seed's six groups on the naoV40 joint names; None leaves a key pair unused.
NAO_GROUPS: dict[str, tuple[str | None, ...]] = {
    'neck': ('HeadPitch', 'HeadYaw', None, None),
    'shoulders': ('RShoulderPitch', 'RShoulderRoll', 'LShoulderPitch', 'LShoulderRoll'),
    'elbows': ('RElbowYaw', 'RElbowRoll', 'LElbowYaw', 'LElbowRoll'),
    'hips': ('RHipPitch', 'RHipRoll', 'LHipPitch', 'LHipRoll'),
    'knees': ('RKneePitch', None, 'LKneePitch', None),
    'ankles': ('RAnklePitch', 'RAnkleRoll', 'LAnklePitch', 'LAnkleRoll'),
}


class Teleop:
    def __init__(self, groups: Mapping[str, Sequence[str | None]], step: float,
                 limits: Mapping[str, tuple[float, float]] | None = None):
        if not groups or len(groups) > 9:
            raise ValueError(f'teleop groups: expected 1 to 9 groups, got {len(groups)}')
        for name, joints in groups.items():
            if len(joints) > len(KEY_PAIRS):
                raise ValueError(f"teleop group '{name}': at most {len(KEY_PAIRS)} joints, got "
                                 f'{len(joints)}')
        if not step > 0.0:
            raise ValueError(f'teleop step: expected > 0 rad, got {step}')
        self.groups = {g: tuple(j) for g, j in groups.items()}
        self.step = step
        self.limits = dict(limits or {})
        names = []
        for joints in self.groups.values():
            names += [j for j in joints if j is not None and j not in names]
        self.joints: tuple[str, ...] = tuple(names)
        self.targets = {j: 0.0 for j in self.joints}
        self.group = next(iter(self.groups))
        self.quit = False

    def press(self, key: str) -> str:
        """Apply one key; return a one-line description of what it did ('' if nothing)."""
        if key == 'q':
            self.quit = True
            return 'quit'
        if key == 'r':
            for j in self.targets:
                self.targets[j] = self._clamp(j, 0.0)
            return 'all joints to 0'
        if key.isdigit() and 1 <= int(key) <= len(self.groups):
            self.group = list(self.groups)[int(key) - 1]
            return f'group {self.group}'
        joints = self.groups[self.group]
        for slot, (plus, minus) in enumerate(KEY_PAIRS):
            if key in (plus, minus) and slot < len(joints) and joints[slot] is not None:
                j = joints[slot]
                delta = self.step if key == plus else -self.step
                self.targets[j] = self._clamp(j, self.targets[j] + delta)
                return f'{j} {self.targets[j]:+.3f} rad'
        return ''

    def _clamp(self, joint: str, value: float) -> float:
        lo, hi = self.limits.get(joint, (-math.inf, math.inf))
        return min(max(value, lo), hi)

    def help(self) -> str:
        lines = ['keys: ' + ', '.join(f'{i}={g}' for i, g in enumerate(self.groups, 1))
                 + ', r=all to 0, q=quit']
        for g, joints in self.groups.items():
            pairs = [f'{p}/{m} {j}' for (p, m), j in zip(KEY_PAIRS, joints) if j is not None]
            lines.append(f'  {g}: ' + ', '.join(pairs))
        return '\n'.join(lines)
