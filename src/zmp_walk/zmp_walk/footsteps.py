"""Footsteps, swing-foot paths and the ZMP reference of a straight walk (plain numpy).

Time line (from the start of the walk): ``crouch_time`` bending the knees, ``shift_time``
standing, then steps. Step k (right foot first) is a double support (the ZMP moves from the
stance foot it leaves to the new one) followed by a single support (the other foot swings to
``step_length`` ahead of the stance foot; the first step half that). The swing foot stays
parallel to the ground; its height rises and falls as ``sin^2`` half-waves that meet at the top,
``swing_peak`` of the swing (:func:`swing_height`), so it leaves and lands with zero vertical
speed, and it moves forward on a quintic
(zero speed and acceleration at both ends). Positions are of the sole frames (``l_sole``,
``r_sole``), in a world frame whose origin is midway between the soles at the start.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .params import ZmpWalkParams

FEET = ('L', 'R')


def quintic(s):
    """0 -> 1 with zero first and second derivatives at both ends (``s`` clipped to 0..1)."""
    s = np.clip(s, 0.0, 1.0)
    return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s)


def swing_height(u: float, peak: float) -> float:
    """0 -> 1 -> 0 over the swing (``u`` 0..1), the top at ``peak``: a sin^2 half-wave rising to
    the top and another falling from it, so the foot leaves and lands with zero vertical speed and
    turns over smoothly whatever ``peak`` (with 0.5 it is sin^2(pi u))."""
    if u < peak:
        return math.sin(0.5 * math.pi * u / peak) ** 2
    return math.sin(0.5 * math.pi * (1.0 - u) / (1.0 - peak)) ** 2


@dataclass(frozen=True)
class Step:
    start: float        # double support begins
    lift_off: float     # single support begins: the swing foot leaves
    touch_down: float   # the swing foot lands (the next step's double support begins)
    swing: str          # 'L' or 'R'
    x_from: float
    x_to: float


class Footsteps:
    def __init__(self, p: ZmpWalkParams, sole_center_x: float):
        self.p = p
        self.sole_center_x = sole_center_x  # the sole patch's centre ahead of the sole frame
        steps, x = [], {'L': 0.0, 'R': 0.0}
        t = p.crouch_time + p.shift_time
        swing = 'R'
        for k in range(p.plan_steps):
            other = 'L' if swing == 'R' else 'R'
            target = x[other] + (p.step_length / 2 if k == 0 else p.step_length)
            steps.append(Step(t, t + p.double_support, t + p.step_time, swing, x[swing], target))
            x[swing] = target
            t += p.step_time
            swing = other
        self.steps = steps
        self.end = t

    def side_y(self, foot: str) -> float:
        return self.p.foot_y if foot == 'L' else -self.p.foot_y

    def foot(self, foot: str, t: float) -> np.ndarray:
        """Sole position of ``foot`` at time ``t``."""
        x, z = 0.0, 0.0
        for s in self.steps:
            if s.swing != foot:
                continue
            if t >= s.touch_down:
                x = s.x_to
                continue
            if t > s.lift_off:
                u = (t - s.lift_off) / (s.touch_down - s.lift_off)
                x = s.x_from + (s.x_to - s.x_from) * float(quintic(u))
                z = self.p.lift * swing_height(u, self.p.swing_peak)
            break
        return np.array([x, self.side_y(foot), z])

    def stance_x(self, foot: str, t: float) -> float:
        return float(self.foot(foot, t)[0])

    def zmp_reference(self, ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The ZMP reference (x, y) at times ``ts``: midway between the feet until the first step,
        under the stance foot in single support (``zmp_x`` ahead of its sole centre, ``zmp_y``
        from the midline), moving linearly between the feet in double support."""
        p, cx = self.p, self.sole_center_x + self.p.zmp_x
        px = np.full(ts.shape, cx)
        py = np.zeros(ts.shape)
        prev = (cx, 0.0)
        for s in self.steps:
            stance = 'L' if s.swing == 'R' else 'R'
            cur = (self.stance_x(stance, s.start) + cx, p.zmp_y if stance == 'L' else -p.zmp_y)
            ds = (ts >= s.start) & (ts < s.lift_off)
            w = (ts[ds] - s.start) / (s.lift_off - s.start)
            px[ds] = prev[0] + (cur[0] - prev[0]) * w
            py[ds] = prev[1] + (cur[1] - prev[1]) * w
            after = ts >= s.lift_off
            px[after], py[after] = cur
            prev = cur
        return px, py

    def left_share(self, t: float, zmp_y: float) -> float:
        """The left foot's share of the ground reaction, from where the ZMP reference lies
        between the feet; a foot in the air carries nothing."""
        if self.foot('L', t)[2] > 0.0:
            return 0.0
        if self.foot('R', t)[2] > 0.0:
            return 1.0
        if self.p.zmp_y == 0.0:
            return 0.5
        return float(np.clip((zmp_y + self.p.zmp_y) / (2.0 * self.p.zmp_y), 0.0, 1.0))
