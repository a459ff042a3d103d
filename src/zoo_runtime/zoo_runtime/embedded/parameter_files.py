"""ROS 2 parameter YAML (``<node>: {ros__parameters: {...}}``) and ``-p name:=value`` values.

Follows rcl_yaml_param_parser: map levels above ``ros__parameters`` build the node name
(``ns: {node: {ros__parameters: ...}}`` is ``/ns/node``), nested maps below it are flattened
with ``.``, lists must hold one scalar type. Node keys may use rcl's wildcards: ``*`` matches one
name token and ``**`` any number of them (``/**`` every node, ``/*`` every node in the root
namespace, ``/**/cam`` every node named cam). Exact names win over wildcards; among equals the
later source wins. Every error is one line naming the file (and line) and what was expected.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

__all__ = ['ParameterFileError', 'OverrideSection', 'load_parameter_file', 'parse_value_text',
           'pattern_matches', 'resolve_overrides']

_INT64 = (-2 ** 63, 2 ** 63 - 1)
PARAMS_KEY = 'ros__parameters'


class ParameterFileError(ValueError):
    """A parameter file or ``-p`` value that rcl would reject."""


class _Loader(yaml.SafeLoader):
    """SafeLoader that, like rcl, also reads ``1e3`` (no dot) as a float."""


_Loader.add_implicit_resolver(
    'tag:yaml.org,2002:float',
    re.compile(r'^[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)$'),
    list('-+0123456789'))


@dataclass
class OverrideSection:
    """Parameter values for the nodes a pattern selects, and where they came from."""
    pattern: str
    values: dict[str, object] = field(default_factory=dict)
    origin: str = ''

    @property
    def is_wildcard(self) -> bool:
        return '*' in self.pattern


def _scalar(loader: _Loader, node: yaml.ScalarNode, where: str):
    value = loader.construct_object(node)
    if value is None:
        raise ParameterFileError(f'{where}: has no value (null); give a bool, int, float, string '
                                 'or a list of one of those')
    if isinstance(value, bool) or isinstance(value, (float, str)):
        return value
    if isinstance(value, int):
        if not _INT64[0] <= value <= _INT64[1]:
            raise ParameterFileError(f'{where}: integer {value} does not fit 64 bits')
        return value
    return str(node.value)  # dates and other YAML types are plain strings to rcl


def _value(loader: _Loader, node, where: str):
    if isinstance(node, yaml.ScalarNode):
        return _scalar(loader, node, where)
    if isinstance(node, yaml.SequenceNode):
        items = []
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode):
                nested = 'list' if isinstance(item, yaml.SequenceNode) else 'map'
                raise ParameterFileError(f'{where}: lists must hold scalars, found a nested '
                                         f'{nested}')
            items.append(_scalar(loader, item, where))
        kinds = sorted({type(v).__name__ for v in items})
        if len(kinds) > 1:
            hint = ' (write 1.0, not 1, in a list of floats)' if kinds == ['float', 'int'] else ''
            raise ParameterFileError(f'{where}: list mixes {" and ".join(kinds)}; rcl needs one '
                                     f'type{hint}')
        return items
    raise ParameterFileError(f'{where}: expected a value, found a map')


def _line(node) -> int:
    return node.start_mark.line + 1


def _flatten(loader, node, prefix: str, out: dict, path: str) -> None:
    if isinstance(node, yaml.ScalarNode) and loader.construct_object(node) is None:
        return  # "ros__parameters:" with nothing under it
    if not isinstance(node, yaml.MappingNode):
        raise ParameterFileError(f'{path}:{_line(node)}: {PARAMS_KEY} must be a map of '
                                 'parameter names to values')
    for key_node, value_node in node.value:
        key = str(loader.construct_object(key_node))
        name = f'{prefix}.{key}' if prefix else key
        if isinstance(value_node, yaml.MappingNode):
            _flatten(loader, value_node, name, out, path)
            continue
        if name in out:  # YAML would keep the last silently: the first value would be lost
            raise ParameterFileError(f'{path}:{_line(key_node)}: parameter {name!r} is given '
                                     'twice for one node; remove one')
        out[name] = _value(loader, value_node, f'{path}:{_line(value_node)}: parameter '
                                               f'{name!r}')


def _join_node_path(keys: list[str]) -> str:
    tokens = [t for k in keys for t in k.split('/') if t]
    return '/' + '/'.join(tokens)


def _sections(loader, node, keys: list[str], path: str, out: list[OverrideSection]) -> None:
    if not isinstance(node, yaml.MappingNode):
        here = f"'{_join_node_path(keys)}'" if keys else 'the top level'
        raise ParameterFileError(
            f'{path}:{_line(node)}: {here} has no {PARAMS_KEY}; expected '
            f'<node name>: {{{PARAMS_KEY}: {{name: value, ...}}}}')
    for key_node, value_node in node.value:
        key = str(loader.construct_object(key_node))
        if key == PARAMS_KEY:
            if not keys:
                raise ParameterFileError(f'{path}:{_line(key_node)}: {PARAMS_KEY} needs a node '
                                         'name above it (e.g. /**: or my_node:)')
            section = OverrideSection(_join_node_path(keys), origin=path)
            _flatten(loader, value_node, '', section.values, path)
            out.append(section)
        else:
            _sections(loader, value_node, keys + [key], path, out)


def load_parameter_file(path: str) -> list[OverrideSection]:
    """The sections of a parameter file, in document order."""
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except OSError as e:
        raise ParameterFileError(f'{path}: cannot read parameter file: {e.strerror}') from None
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f'{path}:{mark.line + 1}:{mark.column + 1}' if mark else path
        problem = (e.problem or e.context or 'syntax error').strip()
        raise ParameterFileError(f'{where}: YAML syntax error: {problem}') from None
    except yaml.YAMLError as e:
        raise ParameterFileError(f'{path}: YAML error: {" ".join(str(e).split())}') from None
    finally:
        loader.dispose()
    sections: list[OverrideSection] = []
    if root is None:
        return sections
    _sections(loader, root, [], path, sections)
    return sections


def parse_value_text(text: str, where: str):
    """A ``-p name:=value`` value, typed the YAML way (``1`` int, ``1.0`` float, ``[a, b]``)."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as e:
        raise ParameterFileError(f'{where}: value {text!r} is not valid YAML: '
                                 f'{" ".join(str(e).split())}') from None
    finally:
        loader.dispose()
    if node is None:
        raise ParameterFileError(f'{where}: empty value')
    return _value(loader, node, where)


def _pattern_regex(pattern: str) -> re.Pattern:
    parts = []
    for token in pattern.strip('/').split('/'):
        if token == '**':
            parts.append('(?:/[^/]+)*')
        elif token == '*':
            parts.append('/[^/]+')
        else:
            parts.append('/' + re.escape(token))
    return re.compile(''.join(parts) + r'\Z')


def pattern_matches(pattern: str, node_fqn: str) -> bool:
    if '*' not in pattern:
        return pattern == node_fqn
    return _pattern_regex(pattern).match(node_fqn) is not None


def resolve_overrides(sections: list[OverrideSection], node_fqn: str
                      ) -> dict[str, tuple[object, str]]:
    """``{name: (value, origin)}`` for one node: wildcard sections first, then exact names,
    each group in source order, so that later and more specific values win."""
    result: dict[str, tuple[object, str]] = {}
    for wildcard in (True, False):
        for section in sections:
            if section.is_wildcard == wildcard and pattern_matches(section.pattern, node_fqn):
                for name, value in section.values.items():
                    result[name] = (value, section.origin)
    return result
