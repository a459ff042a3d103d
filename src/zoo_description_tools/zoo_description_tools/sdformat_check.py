"""libsdformat as the authority on URDF and SDF (``ign sdf``, Debian's ``ignition-tools`` +
``libsdformat-dev``): the workspace's one place that runs it. Verdicts are cached by content
(:mod:`zoo_description_tools.cache`): the document and every file under the model search paths
its includes may read, and the ``ign`` tool itself."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Sequence

from .cache import cached, content_key, tree_files
from .errors import DescriptionError

_ANSI = re.compile(r'\x1b\[[0-9;]*m')
# Lines libsdformat prints on Debian that say nothing about the document.
_NOISE = ('libignition-tools-backward', 'Tried to use callback in sdf::findFile()')
DOC = '<document>'  # stands for a temporary file's path in cached messages


def ign_available() -> bool:
    return shutil.which('ign') is not None


def run_ign(args: list[str], model_paths: Sequence[Path] = ()) -> subprocess.CompletedProcess:
    """``ign sdf <args>``; libsdformat resolves ``model://`` through SDF_PATH only, so it gets
    ``model_paths``."""
    env = dict(os.environ)
    env['SDF_PATH'] = os.pathsep.join(str(p) for p in model_paths)
    return subprocess.run(['ign', 'sdf', *args], capture_output=True, text=True, env=env,
                          timeout=120)


def ign_identity() -> tuple[str, int]:
    """The ign tool in use (path, modification time): part of every cached verdict's key."""
    tool = shutil.which('ign') or 'ign'
    try:
        return tool, os.stat(tool).st_mtime_ns
    except OSError:
        return tool, 0


def sdformat_errors(path_or_text: str | Path, suffix: str | None = None,
                    model_paths: Sequence[Path] = ()) -> list[str] | None:
    """``ign sdf -k`` on a file or on a document given as text (``suffix`` .urdf or .sdf, by
    default guessed): None when valid, else libsdformat's error lines (ANSI codes and noise
    removed; a temporary file's path reads :data:`DOC`)."""
    text = str(path_or_text)
    models = [Path(p) for p in model_paths]
    common = ('ign sdf -k', ign_identity(), [str(p) for p in models])
    if text.lstrip().startswith('<'):
        suffix = suffix or ('.urdf' if '<robot' in text[:2000] else '.sdf')
        key = content_key(*common, suffix, text, files=tree_files(*models))
        return cached('sdf-check', key, lambda: _errors_of_text(text, suffix, models))
    key = content_key(*common, files=[Path(text), *tree_files(*models)])
    return cached('sdf-check', key, lambda: _errors(text, models))


def _errors_of_text(text: str, suffix: str, models: Sequence[Path]) -> list[str] | None:
    with tempfile.TemporaryDirectory(prefix='zoo_sdf_') as tmp:
        path = Path(tmp) / f'document{suffix}'
        path.write_text(text, encoding='utf-8')
        errors = _errors(str(path), models)
    return None if errors is None else [ln.replace(str(path), DOC) for ln in errors]


def _errors(path: str, models: Sequence[Path]) -> list[str] | None:
    out = run_ign(['-k', path], models)
    lines = [_ANSI.sub('', ln).strip() for ln in (out.stdout + out.stderr).splitlines()]
    lines = [ln for ln in lines if ln and not any(n in ln for n in _NOISE)]
    if out.returncode == 0 and 'Valid.' in lines:
        return None
    return [ln for ln in lines if ln != 'Valid.'] or [f'ign sdf -k exited {out.returncode}']


def validate_with_sdformat(urdf_text: str, name: str = 'robot') -> None:
    """Raise DescriptionError with the parser's messages unless ``ign sdf -k`` says the URDF is
    valid."""
    if not ign_available():
        raise DescriptionError(
            f'{name}.urdf: `ign` not found: install libsdformat-dev and ignition-tools (tools/setup.sh)')
    errors = sdformat_errors(urdf_text, '.urdf')
    if errors is not None:
        detail = ' | '.join(ln.replace(DOC, '') for ln in errors)
        raise DescriptionError(f'{name}.urdf: ign sdf -k failed: {detail}')
