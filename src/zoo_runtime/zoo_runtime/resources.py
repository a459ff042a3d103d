"""Where the workspace and the ROS packages are: robozoo's one resource locator (issue 26).

A package is *installed* when an ``AMENT_PREFIX_PATH`` prefix registers it in its ament index
(``<prefix>/share/ament_index/resource_index/packages/<pkg>``), which is what
ament_index_python's ``get_package_share_directory`` checks; its files are then under
``<prefix>/share/<pkg>``. Without an install, a checkout's ``<ws>/src/<pkg>``. No ROS import.
"""
from __future__ import annotations

import os
from pathlib import Path


def workspace_root() -> Path | None:
    """The robozoo workspace root: ``ROBOZOO_WS``, else the first parent of the cwd or of this
    file that holds ``colcon.meta`` and ``src/``; None when not run from a workspace."""
    env = os.environ.get('ROBOZOO_WS')
    if env:
        return Path(os.path.abspath(env))
    for start in (Path(os.getcwd()), Path(os.path.abspath(__file__)).parent):
        for d in (start, *start.parents):
            if (d / 'colcon.meta').is_file() and (d / 'src').is_dir():
                return d
    return None


def ament_prefixes() -> list[Path]:
    """The install prefixes of ``AMENT_PREFIX_PATH``, highest precedence first."""
    return [Path(p) for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p]


def package_share(pkg: str) -> Path | None:
    """``<prefix>/share/<pkg>`` of the first prefix whose ament index registers ``pkg``."""
    for prefix in ament_prefixes():
        if (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / pkg).is_file():
            return prefix / 'share' / pkg
    return None


def package_dir(pkg: str) -> Path | None:
    """The installed share directory of ``pkg``, else the checkout's ``<ws>/src/<pkg>``."""
    share = package_share(pkg)
    if share is not None:
        return share
    ws = workspace_root()
    if ws is not None and (ws / 'src' / pkg / 'package.xml').is_file():
        return ws / 'src' / pkg
    return None
