"""rclpy.utilities: default context helpers and ``remove_ros_args``."""
from __future__ import annotations

from .arguments import remove_ros_args
from .context import Context, get_default_context

__all__ = ['get_default_context', 'remove_ros_args', 'ok', 'try_shutdown', 'timeout_sec_to_nsec']


def ok(*, context: Context | None = None) -> bool:
    return (get_default_context() if context is None else context).ok()


def try_shutdown(*, context: Context | None = None) -> None:
    if context is None:
        context = get_default_context(shutting_down=True)
    context.try_shutdown()


def timeout_sec_to_nsec(timeout_sec: float | None) -> int:
    """rclpy's convention: None or negative means forever (-1)."""
    if timeout_sec is None or timeout_sec < 0:
        return -1
    return round(timeout_sec * 1e9)
