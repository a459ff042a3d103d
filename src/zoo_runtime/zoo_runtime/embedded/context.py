"""rclpy.context: one embedded ROS "process": its arguments, graph, and shutdown state.

Besides rclpy's API it offers the hooks the bag recorder uses: publish observers, the type of a
topic, and the simulated time of a lockstep executor driving this context.
"""
from __future__ import annotations

import itertools
import threading
import weakref
from typing import Callable, Iterable

from .arguments import RosArguments, parse_arguments
from .graph import Graph

__all__ = ['Context', 'get_default_context']


class Context:
    def __init__(self):
        self._lock = threading.RLock()
        self._initialized = False
        self._shut_down = False
        self._shutdown_callbacks: list = []
        self._arguments = RosArguments()
        self._domain_id = 0
        self._graph = Graph()
        self._seq = itertools.count()     # global order of published work
        self._order = itertools.count()   # creation order of timers
        self._publish_observers: tuple = ()
        self._observer_handles: dict[int, Callable] = {}
        self._observer_topics: dict[int, frozenset | None] = {}
        self._next_handle = itertools.count(1)
        self._executors: list[weakref.ref] = []
        self._lockstep: weakref.ref | None = None

    # -- rclpy API ------------------------------------------------------------------------------
    def init(self, args: list[str] | None = None, *, initialize_logging: bool = True,
             domain_id: int | None = None) -> None:
        with self._lock:
            if self._initialized:
                raise RuntimeError('Context.init() must only be called once')
            self._arguments = parse_arguments(args)
            self._arguments.apply_log_levels()
            if domain_id is not None:
                self._domain_id = int(domain_id)
            self._initialized = True

    def ok(self) -> bool:
        return self._initialized and not self._shut_down

    def shutdown(self) -> None:
        with self._lock:
            if not self._initialized:
                raise RuntimeError('Context must be initialized before it can be shutdown')
            if self._shut_down:
                raise RuntimeError('Context.shutdown() was already called')
            self._shut_down = True
        self._call_shutdown_callbacks()

    def try_shutdown(self) -> None:
        with self._lock:
            if not self.ok():
                return
            self._shut_down = True
        self._call_shutdown_callbacks()

    def on_shutdown(self, callback: Callable[[], None]) -> None:
        if not callable(callback):
            raise TypeError('on_shutdown: callback must be callable')
        with self._lock:
            if not self._shut_down:
                self._shutdown_callbacks.append(callback)
                return
        callback()

    def get_domain_id(self) -> int:
        return self._domain_id

    def destroy(self) -> None:
        self.try_shutdown()

    def _call_shutdown_callbacks(self) -> None:
        callbacks, self._shutdown_callbacks = self._shutdown_callbacks, []
        for ref in list(self._executors):
            executor = ref()
            if executor is not None:
                executor.wake()
        for callback in callbacks:
            callback()

    def _register_executor(self, executor) -> None:
        self._executors = [r for r in self._executors if r() is not None]
        self._executors.append(weakref.ref(executor))

    # -- hooks for recording (helper B's BagRecorder) ------------------------------------------
    def add_publish_observer(self, fn: Callable[[str, object], None],
                             topics: Iterable[str] | None = None) -> int:
        """Call ``fn(topic, msg)`` synchronously on every publish in this context, before the
        message is delivered. ``topics``: the topics it wants (None: every topic); it counts as a
        subscriber of those (``Publisher.get_subscription_count``, as a ros2 bag recorder is one),
        so publishers that build messages only for an audience build them for it. Returns a
        handle for :meth:`remove_publish_observer`."""
        if not callable(fn):
            raise TypeError('add_publish_observer: fn must be callable')
        with self._lock:
            handle = next(self._next_handle)
            self._observer_handles[handle] = fn
            self._observer_topics[handle] = None if topics is None else frozenset(topics)
            self._publish_observers = tuple(self._observer_handles.values())
            self._graph.version += 1  # subscription counts changed
        return handle

    def observer_count(self, topic: str) -> int:
        """How many publish observers want ``topic``."""
        return sum(1 for t in self._observer_topics.values() if t is None or topic in t)

    def remove_publish_observer(self, handle: int) -> None:
        with self._lock:
            if handle not in self._observer_handles:
                raise KeyError(f'remove_publish_observer: unknown handle {handle!r}')
            del self._observer_handles[handle]
            del self._observer_topics[handle]
            self._publish_observers = tuple(self._observer_handles.values())
            self._graph.version += 1

    def topic_type(self, topic: str) -> str | None:
        """'pkg/msg/Type' of the publishers on ``topic`` (fully qualified), None if none."""
        t = self._graph.topics.get(topic)
        return t.type_name if t is not None and t.publishers else None

    def sim_time_ns(self) -> int | None:
        """Simulated time of the lockstep executor driving this context, else None."""
        executor = self._lockstep() if self._lockstep is not None else None
        return executor.now_ns if executor is not None else None


_default_context: Context | None = None
_default_lock = threading.Lock()


def get_default_context(*, shutting_down: bool = False) -> Context:
    """The process-wide context; a fresh one is made after the previous one was shut down."""
    global _default_context
    with _default_lock:
        if _default_context is None:
            _default_context = Context()
        context = _default_context
        if shutting_down:
            _default_context = None
        return context
