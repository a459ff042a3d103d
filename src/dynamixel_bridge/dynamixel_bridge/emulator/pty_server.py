"""The emulated bus on a pseudo-terminal, with the bus's timing (spec snake.md R12, §3.2).

A client opens the slave (``path``) like a USB serial adapter. Bytes arrive at once through a pty,
so the time a real bus takes is added here: a status packet is written when its last byte would
have arrived on the wire, t0 + tx(request) + for each answering servo (its return delay +
tx(status)), t0 being when the request's first bytes were written and tx(n) = 10 n / baud (8N1).
``usb_latency_s`` adds a per-transaction delay (spec §11 #11: the FTDI latency timer, 16 ms by
default on a real adapter). A client whose baud rate (the pty's termios speed) is not the bus's
gets no answer, as on a real bus; so does a partial packet, dropped after ``rx_timeout_s``.

Never faster than the bus: the pty's own delivery (a kernel worker moves the bytes each way) is
not bus time, but it is not taken off either (no measurement bounds it from below for another
process): a client never sees a status before its wire time, and sees it later by the pty's
delivery (~12 us at best, ~90 us in the median, more under load). Deadlines are met by
sleeping, then spinning the last ``SPIN_S``, not by compensating the timer's overshoot (which
varies with load).

Never a silent dead bus: an unexpected error while handling one packet is one line naming the
packet (no status is sent, as from a servo that did not take it) and the bus goes on serving; if
the serving loop itself fails, one line says why, ``alive`` turns false and ``died`` is set with
``bus_error``: the CLI and the node stop non-zero on it.
"""
from __future__ import annotations

import ctypes
import errno
import os
import select
import termios
import threading
import time
import tty
from typing import Callable

from .. import instructions as ins
from ..bus_timing import tx_seconds
from ..packets import Packet
from ..priority import realtime_thread
from .bus import Bus

PR_SET_TIMERSLACK = 29
_SPEEDS = {getattr(termios, f'B{b}'): b for b in (
    9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1152000,
    1500000, 2000000, 2500000, 3000000, 3500000, 4000000) if hasattr(termios, f'B{b}')}


def fine_timer_slack() -> None:
    """Timers of this thread fire within ~microseconds (Linux default slack 50 us, as long as a
    status packet at 1 Mbps): sleeping, not spinning, keeps the CPU free for the client and
    for the kernel worker that moves pty bytes."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


# A client in the emulator's process (rclpy's executor taking /clock every physics step, or the
# Dynamixel backend's bus cycle) shares the GIL with the bus thread: at Python's default 5 ms
# switch interval a status could wait several of them for the GIL and miss the client's timeout
# (pypot waits 50 ms) on a loaded machine. Servos answer on bus time, so their process sets
# sys.setswitchinterval(SWITCH_INTERVAL_S): the bus thread gets the GIL back within 0.5 ms.
SWITCH_INTERVAL_S = 0.0005
REALTIME_PRIORITY = 10  # --realtime: above the bridge's (ros2_control uses 50 for its loop)
LAG_MARGIN_S = 5e-6  # taken off the measured pty minima: what the measurement itself adds
MAX_LAG_S = 5e-6     # compensate=True only: a pty hop between processes can take < 10 us
COLLISION_SLACK_S = 100e-6
SPIN_S = 100e-6  # the last stretch before a deadline is spun: a sleep overshoots by 20-50 us


def sleep_until(deadline: float) -> None:
    """Return at ``deadline`` (within ~1 us on an idle core), never before. Sleeps, then spins only
    the last ``SPIN_S``: a longer spin would starve the kernel's pty worker on 2 cores."""
    left = deadline - time.perf_counter() - SPIN_S
    if left > 0:
        time.sleep(left)
    while time.perf_counter() < deadline:
        pass


def measure_lags(master: int, slave: int, n: int = 50) -> tuple[float, float]:
    """Minima, in seconds, of the pty's delivery each way (input: a write on the slave until a
    reader of the master, asleep in select, has it; output: master -> slave the same way).
    Minima, not medians: taking off more than the pty surely added would let a status arrive
    before its wire time. Measured before any client opens the slave."""
    hop_out, hop_in = [], []
    for _ in range(n):
        for src, dst, out in ((master, slave, hop_out), (slave, master, hop_in)):
            t = time.perf_counter()
            os.write(src, b'\xff')
            select.select([dst], [], [], 0.1)
            os.read(dst, 16)
            out.append(time.perf_counter() - t)
    return min(hop_in), min(hop_out)


class PtyBus:
    def __init__(self, bus: Bus, baud: int, *, usb_latency_s: float = 0.0,
                 rx_timeout_s: float = 0.01, compensate: bool = False, realtime: bool = False,
                 log: Callable[[str], None] | None = None) -> None:
        self.bus = bus
        self.baud = baud
        self.usb_latency_s = usb_latency_s
        self.rx_timeout_s = rx_timeout_s
        self.realtime = realtime
        self._log = log or (lambda line: None)
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes pass unchanged
        attrs = termios.tcgetattr(self._slave)
        speed = getattr(termios, f'B{baud}', None)
        if speed is not None:  # the baud rate a client sees before it sets its own
            attrs[4] = attrs[5] = speed
            termios.tcsetattr(self._slave, termios.TCSANOW, attrs)
        self.path = os.ttyname(self._slave)  # kept open: the master never sees EIO on hang-up
        # The pty's own delivery is not bus time, but no measurement here bounds it from below
        # for another process: a client at higher priority saw two hops as short as ~12 us in
        # all, so taking off even 10 us each way let a status arrive early. By default nothing
        # is taken off (never early; later by the pty's jitter). compensate=True: a request is
        # taken to have been written input_lag before it was read, a status is written
        # output_lag before its wire time, each the measured minimum less LAG_MARGIN_S, at most
        # MAX_LAG_S.
        fine_timer_slack()
        lags = measure_lags(self.master, self._slave) if compensate else (0.0, 0.0)
        self.input_lag_s, self.output_lag_s = (min(max(x - LAG_MARGIN_S, 0.0), MAX_LAG_S)
                                               for x in lags)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.transactions = 0
        self._bus_free_at = 0.0
        self._status_until = 0.0  # when the last status packet's last byte is off the wire
        self.collisions = 0
        self._warned_baud: int | None = None
        self.errors = 0  # packets whose handling failed unexpectedly (one line each)
        self.died = threading.Event()  # the serving loop ended without stop()
        self.bus_error: str | None = None  # why, in one line

    def start(self) -> 'PtyBus':
        self._thread = threading.Thread(target=self._run, name='dxl-pty-bus', daemon=True)
        self._thread.start()
        return self

    @property
    def alive(self) -> bool:
        """The bus thread is serving (False once stopped or dead)."""
        return self._thread is not None and self._thread.is_alive() and not self.died.is_set()

    def _run(self) -> None:
        try:
            self.serve()
        except BaseException as exc:  # noqa: B902 - whatever ends the loop is said, once
            if not self._stop.is_set():
                self.bus_error = (f'bus thread stopped: {type(exc).__name__}: '
                                  f'{_one_line(exc)}; the bus no longer answers')
                self.died.set()
                try:
                    self._report(self.bus_error)
                except Exception:  # noqa: BLE001 - the log itself failed: bus_error still says
                    pass

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> 'PtyBus':
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _client_baud(self) -> int | None:
        try:
            return _SPEEDS.get(termios.tcgetattr(self._slave)[4])
        except termios.error:
            return None

    def serve(self) -> None:
        fine_timer_slack()
        if self.realtime:  # servos are hardware: never late because the host is busy
            self._report(realtime_thread(REALTIME_PRIORITY))
        decoder = self.bus.decoder()
        last_rx = 0.0
        while not self._stop.is_set():
            wait = self.rx_timeout_s if decoder.pending else 0.2
            ready, _, _ = select.select([self.master], [], [], wait)
            now = time.perf_counter()
            if not ready:
                if decoder.pending and now - last_rx >= self.rx_timeout_s:
                    for g in decoder.flush():
                        self._report(g.describe())
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError as exc:
                if exc.errno in (errno.EINTR, errno.EAGAIN):
                    continue
                raise
            if decoder.pending and now - last_rx >= self.rx_timeout_s:  # a new packet
                for g in decoder.flush():
                    self._report(g.describe())
            t0 = now if not decoder.pending else last_rx
            last_rx = now
            try:
                items = decoder.feed(data)
            except Exception as exc:  # noqa: BLE001 - an emulator bug: say it, keep serving
                self._failed(f'{len(data)} bytes ({data[:16].hex(" ")})', exc)
                decoder = self.bus.decoder()
                items = []
            for item in items:  # all written by the time they were read
                try:
                    self._transact(item, t0, len(getattr(item, 'raw', b'')))
                except Exception as exc:  # noqa: BLE001 - an emulator bug: say it, keep serving
                    self._failed(_describe(item), exc)
            self._drain_log()

    def _transact(self, item, t0: float, n_bytes: int) -> None:
        # the request is on the wire after the previous traffic (a SYNC_WRITE has no status, but
        # the bus is busy while it is sent)
        t0 -= self.input_lag_s
        # half duplex: a request while a servo is still talking (pipelining) collides; the
        # write time is known to within the pty's jitter, a pipelined request is ~1 ms early
        if t0 + COLLISION_SLACK_S < self._status_until:
            self.collisions += 1
            self._report(f'{_describe(item, raw=False)} sent while a status packet was on the '
                         'wire: on a half-duplex bus both are garbled; dropped (wait for each '
                         'status before the next request)')
            return
        self._bus_free_at = max(t0, self._bus_free_at) + tx_seconds(n_bytes, self.baud)
        replies = self.bus.handle(item)
        if not replies:
            return
        baud = self._client_baud()
        if baud is not None and baud != self.baud:
            if self._warned_baud != baud:
                self._report(f'client at {baud} baud, bus at {self.baud}: the servos do not '
                             'understand it (no answer)')
                self._warned_baud = baud
            return
        self.transactions += 1
        t = self._bus_free_at + self.usb_latency_s
        for r in replies:
            t += r.delay_s + tx_seconds(len(r.data), self.baud)
            self._bus_free_at = self._status_until = t
            sleep_until(t - self.output_lag_s)
            try:
                os.write(self.master, r.data)
            except OSError:
                return

    def _failed(self, what: str, exc: Exception) -> None:
        self.errors += 1
        self._drain_log()
        self._report(f'{what}: emulator error {type(exc).__name__}: {_one_line(exc)}; no status '
                     'sent, the bus goes on serving')

    def _drain_log(self) -> None:
        while self.bus.log:
            self._report(self.bus.log.pop(0))

    def _report(self, line: str) -> None:
        self._log(line)


def _describe(item, raw: bool = True) -> str:
    """A packet as a log line names it: id, instruction (and its first bytes)."""
    if not isinstance(item, Packet):
        return item.describe()
    what = f'id {item.id}: {ins.NAMES.get(item.code, hex(item.code))}'
    if raw and item.raw:
        what += f' ({item.raw[:16].hex(" ")}{" ..." if len(item.raw) > 16 else ""})'
    return what


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else repr(exc)
