"""Orientation and error control as pure functions (spec hoap2.md §6, R5, R12-R14)."""
from __future__ import annotations

import math

MAX_TURN = 0.7854          # rad per turn primitive (spec §3.3, R13)
NODE_EQUAL_EPS = 1e-5      # m (spec §4.2, R5)


def wrap(angle: float) -> float:
    """Into (-pi, pi] (spec §10 item 6)."""
    a = math.fmod(angle + math.pi, 2.0 * math.pi)
    if a <= 0.0:
        a += 2.0 * math.pi
    return a - math.pi


def heading_to(p, q) -> float:
    return math.atan2(q[1] - p[1], q[0] - p[0])


def turn_to(pose, target) -> float:
    """Turn (rad, CCW positive) that faces ``target`` from ``pose`` = (x, y, yaw)."""
    return wrap(heading_to(pose, target) - pose[2])


def split_turn(turn: float, max_turn: float = MAX_TURN) -> list[float]:
    """Greedy: full primitives of ``max_turn``, then the remainder, all with the turn's sign
    (spec §10 item 10). 0 gives no primitive."""
    sign = 1.0 if turn >= 0.0 else -1.0
    rest = abs(turn)
    out = []
    while rest > max_turn + 1e-12:
        out.append(sign * max_turn)
        rest -= max_turn
    if rest > 1e-12:
        out.append(sign * rest)
    return out


def cross_track(p_ini, p_dest, p) -> tuple[float, float]:
    """(error, lambda): distance from ``p`` to its projection p_ini + lambda v on the line
    p_ini -> p_dest (spec §6.2, R14)."""
    vx, vy = p_dest[0] - p_ini[0], p_dest[1] - p_ini[1]
    norm2 = vx * vx + vy * vy
    if norm2 == 0.0:
        return math.dist(p_ini[:2], p[:2]), 0.0
    lam = (vx * (p[0] - p_ini[0]) + vy * (p[1] - p_ini[1])) / norm2
    return math.hypot(p[0] - p_ini[0] - lam * vx, p[1] - p_ini[1] - lam * vy), lam


def nodes_equal(a, b, eps: float = NODE_EQUAL_EPS) -> bool:
    return all(abs(u - v) < eps for u, v in zip(a, b))
