"""The journal of searches and sweeps: a header line, then one JSON line per evaluated candidate
(or sweep point), each appended atomically.

Each line is written with a single ``write`` on an ``O_APPEND`` descriptor, so a process killed
with SIGKILL leaves either the whole line or (at worst, mid-syscall) a tail without its newline.
The page cache outlives the process, so SIGKILL loses nothing that was written; ``durable=True``
adds an fsync per record for power loss.

The header (line 1) names the search (strategy, key, space) and, when the caller gives them, the
evaluation settings (``evaluation``: whatever decides a candidate's fitness, e.g. the walker's
parameters), so that a resume with other settings is refused with the first difference named
instead of silently mixing two searches in one ranking. A journal written before headers held
evaluation settings is accepted only when the caller says its run uses the defaults
(``legacy_ok``).

Loading is strict and never deletes or rewrites what a user may want: every line must be the
header or a whole record, and the first bad one stops the search with one message naming
``file:line`` and what the line is. Only what a kill leaves is repaired, and said so in
``repairs``: a torn last record is cut off (its candidate is evaluated again; a complete record
that only lacks its newline gets it), and a file holding nothing but the start of its header (a
kill while the journal was created) gets its header written again. A bad header followed by
records is refused (file:1): the records may be fine, but which search they belong to is unknown.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from gait_player.walk_evaluation import WalkStatistics

JOURNAL_NAME = 'journal.jsonl'
FIX = 'fix or remove that line, or move the journal aside (--restart)'
NEW = 'use another --out, or --restart to move this journal aside and start a new one'
HEADER_START = b'{"header":'   # how our writer starts line 1 and a record
RECORD_START = b'{"seq":'
_STATS_DEFAULTS = asdict(WalkStatistics())


class JournalError(ValueError):
    pass


class Journal:
    """One journal for every search and sweep. ``record_problem(obj) -> str | None`` checks a
    record that is not a search candidate's (a sweep point's: zoo_experiments.sweep.records);
    None: a candidate record of the header's space."""

    def __init__(self, path: str | os.PathLike, durable: bool = False, record_problem=None):
        self.path = Path(path)
        self.durable = durable
        self.record_problem = record_problem
        self.repairs: list[str] = []     # what load() repaired, one line each, for the user
        self.legacy = False              # loaded a header without evaluation settings
        self.lines: dict[int, int] = {}  # seq -> line number, for messages

    def load(self, header: dict, legacy_ok: bool = True) -> dict[int, dict]:
        """Records by ``seq``; creates the journal with ``header`` or checks that it matches."""
        header = _jsonable(header)
        data = self._read()
        data = self._repair_tail(data)
        if not data:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._append({'header': header})
            return {}
        lines = data.split(b'\n')[:-1]  # data ends with a newline now
        written = self._header(lines[0])
        self._compare(written, header, legacy_ok)
        n_values = len(header['space']) if isinstance(header.get('space'), list) else None
        records: dict[int, dict] = {}
        for lineno, raw in enumerate(lines[1:], 2):
            rec = self._record(raw, lineno, n_values)
            seq = rec['seq']
            if seq in records:
                self._fail(lineno, f'candidate {seq} recorded twice (first on line '
                                   f'{self.lines[seq]})')
            records[seq] = rec
            self.lines[seq] = lineno
        return records

    def append(self, record: dict[str, Any]) -> None:
        self._append(record)

    def set_aside(self) -> Path | None:
        """Move the journal to ``journal.jsonl.<n>`` (the first free n >= 1) so that a new one can
        start; returns where it went, None when there was none. Nothing is deleted."""
        if not os.path.lexists(self.path):
            return None
        n = 1
        while os.path.lexists(self.path.with_name(f'{self.path.name}.{n}')):
            n += 1
        dest = self.path.with_name(f'{self.path.name}.{n}')
        os.rename(self.path, dest)
        return dest

    # -- reading ------------------------------------------------------------------------------
    def _read(self) -> bytes:
        if not os.path.lexists(self.path):
            return b''
        if self.path.is_dir():
            raise JournalError(f'{self.path}: a directory, not a journal file; move it aside')
        try:
            return self.path.read_bytes()
        except OSError as e:
            raise JournalError(f'{self.path}: cannot read the journal ({e.strerror})') from None

    def _repair_tail(self, data: bytes) -> bytes:
        """Cut a torn last line (or complete it when only its newline is missing)."""
        end = data.rfind(b'\n') + 1
        tail = data[end:]
        if not tail:
            return data
        lineno = data.count(b'\n') + 1
        if isinstance(_parse(tail), dict):  # whole, only the newline missing: keep it
            with open(self.path, 'ab') as f:
                f.write(b'\n')
            self.repairs.append(f'{self.path}:{lineno}: added the missing newline at its end')
            return data + b'\n'
        if not _torn(tail, HEADER_START if end == 0 else RECORD_START):
            return data + b'\n'  # not what a kill leaves: refused below, with its line number
        with open(self.path, 'r+b') as f:
            f.truncate(end)
        what = ('a torn header (a kill while the journal was created); wrote it again'
                if end == 0 else f'cut a torn last line ({len(tail)} bytes, a kill while it was '
                                 'written); its candidate is evaluated again')
        self.repairs.append(f'{self.path}:{lineno}: {what}')
        return data[:end]

    def _header(self, raw: bytes) -> dict:
        obj = self._parse_line(raw, 1)
        if not isinstance(obj, dict):
            self._fail(1, f'not a journal header but a JSON {_kind(obj)}')
        if 'header' not in obj:
            if 'seq' in obj:
                self._fail(1, f'a record (candidate {obj["seq"]!r}) where the header should be: '
                              'the header is lost, so which search wrote the records is unknown')
            self._fail(1, f'not a journal header (a mapping without "header": {_excerpt(raw)})')
        if not isinstance(obj['header'], dict):
            self._fail(1, f'a header that is a JSON {_kind(obj["header"])}, not a mapping')
        return obj['header']

    def _record(self, raw: bytes, lineno: int, n_values: int | None) -> dict:
        obj = self._parse_line(raw, lineno)
        problem = (self.record_problem(obj) if self.record_problem is not None
                   else _record_problem(obj, n_values))
        if problem:
            self._fail(lineno, problem)
        return obj

    def _parse_line(self, raw: bytes, lineno: int) -> Any:
        if not raw.strip(b' \t\r\0'):
            self._fail(lineno, 'a line of NUL bytes' if b'\0' in raw else 'an empty line')
        if b'\0' in raw:
            self._fail(lineno, f'a line with NUL bytes in it: {_excerpt(raw)}')
        try:
            text = raw.decode('utf-8')
        except UnicodeDecodeError:
            self._fail(lineno, f'not UTF-8 text: {_excerpt(raw)}')
        try:
            return json.loads(text, parse_constant=_no_constant)
        except ValueError as e:
            self._fail(lineno, f'not JSON ({getattr(e, "msg", e)}): {_excerpt(raw)}')

    def _compare(self, written: dict, wanted: dict, legacy_ok: bool) -> None:
        if 'evaluation' not in wanted:  # the caller does not know its evaluation: not checked
            written = {k: v for k, v in written.items() if k != 'evaluation'}
        elif 'evaluation' not in written:
            if not legacy_ok:
                self._fail(1, 'written before journals recorded the evaluation settings, so they '
                              "cannot be checked against this run's (--set, --starts, --quality); "
                              'resume it without those flags, or use another --out, or --restart '
                              'to move it aside and start a new one', fix='')
            self.legacy = True
            wanted = {k: v for k, v in wanted.items() if k != 'evaluation'}
        diffs = differences(written, wanted)
        if diffs:
            more = f' (and {len(diffs) - 1} more differences)' if len(diffs) > 1 else ''
            raise JournalError(f'{self.path}: written with {diffs[0]}{more}; {NEW}')

    def _fail(self, lineno: int, what: str, fix: str = FIX):
        if lineno == 1 and fix == FIX:  # records may follow: the header is to fix, not to remove
            fix = 'fix line 1 or move the journal aside (--restart)'
        raise JournalError(f'{self.path}:{lineno}: {what}' + (f'; {fix}' if fix else ''))

    # -- writing ------------------------------------------------------------------------------
    def _append(self, obj: dict) -> None:
        line = (json.dumps(obj, separators=(',', ':'), allow_nan=False) + '\n').encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, line)
            if written != len(line):
                raise OSError(f'{self.path}: short write ({written} of {len(line)} bytes)')
            if self.durable:
                os.fsync(fd)
        finally:
            os.close(fd)


def differences(written: dict, wanted: dict) -> list[str]:
    """``key=old, this run has new`` for every setting that differs (flattened keys, the
    evaluation's without their ``evaluation.parameters.`` prefix)."""
    a, b = _flat(written), _flat(wanted)
    out = []
    for key in list(a) + [k for k in b if k not in a]:
        if key in a and key in b and a[key] == b[key]:
            continue
        old = f'{key}={_show(a[key])}' if key in a else f'no {key}'
        new = _show(b[key]) if key in b else 'none'
        out.append(f'{old}, this run has {new}')
    return out


def _flat(obj: Any, path: tuple[str, ...] = ()) -> dict[str, Any]:
    """Leaves by dotted name; lists of mappings (the space's axes) as ``name[i].field``."""
    if isinstance(obj, dict) and obj:
        out: dict[str, Any] = {}
        for k, v in obj.items():
            out.update(_flat(v, path + (str(k),)))
        return out
    if isinstance(obj, list) and any(isinstance(x, dict) for x in obj):
        out = {}
        for i, v in enumerate(obj):
            out.update(_flat(v, path[:-1] + (f'{path[-1] if path else ""}[{i}]',)))
        return out
    return {_name(path): obj}


def _name(path: tuple[str, ...]) -> str:
    # the evaluation's settings read as the user wrote them: walker.duration, starts, quality...
    if path[:1] == ('evaluation',):
        path = path[1:]
        if path[:1] == ('parameters',):
            path = path[1:]
    return '.'.join(path)


def _show(v: Any) -> str:
    s = v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))
    return s if len(s) <= 60 else s[:57] + '...'


def _jsonable(obj: Any) -> Any:
    """In JSON's terms (tuples -> lists); non-finite floats as strings, which JSON lacks."""
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    return obj


def record_frame_problem(obj: Any, fields: tuple[str, ...], what: str) -> str | None:
    """What is wrong with a journal record's frame, shared by every journal of this format (the
    search's, zoo_bringup's sweep): a mapping, not a second header, with ``seq`` (an integer >=
    0) and ``fields``; ``what`` names the record in the message (e.g. 'candidate record')."""
    if not isinstance(obj, dict):
        return f'a JSON {_kind(obj)}, not a {what}'
    if 'header' in obj:
        return 'a second header (two journals joined into one?)'
    missing = [k for k in ('seq', *fields) if k not in obj]
    if missing:
        return f'a record without {" and ".join(missing)} (keys: {", ".join(obj) or "none"})'
    seq = obj['seq']
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        return f'a record whose "seq" is {seq!r}, not an integer >= 0'
    return None


def _record_problem(obj: Any, n_values: int | None) -> str | None:
    problem = record_frame_problem(obj, ('values', 'stats'), 'candidate record')
    if problem:
        return problem
    seq = obj['seq']
    values = obj['values']
    if not (isinstance(values, list) and all(_number(v) for v in values)) or \
            (n_values is not None and len(values) != n_values):
        return f'record {seq}: "values" is not a list of {n_values or "some"} numbers'
    problem = _stats_problem(obj['stats'])
    return f'record {seq}: "stats" {problem}' if problem else None


def _stats_problem(stats: Any) -> str | None:
    if not isinstance(stats, dict):
        return f'is a JSON {_kind(stats)}, not a mapping'
    unknown = sorted(set(stats) - set(_STATS_DEFAULTS))
    if unknown:
        return f'has unknown field {unknown[0]!r}'
    if 'fitness' not in stats:
        return 'has no fitness'
    for name, value in stats.items():
        default = _STATS_DEFAULTS[name]
        ok = isinstance(value, bool) if isinstance(default, bool) else (
            _number(value) if isinstance(default, float) else
            isinstance(value, int) and not isinstance(value, bool))
        if not ok:
            return f'field {name!r} is {value!r}, not {type(default).__name__}'
    return None


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _kind(obj: Any) -> str:
    return {list: 'list', str: 'string', int: 'number', float: 'number', bool: 'boolean',
            type(None): 'null', dict: 'mapping'}.get(type(obj), type(obj).__name__)


def _parse(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode('utf-8'), parse_constant=_no_constant)
    except ValueError:
        return None


def _no_constant(name: str):
    raise ValueError(f'{name} is not a JSON number')


def _torn(tail: bytes, start: bytes) -> bool:
    """Could ``tail`` be the beginning of a line our writer started with ``start``?"""
    if not tail.strip(b'\0'):  # a file system may show a torn write's unwritten bytes as NULs
        return True
    n = min(len(tail), len(start))
    return tail[:n] == start[:n]


def _excerpt(raw: bytes) -> str:
    text = raw.decode('utf-8', 'backslashreplace')
    return repr(text if len(text) <= 40 else text[:40] + '...')
