"""rclpy.clock: system, steady and ROS clocks, time jumps and sleeping on a clock.

A ROS clock reads the system time until ROS time is activated (``use_sim_time``); from then on it
reads the override that the node's time source sets from ``/clock``. Jump callbacks fire when the
override moves by more than a threshold or when ROS time is switched on or off, as in rcl.
"""
from __future__ import annotations

import threading
import time as _time
from enum import IntEnum
from typing import Callable

from .clock_type import ClockType
from .duration import Duration
from .time import Time

__all__ = ['Clock', 'ROSClock', 'ClockType', 'ClockChange', 'JumpThreshold', 'TimeJump',
           'JumpHandle']


class ClockChange(IntEnum):
    ROS_TIME_NO_CHANGE = 1
    ROS_TIME_ACTIVATED = 2
    ROS_TIME_DEACTIVATED = 3
    SYSTEM_TIME_NO_CHANGE = 4


class JumpThreshold:
    """Which jumps to report: forward by at least ``min_forward``, backward by at least
    ``min_backward`` (a negative duration), and/or ROS time being switched on or off."""

    def __init__(self, *, min_forward: Duration | None, min_backward: Duration | None,
                 on_clock_change: bool = True):
        if min_forward is not None and min_forward.nanoseconds <= 0:
            raise ValueError('JumpThreshold: min_forward must be a positive duration')
        if min_backward is not None and min_backward.nanoseconds >= 0:
            raise ValueError('JumpThreshold: min_backward must be a negative duration')
        self.min_forward = min_forward
        self.min_backward = min_backward
        self.on_clock_change = on_clock_change

    def _matches(self, delta_ns: int, change: ClockChange) -> bool:
        if change in (ClockChange.ROS_TIME_ACTIVATED, ClockChange.ROS_TIME_DEACTIVATED):
            return self.on_clock_change
        if self.min_forward is not None and delta_ns >= self.min_forward.nanoseconds:
            return True
        return self.min_backward is not None and delta_ns <= self.min_backward.nanoseconds


class TimeJump:
    def __init__(self, clock_change: ClockChange, delta: Duration):
        self.clock_change = clock_change
        self.delta = delta


class JumpHandle:
    def __init__(self, *, clock: Clock, threshold: JumpThreshold,
                 pre_callback: Callable[[], None] | None,
                 post_callback: Callable[[TimeJump], None] | None):
        self._clock = clock
        self.threshold = threshold
        self.pre_callback = pre_callback
        self.post_callback = post_callback

    def unregister(self) -> None:
        if self._clock is not None:
            self._clock._jump_handles.remove(self)
            self._clock._handles_changed()
            self._clock = None

    def __enter__(self) -> JumpHandle:
        return self

    def __exit__(self, *exc) -> None:
        self.unregister()


class Clock:
    """A clock of one :class:`ClockType`; ``Clock(clock_type=ROS_TIME)`` is a :class:`ROSClock`."""

    def __new__(cls, *, clock_type: ClockType = ClockType.SYSTEM_TIME):
        if cls is Clock and clock_type == ClockType.ROS_TIME:
            cls = ROSClock
        return super().__new__(cls)

    def __init__(self, *, clock_type: ClockType = ClockType.SYSTEM_TIME):
        if not isinstance(clock_type, ClockType):
            raise TypeError(f'Clock: clock_type must be a ClockType, got {clock_type!r}')
        self._clock_type = clock_type
        self._jump_handles: list[JumpHandle] = []
        # the handles that want forward jumps, kept apart: every /clock message moves ROS time
        # forward, and timers register handles for backward jumps only. Thresholds count as
        # given at registration, as in rcl.
        self._forward_handles: tuple[JumpHandle, ...] = ()
        if clock_type == ClockType.STEADY_TIME:
            self._now_ns = _time.monotonic_ns
        elif clock_type != ClockType.ROS_TIME:
            self._now_ns = _time.time_ns

    @property
    def clock_type(self) -> ClockType:
        return self._clock_type

    def __repr__(self) -> str:
        return f'Clock(clock_type={self._clock_type.name})'

    def now(self) -> Time:
        return Time._from_ns(self._now_ns(), self._clock_type)

    def create_jump_callback(self, threshold: JumpThreshold, *,
                             pre_callback: Callable[[], None] | None = None,
                             post_callback: Callable[[TimeJump], None] | None = None
                             ) -> JumpHandle:
        if pre_callback is not None and not callable(pre_callback):
            raise ValueError('create_jump_callback: pre_callback must be callable')
        if post_callback is not None and not callable(post_callback):
            raise ValueError('create_jump_callback: post_callback must be callable')
        handle = JumpHandle(clock=self, threshold=threshold, pre_callback=pre_callback,
                            post_callback=post_callback)
        self._jump_handles.append(handle)
        self._handles_changed()
        return handle

    def _handles_changed(self) -> None:
        self._forward_handles = tuple(h for h in self._jump_handles
                                      if h.threshold.min_forward is not None)

    def _wait_until_ns(self, until_ns: int, context) -> bool:
        while True:
            if context is not None and not context.ok():
                return False
            remaining = until_ns - self._now_ns()
            if remaining <= 0:
                return True
            _time.sleep(min(remaining / 1e9, 0.1))

    def sleep_until(self, until: Time, context=None) -> bool:
        """Block until the clock reaches ``until``; False if the context shut down first."""
        if not isinstance(until, Time):
            raise TypeError(f'sleep_until: expected a Time, got {type(until).__name__}')
        if until.clock_type != self._clock_type:
            raise ValueError(f'sleep_until: time of clock type {until.clock_type.name} on a '
                             f'{self._clock_type.name} clock')
        if context is None:
            from .context import get_default_context
            context = get_default_context()
        return self._wait_until_ns(until.nanoseconds, context)

    def sleep_for(self, rel: Duration, context=None) -> bool:
        return self.sleep_until(self.now() + rel, context)


class ROSClock(Clock):
    """ROS time: system time, or the ``/clock`` override once ROS time is active."""

    def __init__(self, **_clock_type):
        super().__init__(clock_type=ClockType.ROS_TIME)
        self._active = False
        self._override_ns = 0
        self._cond = threading.Condition()
        self._sleepers = 0

    def _now_ns(self) -> int:
        return self._override_ns if self._active else _time.time_ns()

    @property
    def ros_time_is_active(self) -> bool:
        return self._active

    def _set_ros_time_is_active(self, enabled: bool) -> None:
        enabled = bool(enabled)
        if enabled == self._active:
            return
        change = ClockChange.ROS_TIME_ACTIVATED if enabled else ClockChange.ROS_TIME_DEACTIVATED
        before = self._now_ns()
        handles = [h for h in self._jump_handles if h.threshold._matches(0, change)]
        for h in handles:
            if h.pre_callback is not None:
                h.pre_callback()
        self._active = enabled
        self._jumped(handles, change, self._now_ns() - before)

    def set_ros_time_override(self, time: Time) -> None:
        if not isinstance(time, Time):
            raise TypeError(f'set_ros_time_override: expected a Time, got {type(time).__name__}')
        self._set_override_ns(time.nanoseconds)

    def _set_override_ns(self, ns: int) -> None:
        delta = ns - self._override_ns
        if not self._active or delta == 0 or (delta > 0 and not self._forward_handles) or \
                not self._jump_handles:
            self._override_ns = ns  # (no threshold matches a zero jump or an unwatched one)
        else:
            # runs on every /clock message: the thresholds are read inline, not via _matches
            if delta > 0:
                handles = [h for h in self._forward_handles
                           if delta >= h.threshold.min_forward.nanoseconds]
            else:
                handles = [h for h in self._jump_handles if h.threshold.min_backward is not None
                           and delta <= h.threshold.min_backward.nanoseconds]
            for h in handles:
                if h.pre_callback is not None:
                    h.pre_callback()
            self._override_ns = ns
            self._jumped(handles, ClockChange.ROS_TIME_NO_CHANGE, delta)
        if self._sleepers:
            with self._cond:
                self._cond.notify_all()

    def _jumped(self, handles: list[JumpHandle], change: ClockChange, delta_ns: int) -> None:
        if handles:
            jump = TimeJump(change, Duration(nanoseconds=delta_ns))
            for h in handles:
                if h.post_callback is not None:
                    h.post_callback(jump)

    def _wait_until_ns(self, until_ns: int, context) -> bool:
        if not self._active:
            return super()._wait_until_ns(until_ns, context)
        with self._cond:
            self._sleepers += 1
            try:
                while self._active and self._override_ns < until_ns:
                    if context is not None and not context.ok():
                        return False
                    self._cond.wait(0.1)
            finally:
                self._sleepers -= 1
        return self._override_ns >= until_ns or super()._wait_until_ns(until_ns, context)
