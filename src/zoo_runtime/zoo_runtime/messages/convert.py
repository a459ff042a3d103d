"""Conversion between message objects and rosbags dataclasses (generated per type, cached).

To rosbags: numeric sequences become numpy views of the ``array.array`` buffers (no copy), byte
fields ints (rosbags packs ``byte`` scalars signed, sequences as uint8), empty structures get the
``structure_needs_at_least_one_member`` byte. Reads use attributes only, so real rclpy messages
convert too. From rosbags: values are copied into fresh, writable containers of rclpy's types.
"""
from __future__ import annotations

import array
import threading

import numpy as np

from . import registry
from .fields import NUMERIC, FieldSpec
from .msgfile import EMPTY_MEMBER

_to: dict[str, object] = {}
_from: dict[str, object] = {}
_lock = threading.RLock()
# byte fields: rclpy bytes([v]) <-> rosbags' signed int8 scalar.
_SIGNED = tuple(v - 256 if v > 127 else v for v in range(256))
_BYTES = tuple(bytes([v]) for v in range(256))


def _np_seq(value, dtype):
    if value.__class__ is array.array:
        return np.frombuffer(value, dtype=dtype) if len(value) else np.empty(0, dtype)
    return np.asarray(value, dtype=dtype)


def _to_expr(i: int, spec: FieldSpec, var: str, ns: dict) -> str:
    if spec.nested:
        ns[f'_t{i}'] = to_rosbags_func(spec.base)
        return f'_t{i}({var})' if spec.kind == 'scalar' else f'[_t{i}(e) for e in {var}]'
    if spec.kind == 'scalar':
        return f'_SIGNED[{var}[0]]' if spec.base == 'byte' else var
    if spec.base in NUMERIC:
        ns[f'_dt{i}'] = NUMERIC[spec.base][1]
        return f'_np_seq({var}, _dt{i})'
    if spec.base == 'bool':
        return f'_np.array({var}, dtype=_np.bool_)'
    if spec.base == 'byte':
        return f"_np.frombuffer(b''.join({var}), dtype=_np.uint8)"
    return var  # strings: list


def _from_expr(i: int, spec: FieldSpec, var: str, ns: dict) -> str:
    if spec.nested:
        ns[f'_f{i}'] = from_rosbags_func(spec.base)
        return f'_f{i}({var})' if spec.kind == 'scalar' else f'[_f{i}(e) for e in {var}]'
    if spec.kind == 'scalar':
        if spec.base == 'byte':
            return f'_BYTES[{var} & 0xFF]'
        if spec.base in NUMERIC:
            return f'float({var})' if spec.base.startswith('float') else f'int({var})'
        return f'bool({var})' if spec.base == 'bool' else f'str({var})'
    if spec.base in NUMERIC:
        typecode, dtype = NUMERIC[spec.base]
        ns[f'_dt{i}'] = dtype
        if spec.kind == 'array':
            return f'_np.array({var}, dtype=_dt{i})'
        return f'_array({typecode!r}, _np.asarray({var}, dtype=_dt{i}).tobytes())'
    if spec.base == 'bool':
        return f'[bool(e) for e in {var}]'
    if spec.base == 'byte':
        return f'[_BYTES[e] for e in _np.asarray({var}, dtype=_np.uint8).tobytes()]'
    return f'[str(e) for e in {var}]'


def to_rosbags_func(type_name: str):
    """``f(msg) -> rosbags dataclass`` for ``type_name``."""
    func = _to.get(type_name)
    if func is None:
        with _lock:
            func = _to.get(type_name) or _build_to(type_name)
    return func


def _build_to(type_name: str):
    cls = registry.message_class(type_name)
    ns = {'_RB': registry.typestore().types[type_name], '_np': np, '_np_seq': _np_seq,
          '_SIGNED': _SIGNED}
    args = [_to_expr(i, s, f'm.{s.name}', ns) for i, s in enumerate(cls._zoo_fields)]
    fields = registry.typestore().fielddefs[type_name][1]
    if len(fields) == 1 and fields[0][0] == EMPTY_MEMBER and not cls._zoo_fields:
        args = ['0']
    exec(f"def to_rb(m):\n    return _RB({', '.join(args)})", ns)  # noqa: S102
    _to[type_name] = ns['to_rb']
    return ns['to_rb']


def from_rosbags_func(type_name: str):
    """``f(rosbags dataclass) -> embedded message`` for ``type_name``."""
    func = _from.get(type_name)
    if func is None:
        with _lock:
            func = _from.get(type_name) or _build_from(type_name)
    return func


def _build_from(type_name: str):
    cls = registry.message_class(type_name)
    ns = {'_C': cls, '_new': object.__new__, '_np': np, '_array': array.array,
          '_BYTES': _BYTES}
    lines = ['def from_rb(o):', '    m = _new(_C)']
    for i, spec in enumerate(cls._zoo_fields):
        ns[f'_s{i}'] = cls.__dict__[spec.name].__set__
        lines.append(f'    _s{i}(m, {_from_expr(i, spec, f"o.{spec.name}", ns)})')
    lines.append('    return m')
    exec('\n'.join(lines), ns)  # noqa: S102
    _from[type_name] = ns['from_rb']
    return ns['from_rb']
