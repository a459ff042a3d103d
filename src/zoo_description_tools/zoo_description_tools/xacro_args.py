"""Declared xacro arguments of a description (``config/xacro_args.yaml``) and their validation.

The YAML maps each argument name to ``{default, type, doc}`` plus either ``choices: [...]`` or
``min``/``max``; ``type`` is one of int, float, str, bool.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

import yaml

from .errors import DescriptionError

ARGS_FILE = 'config/xacro_args.yaml'
_TYPES = ('int', 'float', 'str', 'bool')
_XACRO_NS = '{http://www.ros.org/wiki/xacro}'


@dataclass(frozen=True)
class ArgSpec:
    name: str
    type: str
    default: Any
    doc: str
    choices: tuple | None = None
    min: float | None = None
    max: float | None = None

    def allowed(self) -> str:
        """Human-readable allowed values, for error messages."""
        if self.choices is not None:
            return ', '.join(str(c) for c in self.choices)
        lo = '' if self.min is None else f'>= {self.min}'
        hi = '' if self.max is None else f'<= {self.max}'
        bounds = ' and '.join(b for b in (lo, hi) if b)
        return f'{"an" if self.type == "int" else "a"} {self.type}{" " + bounds if bounds else ""}'


def _convert(value: Any, type_name: str) -> Any:
    """``value`` as ``type_name``; ValueError when it is not one."""
    if type_name == 'bool':
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ('true', '1'):
            return True
        if text in ('false', '0'):
            return False
        raise ValueError
    if type_name == 'int':
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, float):
            if not value.is_integer():
                raise ValueError
            return int(value)
        return int(str(value).strip())
    if type_name == 'float':
        if isinstance(value, bool):
            raise ValueError
        result = float(value)
        if not math.isfinite(result):
            raise ValueError
        return result
    return str(value)


def load_arg_specs(package_dir: Path) -> dict[str, ArgSpec]:
    """The declared arguments of the description in ``package_dir`` (an empty dict when the
    package has no ``config/xacro_args.yaml``)."""
    path = Path(package_dir) / ARGS_FILE
    where = f'{Path(package_dir).name}/{ARGS_FILE}'
    if not path.is_file():
        return {}
    with open(path, encoding='utf-8') as f:
        data = yaml.safe_load(f) or {}
    if not isinstance(data, dict):
        raise DescriptionError(f'{where}: expected a mapping of argument names, got {type(data).__name__}')
    specs = {}
    for name, entry in data.items():
        if not isinstance(entry, dict) or 'default' not in entry or entry.get('type') not in _TYPES:
            raise DescriptionError(
                f"{where}: arg '{name}' needs a mapping with 'default' and 'type' in {_TYPES}")
        choices = entry.get('choices')
        spec = ArgSpec(name=str(name), type=entry['type'], default=None, doc=str(entry.get('doc', '')),
                       choices=None if choices is None else tuple(_convert(c, entry['type']) for c in choices),
                       min=entry.get('min'), max=entry.get('max'))
        default = _check_value(spec, entry['default'], where)
        specs[spec.name] = replace(spec, default=default)
    return specs


def _check_value(spec: ArgSpec, value: Any, where: str) -> Any:
    try:
        converted = _convert(value, spec.type)
    except (TypeError, ValueError):
        raise DescriptionError(
            f"{where}: arg '{spec.name}' = {value!r} is not {spec.allowed()}") from None
    if spec.choices is not None and converted not in spec.choices:
        raise DescriptionError(
            f"{where}: arg '{spec.name}' = {value!r} is not one of: {spec.allowed()}")
    if (spec.min is not None and converted < spec.min) or (spec.max is not None and converted > spec.max):
        raise DescriptionError(
            f"{where}: arg '{spec.name}' = {value!r} is out of range: expected {spec.allowed()}")
    return converted


def to_xacro_string(value: Any) -> str:
    if isinstance(value, bool):
        return 'true' if value else 'false'
    return str(value)


def resolve_args(package_dir: Path, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every declared argument with its validated value (``given`` over the defaults)."""
    specs = load_arg_specs(package_dir)
    where = f'{Path(package_dir).name}/{ARGS_FILE}'
    given = dict(given or {})
    unknown = sorted(set(given) - set(specs))
    if unknown:
        declared = ', '.join(specs) or 'none'
        raise DescriptionError(f"{where}: unknown xacro arg '{unknown[0]}' (declared: {declared})")
    return {name: (_check_value(spec, given[name], where) if name in given else spec.default)
            for name, spec in specs.items()}


def xacro_arg_defaults(xacro_path: Path) -> dict[str, str]:
    """The ``<xacro:arg name default>`` declarations of a top-level xacro file."""
    root = ET.parse(xacro_path).getroot()
    return {el.get('name'): el.get('default', '') for el in root.iter(f'{_XACRO_NS}arg')}
