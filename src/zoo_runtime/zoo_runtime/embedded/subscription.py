"""rclpy.subscription: a KEEP_LAST queue of ``depth`` messages per subscription (older ones
are dropped while the subscription is not spun), delivered in global publish order."""
from __future__ import annotations

from collections import deque

from ._msgs import type_name_of
from .inbox import DROPPED, Receiver
from .qos import DurabilityPolicy, QoSProfile

__all__ = ['Subscription']


class Subscription(Receiver):
    def __init__(self, node, msg_type, topic_name: str, callback, callback_group,
                 qos_profile: QoSProfile, raw: bool = False, event_callbacks=None):
        depth = None if qos_profile._keep_all else qos_profile._queue_depth
        super().__init__(node, parked_maxlen=depth)
        self._seq = node.context._seq
        self.msg_type = msg_type
        self._type_name = type_name_of(msg_type)
        self.topic_name = topic_name
        self.raw = raw
        self.callback = callback  # (sets _call: what _execute calls with the message)
        self.callback_group = callback_group
        self.qos_profile = qos_profile
        self.event_callbacks = event_callbacks
        self._depth = depth
        # KEEP_LAST: the entries posted and not yet run, oldest first, at most `depth`; a new
        # one beyond that drops the oldest. Entries run in post order, so the one run is the
        # first here and leaves at once (not `depth` posts later: run entries die when run).
        self._window: deque | None = deque(maxlen=depth) if depth is not None else None
        self._wants_history = qos_profile.durability in (DurabilityPolicy.TRANSIENT_LOCAL,
                                                         DurabilityPolicy.BEST_AVAILABLE)

    @property
    def topic(self) -> str:
        return self.topic_name

    @property
    def handle(self):
        return self

    @property
    def callback(self):
        return self._callback

    @callback.setter
    def callback(self, callback) -> None:
        self._callback = callback
        self._call = self._raw_call if self.raw else callback

    def _raw_call(self, msg):
        from zoo_runtime.messages import serialize
        return self._callback(serialize(msg))

    def _deliver(self, msg, seq: int) -> None:
        """Queue one message (the slow path, used for latched replays; Publisher.publish runs a
        copy of this inline)."""
        entry = [self, msg, seq]
        window = self._window
        if window is not None:
            if len(window) == self._depth:
                oldest = window.popleft()
                oldest[2] = -1
                oldest[1] = None
            window.append(entry)
        self._inbox.append(entry)
        executor = self._executor
        if executor is not None and executor._waiters:
            executor._notify()

    def _execute(self, entry):  # (LockstepExecutor._drain runs a copy of this inline)
        msg = entry[1]  # read before the seq check: a concurrent drop clears seq first
        if entry[2] < 0 or self._destroyed:
            return DROPPED
        entry[2] = -1
        entry[1] = None
        window = self._window
        if window:  # it leaves the KEEP_LAST queue (see __init__)
            first = window.popleft()
            if first is not entry:  # a post from another thread dropped it just now
                window.appendleft(first)
        return self._call(msg)

    def destroy(self) -> None:
        self._node.destroy_subscription(self)

    def _destroy(self) -> None:
        self._node.context._graph.remove_subscription(self)
        self._destroyed = True
        for entry in self._window or ():
            entry[2] = -1
        if self._window is not None:
            self._window.clear()
        self._parked.clear()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()
