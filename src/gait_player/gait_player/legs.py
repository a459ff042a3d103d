"""Timed protocols: a gait played as a fixed sequence of legs, each a generator sampled for a
number of ticks, one command per tick on ``joint_targets`` (the snake's R25 protocol: 4 s
forward, 4 s reversed; an angle file is one leg). No reset, no walk evaluation: an optional
observer measures each leg from a topic, and the run ends when the legs are done.

A gait registers a :class:`LegProtocol` entry: the player declares the gait's own parameters
from the gait's schema part and calls ``plan(values, node_name)`` with their values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from .generator import GaitGenerator


class LegObserver(Protocol):
    """Measures the legs from messages of ``msg_type`` on ``topic``."""
    topic: str
    msg_type: type

    def on_message(self, msg: Any, leg: int, n_legs: int) -> None: ...
    def begin_leg(self, leg: int) -> None: ...           # before the leg's first command
    def end_leg(self, kind: str) -> dict: ...            # after its last: the leg's record


@dataclass
class Leg:
    kind: str                  # e.g. 'forward', 'reversed', 'file'
    generator: GaitGenerator   # played by sample_rad(tick)
    ticks: int


@dataclass
class LegPlan:
    name: str                  # what summary.json calls the gait
    joints: Sequence[str]
    legs: list[Leg]
    interval: float            # s between two commands
    observer: LegObserver | None = None


@dataclass(frozen=True)
class LegProtocol:
    """A registry entry: ``plan(values, node_name) -> LegPlan`` from the values of the
    parameters of its schema part ``parameters`` (``(package, '_part')``, zoo_runtime's
    parameter_schema; declared on the player); a ValueError whose message names the node and
    parameter for what cannot be played."""
    plan: Callable[[dict, str], LegPlan]
    parameters: tuple[str, str]


class LegPlayback:
    """The player's side of a :class:`LegPlan`: publishes each tick's targets (``publish(joints,
    positions)``) and keeps the per-leg records for summary.json."""

    def __init__(self, plan: LegPlan, publish: Callable[[Sequence[str], list], None]):
        self.plan = plan
        self._publish = publish
        self.tick, self.leg, self.leg_tick = 0, 0, 0
        self.records: list[dict] = []

    def on_message(self, msg) -> None:
        self.plan.observer.on_message(msg, self.leg, len(self.plan.legs))

    def step(self) -> None:
        if self.finished():
            return
        leg = self.plan.legs[self.leg]
        if self.leg_tick == 0 and self.plan.observer is not None:
            self.plan.observer.begin_leg(self.leg)
        target = leg.generator.sample_rad(self.leg_tick)
        self._publish(self.plan.joints, [float(a) for a in target])
        self.tick += 1
        self.leg_tick += 1
        if self.leg_tick >= leg.ticks:
            observer = self.plan.observer
            self.records.append(observer.end_leg(leg.kind) if observer else {'leg': leg.kind})
            self.leg += 1
            self.leg_tick = 0

    def finished(self) -> bool:
        return self.leg >= len(self.plan.legs)

    def metrics(self) -> dict:
        return {'gait': self.plan.name, 'goal_updates': self.tick, 'legs': self.records,
                'finished': self.finished()}
