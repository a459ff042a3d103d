"""Parser for ROS 2 ``.msg`` and ``.srv`` files.

It produces the rosbags ``Typesdict`` shape (``name -> (constants, fields)``, the format of
``Typestore.fielddefs``) so the types can be registered in the shared typestore, plus the field
default values (``float64 w 1``) that the typestore does not keep. Grammar: the ROS 2 interface
definition (docs.ros.org "Interfaces"): ``type name [default]`` fields, ``TYPE NAME=value``
constants, ``[]``/``[N]``/``[<=N]`` arrays, ``string<=N`` bounded strings, ``#`` comments, and in a
``.srv`` file one ``---`` line between request and response. Errors name the file and line.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from rosbags.interfaces import Nodetype

PRIMITIVES = ('bool', 'byte', 'char', 'float32', 'float64', 'int8', 'uint8', 'int16', 'uint16',
              'int32', 'uint32', 'int64', 'uint64', 'string')
_INT_RANGES = {
    'int8': (-2**7, 2**7 - 1), 'int16': (-2**15, 2**15 - 1), 'int32': (-2**31, 2**31 - 1),
    'int64': (-2**63, 2**63 - 1), 'uint8': (0, 2**8 - 1), 'uint16': (0, 2**16 - 1),
    'uint32': (0, 2**32 - 1), 'uint64': (0, 2**64 - 1), 'char': (0, 255), 'byte': (0, 255),
}
# ROS 2 names: lower snake case fields without double or trailing underscores, upper-case constants,
# CamelCase types, lower snake case packages.
_FIELD_NAME = re.compile(r'[a-z](?:_?[a-z0-9]+)*$')
_CONST_NAME = re.compile(r'[A-Z](?:_?[A-Z0-9]+)*$')
_TYPE_NAME = re.compile(r'(?:([a-z](?:_?[a-z0-9]+)*)/(?:msg/)?)?([A-Z][A-Za-z0-9]*)$')
_TYPE = re.compile(
    r'(?P<base>[A-Za-z0-9_/]+?)(?:<=(?P<strbound>\d+))?(?:\[(?P<arr>(?:<=)?\d*)\])?$')
EMPTY_MEMBER = 'structure_needs_at_least_one_member'


class InterfaceDefinitionError(ValueError):
    """A ``.msg``/``.srv`` file that does not parse; the message names the file and line."""


@dataclass
class ParsedType:
    """One message type: rosbags fielddefs entry plus field defaults in rclpy's Python form."""

    name: str
    constants: list[tuple[str, str, object]] = field(default_factory=list)
    fields: list[tuple[str, tuple]] = field(default_factory=list)
    defaults: dict[str, object] = field(default_factory=dict)

    def fielddef(self) -> tuple[list, list]:
        # rosidl gives an empty structure one uint8 member; rosbags and the CDR bytes expect it.
        return self.constants, self.fields or [(EMPTY_MEMBER, (Nodetype.BASE, ('uint8', 0)))]


def parse_msg(text: str, type_name: str, source: str = '<string>', first_line: int = 1
              ) -> ParsedType:
    """Parse one message definition named ``pkg/msg/Name`` (or ``pkg/srv/Name_Request``).
    ``source`` and ``first_line`` only serve error messages."""
    pkg = type_name.split('/')[0]
    out = ParsedType(type_name)
    seen: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), start=first_line):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        where = f'{source}:{lineno}'
        try:
            _parse_line(line, pkg, out, seen)
        except InterfaceDefinitionError as exc:
            raise InterfaceDefinitionError(f'{where}: {exc} in {raw.strip()!r}') from None
    return out


def parse_srv(text: str, type_name: str, source: str = '<string>') -> tuple[ParsedType, ParsedType]:
    """Parse a service definition ``pkg/srv/Name`` into its ``_Request`` and ``_Response`` types."""
    lines = text.splitlines()
    seps = [i for i, line in enumerate(lines) if _strip_comment(line).strip() == '---']
    if len(seps) != 1:
        raise InterfaceDefinitionError(
            f"{source}: a .srv file needs exactly one '---' line between request and response, "
            f'found {len(seps)}')
    cut = seps[0]
    request = parse_msg('\n'.join(lines[:cut]), type_name + '_Request', source, 1)
    response = parse_msg('\n'.join(lines[cut + 1:]), type_name + '_Response', source, cut + 2)
    return request, response


def _strip_comment(line: str) -> str:
    """Drop a ``#`` comment, keeping ``#`` inside quoted string values."""
    quote, escaped = None, False
    for i, ch in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif ch == '\\':
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in '"\'':
            quote = ch
        elif ch == '#':
            return line[:i]
    return line


def _parse_line(line: str, pkg: str, out: ParsedType, seen: set[str]) -> None:
    parts = line.split(None, 1)
    if len(parts) < 2:
        raise InterfaceDefinitionError(
            'expected "<type> <name> [default]" or "<type> <NAME>=<value>"')
    typ, rest = parts
    m = re.match(r'([A-Za-z0-9_]+)\s*=\s*(.*)$', rest)
    if m:
        name, value = m.group(1), m.group(2).strip()
        if not _CONST_NAME.match(name):
            raise InterfaceDefinitionError(f'constant name {name!r} must be UPPER_CASE')
        if typ not in PRIMITIVES:
            raise InterfaceDefinitionError(
                f'constant {name!r} must have a primitive type, got {typ!r}')
        if name in seen:
            raise InterfaceDefinitionError(f'duplicate name {name!r}')
        seen.add(name)
        # Stored as rosbags keeps constants (byte as int); the message classes show rclpy's form.
        const = _scalar_value(typ, value, 0, raw_string=True)
        out.constants.append((name, typ, const[0] if typ == 'byte' else const))
        return
    name_default = rest.split(None, 1)
    name = name_default[0]
    if not _FIELD_NAME.match(name):
        raise InterfaceDefinitionError(
            f'field name {name!r} must be lower_snake_case without double or trailing underscores')
    if name in seen:
        raise InterfaceDefinitionError(f'duplicate name {name!r}')
    seen.add(name)
    desc, base, str_bound, kind, size = _field_desc(typ, pkg)
    out.fields.append((name, desc))
    if len(name_default) == 2:
        if '/' in base:
            raise InterfaceDefinitionError(
                f'field {name!r} of message type {base} cannot have a default')
        out.defaults[name] = _default_value(base, str_bound, kind, size, name_default[1].strip())


def _field_desc(typ: str, pkg: str) -> tuple[tuple, str, int, str, int]:
    m = _TYPE.match(typ)
    if not m:
        raise InterfaceDefinitionError(f'cannot read the type {typ!r}')
    base, arr = m.group('base'), m.group('arr')
    str_bound = int(m.group('strbound') or 0)
    if m.group('strbound') and base != 'string':
        raise InterfaceDefinitionError(f'only string can be bounded with "<=", got {typ!r}')
    if base in PRIMITIVES:
        elem = (Nodetype.BASE, (base, str_bound))
    elif base in ('wstring', 'time', 'duration', 'float128'):
        raise InterfaceDefinitionError(f'type {base!r} is not supported')
    else:
        tm = _TYPE_NAME.match(base)
        if not tm:
            raise InterfaceDefinitionError(
                f"unknown type {base!r}: expected a primitive ({', '.join(PRIMITIVES)}) or "
                "'pkg/Type' / 'Type' of the same package")
        ref_pkg = tm.group(1) or ('std_msgs' if tm.group(2) == 'Header' else pkg)
        base = f'{ref_pkg}/msg/{tm.group(2)}'
        elem = (Nodetype.NAME, base)
    if arr is None:
        return elem, base, str_bound, 'scalar', 0
    if arr == '':
        return (Nodetype.SEQUENCE, (elem, 0)), base, str_bound, 'sequence', 0
    if arr.startswith('<='):
        bound = int(arr[2:])
        if bound < 1:
            raise InterfaceDefinitionError(f'sequence bound must be positive in {typ!r}')
        return (Nodetype.SEQUENCE, (elem, bound)), base, str_bound, 'sequence', bound
    size = int(arr)
    if size < 1:
        raise InterfaceDefinitionError(f'array size must be positive in {typ!r}')
    return (Nodetype.ARRAY, (elem, size)), base, str_bound, 'array', size


def _default_value(base: str, str_bound: int, kind: str, size: int, text: str) -> object:
    if kind == 'scalar':
        return _scalar_value(base, text, str_bound, raw_string=False)
    try:
        items = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise InterfaceDefinitionError(
            f'array default {text!r} is not a [a, b, ...] list') from None
    if not isinstance(items, (list, tuple)):
        raise InterfaceDefinitionError(f'array default {text!r} is not a [a, b, ...] list')
    if kind == 'array' and len(items) != size:
        raise InterfaceDefinitionError(f'array default has {len(items)} values, expected {size}')
    if kind == 'sequence' and size and len(items) > size:
        raise InterfaceDefinitionError(f'sequence default has {len(items)} values, bound is {size}')
    return [_scalar_value(base, repr(v) if isinstance(v, str) else str(v), str_bound,
                          raw_string=False) for v in items]


def _scalar_value(base: str, text: str, str_bound: int, *, raw_string: bool) -> object:
    """A constant or default in rclpy's Python form (byte -> bytes, char -> int)."""
    if base == 'string':
        value = text
        if len(text) >= 2 and text[0] == text[-1] and text[0] in '"\'':
            value = ast.literal_eval(text)
        elif not raw_string and not text:
            raise InterfaceDefinitionError('empty string default')
        if str_bound and len(value) > str_bound:
            raise InterfaceDefinitionError(f'string default longer than its bound {str_bound}')
        return value
    if base == 'bool':
        low = text.lower()
        if low in ('true', '1'):
            return True
        if low in ('false', '0'):
            return False
        raise InterfaceDefinitionError(f'bool value {text!r} must be true/false/1/0')
    if base in ('float32', 'float64'):
        try:
            return float(text)
        except ValueError:
            raise InterfaceDefinitionError(f'{base} value {text!r} is not a number') from None
    try:
        value = int(text, 0)
    except ValueError:
        raise InterfaceDefinitionError(f'{base} value {text!r} is not an integer') from None
    lo, hi = _INT_RANGES[base]
    if not lo <= value <= hi:
        raise InterfaceDefinitionError(f'{base} value {value} is outside [{lo}, {hi}]')
    return bytes([value]) if base == 'byte' else value
