"""Which gaits the player can play: the generator registry.

Gait packages register their generators through the entry-point group ``gait_player.generators``
(``name = module:factory`` in their setup.py), so the player imports no gait package. A factory
takes no argument and returns a :class:`~gait_player.generator.Generator` entry (a walk) or a
:class:`~gait_player.legs.LegProtocol` entry (a timed protocol of legs, the snake's); it is only
called when its gait is asked for, so a gait's heavy imports (pinocchio for the ZMP walk) cost
nothing to the others.
"""
from __future__ import annotations

import difflib
from importlib import metadata

GROUP = 'gait_player.generators'

# Keys before the coupled-wave walk was named for what it is (issue 26): parameter files and
# scenario overrides written then still load, under the new name.
RENAMED = {'nao_walk': 'nao_wave_walk', 'nao_walk_flat': 'nao_wave_walk_flat',
           'nao_walk_smooth': 'nao_wave_walk_smooth'}


def registered() -> dict[str, metadata.EntryPoint]:
    """name -> entry point of every generator installed here."""
    return {ep.name: ep for ep in metadata.entry_points(group=GROUP)}


def resolve_name(name: str) -> str:
    """``name``, or its new name if it is one of :data:`RENAMED`."""
    return RENAMED.get(name, name)


def lookup(name: str):
    """The entry registered as ``name`` (or under its new name); a ValueError naming the
    choices otherwise (the player prefixes ``parameter generator``)."""
    entries = registered()
    key = resolve_name(name)
    if key not in entries:
        close = difflib.get_close_matches(name, entries, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ''
        raise ValueError(f"expected one of {', '.join(sorted(entries))}, got {name!r}{hint}")
    return entries[key].load()()
