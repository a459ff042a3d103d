"""Queued work for entities that receive it (subscriptions, services, clients, guard
conditions).

Work is an *entry* ``[entity, payload, seq]`` (a list so it can be marked dropped in place).
``seq`` is the context-wide order of the publish/call that made it; a negative ``seq`` means the
entry was dropped (KEEP_LAST overflow) or already executed. While the entity's node is in an
executor, entries go straight to that executor's ready queue, which keeps global publish order;
otherwise they wait in the entity's own ``_parked`` queue until the node is added to one.
"""
from __future__ import annotations

from collections import deque

DROPPED = object()  # returned by _execute when an entry turned out to be stale


class Receiver:
    callback_group = None  # the entities set theirs

    def __init__(self, node, parked_maxlen: int | None = None):
        self._node = node
        self._executor = None
        self._parked: deque = deque(maxlen=parked_maxlen)
        self._inbox: deque = self._parked
        self._destroyed = False

    def _bind(self, executor) -> None:
        self._executor = executor
        self._inbox = executor._ready if executor is not None else self._parked

    def _take_parked(self) -> list:
        """Remove and return the live parked entries, oldest first."""
        taken = []
        parked = self._parked
        while parked:
            entry = parked.popleft()
            if entry[2] >= 0:
                taken.append(entry)
        return taken

    def _post(self, payload, seq: int) -> None:
        self._inbox.append([self, payload, seq])
        executor = self._executor
        if executor is not None and executor._waiters:
            executor._notify()

    def _execute(self, entry):
        raise NotImplementedError
