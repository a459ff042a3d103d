"""Find a description package's directory, installed or in the source tree."""
from __future__ import annotations

import re
from pathlib import Path

from zoo_runtime.resources import package_dir, workspace_root

from .errors import DescriptionError


def find_description(package: str) -> Path:
    """The directory of ``package`` (zoo_runtime.resources.package_dir: installed, else
    ``<workspace>/src/<package>``). A name only: a path (``../..``) would resolve outside the
    install prefix."""
    if not re.fullmatch(r'[A-Za-z][A-Za-z0-9_]*', package or ''):
        raise DescriptionError(f'{package!r}: expected a package name (letters, digits, '
                               'underscores), not a path')
    found = package_dir(package)
    if found is not None:
        return found
    root = workspace_root()
    raise DescriptionError(
        f"{package}: description package not found in any AMENT_PREFIX_PATH share/ directory "
        f"nor in {root / 'src' if root else 'a workspace src/ (no colcon.meta found above the cwd)'}")


def load_config(package: str, name: str) -> dict:
    """``<package>/config/<name>.yaml`` as a dict."""
    import yaml
    path = find_description(package) / 'config' / f'{name}.yaml'
    with open(path, encoding='utf-8') as f:
        return yaml.safe_load(f) or {}
