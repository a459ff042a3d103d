"""rclpy.callback_groups. The embedded executors run callbacks one at a time, so groups matter only
for coroutine callbacks: as in rclpy, a mutually exclusive group is held from the start of such a
callback until its coroutine ends, and the work of the group's other entities waits meanwhile
(ros2/rclpy jazzy rclpy/rclpy/executors.py, Executor._make_handler); a reentrant one never is."""
from __future__ import annotations

import weakref

__all__ = ['CallbackGroup', 'MutuallyExclusiveCallbackGroup', 'ReentrantCallbackGroup']


class CallbackGroup:
    _holds = False  # held while a coroutine callback of one of its entities runs
    _deferred: list | None = None  # the work waiting while held; None when not held

    def __init__(self):
        self._entities: weakref.WeakSet = weakref.WeakSet()

    def add_entity(self, entity) -> None:
        self._entities.add(entity)

    def has_entity(self, entity) -> bool:
        return entity in self._entities

    def can_execute(self, entity) -> bool:
        return self._deferred is None

    def beginning_execution(self, entity) -> bool:
        return self._deferred is None

    def ending_execution(self, entity) -> None:
        pass


class MutuallyExclusiveCallbackGroup(CallbackGroup):
    _holds = True


class ReentrantCallbackGroup(CallbackGroup):
    pass
