"""The navigation loop of the thesis' ``run`` (spec hoap2.md §6.3) as a pure state machine: call
:meth:`Navigator.step` with the ground-truth pose (the GPS and compass) whenever the robot is
idle; it answers with the next motion primitive (the ``mover(tipo, angulo)`` equivalent, R18) or
None when it has stopped (``status``: reached, no_path, aborted).

Per waypoint: turn toward it in primitives of at most 0.7854 rad, then forward strides; after
each stride, arrival within ``arrival_tolerance`` (0.15 m, intermediate and final waypoints,
R16) or, if the cross-track error from the segment line exceeds ``cross_track_max`` (0.01 m),
a re-orientation with the segment restarted at the current position (§6.2, R14, R15).
Additions: a replan from the current position when the robot is farther than
``replan_distance`` from the remaining path; ``turn_pivot`` (the point a turn primitive rotates
the body about, body frame, mirrored for right turns) makes a turn aim where the body will stand
after it: the HOAP-2's turns pivot on the turned sole (README, "Strides").
"""
from __future__ import annotations

import dataclasses
import math
from typing import Callable

from . import steering

FORWARD, TURN_POS, TURN_NEG = 'FORWARD', 'TURN_POS', 'TURN_NEG'
NAVIGATING, REACHED, NO_PATH, ABORTED = 'navigating', 'reached', 'no_path', 'aborted'
Point = tuple[float, float]
PlanFn = Callable[[Point], 'list[Point] | str']  # a path start -> goal, or why there is none


@dataclasses.dataclass(frozen=True)
class Command:
    kind: str
    angle: float = 0.0


@dataclasses.dataclass(frozen=True)
class NavParams:
    arrival_tolerance: float = 0.15   # m (spec §6.3, R16)
    cross_track_max: float = 0.01     # m (spec §6.2, R14)
    max_turn: float = steering.MAX_TURN
    replan_distance: float = 0.3      # m off the remaining path
    turn_pivot: Point = (0.0, 0.0)    # m, body frame, for a positive turn
    max_primitives: int = 2000


def pivot_turn(pose, angle: float, pivot: Point) -> tuple[float, float, float]:
    """The pose after one turn primitive about ``pivot`` (mirrored in y for negative turns)."""
    x, y, yaw = pose
    px, py = pivot[0], pivot[1] if angle >= 0.0 else -pivot[1]
    cx = x + math.cos(yaw) * px - math.sin(yaw) * py
    cy = y + math.sin(yaw) * px + math.cos(yaw) * py
    c, s = math.cos(angle), math.sin(angle)
    return (cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy),
            steering.wrap(yaw + angle))


def distance_to_polyline(p, pts: list[Point]) -> float:
    if len(pts) == 1:
        return math.dist(p[:2], pts[0])
    best = math.inf
    for a, b in zip(pts, pts[1:]):
        err, lam = steering.cross_track(a, b, p)
        best = min(best, err if 0.0 <= lam <= 1.0 else min(math.dist(p[:2], a),
                                                             math.dist(p[:2], b)))
    return best


class Navigator:
    def __init__(self, plan_fn: PlanFn, params: NavParams = NavParams()):
        self.plan_fn = plan_fn
        self.p = params
        self.status = NAVIGATING
        self.reason = ''
        self.path: list[Point] | None = None
        self.index = 0
        self.seg_start: Point | None = None
        self.pending: list[float] = []
        self.restart_segment = False
        self.corrections = 0
        self.replans = 0
        self.primitives = 0
        self.forward_steps = 0
        self.log: list[dict] = []  # per call: pose, waypoint, cross-track error, correction (R27)

    # -- planning -------------------------------------------------------------------------------
    def _plan(self, pose) -> bool:
        result = self.plan_fn((pose[0], pose[1]))
        if isinstance(result, str) or not result:
            self.status, self.reason = NO_PATH, result or 'no path'
            self.path = []
            return False
        self.path = [tuple(map(float, q)) for q in result]
        self.index = 0
        return True

    # -- the loop -------------------------------------------------------------------------------
    def step(self, pose) -> Command | None:
        """The next primitive for the robot at ``pose`` = (x, y, yaw), or None (stopped)."""
        if self.status != NAVIGATING:
            return None
        if self.path is None and not self._plan(pose):
            return None
        if self.pending:
            return self._issue_turn(self.pending.pop(0), pose)
        if self.restart_segment:  # strides start where the turns left the body
            self.seg_start, self.restart_segment = (pose[0], pose[1]), False
        new_target = self.seg_start is None
        while self.index < len(self.path) and \
                math.dist(pose[:2], self.path[self.index]) <= self.p.arrival_tolerance:
            self.index += 1
            new_target = True
        entry = {'pose': [float(v) for v in pose], 'waypoint': self.index, 'cross_track': 0.0,
                 'correction': False}
        self.log.append(entry)
        if self.index >= len(self.path):
            self.status = REACHED
            return None
        if self.primitives >= self.p.max_primitives:
            self.status, self.reason = ABORTED, f'{self.primitives} primitives without arriving'
            return None
        if distance_to_polyline(pose, self.path[max(self.index - 1, 0):]) > \
                self.p.replan_distance:
            self.replans += 1
            if not self._plan(pose):
                return None
            return self.step(pose)
        target = self.path[self.index]
        if not new_target:
            err, _ = steering.cross_track(self.seg_start, target, pose)
            entry['cross_track'] = err
            if err <= self.p.cross_track_max:
                return self._forward()
            self.corrections += 1
            entry['correction'] = True
        self.seg_start = (pose[0], pose[1])
        turns = steering.split_turn(self.aim(pose, target), self.p.max_turn)
        if not turns:
            return self._forward()
        self.pending = turns[1:]
        return self._issue_turn(turns[0], pose)

    def aim(self, pose, target: Point) -> float:
        """The turn after which the body faces ``target``, its pivot displacement included."""
        angle = steering.turn_to(pose, target)
        for _ in range(6):
            p = pose
            for a in steering.split_turn(angle, self.p.max_turn):
                p = pivot_turn(p, a, self.p.turn_pivot)
            angle = steering.wrap(steering.heading_to(p, target) - pose[2])
        return angle

    def _issue_turn(self, angle: float, pose) -> Command:
        self.primitives += 1
        self.restart_segment = True
        return Command(TURN_POS if angle >= 0.0 else TURN_NEG, angle)

    def _forward(self) -> Command:
        self.primitives += 1
        self.forward_steps += 1
        return Command(FORWARD)

    @property
    def target(self) -> Point | None:
        if self.path and self.index < len(self.path):
            return self.path[self.index]
        return None
