"""The Dask side of :mod:`.dispatch` that needs ``distributed`` at import (the process engine
never imports it): the plugin holding the resident callable in each worker, and the task."""
from __future__ import annotations

import signal
import threading
from typing import Any, Callable

from distributed import WorkerPlugin, get_worker


class Resident(WorkerPlugin):
    """The resident callable of one run, set up in every worker (also one that joins later)."""

    def __init__(self, resident: Callable[[Any], Any], local: bool, quiet: bool):
        self.resident, self.local, self.quiet = resident, local, quiet

    def setup(self, worker) -> None:
        if self.local and threading.current_thread() is threading.main_thread():
            # a LocalCluster worker shares the driver's terminal: Ctrl-C is the driver's
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        if self.quiet:  # as the command hides node logs below warnings in its own process
            from zoo_runtime import rclpy
            rclpy.logging.set_logger_level('', 'warn')

    def teardown(self, worker) -> None:
        close = getattr(self.resident, 'close', None)
        if callable(close):
            close()


def call(plugin: str, item: Any) -> Any:
    """The task: the named run's resident callable on ``item``, in this worker."""
    return get_worker().plugins[plugin].resident(item)
