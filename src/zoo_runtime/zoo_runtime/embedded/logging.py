"""rclpy.logging: named, hierarchical loggers printing rcutils' default console format.

Lines go to stderr as ``[LEVEL] [sec.nsec] [logger.name]: message`` (system time, like rcutils).
Levels are inherited along the dotted name hierarchy: setting ``a`` to DEBUG affects ``a.b`` unless
``a.b`` has its own level. ``once``, ``skip_first`` and ``throttle_duration_sec`` are tracked per
call site (file, line), as rclpy does.
"""
from __future__ import annotations

import sys
import threading
import time as _time
from enum import IntEnum

__all__ = ['LoggingSeverity', 'get_logger', 'set_logger_level', 'get_logger_effective_level',
           'RcutilsLogger', 'initialize', 'shutdown', 'clear_config']


class LoggingSeverity(IntEnum):
    UNSET = 0
    DEBUG = 10
    INFO = 20
    WARN = 30
    ERROR = 40
    FATAL = 50


_NAMES = {LoggingSeverity.DEBUG: 'DEBUG', LoggingSeverity.INFO: 'INFO',
          LoggingSeverity.WARN: 'WARN', LoggingSeverity.ERROR: 'ERROR',
          LoggingSeverity.FATAL: 'FATAL'}
_DEFAULT_LEVEL = LoggingSeverity.INFO
_levels: dict[str, LoggingSeverity] = {}
_lock = threading.Lock()
_KWARGS = ('throttle_duration_sec', 'throttle_time_source_type', 'skip_first', 'once')


def _severity(level) -> LoggingSeverity:
    if isinstance(level, str):
        try:
            return LoggingSeverity[level.strip().upper().replace('WARNING', 'WARN')]
        except KeyError:
            raise ValueError(f'unknown log level {level!r}: expected one of debug, info, warn, '
                             'error, fatal, unset') from None
    try:
        return LoggingSeverity(level)
    except ValueError:
        raise ValueError(f'unknown log level {level!r}: expected a LoggingSeverity') from None


def set_logger_level(name: str, level, detailed_error: bool = False) -> None:
    _levels[name] = _severity(level)


def get_logger_effective_level(name: str) -> LoggingSeverity:
    while True:
        level = _levels.get(name, LoggingSeverity.UNSET)
        if level != LoggingSeverity.UNSET:
            return level
        if not name:
            return _DEFAULT_LEVEL
        name = name.rpartition('.')[0]


def get_logger(name: str) -> RcutilsLogger:
    if not name:
        raise ValueError('get_logger: logger name must not be empty')
    return RcutilsLogger(name)


def initialize() -> None:
    pass


def shutdown() -> None:
    pass


def clear_config() -> None:
    """Forget every level set so far (the default level is INFO again)."""
    _levels.clear()


class _CallSite:
    __slots__ = ('calls', 'last_ns')

    def __init__(self):
        self.calls = 0
        self.last_ns: int | None = None


class RcutilsLogger:
    def __init__(self, name: str = ''):
        self.name = name
        self._sites: dict[tuple, _CallSite] = {}

    def get_child(self, name: str) -> RcutilsLogger:
        if not name:
            raise ValueError('get_child: child logger name must not be empty')
        return RcutilsLogger(f'{self.name}.{name}' if self.name else name)

    def set_level(self, level) -> None:
        set_logger_level(self.name, level)

    def get_effective_level(self) -> LoggingSeverity:
        return get_logger_effective_level(self.name)

    def is_enabled_for(self, severity) -> bool:
        return _severity(severity) >= get_logger_effective_level(self.name)

    def log(self, message, severity, **kwargs) -> bool:
        return self._log(message, _severity(severity), kwargs, sys._getframe(1))

    def _log(self, message, severity: LoggingSeverity, kwargs: dict, frame) -> bool:
        if severity < get_logger_effective_level(self.name):
            return False
        if kwargs and not self._filters_pass(kwargs, frame):
            return False
        sec, nsec = divmod(_time.time_ns(), 1_000_000_000)
        line = f'[{_NAMES[severity]}] [{sec}.{nsec:09d}] [{self.name}]: {message}\n'
        with _lock:
            sys.stderr.write(line)
        return True

    def _filters_pass(self, kwargs: dict, frame) -> bool:
        unknown = [k for k in kwargs if k not in _KWARGS]
        if unknown:
            raise TypeError(f'logger {self.name!r}: unsupported logging options {unknown}; '
                            f'expected some of {list(_KWARGS)}')
        key = (frame.f_code.co_filename, frame.f_lineno)
        site = self._sites.get(key)
        if site is None:
            site = self._sites[key] = _CallSite()
        site.calls += 1
        if kwargs.get('once') and site.calls > 1:
            return False
        if kwargs.get('skip_first') and site.calls == 1:
            return False
        period = kwargs.get('throttle_duration_sec')
        if period:
            clock = kwargs.get('throttle_time_source_type')
            now = clock.now().nanoseconds if clock is not None else _time.monotonic_ns()
            if site.last_ns is not None and now - site.last_ns < period * 1e9:
                return False
            site.last_ns = now
        return True

    def debug(self, message, **kwargs) -> bool:
        return self._log(message, LoggingSeverity.DEBUG, kwargs, sys._getframe(1))

    def info(self, message, **kwargs) -> bool:
        return self._log(message, LoggingSeverity.INFO, kwargs, sys._getframe(1))

    def warning(self, message, **kwargs) -> bool:
        return self._log(message, LoggingSeverity.WARN, kwargs, sys._getframe(1))

    warn = warning

    def error(self, message, **kwargs) -> bool:
        return self._log(message, LoggingSeverity.ERROR, kwargs, sys._getframe(1))

    def fatal(self, message, **kwargs) -> bool:
        return self._log(message, LoggingSeverity.FATAL, kwargs, sys._getframe(1))
