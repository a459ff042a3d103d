"""rclpy.guard_condition: a callback run by the executor each time ``trigger()`` is called."""
from __future__ import annotations

from .inbox import DROPPED, Receiver

__all__ = ['GuardCondition']


class GuardCondition(Receiver):
    def __init__(self, node, callback, callback_group):
        super().__init__(node)
        self._seq = node.context._seq
        self.callback = callback
        self.callback_group = callback_group

    def trigger(self) -> None:
        self._post(None, next(self._seq))

    def _execute(self, entry):
        if entry[2] < 0 or self._destroyed:
            return DROPPED
        entry[2] = -1
        return None if self.callback is None else self.callback()

    def destroy(self) -> None:
        self._node.destroy_guard_condition(self)

    def _destroy(self) -> None:
        self._destroyed = True
        self._parked.clear()
