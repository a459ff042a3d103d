"""What moves an emulated servo: goal register in, present position/velocity/load registers out.

``KinematicPlant``: in memory, each servo turns toward its goal at the no-load speed (AX-12 59 rpm,
spec §3.5) or the speed register's cap if lower, while its torque is on and its torque limit is
not 0 (no load in memory: any torque moves it, none leaves it where it is). ``JointsPlant``: the
simulated robot's joints; the ROS side (``sim_link_node``) publishes the goals of servos with
torque on on ``/<robot>/joint_targets`` and fills the present values from
``/<robot>/joint_states``, and the servos' torque enable, speed and torque limits on
``/<robot>/servo_settings`` (torque off: the simulated joint is limp). Both are shared between the
bus thread and their owner: one lock.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Protocol

from ..control_table import Model

NO_LOAD_SPEED_RAD_S = 59 * 2 * math.pi / 60  # AX-12 at 12 V (spec §3.5)


class Plant(Protocol):
    def set_goal(self, servo_id: int, value: int) -> None: ...
    def set_torque(self, servo_id: int, on: bool) -> None: ...
    def set_speed_limit(self, servo_id: int, rad_s: float | None) -> None:
        """The speed register's cap; None: the motor's own top speed."""
    def set_torque_limit(self, servo_id: int, fraction: float) -> None:
        """The torque limit as a fraction of the maximum torque (0: no torque)."""
    def present(self, servo_id: int) -> tuple[int, int, int] | None:
        """(position, velocity, load) register values; None: keep the registers as they are."""
    def now(self) -> float:
        """Seconds on the plant's own clock (the simulation's, for simulated joints)."""


class KinematicPlant:
    def __init__(self, model: Model, ids: list[int], clock=time.monotonic) -> None:
        self.model = model
        self._clock = clock
        self._lock = threading.Lock()
        centre = float(model.position_centre)
        self._pos = {i: centre for i in ids}
        self._goal = {i: centre for i in ids}
        self._torque = {i: False for i in ids}
        self._vel = {i: 0.0 for i in ids}
        self._t = clock()
        self._top_speed = NO_LOAD_SPEED_RAD_S / model.rad_per_step  # steps per second
        self._speed = {i: self._top_speed for i in ids}
        self._has_torque = {i: True for i in ids}  # torque limit > 0

    def _advance(self) -> None:
        now = self._clock()
        dt, self._t = now - self._t, now
        if dt <= 0:  # the same instant: keep the last velocities
            return
        for i, p in self._pos.items():
            err = self._goal[i] - p if self._torque[i] and self._has_torque[i] else 0.0
            reach = self._speed[i] * dt
            self._pos[i] = p + max(-reach, min(reach, err))
            # the velocity now, not the interval's mean: 0 once the goal is reached
            self._vel[i] = math.copysign(self._speed[i], err) if abs(err) > reach else 0.0

    def set_goal(self, servo_id: int, value: int) -> None:
        with self._lock:
            self._advance()
            self._goal[servo_id] = float(value)

    def set_torque(self, servo_id: int, on: bool) -> None:
        with self._lock:
            self._advance()
            self._torque[servo_id] = on

    def set_speed_limit(self, servo_id: int, rad_s: float | None) -> None:
        with self._lock:
            self._advance()
            cap = self._top_speed if rad_s is None else rad_s / self.model.rad_per_step
            self._speed[servo_id] = min(cap, self._top_speed)

    def set_torque_limit(self, servo_id: int, fraction: float) -> None:
        with self._lock:
            self._advance()
            self._has_torque[servo_id] = fraction > 0

    def now(self) -> float:
        return self._clock()

    def present(self, servo_id: int) -> tuple[int, int, int] | None:
        with self._lock:
            self._advance()
            m = self.model
            vel = m.rad_s_to_velocity(self._vel[servo_id] * m.rad_per_step)
            return int(round(self._pos[servo_id])), vel, 0


class JointsPlant:
    """Servo ids mapped to joint names; goals kept for the ROS side, states taken from it."""

    def __init__(self, model: Model, joint_of: dict[int, str]) -> None:
        self.model = model
        self.joint_of = dict(joint_of)
        self._lock = threading.Lock()
        self._goals: dict[str, float] = {}
        self._states: dict[str, tuple[float, float, float]] = {}
        self._wanted: dict[str, float] = {}  # goal registers written, rad
        self._on: set[str] = set()  # joints whose servo has torque on
        self._stamp = 0.0
        self.goal_version = 0
        # per joint [torque enable, speed cap rad/s (0: none), torque limit fraction]
        self._settings: dict[str, list] = {}
        self.settings_version = 0

    # bus side
    def set_goal(self, servo_id: int, value: int) -> None:
        """A goal goes out only while torque is on; written with torque off it waits in the
        register and the servo turns to it when torque comes on (as an AX-12 does)."""
        with self._lock:
            joint = self.joint_of[servo_id]
            self._wanted[joint] = self.model.position_to_rad(value)
            if joint in self._on:
                self._send(joint, self._wanted[joint])

    def set_torque(self, servo_id: int, on: bool) -> None:
        """Torque off leaves the simulated joint limp (servo_settings); torque on again turns it
        to the goal register, or holds it where it now is if no goal was ever written."""
        with self._lock:
            joint = self.joint_of[servo_id]
            self._setting(joint, 0, on)
            if not on:
                self._on.discard(joint)
                return
            self._on.add(joint)
            if joint in self._wanted:
                self._send(joint, self._wanted[joint])
            elif joint in self._states:
                self._send(joint, self._states[joint][0])

    def set_speed_limit(self, servo_id: int, rad_s: float | None) -> None:
        with self._lock:
            self._setting(self.joint_of.get(servo_id), 1, 0.0 if rad_s is None else rad_s)

    def set_torque_limit(self, servo_id: int, fraction: float) -> None:
        with self._lock:
            self._setting(self.joint_of.get(servo_id), 2, fraction)

    def _setting(self, joint: str | None, column: int, value) -> None:
        if joint is None:  # a servo with no joint (told at power-on): its bus reads fail, one line
            return
        row = self._settings.setdefault(joint, [False, 0.0, 1.0])  # power-on: torque off
        if row[column] != value:
            row[column] = value
            self.settings_version += 1

    def _send(self, joint: str, rad: float) -> None:
        self._goals[joint] = rad
        self.goal_version += 1

    def present(self, servo_id: int) -> tuple[int, int, int] | None:
        with self._lock:
            state = self._states.get(self.joint_of[servo_id])
        if state is None:
            return None
        m = self.model
        return m.rad_to_position(state[0]), m.rad_s_to_velocity(state[1]), \
            m.effort_to_load(state[2])

    def now(self) -> float:
        """The stamp of the latest joint states: sim time, which lags the wall under load."""
        return self._stamp

    # ROS side
    def update_states(self, names, positions, velocities, efforts, stamp: float = 0.0) -> None:
        with self._lock:
            self._stamp = stamp
            for k, name in enumerate(names):
                vel = velocities[k] if k < len(velocities) else 0.0
                eff = efforts[k] if k < len(efforts) else 0.0
                self._states[name] = (float(positions[k]), float(vel), float(eff))

    def goals(self) -> tuple[int, dict[str, float]]:
        with self._lock:
            return self.goal_version, dict(self._goals)

    def settings(self) -> tuple[int, dict[str, tuple[bool, float, float]]]:
        """(version, {joint: (torque enable, speed cap rad/s, torque limit fraction)})."""
        with self._lock:
            return self.settings_version, {j: tuple(v) for j, v in self._settings.items()}
