"""A kinematic double of the HOAP-2 for fast tests (spec hoap2.md R17): a unicycle that
executes the navigator's primitives with a fixed displacement per forward stride, turns about a
pivot (the body centre, or the HOAP-2's turned sole), and optional Gaussian heading noise per
primitive (seeded)."""
from __future__ import annotations

import math

import numpy as np

from . import steering
from .navigator import FORWARD, Command, Navigator, pivot_turn


class KinematicRobot:
    def __init__(self, pose, stride: float = 0.05, turn_pivot=(0.0, 0.0),
                 heading_noise_deg: float = 0.0, seed: int = 0):
        self.pose = tuple(float(v) for v in pose)
        self.stride = stride
        self.turn_pivot = turn_pivot
        self.sigma = math.radians(heading_noise_deg)
        self.rng = np.random.default_rng(seed)
        self.trace = [self.pose]

    def _noise(self) -> float:
        return float(self.rng.normal(0.0, self.sigma)) if self.sigma > 0 else 0.0

    def execute(self, cmd: Command) -> None:
        x, y, yaw = self.pose
        if cmd.kind == FORWARD:
            x, y = x + self.stride * math.cos(yaw), y + self.stride * math.sin(yaw)
            self.pose = (x, y, steering.wrap(yaw + self._noise()))
        else:
            x, y, yaw = pivot_turn(self.pose, cmd.angle, self.turn_pivot)
            self.pose = (x, y, steering.wrap(yaw + self._noise()))
        self.trace.append(self.pose)


def drive(nav: Navigator, robot: KinematicRobot, max_primitives: int = 5000) -> list[Command]:
    """Run the navigator on the double until it stops; the commands it issued."""
    cmds = []
    for _ in range(max_primitives):
        cmd = nav.step(robot.pose)
        if cmd is None:
            break
        cmds.append(cmd)
        robot.execute(cmd)
    return cmds
