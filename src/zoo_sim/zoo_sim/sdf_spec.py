"""libsdformat as the authority on SDF: validation with ``ign sdf -k`` and the element tree of the
specification from ``ign sdf -d <version>`` (Debian's ``ignition-tools`` + ``libsdformat-dev``).

``ign sdf -k`` accepts elements it does not know, so :func:`unknown_elements` walks a document
against the specification tree to catch misspelt or invented elements as errors.
"""
from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from zoo_description_tools.cache import cached, content_key
from zoo_description_tools.sdformat_check import (DOC, ign_available, ign_identity, run_ign,
                                                  sdformat_errors)

from . import SimConfigError
from .resources import model_search_paths


def _run_ign(args: list[str]):
    """``ign sdf <args>`` with our model search paths (``model://``)."""
    return run_ign(args, model_search_paths())


def validate_sdf(path_or_text: str | Path, name: str | None = None) -> None:
    """Raise :class:`SimConfigError` with libsdformat's message (file, element, reason) unless the
    SDF or URDF is valid. ``path_or_text`` is a file path or the document itself; ``name`` labels
    a document given as text. The verdict comes from zoo_description_tools.sdformat_check (cached
    by content: the document and every file under the model search paths)."""
    if not ign_available():
        raise SimConfigError("cannot validate SDF: the 'ign' tool is missing (Debian packages "
                             'ignition-tools and libsdformat-dev; tools/setup.sh installs them)')
    text = str(path_or_text)
    is_text = text.lstrip().startswith('<')
    errors = sdformat_errors(text, model_paths=model_search_paths())
    if errors is not None:
        path = DOC if is_text else text
        label = (name or '<sdf text>') if is_text else text
        raise SimConfigError(f"{label}: invalid SDF: {'; '.join(_shorten(ln, path) for ln in errors)}")


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

    text = cached('sdf-spec', content_key('ign sdf -d', ign_identity(), version), describe)
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
