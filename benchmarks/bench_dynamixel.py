"""Dynamixel bridge cycle rate: 16 servos, read all + write all, at 1 Mbps, against the bus limit
computed from packet sizes, return delay and baud rate (dynamixel_bridge.bus_timing).

    bin/robozoo dxl-emulator is started per row (its own process, in-memory servos); the bridge
    core (dynamixel-sdk) runs here: python benchmarks/bench_dynamixel.py

Rows: Protocol 1.0 (AX-12A: a READ per servo + SYNC_WRITE) and 2.0 (XM430: SYNC_READ +
SYNC_WRITE), each at the factory return delay (500 us) and at 0 us. Each rate is the median of
REPEATS runs of CYCLES cycles. The seed (the thesis's real AX-12 snake) reached 11.7 Hz for 16
servos at 1 Mbps (spec snake.md §3.2), USB latency included; the limit here is bus time only.
Prints a table, then one JSON line: {"bench": "dynamixel", "p1_rate_hz": ..., "p1_limit_hz": ...,
"p1_fraction": ..., "p2_...": ..., ...}. Target (issue 14): fraction >= 0.9 at the factory delay.
"""
from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

WS = Path(__file__).resolve().parents[1]
SEED_HZ = 11.7
TARGET_FRACTION = 0.9
N_SERVOS, BAUD, CYCLES, REPEATS = 16, 1_000_000, 150, 5


def measure(protocol: int, return_delay_us: int) -> tuple[float, float]:
    """(median cycles per second, bus limit in Hz)."""
    from dynamixel_bridge.bridge_core import BridgeConfig, BridgeCore
    from dynamixel_bridge.control_table import DEFAULT_MODEL
    from dynamixel_bridge.sdk_bus import SdkBus

    emu = subprocess.Popen([str(WS / 'bin' / 'robozoo'), 'dxl-emulator', '--quiet',
                            '--protocol', str(protocol), '--ids', f'1-{N_SERVOS}',
                            '--baud', str(BAUD), '--return-delay-us', str(return_delay_us)],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        path = emu.stdout.readline().strip()
        bus = SdkBus(path, BAUD, DEFAULT_MODEL[protocol], list(range(1, N_SERVOS + 1)))
        bus.open()
        joints = [f'joint_{i}' for i in range(1, N_SERVOS + 1)]
        core = BridgeCore(bus, BridgeConfig(joints, [-1.0] * N_SERVOS, [1.0] * N_SERVOS,
                                            watchdog_s=1e9))
        core.start()
        rates = []
        for _ in range(REPEATS):
            t0 = time.perf_counter()
            for k in range(CYCLES):
                core.set_targets(joints, [0.5 * math.sin(0.1 * k)] * N_SERVOS, 0.0)
                core.cycle(0.0)
            rates.append(CYCLES / (time.perf_counter() - t0))
        assert core.metrics()['comm_errors'] == 0
        limit = core.bus_limit_hz()
        core.shutdown()
        return statistics.median(rates), limit
    finally:
        emu.terminate()
        emu.wait(timeout=10)


def main() -> int:
    rows = []
    for protocol in (1, 2):
        for delay in (500, 0):
            rate, limit = measure(protocol, delay)
            rows.append((protocol, delay, rate, limit))
    print(f'{"protocol":>8} {"ret.delay us":>12} {"cycle Hz":>9} {"bus limit Hz":>12} '
          f'{"fraction":>8}')
    for p, d, r, lim in rows:
        print(f'{p:>8}.0 {d:>11} {r:>9.1f} {lim:>12.1f} {r / lim:>8.1%}')
    out = {'bench': 'dynamixel', 'servos': N_SERVOS, 'baud': BAUD, 'seed_hz': SEED_HZ,
           'target_fraction': TARGET_FRACTION}
    for p, d, r, lim in rows:
        key = f'p{p}' if d == 500 else f'p{p}_delay0'
        out.update({f'{key}_rate_hz': round(r, 2), f'{key}_limit_hz': round(lim, 2),
                    f'{key}_fraction': round(r / lim, 3)})
    print(json.dumps(out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
