"""CDR serialisation of embedded messages straight from their fields (the recording hot path).

``messages.serialize`` used to convert a message to its rosbags dataclass and serialise that with
``Typestore.serialize_cdr``; a bag recorder pays this for every message it records. This module
generates, per message type, one function that appends the CDR bytes of an embedded message to a
``bytearray`` (little-endian, after the 4-byte encapsulation header), with the byte layout of
rosbags' generator (upstream rosbags ``src/rosbags/serde/cdr.py``, ``generate_serialize_cdr``):
each primitive aligned to its size (at most 8) relative to the end of the header; a sequence is
a uint32 count, aligned to 4, then its elements, whose padding is written only when there is at
least one; a string is a uint32 length including the terminating NUL, the UTF-8 bytes and the
NUL; nothing after the last field. Consecutive primitive fields, nested scalar messages
included, are packed by one precompiled ``struct`` per possible start offset modulo 8, so a
``geometry_msgs/Pose`` is one call. Types this does not cover (``byte``/``char`` fields,
structures without fields, ``wstring``) return None from :func:`serializer`; ``serialize`` then
takes the rosbags path. ``test/test_messages_cdr.py`` checks that both give the same bytes.
"""
from __future__ import annotations

import struct
import threading

from .fields import FieldSpec

_FORMATS = {'bool': '?', 'int8': 'b', 'uint8': 'B', 'int16': 'h', 'uint16': 'H',
            'int32': 'i', 'uint32': 'I', 'int64': 'q', 'uint64': 'Q', 'float32': 'f',
            'float64': 'd'}
_SIZES = {k: struct.calcsize('<' + f) for k, f in _FORMATS.items()}
_ZEROS = tuple(bytes(n) for n in range(8))
_U32 = struct.Struct('<I').pack

_made: dict[str, object] = {}
_lock = threading.RLock()


class _Unsupported(Exception):
    pass


_STRINGS: dict[tuple, bytes] = {}
_STRING: dict[str, bytes] = {}


def _string(text: str) -> bytes:
    """One string's bytes (length, UTF-8, NUL; from a 4-aligned offset), kept per text: frame
    ids and names repeat in every message."""
    data = text.encode()
    data = _U32(len(data) + 1) + data + b'\x00'
    if len(text) <= 256:  # (long strings, e.g. a URDF, are not worth keeping)
        if len(_STRING) >= 4096:
            _STRING.clear()
        _STRING[text] = data
    return data


def _strings(items) -> bytes:
    """The elements of a string sequence, after its count (so from a 4-aligned offset: the bytes
    do not depend on where they land). Kept per content: a publisher sends the same names in
    every message (a JointState's joints, /tf's frames)."""
    key = tuple(items)
    data = _STRINGS.get(key)
    if data is None:
        out = bytearray()
        for item in key:
            out += _ZEROS[-len(out) & 3]
            out += _STRING.get(item) or _string(item)
        data = bytes(out)
        if len(_STRINGS) >= 256:  # many different lists: keep the latest
            _STRINGS.clear()
        _STRINGS[key] = data
    return data


def serializer(type_name: str):
    """``f(msg) -> bytes`` (CDR with the header) for embedded messages of ``type_name``, or None
    when the type needs rosbags' path."""
    try:
        return _made[type_name]
    except KeyError:
        pass
    with _lock:
        if type_name not in _made:
            try:
                _made[type_name] = _build(type_name)
            except _Unsupported:
                _made[type_name] = None
    return _made[type_name]


def _registry():
    from . import registry  # (imported late: registry imports this package's modules)
    return registry


class _Gen:
    """Source of one type's append function: ``lines`` of code, ``ns`` of its globals."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ns: dict[str, object] = {'_Z': _ZEROS, '_U32': _U32, '_strings': _strings,
                                      '_STRING': _STRING, '_string': _string}
        self.run: list[tuple[str, str]] = []  # pending primitives: (format char, expression)
        self.count = 0
        self.funcs: dict[str, str] = {}  # nested type -> name of its append function

    def name(self, prefix: str) -> str:
        self.count += 1
        return f'{prefix}{self.count}'

    def flush(self, indent: str) -> None:
        """Emit the pending run of primitives as one struct call chosen by the start offset."""
        if not self.run:
            return
        packs = []
        for start in range(8):
            fmt, pos = '<', start
            for char, _ in self.run:
                size = struct.calcsize('<' + char)
                pad = -pos % size
                fmt += 'x' * pad + char
                pos += pad + size
            packs.append(struct.Struct(fmt).pack)
        name = self.name('_P')
        self.ns[name] = tuple(packs)
        args = ', '.join(expr for _, expr in self.run)
        self.lines.append(f'{indent}b += {name}[(len(b) - 4) & 7]({args})')
        self.run = []

    def pad(self, indent: str, align: int) -> None:
        if align > 1:
            self.lines.append(f'{indent}n = (4 - len(b)) & {align - 1}')
            self.lines.append(f'{indent}if n: b += _Z[n]')

    def fields(self, cls: type, var: str, indent: str) -> None:
        specs: tuple[FieldSpec, ...] = cls._zoo_fields
        if not specs:
            raise _Unsupported(cls._zoo_type)  # rosbags writes a placeholder member
        registry = _registry()
        for spec in specs:
            expr = f'{var}.{spec.name}'
            if spec.base in ('byte', 'char', 'wstring') or (
                    spec.base not in _FORMATS and spec.base != 'string' and not spec.nested):
                raise _Unsupported(f'{cls._zoo_type}.{spec.name}')
            if spec.kind == 'scalar':
                if spec.nested:
                    self.fields(registry.message_class(spec.base), expr, indent)
                elif spec.base == 'string':
                    self.flush(indent)
                    self.string(expr, indent)
                else:
                    self.run.append((_FORMATS[spec.base], expr))
                continue
            self.flush(indent)
            if spec.kind == 'sequence':
                self.pad(indent, 4)
                self.lines.append(f'{indent}b += _U32(len({expr}))')
            elif spec.kind == 'array' and spec.nested:
                pass  # elements align themselves
            if spec.nested:
                func = self.nested_func(spec.base)
                self.lines.append(f'{indent}for e in {expr}: {func}(b, e)')
            elif spec.base == 'string' and spec.kind == 'sequence':
                self.lines.append(f'{indent}b += _strings({expr})')
            elif spec.base == 'string':
                self.lines.append(f'{indent}for e in {expr}:')
                self.string('e', indent + '    ')
            else:
                size = _SIZES[spec.base]
                if spec.base == 'bool':
                    data = f'bytes({expr})'  # a list of bool
                else:
                    data = f'{expr}.tobytes()'  # array.array (sequence) / ndarray (array)
                if spec.kind == 'sequence':
                    self.lines.append(f'{indent}if len({expr}):')
                    self.pad(indent + '    ', size)
                    self.lines.append(f'{indent}    b += {data}')
                else:
                    self.pad(indent, size)
                    self.lines.append(f'{indent}b += {data}')

    def string(self, expr: str, indent: str) -> None:
        self.pad(indent, 4)
        self.lines.append(f'{indent}s = {expr}')
        self.lines.append(f'{indent}b += _STRING.get(s) or _string(s)')

    def nested_func(self, type_name: str) -> str:
        """A separate append function for elements of sequences and arrays."""
        name = self.funcs.get(type_name)
        if name is None:
            name = self.funcs[type_name] = self.name('_A')
            self.ns[name] = _append_func(type_name)
        return name


def _append_func(type_name: str):
    gen = _Gen()
    gen.fields(_registry().message_class(type_name), 'm', '    ')
    gen.flush('    ')
    src = '\n'.join(['def append(b, m):', *(gen.lines or ['    pass'])])
    exec(compile(src, f'<cdr {type_name}>', 'exec'), gen.ns)  # noqa: S102
    return gen.ns['append']


def _build(type_name: str):
    append = _append_func(type_name)

    def serialize(msg) -> bytes:
        b = bytearray(b'\x00\x01\x00\x00')  # CDR little-endian, no options
        append(b, msg)
        return bytes(b)
    return serialize

