"""``robozoo dxl-emulator``: a Dynamixel bus on a pseudo-terminal; prints the pty path on stdout
and serves until Ctrl-C. Faults from stdin while serving: ``timeout 3``, ``corrupt 3``,
``overload 3``, ``clear [id]``, ``status``.

  bin/robozoo dxl-emulator --protocol 1 --ids 1-16 [--scenario snake_stand] [--baud 1000000]

With ``--scenario`` the servos are the scenario robot's joints (ids in order -> its joints in
joint_states order; the robot gets ``servo: ax12``), the scenario paced at real time: robozoo
does that (zoo_bringup.dxl_emulator passes ``attach``); this package knows no scenarios.
"""
from __future__ import annotations

import argparse
import signal
import sys
import threading

from .faults import FaultError, Faults, parse_command

PROG = 'robozoo dxl-emulator'


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        self.exit(2, f'{PROG}: error: {message}\n')


def parse_ids(text: str) -> list[int]:
    """``1-16`` or ``1,3,5-7`` -> ids, each 0..252."""
    ids: list[int] = []
    try:
        for part in text.split(','):
            lo, _, hi = part.strip().partition('-')
            ids += list(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r}: expected ids like 1-16 or 1,3,5-7') from None
    bad = [i for i in ids if not 0 <= i <= 252]
    if bad or not ids or len(set(ids)) != len(ids):
        raise argparse.ArgumentTypeError(f'{text!r}: ids must be distinct, within 0..252')
    return ids


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=__doc__.splitlines()[0])
    p.add_argument('--protocol', type=int, choices=(1, 2), default=1)
    p.add_argument('--ids', type=parse_ids, default=parse_ids('1-16'), help='e.g. 1-16')
    p.add_argument('--model', help='AX-12A (protocol 1) or XM430-W350 (protocol 2, default)')
    p.add_argument('--baud', type=int, default=1_000_000, help='bus baud rate (8N1)')
    p.add_argument('--return-delay-us', type=int, help='initial Return Delay Time (default 500)')
    p.add_argument('--usb-latency-ms', type=float, default=0.0,
                   help='extra delay per transaction (an FTDI latency timer; default 0)')
    p.add_argument('--scenario', help='back the servos by this scenario\'s robot joints')
    p.add_argument('--robot', help='the scenario robot (default: its first)')
    p.add_argument('--set', dest='overrides', action='append', default=[],
                   metavar='NODE.PARAM=VALUE', help='scenario override, as in robozoo run')
    p.add_argument('--fault', action='append', default=[], metavar='KIND:ID',
                   help='start with a fault: timeout:3, corrupt:3, overload:3')
    p.add_argument('--realtime', action='store_true',
                   help='serve the bus from a SCHED_FIFO thread (hardware is never late; needs '
                        'CAP_SYS_NICE, falls back with one line)')
    p.add_argument('--quiet', action='store_true', help='no log lines on stderr')
    return p


def _log(quiet: bool):
    def log(line: str) -> None:
        if not quiet:
            print(f'dxl-emulator: {line}', file=sys.stderr, flush=True)
    return log


def _read_commands(faults: Faults, log) -> None:
    for line in sys.stdin:
        try:
            reply = parse_command(line, faults)
        except FaultError as exc:
            reply = f'error: {exc}'
        if reply:
            print(f'dxl-emulator: {reply}', file=sys.stderr, flush=True)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


class BusDied(RuntimeError):
    """The bus thread stopped serving (its one line is the message)."""


def main(argv: list[str] | None = None, attach=None) -> int:
    """0 after Ctrl-C/SIGTERM with the bus serving; 1 when the bus thread died (never 0: a dead
    bus is no clean run); 2 for bad arguments or set-up. ``attach(args, model, log)`` backs the
    servos by a scenario (``--scenario``): it returns the run (not started), the plant and the
    link node that watches the bus."""
    args = _parser().parse_args(argv)
    log = _log(args.quiet)
    signal.signal(signal.SIGTERM, _interrupt)  # a clean stop: the scenario run is closed
    served: list = []  # the PtyBus, once serving
    try:
        return _serve(args, log, served, attach)
    except KeyboardInterrupt:
        if served and served[0].died.is_set():
            print(f'{PROG}: error: {served[0].bus_error}', file=sys.stderr)
            return 1
        return 0
    except (ValueError, OSError, FaultError) as exc:  # ScenarioError is a ValueError
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f'{PROG}: error: {msg}', file=sys.stderr)
        return 2
    except RuntimeError as exc:  # BusDied; RunStopped from the scenario's link node
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f'{PROG}: error: {msg}', file=sys.stderr)
        return 1


def wait_while_serving(pty) -> None:
    """Block until the bus thread dies, then raise BusDied with its line (Ctrl-C/SIGTERM end
    the wait with KeyboardInterrupt)."""
    while not pty.died.wait(0.5):
        pass
    raise BusDied(pty.bus_error)


def _serve(args, log, served: list, attach) -> int:
    from ..control_table import DEFAULT_MODEL, baud_register, model_by_name
    from .bus import build_bus
    from .pty_server import PtyBus

    model = model_by_name(args.model) if args.model else DEFAULT_MODEL[args.protocol]
    if baud_register(model, args.baud) is None:
        raise ValueError(f'--baud {args.baud}: {model.name} cannot run at that rate')
    faults = Faults()
    for spec in args.fault:
        kind, _, sid = spec.partition(':')
        parse_command(f'{kind} {sid}', faults)
    run = plant = link = None
    if args.scenario:
        if attach is None:
            raise ValueError(f'--scenario {args.scenario}: a bus backed by a scenario is served by '
                             'bin/robozoo dxl-emulator (this command serves in-memory servos)')
        run, plant, link = attach(args, model, log)
    try:
        bus = build_bus(args.protocol, args.ids, model=model, plant=plant, baud=args.baud,
                        faults=faults)
        if args.return_delay_us is not None:
            if not 0 <= args.return_delay_us <= 508:
                raise ValueError(f'--return-delay-us {args.return_delay_us}: expected 0..508')
            for s in bus.chain:
                s._store(model.item('return_delay'), args.return_delay_us // 2)
        with PtyBus(bus, args.baud, usb_latency_s=args.usb_latency_ms / 1000,
                    realtime=args.realtime, log=log) as pty:
            served.append(pty)
            print(pty.path, flush=True)
            log(f'{model.name} ids {args.ids[0]}..{args.ids[-1]} ({len(args.ids)}) on protocol '
                f'{args.protocol}.0 at {args.baud} baud; faults: {faults.describe()}')
            threading.Thread(target=_read_commands, args=(faults, log), daemon=True).start()
            if run is not None:
                link.watch(pty)  # its timer ends the run if the bus thread dies
                run.run(duration=1e9)  # real-time paced until Ctrl-C
            else:
                wait_while_serving(pty)
    finally:
        if run is not None:
            run.close()
    return 0


def console_main() -> None:
    sys.exit(main())


if __name__ == '__main__':
    console_main()
