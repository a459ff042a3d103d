"""rclpy.publisher.

Publishing hands the message object itself to every connected subscription (no copy, no
serialization), as ROS 2 intra-process communication does: do not mutate a message after
publishing it. Publishing is safe from any thread; it wakes the executor if it is waiting.
"""
from __future__ import annotations

from collections import deque

from ._msgs import type_name_of
from .qos import QoSProfile

__all__ = ['Publisher']


class Publisher:
    def __init__(self, node, msg_type, topic_name: str, qos_profile: QoSProfile,
                 callback_group=None, event_callbacks=None, *, context=None):
        self._node = node  # None for the lockstep executor's /clock publisher
        self._context = node.context if context is None else context
        self._seq = self._context._seq
        self.msg_type = msg_type
        self._accept = msg_type  # the type publish() takes as is; None once destroyed
        self._type_name = type_name_of(msg_type)
        self.topic_name = topic_name
        self.qos_profile = qos_profile
        self.callback_group = callback_group
        self.event_callbacks = event_callbacks
        self._targets: tuple = ()
        self._history: deque | None = None
        if qos_profile._transient_local:
            self._history = deque(maxlen=None if qos_profile._keep_all
                                  else qos_profile._queue_depth)
        self._destroyed = False
        self._graph = self._context._graph
        self._count_version = -1  # get_subscription_count's cache, valid for one graph version
        self._count = 0

    @property
    def topic(self) -> str:
        return self.topic_name

    @property
    def handle(self):
        return self

    def publish(self, msg) -> None:
        # the per-message path: attributes read once into locals, nothing allocated but the
        # queue entry (one per subscription)
        if type(msg) is not self._accept:
            msg = self._coerce(msg)
        observers = self._context._publish_observers
        if observers:
            topic = self.topic_name
            for observe in observers:
                observe(topic, msg)
        if self._history is not None:
            self._history.append(msg)
        targets = self._targets
        if not targets:
            return
        seq = next(self._seq)
        for sub in targets:  # Subscription._deliver, inlined: every message of every tick
            entry = [sub, msg, seq]
            window = sub._window
            if window is not None:  # (Subscription._window: KEEP_LAST)
                if len(window) == sub._depth:
                    oldest = window.popleft()  # falls out of the KEEP_LAST queue
                    oldest[2] = -1
                    oldest[1] = None
                window.append(entry)
            sub._inbox.append(entry)
            executor = sub._executor
            if executor is not None and executor._waiters:
                executor._notify()

    def _coerce(self, msg):
        if self._destroyed:
            raise RuntimeError(f"publisher on '{self.topic_name}' was destroyed")
        if isinstance(msg, self.msg_type):
            return msg
        if isinstance(msg, (bytes, bytearray, memoryview)):
            from zoo_runtime.messages import deserialize
            return deserialize(bytes(msg), self._type_name)
        raise TypeError(f"publisher on '{self.topic_name}' expects {self._type_name}, got "
                        f'{type(msg).__module__}.{type(msg).__qualname__}')

    def get_subscription_count(self) -> int:
        """Subscriptions on the topic, and publish observers that want it (a bag recorder).
        Cached until the graph changes: nodes ask this before every state message they build."""
        graph = self._graph
        version = graph.version
        if version != self._count_version:
            self._count = (graph.count(self.topic_name, 'subscriptions') +
                           self._context.observer_count(self.topic_name))
            self._count_version = version
        return self._count

    def assert_liveliness(self) -> None:
        pass

    def wait_for_all_acked(self, timeout=None) -> bool:
        return True

    def destroy(self) -> None:
        if self._node is not None:
            self._node.destroy_publisher(self)
        else:
            self._destroy()

    def _destroy(self) -> None:
        self._context._graph.remove_publisher(self)
        self._destroyed = True
        self._accept = None

    def __enter__(self) -> Publisher:
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()
