"""libsdformat as the authority on SDF: validation with ``ign sdf -k`` and the element tree of the
specification from ``ign sdf -d <version>`` (Debian's ``ignition-tools`` + ``libsdformat-dev``).

``ign sdf -k`` accepts elements it does not know, so :func:`unknown_elements` walks a document
against the specification tree to catch misspelt or invented elements as errors.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from zoo_description_tools.cache import cached, content_key, tree_files

from . import SimConfigError
from .resources import model_search_paths

_ANSI = re.compile(r'\x1b\[[0-9;]*m')
# Lines libsdformat prints that say nothing about the document.
_NOISE = ('libignition-tools-backward', 'Tried to use callback in sdf::findFile()')


def ign_available() -> bool:
    return shutil.which('ign') is not None


def _run_ign(args: list[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    # libsdformat resolves model:// through SDF_PATH only; give it the same search path we use.
    env['SDF_PATH'] = os.pathsep.join(str(p) for p in model_search_paths())
    return subprocess.run(['ign', 'sdf', *args], capture_output=True, text=True, env=env,
                          timeout=60)


def validate_sdf(path_or_text: str | Path, name: str | None = None) -> None:
    """Raise :class:`SimConfigError` with libsdformat's message (file, element, reason) unless the
    SDF or URDF is valid. ``path_or_text`` is a file path or the document itself; ``name`` labels
    a document given as text. Verdicts are cached by content (the document and every file under
    the model search paths, which its includes may read; zoo_description_tools.cache)."""
    if not ign_available():
        raise SimConfigError("cannot validate SDF: the 'ign' tool is missing (Debian packages "
                             'ignition-tools and libsdformat-dev; tools/setup.sh installs them)')
    text = str(path_or_text)
    models = model_search_paths()
    common = ('ign sdf -k', _ign_identity(), [str(p) for p in models])
    if text.lstrip().startswith('<'):
        suffix = '.urdf' if '<robot' in text[:2000] else '.sdf'
        label = name or '<sdf text>'
        key = content_key(*common, suffix, text, files=tree_files(*models))
        problem = cached('sdf-check', key, lambda: _verdict_of_text(text, suffix))
    else:
        label = text
        key = content_key(*common, files=[Path(text), *tree_files(*models)])
        problem = cached('sdf-check', key, lambda: _verdict(text))
    if problem is not None:
        raise SimConfigError(f'{label}: invalid SDF: {problem}')


def _ign_identity() -> tuple[str, int]:
    """The ign tool in use (path, modification time): part of every cached verdict's key."""
    tool = shutil.which('ign') or 'ign'
    try:
        return tool, os.stat(tool).st_mtime_ns
    except OSError:
        return tool, 0


def _verdict_of_text(text: str, suffix: str) -> str | None:
    with tempfile.NamedTemporaryFile('w', suffix=suffix, delete=False) as f:
        f.write(text)
        tmp = f.name
    try:
        return _verdict(tmp)
    finally:
        os.unlink(tmp)


def _verdict(path: str) -> str | None:
    """None when libsdformat accepts the file, else its errors in one line."""
    out = _run_ign(['-k', path])
    lines = [_ANSI.sub('', ln).strip() for ln in (out.stdout + out.stderr).splitlines()]
    lines = [ln for ln in lines if ln and not any(n in ln for n in _NOISE)]
    if out.returncode == 0 and any(ln == 'Valid.' for ln in lines):
        return None
    errors = [ln for ln in lines if ln != 'Valid.']
    return '; '.join(_shorten(ln, path) for ln in errors) or f'ign sdf -k exited {out.returncode}'


def _shorten(line: str, path: str) -> str:
    # "Error Code 13: [/sdf/world[@name="w"]/include[0]/uri:/x.sdf:L6]: Msg: Unable to find ..."
    m = re.match(r'Error Code \d+: \[(.*?):(?:.*?):L(\d+)\]: Msg: (.*)', line)
    if m:
        return f'line {m.group(2)}, element {m.group(1)}: {m.group(3)}'
    m = re.search(r'Error=(\w+).*Line number=(\d+): XMLElement name=(\S+)', line)
    if m:
        return f'line {m.group(2)}, element <{m.group(3)}>: XML syntax error {m.group(1)}'
    return line.replace(path, '').replace('Error Code', 'error').strip(' :')


@functools.lru_cache(maxsize=4)
def spec_tree(version: str) -> ET.Element:
    """The aggregated SDF specification (``<element name=...>`` tree) for a version."""
    def describe() -> str | None:
        out = _run_ign(['-d', version])
        return out.stdout if out.returncode == 0 and '<element' in out.stdout else None

    text = cached('sdf-spec', content_key('ign sdf -d', _ign_identity(), version), describe)
    if text is None:
        raise SimConfigError(f'ign sdf -d {version} did not describe SDF version {version}')
    return ET.fromstring(text)


def unknown_elements(doc: ET.Element, version: str) -> list[str]:
    """Paths of elements of ``doc`` (the ``<sdf>`` root) that the SDF specification does not
    define. Custom elements (a ``prefix:name`` tag, SDF >= 1.8) and plugin contents are free."""
    spec = spec_tree(version)
    bad: list[str] = []

    def walk(node: ET.Element, spec_node: ET.Element, path: str) -> None:
        children = {e.get('name'): e for e in spec_node.findall('element') if e.get('name')}
        free = any(e.get('copy_data') for e in spec_node.findall('element'))
        for child in node:
            if not isinstance(child.tag, str) or ':' in child.tag or child.tag.startswith('{'):
                continue
            label = f"{path}/{child.tag}" + (f"[{child.get('name')}]" if child.get('name') else '')
            if child.tag in children:
                walk(child, children[child.tag], label)
            elif not free:
                bad.append(label)

    walk(doc, spec, '/sdf')
    return bad
