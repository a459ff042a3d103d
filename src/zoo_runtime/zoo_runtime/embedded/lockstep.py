"""LockstepExecutor: runs nodes and a physics engine on one simulated timeline.

A tick at sim time t:
1. if any work is due at t, every sim-time clock is set to t first: those of the nodes spun
   here directly, the rest through rosgraph_msgs/Clock(t) on /clock, published when anything
   beyond those nodes' time sources listens (a subscriber, a bag recorder);
2. run every timer due at <= t (by due time, then creation order) and drain all queued work
   (messages, service requests/responses, tasks), repeating until nothing is ready at t; work
   that never settles (an endless ping-pong) raises after ``MAX_ROUNDS`` rounds, naming the
   topics involved;
3. advance by n physics steps, n = steps to the next timer due time (at least 1, at most to the
   end), with one ``physics.advance(n)`` call, so quiet stretches cost one call.
No wall clock enters the results: same inputs, same outputs. ``real_time_factor`` > 0 only
sleeps to pace wall time (1.0 = real time).
"""
from __future__ import annotations

import operator
import threading
import time as _time
import weakref
from typing import Callable, Protocol

from ._msgs import message
from .clock_type import ClockType
from .context import Context
from .executors import Executor, _held
from .inbox import DROPPED
from .publisher import Publisher
from .subscription import Subscription
from .qos import QoSProfile
from .task import Future

__all__ = ['LockstepExecutor', 'Physics', 'MAX_ROUNDS']

MAX_ROUNDS = 1000          # rounds of callbacks allowed at one sim time
_PROGRESS_NS = 100_000_000  # on_progress at most every 0.1 s of sim time
_ROS_TIME = ClockType.ROS_TIME  # compared by identity on the per-tick paths


_due_order = operator.attrgetter('_next_call', '_order')  # (by due time, then creation order)


class Physics(Protocol):
    step_ns: int

    def advance(self, n_steps: int) -> None: ...


def _describe(entity) -> str:
    for attr in ('topic_name', 'service_name'):
        name = getattr(entity, attr, None)
        if name:
            return name
    return type(entity).__name__.lower()


class LockstepExecutor(Executor):
    def __init__(self, context: Context | None = None, step_ns: int = 1_000_000,
                 real_time_factor: float = 0.0, start_ns: int = 0):
        super().__init__(context=context)
        if not isinstance(step_ns, int) or step_ns <= 0:
            raise ValueError(f'LockstepExecutor: step_ns must be a positive int, got {step_ns!r}')
        if real_time_factor < 0:
            raise ValueError('LockstepExecutor: real_time_factor must be >= 0 (0 = as fast as '
                             f'possible), got {real_time_factor!r}')
        if not isinstance(start_ns, int) or start_ns < 0:
            raise ValueError(f'LockstepExecutor: start_ns must be an int >= 0, got {start_ns!r}')
        self._step_ns = step_ns
        self._rtf = float(real_time_factor)
        self._now = start_ns
        self._physics: Physics | None = None
        self._clock_pub = None
        self._clock_cls = self._time_cls = None
        self._last_clock_ns: int | None = None
        self._pace_origin: tuple[float, int] | None = None
        self._timer_groups: list[tuple] = []  # (clock, its timers), see _collect_timers
        self._next_timer = None  # the sim-time timer due first after the last _advance
        self._graph = self._context._graph
        self._time_sources: tuple = ()  # see _publish_clock
        self._clock_audience = False
        self._time_sources_key: int | None = None  # the graph version they were found at
        self._context._lockstep = weakref.ref(self)

    @property
    def now_ns(self) -> int:
        return self._now

    @property
    def step_ns(self) -> int:
        return self._step_ns

    def set_physics(self, physics: Physics) -> None:
        step = getattr(physics, 'step_ns', None)
        if not isinstance(step, int) or step <= 0 or not callable(getattr(physics, 'advance',
                                                                          None)):
            raise TypeError('LockstepExecutor.set_physics: physics needs an int step_ns > 0 and '
                            f'an advance(n_steps) method, got {physics!r}')
        self._physics = physics
        self._step_ns = step

    # -- spinning -------------------------------------------------------------------------------
    def spin_until(self, t_end_ns: int, on_progress: Callable[[int], None] | None = None
                   ) -> None:
        """Run ticks until sim time reaches ``t_end_ns`` (the tick at t_end runs too)."""
        t_end = int(t_end_ns)
        last_progress = self._now
        self._pace_origin = None
        context = self._context
        while True:
            self._work_at_now()
            if self._now >= t_end or self._is_shutdown or not context.ok():  # (_stopped())
                break
            self._advance(t_end)
            if on_progress is not None and self._now - last_progress >= _PROGRESS_NS:
                last_progress = self._now
                on_progress(self._now)
        if on_progress is not None and last_progress != self._now:
            on_progress(self._now)

    def spin_once(self, timeout_sec: float | None = None) -> None:
        """One tick: the work due now, then advance to the next timer due time."""
        self._work_at_now()
        self._advance(None)

    def spin(self) -> None:
        self._pace_origin = None
        while not self._stopped():
            self.spin_once()

    def spin_until_future_complete(self, future: Future, timeout_sec: float | None = None
                                   ) -> None:
        """Tick until ``future`` is done; ``timeout_sec`` counts simulated seconds."""
        end = None if timeout_sec is None or timeout_sec < 0 else \
            self._now + round(timeout_sec * 1e9)
        self._pace_origin = None
        while not self._stopped():
            self._work_at_now()
            if future.done() or (end is not None and self._now >= end):
                return
            self._advance(end)

    # -- one tick -------------------------------------------------------------------------------
    def _sim_timer(self, timer) -> bool:
        clock = timer._clock
        if clock._clock_type is _ROS_TIME and clock._active:
            return True
        if not getattr(timer, '_lockstep_warned', False):
            timer._lockstep_warned = True
            node = timer._node
            node.get_logger().warning(
                f'a {timer.timer_period_ns / 1e9:g} s timer of node '
                f"'{node.get_fully_qualified_name()}' runs on a {clock.clock_type.name} clock, "
                'not simulated time: the lockstep executor cannot schedule it (set '
                'use_sim_time: true)')
        return False

    def _collect_timers(self) -> None:
        super()._collect_timers()
        groups: dict[int, tuple] = {}
        for timer in self._timers:
            self._sim_timer(timer)
            groups.setdefault(id(timer._clock), (timer._clock, []))[1].append(timer)
        # timers grouped by clock (most share their node's): each scan of a tick reads each
        # clock once (a timer's clock never changes; its activation marks the timers dirty)
        self._timer_groups = [(clock, tuple(timers)) for clock, timers in groups.values()]
        self._next_timer = None

    def _due_timers(self) -> list:
        due = []
        for clock, timers in self._timer_groups:
            now = clock._now_ns()
            for timer in timers:
                if timer._next_call <= now and not timer._canceled and not _held(timer):
                    due.append(timer)
        if len(due) > 1:
            due.sort(key=_due_order)
        return due

    def _publish_clock(self, t: int) -> None:
        if self._clock_pub is None:
            self._clock_cls = message('rosgraph_msgs/msg/Clock')
            self._time_cls = message('builtin_interfaces/msg/Time')
            self._clock_pub = Publisher(None, self._clock_cls, '/clock', QoSProfile(depth=1),
                                        context=self._context)
            self._context._graph.add_publisher(self._clock_pub)
        # The time sources of the nodes spun here are set directly, as their /clock callback
        # would be (the same time, before any other work of the tick), instead of a message per
        # node and tick; the message itself is built only for an audience beyond them (another
        # subscriber, a bag recorder, a node of another executor).
        if self._time_sources_key != self._graph.version:
            self._find_time_sources()
        for source in self._time_sources:
            source._set_time_ns(t)
        if self._clock_audience:
            sec, nanosec = divmod(t, 1_000_000_000)
            self._clock_pub.publish(self._clock_cls(clock=self._time_cls(sec=sec,
                                                                         nanosec=nanosec)))
        self._last_clock_ns = t

    def _find_time_sources(self) -> None:
        """The active time sources whose /clock subscription this executor delivers."""
        with self._nodes_lock:
            sources = [getattr(node, '_time_source', None) for node in self._nodes]
        self._time_sources = tuple(
            s for s in sources if s is not None and s._subscription is not None and
            s._subscription._executor is self and not s._subscription._destroyed)
        # (subscription counts, publish observers included, change with the graph version)
        self._clock_audience = self._clock_pub.get_subscription_count() > len(self._time_sources)
        self._time_sources_key = self._graph.version

    def add_node(self, node) -> bool:
        self._time_sources_key = None  # (see _publish_clock)
        return super().add_node(node)

    def remove_node(self, node) -> None:
        self._time_sources_key = None
        super().remove_node(node)

    def _work_at_now(self) -> None:
        t = self._now
        self._spin_thread = threading.get_ident()
        try:
            if self._timers_dirty:
                self._collect_timers()
            if self._last_clock_ns != t and (self._ready or self._any_timer_due_at(t)):
                self._publish_clock(t)
            rounds = 0
            while True:
                if self._ready:
                    rounds = self._drain(t, rounds)
                if self._timers_dirty:
                    self._collect_timers()
                due = self._due_timers()
                if not due:
                    break
                rounds += 1
                if rounds > MAX_ROUNDS:
                    self._raise_unsettled(t, due)
                for timer in due:
                    if not timer._canceled and timer._next_call <= timer._clock._now_ns():
                        result = timer._execute()
                        if result is not None:
                            self._finish(result, timer)
        finally:
            self._spin_thread = None

    def _any_timer_due_at(self, t: int) -> bool:
        timer = self._next_timer  # the one _advance advanced to: usually due, checked first
        if timer is not None and not timer._canceled:
            clock = timer._clock
            if clock._clock_type is _ROS_TIME and clock._active and timer._next_call <= t:
                return True
        for clock, timers in self._timer_groups:
            now = t if clock._clock_type is _ROS_TIME and clock._active else clock._now_ns()
            for timer in timers:
                if timer._next_call <= now and not timer._canceled:
                    return True
        return False

    def _drain(self, t: int, rounds: int) -> int:
        """Run all queued work, round by round (a round is what was queued when it began)."""
        ready = self._ready
        while ready:
            rounds += 1
            if rounds > MAX_ROUNDS:
                self._raise_unsettled(t, [entry[0] for entry in ready if entry[2] >= 0])
            for _ in range(len(ready)):
                entry = ready.popleft()
                entity = entry[0]
                group = entity.callback_group
                if group is not None and group._deferred is not None:
                    group._deferred.append(entry)  # its group is held (see callback_groups)
                    continue
                if entity.__class__ is Subscription:  # Subscription._execute, inlined: the
                    msg = entry[1]                     # per-message path of every topic
                    if entry[2] < 0 or entity._destroyed:
                        continue
                    entry[2] = -1
                    entry[1] = None
                    window = entity._window
                    if window:  # (see Subscription._execute)
                        first = window.popleft()
                        if first is not entry:
                            window.appendleft(first)
                    result = entity._call(msg)
                else:
                    result = entity._execute(entry)
                if result is not None and result is not DROPPED:
                    self._finish(result, entity)
        return rounds

    def _raise_unsettled(self, t: int, entities: list) -> None:
        names: list[str] = []
        for entity in entities:
            name = _describe(entity)
            if name not in names:
                names.append(name)
        raise RuntimeError(
            f'LockstepExecutor: work at t={t / 1e9:.9f} s did not settle after {MAX_ROUNDS} '
            f'rounds of callbacks (endless ping-pong?) on: {", ".join(names[:10])}')

    def _advance(self, t_end: int | None) -> None:
        now, step = self._now, self._step_ns
        if self._timers_dirty:
            self._collect_timers()
        next_due = next_timer = None
        for clock, timers in self._timer_groups:
            if clock._clock_type is _ROS_TIME and clock._active:
                for timer in timers:
                    if not timer._canceled:
                        due = timer._next_call
                        if next_due is None or due < next_due:
                            next_due, next_timer = due, timer
        self._next_timer = next_timer
        n_max = None if t_end is None else max(1, (t_end - now) // step)
        if next_due is None:
            n = n_max if n_max is not None else 1
        else:
            n = max(1, -(-(next_due - now) // step))
            if n_max is not None:
                n = min(n, n_max)
        if self._physics is not None:
            self._physics.advance(n)
        self._now = now + n * step
        if self._rtf > 0:
            self._pace()

    def _pace(self) -> None:
        if self._pace_origin is None:
            self._pace_origin = (_time.monotonic(), self._now)
            return
        wall0, sim0 = self._pace_origin
        delay = wall0 + (self._now - sim0) / 1e9 / self._rtf - _time.monotonic()
        if delay > 0:
            _time.sleep(delay)

