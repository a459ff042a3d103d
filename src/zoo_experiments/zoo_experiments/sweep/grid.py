"""The grid of a sweep: ``--set NODE.PARAM=a,b,c`` flags, each an axis, and their cartesian product.

Each value is handed to the one ``--set`` path of ``robozoo run`` (``scenario.apply_overrides``:
YAML value, node name checked with a close match) as ``NODE.PARAM=a``; the runner checks the
parameter's name and type when the nodes are built. The only parsing here is the split at the
commas between values, which skips commas inside brackets and quotes, so that
``sim.gravity=[0,0,-9.80665],[0,0,-3.72111]`` is two values.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from zoo_scenario.scenario import Scenario, ScenarioError, apply_overrides


@dataclass(frozen=True)
class Axis:
    name: str                 # NODE.PARAM
    values: tuple[str, ...]   # as written, one --set value each

    def overrides(self) -> list[str]:
        return [f'{self.name}={v}' for v in self.values]


def split_values(raw: str) -> list[str]:
    """``a,b,[c,d],'e,f'`` -> ``['a', 'b', '[c,d]', "'e,f'"]``: commas at the top level only."""
    out, depth, quote, start = [], 0, '', 0
    for i, ch in enumerate(raw):
        if quote:
            quote = '' if ch == quote else quote
        elif ch in '\'"':
            quote = ch
        elif ch in '[{':
            depth += 1
        elif ch in ']}':
            depth -= 1
        elif ch == ',' and depth == 0:
            out.append(raw[start:i].strip())
            start = i + 1
    out.append(raw[start:].strip())
    return out


def parse_axes(flags: list[str], sc: Scenario) -> list[Axis]:
    """The axes of ``--set`` flags, each value checked by ``apply_overrides`` on ``sc`` (one line
    naming the flag on a bad one)."""
    axes: list[Axis] = []
    for flag in flags:
        name, sep, raw = flag.partition('=')
        values = split_values(raw) if sep else []
        if not sep or any(v == '' for v in values):
            raise ScenarioError(f'--set {flag}: expected node.parameter=value[,value...] '
                                f'(an empty value between commas?)')
        if any(a.name == name for a in axes):
            raise ScenarioError(f'--set {flag}: {name} is given twice; list all its values in '
                                f'one --set, separated by commas')
        axis = Axis(name.strip(), tuple(values))
        if len(set(axis.values)) != len(axis.values):
            raise ScenarioError(f'--set {flag}: a value is listed twice')
        apply_overrides(sc, axis.overrides())  # format, node name, value kind
        axes.append(axis)
    return axes


def points(axes: list[Axis]) -> list[list[str]]:
    """Every combination as ``--set`` overrides, the last axis varying fastest; index = seq."""
    return [list(p) for p in itertools.product(*(a.overrides() for a in axes))]
