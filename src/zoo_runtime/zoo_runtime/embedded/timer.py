"""rclpy.timer: periodic callbacks on a clock, with rcl_timer's arithmetic.

The next call is always ``previous + period`` (no drift); missed periods are skipped. A timer on a
ROS clock keeps its phase when ROS time is switched on or off and restarts after a backward jump.
Timers are run by the executor of their node, ordered by due time, then creation order.
"""
from __future__ import annotations

from typing import Callable

from .clock import Clock, ClockChange, JumpThreshold, TimeJump
from .clock_type import ClockType
from .duration import Duration

__all__ = ['Timer', 'Rate']


class Timer:
    def __init__(self, callback: Callable | None, callback_group, timer_period_ns: int,
                 clock: Clock, *, context=None, autostart: bool = True, node=None, order: int = 0):
        if timer_period_ns < 0:
            raise ValueError(f'timer period must be >= 0 s, got {timer_period_ns * 1e-9} s')
        self.callback = callback
        self.callback_group = callback_group
        self._clock = clock
        self._context = context
        self._node = node
        self._order = order  # creation order, the tie-break between equally due timers
        self._period = int(timer_period_ns)
        now = clock._now_ns()
        self._last_call = now
        self._next_call = now + self._period
        self._canceled = not autostart
        self._destroyed = False
        self._jump_handle = None
        if clock.clock_type == ClockType.ROS_TIME:
            self._jump_handle = clock.create_jump_callback(
                JumpThreshold(min_forward=None, min_backward=Duration(nanoseconds=-1),
                              on_clock_change=True),
                pre_callback=self._before_jump, post_callback=self._after_jump)
        self._until_next_before_jump = 0
        self._since_last_before_jump = 0

    # -- rclpy API ----------------------------------------------------------------------------
    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def handle(self):
        return self

    @property
    def timer_period_ns(self) -> int:
        return self._period

    @timer_period_ns.setter
    def timer_period_ns(self, value: int) -> None:
        self._period = int(value)
        self._next_call = self._last_call + self._period
        self._wake()

    def is_ready(self) -> bool:
        return not self._canceled and self._clock._now_ns() >= self._next_call

    def is_canceled(self) -> bool:
        return self._canceled

    def cancel(self) -> None:
        self._canceled = True

    def reset(self) -> None:
        now = self._clock._now_ns()
        self._last_call = now
        self._next_call = now + self._period
        self._canceled = False
        self._wake()

    def time_since_last_call(self) -> int:
        return self._clock._now_ns() - self._last_call

    def time_until_next_call(self) -> int | None:
        if self._canceled:
            return None
        return self._next_call - self._clock._now_ns()

    def destroy(self) -> None:
        if self._node is not None:
            self._node.destroy_timer(self)
        else:
            self._destroy()

    def __enter__(self) -> Timer:
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()

    # -- runtime internals --------------------------------------------------------------------
    def _destroy(self) -> None:
        self._destroyed = True
        self._canceled = True
        if self._jump_handle is not None:
            self._jump_handle.unregister()
            self._jump_handle = None

    def _wake(self) -> None:
        executor = self._node.executor if self._node is not None else None
        if executor is not None:
            executor._timers_changed()

    def _due_ns(self) -> int | None:
        """Next call time on this timer's clock, None while canceled."""
        return None if self._canceled else self._next_call

    def _call(self) -> None:
        """Account for one firing at the current clock time (rcl_timer_call)."""
        now = self._clock._now_ns()
        self._last_call = now
        period = self._period
        nxt = self._next_call + period
        if nxt < now:
            nxt = now if period == 0 else nxt + (1 + (now - nxt - 1) // period) * period
        self._next_call = nxt

    def _execute(self):
        """Fire: returns the callback's result (a coroutine for async callbacks)."""
        # _call(), inline (every timer firing of every tick comes here)
        now = self._clock._now_ns()
        self._last_call = now
        period = self._period
        nxt = self._next_call + period
        if nxt < now:
            nxt = now if period == 0 else nxt + (1 + (now - nxt - 1) // period) * period
        self._next_call = nxt
        callback = self.callback
        return None if callback is None else callback()

    def _before_jump(self) -> None:
        now = self._clock._now_ns()
        self._until_next_before_jump = self._next_call - now
        self._since_last_before_jump = now - self._last_call

    def _after_jump(self, jump: TimeJump) -> None:
        now = self._clock._now_ns()
        if jump.clock_change in (ClockChange.ROS_TIME_ACTIVATED,
                                 ClockChange.ROS_TIME_DEACTIVATED):
            self._next_call = now + self._until_next_before_jump
            self._last_call = now - self._since_last_before_jump
        elif now < self._last_call:
            self._next_call = now + self._period
            self._last_call = now
        self._wake()


class Rate:
    """Sleeps so that a loop runs at a fixed frequency on a clock. Independent of executors,
    but a clock driven by /clock only advances while its node is spun in another thread."""

    def __init__(self, timer: Timer, *, context):
        self._timer = timer
        self._context = context

    def sleep(self) -> None:
        from .exceptions import ROSInterruptException
        timer = self._timer
        if timer._destroyed or (self._context is not None and not self._context.ok()):
            raise ROSInterruptException()
        if not timer._clock._wait_until_ns(timer._next_call, self._context):
            raise ROSInterruptException()
        timer._call()

    def destroy(self) -> None:
        self._timer._destroy()
