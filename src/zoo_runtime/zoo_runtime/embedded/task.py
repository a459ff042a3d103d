"""rclpy.task: Future and Task.

A Future completes once. Done callbacks run as executor tasks when the future knows its executor
(set when an executor completes it, e.g. a service response), else immediately in the thread that
completes it. ``await future`` inside a coroutine callback suspends the Task, which the executor
resumes as soon as the future completes (no polling).
"""
from __future__ import annotations

import inspect
import threading
import weakref
from enum import Enum
from typing import Any, Callable

__all__ = ['Future', 'Task', 'FutureState']


class FutureState(Enum):
    PENDING = 'PENDING'
    CANCELLED = 'CANCELLED'
    FINISHED = 'FINISHED'


class Future:
    def __init__(self, *, executor=None):
        self._state = FutureState.PENDING
        self._result: Any = None
        self._exception: BaseException | None = None
        self._exception_fetched = False
        self._callbacks: list[Callable[[Future], None]] = []
        self._wakers: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._executor = None
        if executor is not None:
            self._set_executor(executor)

    def __await__(self):
        while self._state == FutureState.PENDING:
            yield self
        return self.result()

    def __del__(self):
        if self._exception is not None and not self._exception_fetched:
            import sys
            print(f'The following exception was never retrieved: {self._exception!r}',
                  file=sys.stderr)

    def cancel(self) -> None:
        self._finish(FutureState.CANCELLED, None, None)

    def cancelled(self) -> bool:
        return self._state == FutureState.CANCELLED

    def done(self) -> bool:
        return self._state != FutureState.PENDING

    def result(self):
        if self._exception is not None:
            self._exception_fetched = True
            raise self._exception
        return self._result

    def exception(self) -> BaseException | None:
        self._exception_fetched = True
        return self._exception

    def set_result(self, result) -> None:
        self._finish(FutureState.FINISHED, result, None)

    def set_exception(self, exception: BaseException) -> None:
        self._finish(FutureState.FINISHED, None, exception)

    def _finish(self, state: FutureState, result, exception) -> bool:
        with self._lock:
            if self._state != FutureState.PENDING:
                return False
            self._result = result
            self._exception = exception
            self._state = state
            callbacks, self._callbacks = self._callbacks, []
            wakers, self._wakers = self._wakers, []
        for wake in wakers:
            wake()
        for callback in callbacks:
            self._dispatch(callback)
        return True

    def _dispatch(self, callback: Callable[[Future], None]) -> None:
        executor = self._executor() if self._executor is not None else None
        if executor is not None:
            executor.create_task(callback, self)
        else:
            callback(self)

    def _set_executor(self, executor) -> None:
        self._executor = weakref.ref(executor)

    def add_done_callback(self, callback: Callable[[Future], None]) -> None:
        with self._lock:
            if self._state == FutureState.PENDING:
                self._callbacks.append(callback)
                return
        self._dispatch(callback)

    def remove_done_callback(self, callback: Callable[[Future], None]) -> bool:
        with self._lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)
                return True
        return False

    def _add_waker(self, wake: Callable[[], None]) -> None:
        """Call ``wake()`` (no executor hop) when this future completes."""
        with self._lock:
            if self._state == FutureState.PENDING:
                self._wakers.append(wake)
                return
        wake()


class Task(Future):
    """Runs a function or coroutine function in an executor; the task's result is its return
    value. A coroutine runs step by step, resuming when the future it awaits completes."""

    callback_group = None  # a resumed task runs whatever group its callback holds

    def __init__(self, handler, args=None, kwargs=None, executor=None):
        super().__init__(executor=executor)
        self._handler = handler
        self._args = args or ()
        self._kwargs = kwargs or {}
        self._coro = None
        self._executing = False

    def executing(self) -> bool:
        return self._executing

    def __call__(self) -> None:
        """Run the task until it finishes or awaits an unfinished future."""
        if self.done() or self._executing:
            return
        self._executing = True
        try:
            if self._coro is None:
                handler = self._handler
                self._handler = None
                if inspect.iscoroutine(handler):
                    self._coro = handler
                elif inspect.iscoroutinefunction(handler):
                    self._coro = handler(*self._args, **self._kwargs)
                else:
                    result = handler(*self._args, **self._kwargs)
                    if not inspect.iscoroutine(result):
                        self.set_result(result)
                        return
                    self._coro = result
            self._step()
        except BaseException as e:  # noqa: B902 - the task owns its handler's failure
            self.set_exception(e)
        finally:
            self._executing = False

    def _run_once_and_raise(self) -> None:
        """Run one turn; a failure that finishes the task propagates (as rclpy's spin does)."""
        was_done = self.done()
        self()
        if not was_done and self._exception is not None:
            raise self.exception()

    def _execute(self, entry) -> None:
        """Executor queue hook: ``entry`` asks to resume this task."""
        self._run_once_and_raise()

    def _step(self) -> None:
        try:
            awaited = self._coro.send(None)
        except StopIteration as stop:
            self.set_result(stop.value)
            return
        executor = self._executor() if self._executor is not None else None
        if executor is None:
            raise RuntimeError('a coroutine Task awaited a future but has no executor to '
                               'resume it')
        if isinstance(awaited, Future):
            awaited._add_waker(lambda: executor._schedule(self))
        else:  # a bare ``yield``: try again on the next turn, as rclpy does
            executor._schedule(self)
