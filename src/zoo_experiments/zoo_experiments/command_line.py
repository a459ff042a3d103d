"""The user-facing boundary of the sub-commands with their own parsers (`robozoo search`,
`robozoo sweep`): argparse errors and any failure become one line ``<prog>: error: ...`` and exit
2 (``--debug`` re-raises for the traceback), Ctrl-C is ``<prog>: interrupted`` and exit 130."""
from __future__ import annotations

import argparse
import sys
from typing import Callable, Sequence


class UsageError(Exception):
    """A bad argument or setting: one line, exit 2."""


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage + error
        raise UsageError(message)


def run_command(prog: str, parser: argparse.ArgumentParser,
                body: Callable[[argparse.Namespace], int], argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run ``body``; returns the exit code."""
    try:
        a = parser.parse_args(argv)
    except UsageError as e:
        return error(prog, str(e))
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    try:
        return body(a)
    except KeyboardInterrupt:
        print(f'{prog}: interrupted', file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - user-facing boundary: one line, no traceback
        if getattr(a, 'debug', False):
            raise
        if interrupted(e):  # Ctrl-C inside a library that turned it into its own error
            print(f'{prog}: interrupted', file=sys.stderr)
            return 130
        return error(prog, one_line(e))


def error(prog: str, msg: str) -> int:
    print(f'{prog}: error: {msg}', file=sys.stderr)
    return 2


def interrupted(e: BaseException | None) -> bool:
    """Whether a KeyboardInterrupt is anywhere in ``e``'s cause/context chain."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def one_line(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        where = f'{e.filename}: ' if e.filename else ''
        return f'{where}{e.strerror}'
    text = str(e).strip()
    msg = text.splitlines()[0] if text else ''
    known = isinstance(e, (UsageError, ValueError, RuntimeError))
    return msg if known and msg else f'{type(e).__name__}: {msg} (--debug shows the traceback)'
