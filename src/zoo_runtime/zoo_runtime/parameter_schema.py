"""A node's parameters declared once, from a schema file in its package, in the YAML shape of
ros2_controllers' generate_parameter_library: per parameter ``type``, ``default_value``,
``description``, ``read_only`` and ``validation`` (``gt<>``, ``gt_eq<>``, ``lt<>``, ``lt_eq<>``,
``bounds<>``, ``one_of<>``, ``not_empty<>``, ``fixed_size<>``, ``element_bounds<>``,
``unique<>``; ours: ``finite<>``, every number finite). ``expected`` (ours) replaces the phrase
the validators compose in the error and the docs.

The file is ``<package>/params/<executable>.yaml`` (package data: the same in an install space
and a source tree); its top-level key is the executable. A mapping without ``type`` is a group
(names joined by dots), and a key in angle brackets is a placeholder for names only known at run
time (``robots.<robot>.package``, ``gains.<joint>.p``): declared with :meth:`Schema.declare` and
a ``prefix`` that names it. ``__include: [_part]`` (ours) merges ``params/_part.yaml``, parameters
two nodes share; a file whose name starts with ``_`` is such a part, not a node. A part of
another package (a plug-in's parameters, declared on the node that loads the plug-in) joins a
node's schema at run time: ``load(package, '_part')`` and :meth:`Schema.including`.

Types: rcl's (``bool``, ``int``, ``double``, ``string``, their ``_array``s) and two of ours:
``any``, dynamically typed (a list that may arrive empty, as a BYTE_ARRAY, from a parameter
file), and ``auto``, the static type of the default the code gives (a pattern whose entries the
code describes: a simulator backend's options).

```python
values = parameter_schema.load('zoo_bringup', 'talker').declare(self)   # {'rate': 10.0, ...}
```

Values are checked in one place, :meth:`Schema.problem`: the initial value (override or
default) before it is declared, a set_parameters call by an on-set callback. A bad initial value
raises :class:`ParameterSchemaError`, an rclpy InvalidParameterValueException whose line names
the node, the parameter and what was expected.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import re
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from zoo_runtime import introspection, rclpy

__all__ = ['Entry', 'Schema', 'ParameterSchemaError', 'SchemaFileError', 'load', 'from_file',
           'schema_path']

TYPES = {'bool': bool, 'int': int, 'double': float, 'string': str, 'bool_array': bool,
         'int_array': int, 'double_array': float, 'string_array': str, 'any': None, 'auto': None}
PLACEHOLDER = re.compile(r'^<[A-Za-z_][A-Za-z0-9_]*>$')


class SchemaFileError(ValueError):
    """A schema file that cannot be read: its one line names the file and the field."""


class ParameterSchemaError(rclpy.exceptions.InvalidParameterValueException, ValueError):
    """An initial value its schema rejects (a ValueError, as the checks it replaces; the runner
    reads ``parameter_name``, ``value``, ``reason``; str() is the whole line)."""

    def __init__(self, node_name: str, parameter: str, value, reason: str,
                 origin: str | None = None):
        super().__init__(parameter, value, reason)
        where = f' (from {origin})' if origin else ''
        self.args = (f"node '{node_name}': parameter '{parameter}' = {value!r}{where}: {reason}",)

    def __str__(self) -> str:
        return self.args[0]


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _items(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _g(x) -> str:
    return f'{x:g}' if isinstance(x, float) else str(x)


# name -> (phrase of what is expected, check(value, *args) -> bool); arrays: every element
# for the comparisons, the whole list for the size rules
def _each(test):
    return lambda v, *a: all(_is_number(x) and test(x, *a) for x in _items(v))


VALIDATORS = {
    'gt': (lambda a: f'> {_g(a)}', _each(lambda x, a: x > a)),
    'gt_eq': (lambda a: f'>= {_g(a)}', _each(lambda x, a: x >= a)),
    'lt': (lambda a: f'< {_g(a)}', _each(lambda x, a: x < a)),
    'lt_eq': (lambda a: f'<= {_g(a)}', _each(lambda x, a: x <= a)),
    'bounds': (lambda lo, hi: f'in [{_g(lo)}, {_g(hi)}]', _each(lambda x, lo, hi: lo <= x <= hi)),
    'element_bounds': (lambda lo, hi: f'each in [{_g(lo)}, {_g(hi)}]',
                       _each(lambda x, lo, hi: lo <= x <= hi)),
    'finite': (lambda: 'finite', _each(math.isfinite)),
    'one_of': (lambda choices: 'one of ' + ', '.join(map(repr, choices)),
               lambda v, choices: all(x in choices for x in _items(v))),
    'not_empty': (lambda: 'not empty', lambda v: len(v) > 0),
    'fixed_size': (lambda n: f'{n} items', lambda v, n: len(v) == n),
    'unique': (lambda: 'no item twice', lambda v: len(set(v)) == len(v)),
}


@dataclasses.dataclass(frozen=True)
class Entry:
    """One parameter (or a pattern of them) of a schema."""
    name: str                 # dotted; placeholders as '<robot>'
    type: str
    default: Any              # None: declared without a value (its type only)
    description: str
    read_only: bool
    validation: tuple         # ((validator, args), ...)
    expected: str | None      # the schema's own words for what is expected

    @property
    def pattern(self) -> bool:
        return any(PLACEHOLDER.match(s) for s in self.name.split('.'))

    def matches(self, name: str) -> bool:
        mine, theirs = self.name.split('.'), name.split('.')
        return len(mine) == len(theirs) and all(
            m == t or PLACEHOLDER.match(m) for m, t in zip(mine, theirs))

    def expectation(self) -> str:
        """What a value must be, in words ('' when anything of its type goes)."""
        if self.expected:
            return self.expected
        return ' and '.join(VALIDATORS[v][0](*args) for v, args in self.validation)

    def problem(self, value) -> str | None:
        """Why ``value`` is not a legal value (None when it is)."""
        if value is None:  # not given: only a required (not_empty) one is wrong
            return (f'expected {self.expectation()}, got nothing' if
                    any(v == 'not_empty' for v, _ in self.validation) else None)
        if self.type == 'any' and isinstance(value, (bytes, bytearray)) and not value:
            return None  # an empty list from a parameter file
        for v, args in self.validation:
            try:
                ok = VALIDATORS[v][1](value, *args)
            except TypeError:
                ok = False
            if not ok:
                return f'expected {self.expectation()}, got {value!r}'
        return None

    def descriptor(self, name: str, description: str | None = None):
        """The rcl ParameterDescriptor ``ros2 param describe`` shows (ranges where they fit)."""
        from zoo_runtime.interfaces.rcl_interfaces.msg import (FloatingPointRange, IntegerRange,
                                                               ParameterDescriptor)
        d = ParameterDescriptor(name=name, description=description or self.description,
                                additional_constraints=self.expectation(),
                                read_only=self.read_only, dynamic_typing=self.type == 'any')
        bounds = dict(self.validation).get('bounds')
        if bounds and all(math.isfinite(b) for b in bounds):
            if self.type == 'double':
                d.floating_point_range = [FloatingPointRange(
                    from_value=float(bounds[0]), to_value=float(bounds[1]), step=0.0)]
            elif self.type == 'int':
                d.integer_range = [IntegerRange(from_value=int(bounds[0]),
                                                to_value=int(bounds[1]), step=0)]
        return d

    def declaration_default(self, default=None):
        """The second argument of declare_parameter: the default, else the type."""
        value = self.default if default is None else default
        if value is not None or self.type == 'any':
            return value
        Type = rclpy.parameter.Parameter.Type
        return getattr(Type, self.type.upper())


@dataclasses.dataclass
class Schema:
    package: str
    node: str                 # the executable ('talker' of zoo_bringup/talker)
    entries: dict[str, Entry]
    path: str
    includes: tuple[str, ...] = ()   # the shared parts merged in (``__include``)

    def including(self, *parts: 'Schema') -> 'Schema':
        """This schema with the entries of ``parts`` (other packages' parts: the parameters a
        plug-in declares on this node), checked as one."""
        entries = dict(self.entries)
        for part in parts:
            entries.update(part.entries)
        return dataclasses.replace(self, entries=entries)

    def entry(self, name: str) -> Entry | None:
        """The entry ``name`` (a declared name, placeholders filled) belongs to."""
        if name in self.entries:
            return self.entries[name]
        return next((e for e in self.entries.values() if e.pattern and e.matches(name)), None)

    def problem(self, name: str, value) -> str | None:
        """Why ``value`` may not be parameter ``name`` (None when it may): the one check."""
        entry = self.entry(name)
        if entry is None:
            return f'not a parameter of {self.package}/{self.node} ({self.path})'
        return entry.problem(value)

    def declare(self, node, prefix: str = '', *, default=None, description: str | None = None,
                skip: tuple[str, ...] = (), **placeholders) -> dict[str, Any]:
        """Declare the entries under ``prefix`` on ``node`` (all without placeholders when
        ``prefix`` is ''), placeholders filled from ``placeholders`` (``robot='nao'`` for
        ``<robot>``); returns their values by name relative to ``prefix``. ``default`` and
        ``description`` fill in those a pattern entry leaves to the code (a backend's options);
        ``skip`` names those the code declares afterwards, with a default that depends on
        another parameter's value."""
        if prefix:
            chosen = [e for e in self.entries.values()
                      if e.name == prefix or e.name.startswith(prefix + '.')]
        else:
            chosen = [e for e in self.entries.values() if not e.pattern and e.name not in skip]
        if prefix and not chosen:
            raise SchemaFileError(f'{self.path}: no parameter under {prefix!r}')
        _watch(node, self)
        filled = _fill(prefix, placeholders)
        values = {}
        for entry in chosen:
            name = _fill(entry.name, placeholders)
            key = name[len(filled) + 1:] if prefix and entry.name != prefix else name
            values[key] = self._declare_one(node, entry, name, default, description)
        return values

    def _declare_one(self, node, entry: Entry, name: str, default, description):
        if '<' in name:
            raise SchemaFileError(f'{self.path}: {entry.name}: a placeholder has no value')
        override = getattr(node, '_parameter_overrides', {}).get(name)  # rclpy's and ours
        value = override.value if override is not None else (
            entry.default if default is None else default)
        if value is None or _type_fits(entry.type, value):  # a wrong type: rclpy's error
            reason = entry.problem(value)
            if reason:
                origin = (introspection.parameter_origins(node).get(name)
                          if override is not None else None)
                raise ParameterSchemaError(node.get_name(), name, value, reason, origin)
        return node.declare_parameter(name, entry.declaration_default(default),
                                      entry.descriptor(name, description)).value


def _fill(name: str, placeholders: dict) -> str:
    """``name`` with its placeholders replaced by their values (``<robot>`` by ``robot=``)."""
    return '.'.join(str(placeholders.get(s[1:-1], s)) if PLACEHOLDER.match(s) else s
                    for s in name.split('.'))


def _type_fits(type_name: str, value) -> bool:
    py = TYPES[type_name]
    if py is None or value is None:
        return py is None
    if type_name.endswith('_array'):
        return isinstance(value, (list, tuple)) and all(
            isinstance(x, py) and (py is bool or not isinstance(x, bool)) for x in value)
    return isinstance(value, py) and (py is bool or not isinstance(value, bool))


def _watch(node, schema: Schema) -> None:
    """Check every later set_parameters of ``node`` against ``schema`` (once per node)."""
    if getattr(node, '_parameter_schema', None) is schema:
        return
    node._parameter_schema = schema

    def on_set(params):
        from zoo_runtime.interfaces.rcl_interfaces.msg import SetParametersResult
        for p in params:
            entry = schema.entry(p.name)
            reason = entry.problem(p.value) if entry is not None else None
            if reason:
                return SetParametersResult(successful=False,
                                           reason=f'parameter {p.name}: {reason}')
        return SetParametersResult(successful=True)
    node.add_on_set_parameters_callback(on_set)


# -- reading a schema file -----------------------------------------------------------------------
def schema_path(package: str, node: str):
    """Where ``<package>/<node>``'s schema is (package data of the Python package)."""
    return resources.files(package).joinpath('params', f'{node}.yaml')


@functools.lru_cache(maxsize=None)
def load(package: str, node: str) -> Schema:
    """The schema of executable ``node`` of ``package``."""
    path = schema_path(package, node)
    if not path.is_file():
        raise SchemaFileError(f'{package}/{node}: no parameter schema (expected {path})')
    return from_file(path, package)


def from_file(path, package: str) -> Schema:
    path = Path(str(path))
    try:
        doc = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise SchemaFileError(f'{path}: not a readable YAML file: '
                              f'{str(exc).splitlines()[0]}') from None
    if not isinstance(doc, dict) or len(doc) != 1:
        raise SchemaFileError(f'{path}: expected one top-level key, the executable (or the '
                              "file name of a part other schemas '__include')")
    (node, body), = doc.items()
    if node != path.stem:
        raise SchemaFileError(f'{path}: top-level key {node!r}: expected {path.stem!r} (the '
                              'file name)')
    body = dict(body or {})
    entries: dict[str, Entry] = {}
    includes = tuple(body.pop('__include', None) or ())  # parameters two nodes share
    for part in includes:
        entries.update(from_file(path.with_name(f'{part}.yaml'), package).entries)
    _collect(body, '', path, entries)
    return Schema(package, node, entries, str(path), includes)


def _collect(body, prefix: str, path, out: dict) -> None:
    if not isinstance(body, dict):
        raise SchemaFileError(f'{path}: {prefix or "top level"}: expected a mapping')
    for key, value in body.items():
        name = f'{prefix}.{key}' if prefix else str(key)
        if isinstance(value, dict) and 'type' not in value:
            _collect(value, name, path, out)
        else:
            out[name] = _entry(name, value, path)


FIELDS = {'type', 'default_value', 'description', 'read_only', 'validation', 'expected'}


def _entry(name: str, spec, path) -> Entry:
    where = f'{path}: {name}'
    if not isinstance(spec, dict):
        raise SchemaFileError(f'{where}: expected a mapping with type and description')
    unknown = set(spec) - FIELDS
    if unknown:
        raise SchemaFileError(f'{where}: unknown field {sorted(unknown)[0]!r} (expected '
                              f'{", ".join(sorted(FIELDS))})')
    if spec.get('type') not in TYPES:
        raise SchemaFileError(f'{where}: type: expected one of {", ".join(TYPES)}, got '
                              f'{spec.get("type")!r}')
    if not isinstance(spec.get('description'), str) or not spec['description'].strip():
        raise SchemaFileError(f'{where}: description: expected a sentence')
    validation = []
    for key, args in (spec.get('validation') or {}).items():
        v = str(key).removesuffix('<>')
        if v not in VALIDATORS:
            raise SchemaFileError(f'{where}: validation {key!r}: expected one of '
                                  f'{", ".join(k + "<>" for k in VALIDATORS)}')
        args = tuple(args) if isinstance(args, list) else (args,)
        if v == 'one_of' and args and not isinstance(args[0], list):
            args = (list(args),)
        validation.append((v, args))
    default = spec.get('default_value')
    if isinstance(default, list):
        default = list(default)
    if spec['type'] == 'double' and _is_number(default):
        default = float(default)  # YAML's 10 for a double
    if spec['type'] == 'double_array' and isinstance(default, list):
        default = [float(x) if _is_number(x) else x for x in default]
    entry = Entry(name, spec['type'], default, spec['description'].strip(),
                  bool(spec.get('read_only', False)), tuple(validation), spec.get('expected'))
    if default is not None and (not _type_fits(entry.type, default) or entry.problem(default)):
        raise SchemaFileError(f'{where}: default_value {default!r} is not a legal value '
                              f'({entry.type}{", " + entry.expectation() if entry.validation else ""})')
    return entry
