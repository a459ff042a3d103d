"""Where worlds, models and description packages are found, and how URIs resolve to files.

Search order for ``model://<name>``: ``<ws>/models``, then ``GZ_SIM_RESOURCE_PATH``,
``IGN_GAZEBO_RESOURCE_PATH`` and ``SDF_PATH`` (the variables Gazebo and libsdformat read).
``package://<pkg>/...`` resolves through :func:`find_description`.
"""
from __future__ import annotations

import os
from pathlib import Path

from zoo_description_tools import DescriptionError
from zoo_description_tools import find_description as _find_description
from zoo_runtime.resources import package_share, workspace_root

from . import SimConfigError

RESOURCE_ENV = ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH')


def installed_share() -> Path | None:
    """zoo_sim's installed share directory (worlds/ and models/ are installed there)."""
    return package_share('zoo_sim')


def model_search_paths() -> list[Path]:
    paths: list[Path] = []
    ws = workspace_root()
    if ws is not None:
        paths.append(ws / 'models')
    share = installed_share()
    if share is not None:
        paths.append(share / 'models')
    for var in RESOURCE_ENV:
        paths += [Path(p) for p in os.environ.get(var, '').split(os.pathsep) if p]
    seen: set[Path] = set()
    return [p for p in paths if not (p in seen or seen.add(p))]


def find_world(name_or_path: str) -> Path:
    """A world file from a path, or a name resolved as ``<ws>/worlds/<name>.sdf``."""
    p = Path(name_or_path).expanduser()
    if p.suffix in ('.sdf', '.world') or os.sep in name_or_path:
        if not p.is_file():
            raise SimConfigError(f"world file '{p}' does not exist")
        return p.resolve()
    ws = workspace_root()
    worlds = ws / 'worlds' if ws else None
    if worlds is None or not worlds.is_dir():  # installed (ros2 launch without a checkout)
        share = installed_share()
        worlds = share / 'worlds' if share is not None else worlds
    if worlds is not None and (worlds / f'{name_or_path}.sdf').is_file():
        return (worlds / f'{name_or_path}.sdf').resolve()
    known = sorted(f.stem for f in worlds.glob('*.sdf')) if worlds and worlds.is_dir() else []
    raise SimConfigError(f"world '{name_or_path}' not found in {worlds or '<no workspace>'} "
                         f"(known: {', '.join(known) or 'none'})")


def find_description(pkg: str) -> Path:
    """The directory of a description package (installed share/<pkg> first, then
    <ws>/src/<pkg>): :func:`zoo_description_tools.find_description` with the simulator's error."""
    try:
        return _find_description(pkg)
    except DescriptionError as exc:
        raise SimConfigError(str(exc)) from None


def resolve_uri(uri: str, base_dir: Path, where: str) -> Path:
    """A file for ``model://``, ``package://``, ``file://``, absolute or relative (to base_dir)
    URIs; ``where`` names the file and element for the error message."""
    uri = uri.strip()
    if uri.startswith('model://'):
        name, _, rest = uri[len('model://'):].partition('/')
        for root in model_search_paths():
            if (root / name).is_dir():
                return (root / name / rest) if rest else root / name
        searched = ', '.join(str(p) for p in model_search_paths()) or 'nothing'
        raise SimConfigError(f"{where}: cannot resolve '{uri}': no model '{name}' in {searched} "
                             '(set GZ_SIM_RESOURCE_PATH)')
    if uri.startswith('package://'):
        pkg, _, rest = uri[len('package://'):].partition('/')
        return find_description(pkg) / rest
    if uri.startswith('file://'):
        uri = uri[len('file://'):]
    p = Path(uri)
    return p if p.is_absolute() else base_dir / p
