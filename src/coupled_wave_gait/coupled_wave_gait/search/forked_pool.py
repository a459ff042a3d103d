"""Forked worker processes that hold one resident callable (an evaluator built once) and call it
per item: the search's multiprocessing path and zoo_bringup's ``process`` engine share them.
Workers ignore Ctrl-C (the driver's to handle) and exit when the driver dies (kill -9)."""
from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, Callable

_RESIDENT: Callable[[Any], Any] | None = None  # the callable inside a worker process


def _watch_parent(ppid: int) -> None:
    while True:
        time.sleep(1.0)
        if os.getppid() != ppid:  # the driver died (e.g. kill -9): do not linger
            os._exit(1)


def _init(resident: Callable[[Any], Any], ppid: int) -> None:
    global _RESIDENT
    _RESIDENT = resident
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    threading.Thread(target=_watch_parent, args=(ppid,), daemon=True).start()


def call_resident(item: Any) -> Any:
    """Submit this with the item: runs the worker's resident callable on it."""
    return _RESIDENT(item)


def _noop() -> None:
    pass


def forked_pool(resident: Callable[[Any], Any], workers: int) -> ProcessPoolExecutor:
    """``workers`` forked processes holding ``resident``, all forked before this returns (before
    a progress bar starts its thread); interrupted while forking, none is left behind."""
    pool = ProcessPoolExecutor(workers, mp_context=get_context('fork'), initializer=_init,
                               initargs=(resident, os.getpid()))
    try:
        pool.submit(_noop).result()
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    return pool
