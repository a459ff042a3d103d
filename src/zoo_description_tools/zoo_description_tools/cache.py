"""A content-keyed disk cache for start-up work that only depends on files: xacro output and
libsdformat's verdicts. A key is the SHA-256 of everything the result depends on (the tool's
version, the arguments, the text of every file that may be read), so a changed world, xacro,
URDF or argument is a miss, never a stale hit.

The cache lives in ``$ROBOZOO_CACHE_DIR``, else ``$XDG_CACHE_HOME/robozoo``, else
``~/.cache/robozoo`` (a temporary folder without a home); ``ROBOZOO_CACHE_DIR=off`` turns it
off. Entries are written atomically (temporary file + rename), so concurrent runs (a parallel
gait search) never read half an entry; an unreadable entry is a miss.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

MAX_FILE_BYTES = 4 << 20  # larger files (meshes) are keyed by size and mtime, not content


def cache_dir() -> Path | None:
    env = os.environ.get('ROBOZOO_CACHE_DIR')
    if env == 'off':
        return None
    if env:
        return Path(env)
    base = os.environ.get('XDG_CACHE_HOME')
    if not base:
        home = os.path.expanduser('~')
        base = (os.path.join(home, '.cache') if home != '~' else  # no HOME: a temporary folder
                os.path.join(tempfile.gettempdir(), f'robozoo-cache-{os.getuid()}'))
    return Path(base) / 'robozoo'


def content_key(*parts: Any, files: Iterable[Path] = ()) -> str:
    """SHA-256 over ``parts`` (JSON) and the path and content of each of ``files``."""
    h = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode())
    for f in sorted({Path(p) for p in files}):
        h.update(str(f).encode())
        try:
            st = f.stat()
            if st.st_size > MAX_FILE_BYTES:
                h.update(f'{st.st_size}:{st.st_mtime_ns}'.encode())
            else:
                h.update(f.read_bytes())
        except OSError:
            h.update(b'<missing>')
    return h.hexdigest()


def tree_files(*roots: Path) -> list[Path]:
    """Every file below ``roots`` (a description package, a models folder): what a xacro run or
    an SDF include may read."""
    out = []
    for root in roots:
        root = Path(root)
        if root.is_file():
            out.append(root)
        elif root.is_dir():
            out.extend(p for p in root.rglob('*') if p.is_file() and '__pycache__' not in p.parts)
    return out


def cached(kind: str, key: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` (a JSON value), or its stored result for ``key``."""
    folder = cache_dir()
    if folder is None:
        return compute()
    path = folder / kind / f'{key}.json'
    try:
        return json.loads(path.read_text())['value']
    except (OSError, ValueError, KeyError, TypeError):
        pass
    value = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix='.tmp-')
        with os.fdopen(fd, 'w') as f:
            json.dump({'value': value}, f)
        os.replace(tmp, path)
    except OSError:  # a read-only home: run uncached
        pass
    return value
