"""Node classes for the embedded runner, found the way `ros2 run` finds executables: through the
packages' entry points (group ``robozoo.nodes``, key ``<package>/<executable>``)."""
from __future__ import annotations

import difflib
from importlib import metadata

from .scenario import ScenarioError

GROUP = 'robozoo.nodes'


def registered_nodes() -> dict[str, metadata.EntryPoint]:
    eps = {}
    for ep in metadata.entry_points(group=GROUP):
        eps.setdefault(ep.name, ep)
    return eps


def resolve_node_class(package: str, executable: str) -> type:
    key = f'{package}/{executable}'
    eps = registered_nodes()
    if key not in eps:
        close = difflib.get_close_matches(key, eps, n=3)
        hint = f'; did you mean {", ".join(close)}?' if close else (
            f' (registered: {", ".join(sorted(eps)) or "none; is the workspace built?"})')
        raise ScenarioError(f"no node executable '{executable}' in package '{package}'{hint}")
    return eps[key].load()
