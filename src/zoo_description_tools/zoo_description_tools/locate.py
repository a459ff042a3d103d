"""Find a description package's directory, installed or in the source tree."""
from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import DescriptionError


def _walk_up_for_workspace(start: Path) -> Path | None:
    for d in (start, *start.parents):
        if (d / 'colcon.meta').is_file() and (d / 'src').is_dir():
            return d
    return None


def _workspace_root() -> Path | None:
    try:
        from zoo_runtime import workspace_root
    except ImportError:  # zoo_runtime not on the path: walk up ourselves
        root = None
    else:
        root = workspace_root()
    if root:
        return Path(root)
    return (_walk_up_for_workspace(Path.cwd())
            or _walk_up_for_workspace(Path(__file__).resolve().parent))


def find_description(package: str) -> Path:
    """The directory of ``package``: ``<prefix>/share/<package>`` for the first AMENT_PREFIX_PATH
    prefix that has it (the colcon install space), else ``<workspace>/src/<package>``. A name
    only: a path (``../..``) would resolve outside the install prefix."""
    if not re.fullmatch(r'[A-Za-z][A-Za-z0-9_]*', package or ''):
        raise DescriptionError(f'{package!r}: expected a package name (letters, digits, '
                               'underscores), not a path')
    for prefix in filter(None, os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)):
        candidate = Path(prefix) / 'share' / package
        if (candidate / 'package.xml').is_file():
            return candidate
    root = _workspace_root()
    if root is not None and (root / 'src' / package / 'package.xml').is_file():
        return root / 'src' / package
    raise DescriptionError(
        f"{package}: description package not found in any AMENT_PREFIX_PATH share/ directory "
        f"nor in {root / 'src' if root else 'a workspace src/ (no colcon.meta found above the cwd)'}")


def load_config(package: str, name: str) -> dict:
    """``<package>/config/<name>.yaml`` as a dict."""
    import yaml
    path = find_description(package) / 'config' / f'{name}.yaml'
    with open(path, encoding='utf-8') as f:
        return yaml.safe_load(f) or {}
