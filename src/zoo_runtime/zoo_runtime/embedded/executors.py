"""rclpy.executors: run the callbacks of a set of nodes.

Order is deterministic: due timers first (by due time, then creation order), then queued work in
global publish order (messages, service requests and responses, resumed tasks, guard
conditions). Callbacks always run sequentially in the spinning thread; MultiThreadedExecutor is
accepted for compatibility and behaves like SingleThreadedExecutor. A coroutine callback holds
its mutually exclusive group until it ends, as in rclpy (see callback_groups). Publishing from
another thread wakes a waiting executor through one Condition, taken only while it waits.
"""
from __future__ import annotations

import inspect
import threading
import time as _time
import warnings
from collections import deque

from .clock_type import ClockType
from .context import Context, get_default_context
from .inbox import DROPPED
from .task import Future, Task

__all__ = ['Executor', 'SingleThreadedExecutor', 'MultiThreadedExecutor', 'LockstepExecutor',
           'ShutdownException', 'ExternalShutdownException', 'TimeoutException']


class ShutdownException(Exception):
    """The executor was shut down."""


class ExternalShutdownException(Exception):
    """The context was shut down while spinning."""


class TimeoutException(Exception):
    """The executor timed out."""


class Executor:
    def __init__(self, *, context: Context | None = None):
        self._context = get_default_context() if context is None else context
        self._nodes: list = []
        self._nodes_lock = threading.RLock()
        self._ready: deque = deque()
        self._cond = threading.Condition(threading.Lock())
        self._waiters = 0
        self._woken = False
        self._is_shutdown = False
        self._timers: list = []
        self._timers_dirty = False
        self._seq = self._context._seq
        self._spin_thread: int | None = None
        self._context._register_executor(self)

    @property
    def context(self) -> Context:
        return self._context

    # -- nodes ----------------------------------------------------------------------------------
    def add_node(self, node) -> bool:
        with self._nodes_lock:
            if node in self._nodes:
                return False
            previous = node._executor
            if previous is not None:
                previous.remove_node(node)
            self._nodes.append(node)
            node._executor = self
            pending = []
            for receiver in node._receivers():
                receiver._bind(self)
                pending.extend(receiver._take_parked())
            if pending:
                self._merge(pending)
            self._timers_dirty = True
        self.wake()
        return True

    def _merge(self, pending: list) -> None:
        """Insert parked work into the ready queue, keeping global publish order."""
        ready = self._ready
        current = []
        while ready:
            current.append(ready.popleft())
        merged = sorted(current + pending, key=lambda entry: entry[2])
        ready.extendleft(reversed(merged))

    def remove_node(self, node) -> None:
        with self._nodes_lock:
            if node not in self._nodes:
                return
            self._nodes.remove(node)
            node._executor = None
            for receiver in node._receivers():
                receiver._bind(None)
            ready = self._ready
            keep = []
            while ready:
                entry = ready.popleft()
                if getattr(entry[0], '_node', None) is node:
                    if entry[2] >= 0:
                        entry[0]._parked.append(entry)
                else:
                    keep.append(entry)
            ready.extendleft(reversed(keep))
            self._timers_dirty = True

    def get_nodes(self) -> list:
        with self._nodes_lock:
            return list(self._nodes)

    # -- waking ---------------------------------------------------------------------------------
    def wake(self) -> None:
        """Make a waiting spin_once return (rclpy's guard condition)."""
        with self._cond:
            self._woken = True
            self._cond.notify_all()

    def _notify(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def _timers_changed(self) -> None:
        self._timers_dirty = True
        if self._waiters:
            self._notify()

    # -- tasks ----------------------------------------------------------------------------------
    def create_task(self, callback, *args, **kwargs) -> Task:
        """Run ``callback(*args, **kwargs)`` (a function or coroutine function) as a task."""
        task = Task(callback, args, kwargs, executor=self)
        self._schedule(task)
        return task

    def _schedule(self, task: Task) -> None:
        self._ready.append([task, None, next(self._seq)])
        if self._waiters:
            self._notify()

    def _finish(self, result, entity=None) -> None:
        """``entity``'s callback returned ``result``: if it is a coroutine, run it as a task now,
        holding the entity's mutually exclusive group until it ends."""
        if inspect.iscoroutine(result):
            if entity is not None and not inspect.iscoroutinefunction(entity.callback):
                _drop(result)
                return
            group = getattr(entity, 'callback_group', None)
            if group is not None and group._holds and group._deferred is None:
                result = self._holding(group, result)
            task = Task(result, executor=self)
            task._run_once_and_raise()

    async def _holding(self, group, coro):
        group._deferred = []
        try:
            return await coro
        finally:
            self._release(group)

    def _release(self, group) -> None:
        """The group's coroutine ended: its waiting work goes back, in publish order."""
        deferred, group._deferred = group._deferred, None
        mine = []
        for entry in deferred:
            if entry[0]._executor is self:
                mine.append(entry)
            else:  # its node moved meanwhile
                entry[0]._inbox.append(entry)
        if mine:
            self._merge(mine)
        self.wake()  # held timers may be due

    # -- shutdown -------------------------------------------------------------------------------
    def shutdown(self, timeout_sec: float | None = None) -> bool:
        self._is_shutdown = True
        for node in self.get_nodes():
            self.remove_node(node)
        self.wake()
        return True

    def _stopped(self) -> bool:
        return self._is_shutdown or not self._context.ok()

    # -- spinning -------------------------------------------------------------------------------
    def spin(self) -> None:
        while not self._stopped():
            self.spin_once()

    def spin_once(self, timeout_sec: float | None = None) -> None:
        """Run one ready callback, waiting up to ``timeout_sec`` (None: until there is one)."""
        self._spin_thread = threading.get_ident()
        try:
            if self._run_one() or timeout_sec == 0:
                return
            self._wait_and_run(timeout_sec)
        finally:
            self._spin_thread = None

    def spin_until_future_complete(self, future: Future, timeout_sec: float | None = None
                                   ) -> None:
        if future.done():
            return
        future.add_done_callback(lambda _f: self.wake())
        if timeout_sec is None or timeout_sec < 0:
            while not self._stopped() and not future.done():
                self.spin_once()
            return
        end = _time.monotonic() + timeout_sec
        while not self._stopped() and not future.done():
            remaining = end - _time.monotonic()
            if remaining <= 0:
                return
            self.spin_once(remaining)

    def spin_once_until_future_complete(self, future: Future,
                                        timeout_sec: float | None = None) -> None:
        future.add_done_callback(lambda _f: self.wake())
        self.spin_once(timeout_sec)

    def _run_one(self) -> bool:
        """Run the next ready callback, if any, without waiting."""
        if self._timers_dirty:
            self._collect_timers()
        if self._timers:
            timer = self._ready_timer()
            if timer is not None:
                result = timer._execute()
                if result is not None:
                    self._finish(result, timer)
                return True
        ready = self._ready
        while ready:
            entry = ready.popleft()
            entity = entry[0]
            group = entity.callback_group
            if group is not None and group._deferred is not None:
                group._deferred.append(entry)  # its group is held: runs when released
                continue
            result = entity._execute(entry)
            if result is not DROPPED:
                if result is not None:
                    self._finish(result, entity)
                return True
        return False

    def _wait_and_run(self, timeout_sec: float | None) -> None:
        deadline = None if timeout_sec is None or timeout_sec < 0 else \
            _time.monotonic() + timeout_sec
        while not self._stopped():
            wait = self._wall_wait_sec()
            if deadline is not None:
                remaining = deadline - _time.monotonic()
                if remaining <= 0:
                    return
                wait = remaining if wait is None else min(wait, remaining)
            with self._cond:
                self._waiters += 1
                try:
                    if not self._ready and not self._woken:
                        self._cond.wait(None if wait is None else max(wait, 0.0))
                    woken, self._woken = self._woken, False
                finally:
                    self._waiters -= 1
            if self._run_one() or woken:
                return

    # -- timers ---------------------------------------------------------------------------------
    def _collect_timers(self) -> None:
        self._timers_dirty = False
        with self._nodes_lock:
            timers = [t for node in self._nodes for t in node._timers]
        timers.sort(key=lambda t: t._order)
        self._timers = timers

    def _ready_timer(self):
        """The ready timer with the earliest due time (creation order breaks ties)."""
        best, best_due = None, 0
        for timer in self._timers:
            if timer._canceled or _held(timer):
                continue
            due = timer._next_call
            if timer._clock._now_ns() >= due and (best is None or due < best_due):
                best, best_due = timer, due
        return best

    def _wall_wait_sec(self) -> float | None:
        """Seconds until the next timer on a wall clock is due (sim-time timers become due
        through /clock messages, which wake the executor anyway)."""
        if self._timers_dirty:
            self._collect_timers()
        wait = None
        for timer in self._timers:
            clock = timer._clock
            if timer._canceled or _held(timer) or (clock.clock_type == ClockType.ROS_TIME and
                                                   clock._active):
                continue
            remaining = (timer._next_call - clock._now_ns()) / 1e9
            wait = remaining if wait is None else min(wait, remaining)
        return wait


def _drop(coro) -> None:
    """rclpy awaits a callback only when it is a coroutine function (executors.py,
    await_or_execute); a coroutine a plain function returns is never run."""
    warnings.warn(f'coroutine {coro.__qualname__!r} returned by a plain callback is never '
                  'awaited (rclpy awaits only callbacks defined with async def)', RuntimeWarning,
                  stacklevel=2)
    coro.close()


def _held(timer) -> bool:
    group = timer.callback_group
    return group is not None and group._deferred is not None


class SingleThreadedExecutor(Executor):
    pass


class MultiThreadedExecutor(Executor):
    """Accepted for compatibility; runs callbacks sequentially in the spinning thread."""

    def __init__(self, num_threads: int | None = None, *, context: Context | None = None,
                 timeout_sec: float | None = None):
        super().__init__(context=context)
        self._num_threads = num_threads


def __getattr__(name: str):
    if name == 'LockstepExecutor':  # defined in lockstep.py, which imports this module
        from .lockstep import LockstepExecutor
        return LockstepExecutor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
