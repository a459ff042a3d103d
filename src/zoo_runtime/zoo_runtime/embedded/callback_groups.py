"""rclpy.callback_groups. Accepted for API compatibility: the embedded executors run every
callback sequentially, so both kinds behave as mutually exclusive."""
from __future__ import annotations

import weakref

__all__ = ['CallbackGroup', 'MutuallyExclusiveCallbackGroup', 'ReentrantCallbackGroup']


class CallbackGroup:
    def __init__(self):
        self._entities: weakref.WeakSet = weakref.WeakSet()

    def add_entity(self, entity) -> None:
        self._entities.add(entity)

    def has_entity(self, entity) -> bool:
        return entity in self._entities

    def can_execute(self, entity) -> bool:
        return True

    def beginning_execution(self, entity) -> bool:
        return True

    def ending_execution(self, entity) -> None:
        pass


class MutuallyExclusiveCallbackGroup(CallbackGroup):
    pass


class ReentrantCallbackGroup(CallbackGroup):
    pass
