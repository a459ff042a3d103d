"""The search journal: one JSON line per evaluated candidate, appended atomically.

Each record is written with a single ``write`` on an ``O_APPEND`` descriptor, so a process killed
with SIGKILL leaves either the whole line or (at worst, mid-syscall) a tail without its newline,
which the next load cuts off; the candidate is then simply evaluated again. The page cache outlives
the process, so SIGKILL loses nothing that was written; ``durable=True`` adds an fsync per record
for power loss. The first line is a header naming the search (strategy, key, space) so that a
resume with different settings is refused instead of silently mixing two searches.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


class JournalError(ValueError):
    pass


class Journal:
    def __init__(self, path: str | os.PathLike, durable: bool = False):
        self.path = Path(path)
        self.durable = durable
        self.repaired_bytes = 0  # size of a torn last line cut off by load()

    def load(self, header: dict) -> dict[int, dict]:
        """Records by ``seq``; creates the journal with ``header`` or checks that it matches."""
        header = json.loads(json.dumps(header))  # compare in JSON's terms (tuples -> lists)
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._append({'header': header})
            return {}
        data = self.path.read_bytes()
        end = data.rfind(b'\n') + 1
        if end < len(data):  # a torn last line from a kill mid-write: cut it off
            self.repaired_bytes = len(data) - end
            with open(self.path, 'r+b') as f:
                f.truncate(end)
            data = data[:end]
        records: dict[int, dict] = {}
        for lineno, line in enumerate(data.splitlines(), 1):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise JournalError(f'{self.path}:{lineno}: not a JSON record ({e.msg})') from None
            if lineno == 1:
                if obj.get('header') != header:
                    raise JournalError(
                        f'{self.path}: written by a different search {obj.get("header")}; '
                        f'this one is {header} (use another output directory)')
                continue
            seq = obj.get('seq')
            if not isinstance(seq, int):
                raise JournalError(f'{self.path}:{lineno}: record without an integer "seq"')
            if seq in records:
                raise JournalError(f'{self.path}:{lineno}: candidate {seq} recorded twice')
            records[seq] = obj
        return records

    def append(self, record: dict[str, Any]) -> None:
        self._append(record)

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
