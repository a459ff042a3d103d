"""The emulated bus on a pseudo-terminal, with the bus's timing (spec snake.md R12, §3.2).

A client opens the slave (``path``) like a USB serial adapter. Bytes arrive at once through a pty,
so the time a real bus takes is added here: a status packet is written when its last byte would
have arrived on the wire, t0 + tx(request) + for each answering servo (its return delay +
tx(status)), t0 being when the request's first bytes were read and tx(n) = 10 n / baud (8N1).
``usb_latency_s`` adds a per-transaction delay (spec §11 #11: the FTDI latency timer, 16 ms by
default on a real adapter). A client whose baud rate (the pty's termios speed) is not the bus's
gets no answer, as on a real bus; so does a partial packet, dropped after ``rx_timeout_s``.
"""
from __future__ import annotations

import ctypes
import os
import select
import termios
import threading
import time
import tty
from typing import Callable

from ..bus_timing import tx_seconds
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


def sleep_until(deadline: float) -> None:
    left = deadline - time.perf_counter()
    if left > 0:
        time.sleep(left)  # not a spin: a spinning emulator starves the kernel's pty worker


def measure_lags(master: int, slave: int, n: int = 30) -> tuple[float, float]:
    """Medians, in seconds, of what the pty and this thread's timers add to the bus's timing:
    (input lag: a write on the slave until the master has it; output lag: timer overshoot of a
    300 us sleep + a write on the master until a reader of the slave has it). Measured before
    any client opens the slave."""
    over, hop_out, hop_in = [], [], []
    for _ in range(n):
        t = time.perf_counter() + 300e-6
        sleep_until(t)
        over.append(time.perf_counter() - t)
        for src, dst, out in ((master, slave, hop_out), (slave, master, hop_in)):
            t = time.perf_counter()
            os.write(src, b'\xff')
            select.select([dst], [], [], 0.1)
            os.read(dst, 16)
            out.append(time.perf_counter() - t)
    med = lambda v: sorted(v)[len(v) // 2]  # noqa: E731
    return med(hop_in), med(over) + med(hop_out)


class PtyBus:
    def __init__(self, bus: Bus, baud: int, *, usb_latency_s: float = 0.0,
                 rx_timeout_s: float = 0.01, compensate: bool = True,
                 log: Callable[[str], None] | None = None) -> None:
        self.bus = bus
        self.baud = baud
        self.usb_latency_s = usb_latency_s
        self.rx_timeout_s = rx_timeout_s
        self._log = log or (lambda line: None)
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing: bytes pass unchanged
        attrs = termios.tcgetattr(self._slave)
        speed = getattr(termios, f'B{baud}', None)
        if speed is not None:  # the baud rate a client sees before it sets its own
            attrs[4] = attrs[5] = speed
            termios.tcsetattr(self._slave, termios.TCSANOW, attrs)
        self.path = os.ttyname(self._slave)  # kept open: the master never sees EIO on hang-up
        # The pty's own delivery and this thread's timer lag are not bus time: a request is
        # taken to have been written input_lag before it was read, a status is written
        # output_lag before its wire time (each capped at 200 us; compensate=False: none).
        fine_timer_slack()
        lags = measure_lags(self.master, self._slave) if compensate else (0.0, 0.0)
        self.input_lag_s, self.output_lag_s = (min(x, 200e-6) for x in lags)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.transactions = 0
        self._bus_free_at = 0.0
        self._warned_baud: int | None = None

    def start(self) -> 'PtyBus':
        self._thread = threading.Thread(target=self.serve, name='dxl-pty-bus', daemon=True)
        self._thread.start()
        return self

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
            except OSError:
                continue
            if decoder.pending and now - last_rx >= self.rx_timeout_s:  # a new packet
                for g in decoder.flush():
                    self._report(g.describe())
            t0 = now if not decoder.pending else last_rx
            last_rx = now
            for item in decoder.feed(data):
                self._transact(item, t0, len(getattr(item, 'raw', b'')))
                t0 = time.perf_counter()
            self._drain_log()

    def _transact(self, item, t0: float, n_bytes: int) -> None:
        # the request is on the wire after the previous traffic (a SYNC_WRITE has no status, but
        # the bus is busy while it is sent)
        t0 -= self.input_lag_s
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
            self._bus_free_at = t
            sleep_until(t - self.output_lag_s)
            try:
                os.write(self.master, r.data)
            except OSError:
                return

    def _drain_log(self) -> None:
        while self.bus.log:
            self._report(self.bus.log.pop(0))

    def _report(self, line: str) -> None:
        self._log(line)
