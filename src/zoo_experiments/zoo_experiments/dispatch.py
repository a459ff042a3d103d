"""The one dispatcher: where candidates (a gait search) and points (a sweep) are evaluated, on
this process, worker processes of this machine, or Dask.

An engine runs one *resident* callable (a gait evaluator, a sweep's scenario runner) in each of
its workers, set up once per worker and reused for every item, and hands back one
``concurrent.futures.Future`` per submitted item. The driver (the search or sweep command) keeps
the journal: it is its only writer, and workers only evaluate.

- ``process``: a ``ProcessPoolExecutor`` of forked processes (:func:`forked_pool`); the resident
  callable reaches the workers by fork, so it may hold unpicklable state. Workers ignore Ctrl-C
  (the driver's to handle) and exit when the driver dies (kill -9). A search with one worker
  walks its candidates in this process instead (:class:`InProcessEngine`, no fork).
- ``dask``: a ``distributed.Client``, on a ``LocalCluster`` of ``workers`` processes (one thread
  each) by default, or on a running cluster at ``address`` (``tcp://host:8786``: ``dask scheduler``
  on one machine, ``dask worker tcp://host:8786`` on each, with this workspace installed and
  ``tools/env.sh`` sourced). The callable is pickled (cloudpickle) once into a ``WorkerPlugin``,
  which every worker, including one that joins later, sets up; a task names the plugin and the
  item. Results come back through ``Client.get_executor``'s ``concurrent.futures`` futures.

The drive loop (:func:`drive`) is the same for both: keep ``2 x slots`` items in flight, record
results in the order they finish (those finishing together in the order they were submitted;
each record is independent: the journals are sets), stop
dispatching on Ctrl-C or ``stop_event`` and record what is in flight before returning.

A kill of the driver loses what was in flight; the next run evaluates it. The workers do not
outlive the driver: forked ones watch their parent, LocalCluster's exit when the pipe to the
driver's nanny closes (dask/distributed, distributed/process.py:
``AsyncProcess._immediate_exit_when_closed``).
"""
from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context
from typing import Any, Callable, Iterator

ENGINES = ('process', 'dask')
CONNECT_TIMEOUT_S = 20.0


class EngineError(RuntimeError):
    pass


def make_engine(name: str = 'process', workers: int = 1, address: str | None = None,
                quiet: bool = True):
    """The engine ``name`` (``address`` means dask on that cluster). ``quiet``: node logs below
    warnings are hidden in dask's workers, as the command hides them in its own process."""
    if address and name == 'process':
        raise EngineError(f'--cluster {address}: needs --engine dask')
    if name == 'process':
        return ProcessEngine(workers)
    if name == 'dask':
        return DaskEngine(workers, address, quiet)
    raise EngineError(f'engine {name!r}: expected one of {", ".join(ENGINES)}')


# -- process ------------------------------------------------------------------------------------
class ProcessEngine:
    name = 'process'

    def __init__(self, workers: int):
        if workers < 1:
            raise EngineError(f'workers: expected >= 1, got {workers}')
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self, resident: Callable[[Any], Any]) -> None:
        self._pool = forked_pool(resident, self.workers)

    @property
    def slots(self) -> int:
        return self.workers

    def describe(self) -> str:
        return f'{self.workers} worker process' + ('es' if self.workers > 1 else '')

    def submit(self, item: Any) -> Future:
        return self._pool.submit(call_resident, item)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class InProcessEngine:
    """One slot, this process: each item is evaluated when submitted (a search's single worker,
    whose evaluator need not survive a fork). Ctrl-C while an item is evaluated leaves that item
    to the next run."""
    name = 'process'
    slots = 1

    def start(self, resident: Callable[[Any], Any]) -> None:
        self._resident = resident

    def describe(self) -> str:
        return 'this process'

    def submit(self, item: Any) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(self._resident(item))
        except Exception as e:  # surfaced with the item by drive(), as from a worker
            fut.set_exception(e)
        return fut

    def close(self) -> None:
        pass


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


# -- dask ---------------------------------------------------------------------------------------
class DaskEngine:
    name = 'dask'

    def __init__(self, workers: int = 1, address: str | None = None, quiet: bool = True):
        if address is None and workers < 1:
            raise EngineError(f'workers: expected >= 1, got {workers}')
        self.workers, self.address, self.quiet = workers, address, quiet
        self.client = self.cluster = self._executor = None
        self._plugin = f'robozoo-{uuid.uuid4().hex[:12]}'
        self._slots, self._slots_at = 1, -1e9

    def start(self, resident: Callable[[Any], Any]) -> None:
        import logging

        from distributed import Client, LocalCluster

        from .dask_plugin import Resident

        try:
            if self.address is None:
                # no dashboard; the scheduler's HTTP routes on any free port, not 8787, which
                # another cluster (or a second search) may hold
                self.cluster = LocalCluster(
                    n_workers=self.workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR,
                    scheduler_kwargs={'dashboard_address': '127.0.0.1:0'})
                self.client = Client(self.cluster)
            else:
                self.client = Client(self.address, timeout=CONNECT_TIMEOUT_S)
                self.client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as e:
            self.close()
            where = f'--cluster {self.address}' if self.address else 'dask LocalCluster'
            raise EngineError(f'{where}: {_one_line(e)}') from None
        except BaseException:
            self.close()
            raise
        try:
            self.client.register_plugin(
                Resident(resident, self.address is None, self.quiet), name=self._plugin)
        except BaseException:
            self.close()
            raise
        self._executor = self.client.get_executor(pure=False)

    @property
    def slots(self) -> int:
        """Threads of the cluster's workers (asked again every few seconds: workers may join)."""
        if time.monotonic() - self._slots_at > 5.0:
            self._slots = max(1, sum(self.client.nthreads().values()))
            self._slots_at = time.monotonic()
        return self._slots

    def describe(self) -> str:
        where = f'the Dask cluster at {self.address}' if self.address else 'a Dask LocalCluster'
        return f'{where} ({len(self.client.nthreads())} workers, {self.slots} threads)'

    def submit(self, item: Any) -> Future:
        from .dask_plugin import call
        return self._executor.submit(call, self._plugin, item)

    def close(self) -> None:
        if self.client is not None:
            try:
                if self.address is not None:  # a shared cluster: free our evaluators there
                    self.client.unregister_worker_plugin(self._plugin)
            except Exception:  # noqa: BLE001 - best effort on the way out
                pass
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


# -- the drive loop -----------------------------------------------------------------------------
def drive(engine, items: Iterator[Any] | Callable[[], Any], record: Callable[[Any, Any], None],
          stop_event: threading.Event | None = None,
          payload: Callable[[Any], Any] = lambda item: item) -> bool:
    """Submit items to ``engine`` and ``record(item, result)`` each as it finishes, until there is
    none left (``items``: an iterator, or a function returning the next item or None when none
    is ready; ``payload(item)`` is what travels to the worker) or a stop is asked (Ctrl-C,
    ``stop_event``): then what is in flight is recorded and True returned. A failed item
    raises :class:`ItemFailed` at once (what else was in flight is not recorded: the next run
    evaluates it)."""
    next_item = items if callable(items) else (lambda it=iter(items): next(it, None))
    inflight: dict[Future, Any] = {}
    order: dict[Future, int] = {}  # submission order, to record simultaneous results in it
    stopping = False
    while True:
        if stop_event is not None and stop_event.is_set():
            stopping = True
        try:
            while not stopping and len(inflight) < 2 * engine.slots:
                item = next_item()
                if item is None:
                    break
                fut = engine.submit(payload(item))
                inflight[fut], order[fut] = item, len(order)
            if not inflight:
                return stopping
            finished, _ = wait(list(inflight), timeout=0.5, return_when=FIRST_COMPLETED)
        except KeyboardInterrupt:
            stopping = True
            continue
        for fut in sorted(finished, key=order.__getitem__):
            item = inflight.pop(fut)
            try:
                result = fut.result()
            except Exception as e:
                raise ItemFailed(item, e) from e
            record(item, result)


class ItemFailed(RuntimeError):
    def __init__(self, item: Any, error: BaseException):
        self.item, self.error = item, error
        super().__init__(f'{type(error).__name__}: {_one_line(error)}')
