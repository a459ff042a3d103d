"""Field descriptions of a message type and the value checks rclpy's generated classes make.

Storage follows rosidl_generator_py (upstream ros2/rosidl_python ``_msg.py.em``): numeric fixed
arrays are ``numpy.ndarray`` of the field's dtype, numeric sequences ``array.array`` with the
typecode of ``SPECIAL_NESTED_BASIC_TYPES``, and bool/byte/string/message arrays and sequences are
lists. In ROS 2 ``char`` is ``uint8`` and ``byte`` is ``octet`` (a ``bytes`` of length 1).

Each converter takes ``(value, strict)``. ``strict=False`` is the constructor, which like rclpy's
``__init__`` converts numeric sequences (``JointState(position=[0, 1])`` is fine); ``strict=True``
is attribute assignment, which like rclpy's setters wants ``float`` elements in a float sequence.
Numpy arrays are accepted for fixed arrays everywhere and for sequences by the constructor only:
rclpy's setters reject an ``ndarray`` for a sequence field, and so do ours, so that code which runs
embedded also runs under real ROS.
"""
from __future__ import annotations

import array
import math
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass

import numpy as np
from rosbags.interfaces import Nodetype

NO_DEFAULT = object()

# ROS type -> (array.array typecode, numpy dtype); upstream SPECIAL_NESTED_BASIC_TYPES plus char.
NUMERIC = {
    'float32': ('f', np.dtype(np.float32)), 'float64': ('d', np.dtype(np.float64)),
    'int8': ('b', np.dtype(np.int8)), 'uint8': ('B', np.dtype(np.uint8)),
    'int16': ('h', np.dtype(np.int16)), 'uint16': ('H', np.dtype(np.uint16)),
    'int32': ('i', np.dtype(np.int32)), 'uint32': ('I', np.dtype(np.uint32)),
    'int64': ('q', np.dtype(np.int64)), 'uint64': ('Q', np.dtype(np.uint64)),
    'char': ('B', np.dtype(np.uint8)),
}
INT_RANGES = {
    'int8': (-2**7, 2**7 - 1), 'int16': (-2**15, 2**15 - 1), 'int32': (-2**31, 2**31 - 1),
    'int64': (-2**63, 2**63 - 1), 'uint8': (0, 2**8 - 1), 'uint16': (0, 2**16 - 1),
    'uint32': (0, 2**32 - 1), 'uint64': (0, 2**64 - 1), 'char': (0, 2**8 - 1),
}
FLOAT32_MAX = 3.4028234663852886e+38
# rclpy's get_fields_and_field_types() spells types in IDL.
IDL_NAMES = {'bool': 'boolean', 'byte': 'octet', 'char': 'uint8', 'float32': 'float',
             'float64': 'double'}


@dataclass(frozen=True)
class FieldSpec:
    """One field: ``base`` is a primitive name or a nested ``pkg/msg/Type``; ``kind`` is
    ``scalar``/``array``/``sequence``; ``size`` the array length or sequence bound (0: unbounded).
    """

    name: str
    base: str
    kind: str
    size: int = 0
    str_bound: int = 0
    default: object = NO_DEFAULT

    @property
    def nested(self) -> bool:
        return '/' in self.base

    @property
    def numeric_container(self) -> bool:
        """Stored as numpy (array) or array.array (sequence)."""
        return self.kind != 'scalar' and self.base in NUMERIC

    @property
    def python_type(self) -> str:
        """The element type named in error messages."""
        if self.nested:
            return self.base
        if self.base in NUMERIC:
            return 'float' if self.base.startswith('float') else 'int'
        return {'bool': 'bool', 'byte': 'bytes of length 1', 'string': 'str'}[self.base]

    def idl_type(self) -> str:
        """The type string rclpy's ``get_fields_and_field_types()`` gives for this field."""
        if self.nested:
            pkg, _, name = self.base.split('/')
            elem = f'{pkg}/{name}'
        elif self.base == 'string':
            elem = f'string<{self.str_bound}>' if self.str_bound else 'string'
        else:
            elem = IDL_NAMES.get(self.base, self.base)
        if self.kind == 'array':
            return f'{elem}[{self.size}]'
        if self.kind == 'sequence':
            return f'sequence<{elem}, {self.size}>' if self.size else f'sequence<{elem}>'
        return elem


def spec_from_fielddef(name: str, desc: tuple, default: object = NO_DEFAULT) -> FieldSpec:
    """A FieldSpec from one rosbags ``fielddefs`` entry ``(name, (Nodetype, ...))``."""
    nodetype, rest = desc
    kind, size = 'scalar', 0
    if nodetype in (Nodetype.ARRAY, Nodetype.SEQUENCE):
        kind = 'array' if nodetype == Nodetype.ARRAY else 'sequence'
        (nodetype, rest), size = rest
    if nodetype == Nodetype.NAME:
        return FieldSpec(name, rest, kind, size, 0, default)
    base, str_bound = rest
    return FieldSpec(name, base, kind, size, str_bound, default)


def _kind_name(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f'numpy array of {value.dtype}'
    zoo = getattr(type(value), '_zoo_type', None)
    return zoo or type(value).__name__


def _is_sequence(value: object) -> bool:
    return isinstance(value, (list, tuple, Sequence, Set)) and not isinstance(
        value, (str, bytes, bytearray))


def make_converter(owner: str, spec: FieldSpec, nested_cls: type | None
                   ) -> Callable[[object, bool], object]:
    """The check+convert function for one field of message type ``owner``."""
    where = f'{owner}.{spec.name}'
    if spec.kind == 'scalar':
        return _scalar_converter(where, spec, nested_cls)
    if spec.numeric_container:
        return _numeric_container_converter(where, spec)
    return _list_converter(where, spec, nested_cls)


def _scalar_check(where: str, spec: FieldSpec, nested_cls: type | None
                  ) -> Callable[[object], object]:
    """Check one scalar value (also used for the elements of list-stored fields)."""
    base = spec.base
    if nested_cls is not None:
        def check(v):
            if v.__class__ is nested_cls or isinstance(v, nested_cls):
                return v
            raise TypeError(f'{where}: expected {base}, got {_kind_name(v)}')
    elif base in ('float32', 'float64'):
        f32 = base == 'float32'

        def check(v):
            if not isinstance(v, float):
                hint = ' (rclpy rejects int for float fields: write 1.0)' if isinstance(
                    v, int) else ''
                raise TypeError(f'{where}: expected float, got {_kind_name(v)}{hint}')
            v = float(v)
            if f32 and abs(v) > FLOAT32_MAX and not math.isinf(v):
                raise ValueError(f'{where}: {v} is outside the float32 range')
            return v
    elif base in INT_RANGES:
        lo, hi = INT_RANGES[base]

        def check(v):
            if not isinstance(v, int):
                raise TypeError(f'{where}: expected int in [{lo}, {hi}], got {_kind_name(v)}')
            if not lo <= v <= hi:
                raise ValueError(f'{where}: expected int in [{lo}, {hi}], got {v}')
            return int(v)
    elif base == 'bool':
        def check(v):
            if v.__class__ is not bool:
                raise TypeError(f'{where}: expected bool, got {_kind_name(v)}')
            return v
    elif base == 'byte':
        def check(v):
            if not isinstance(v, (bytes, bytearray)) or len(v) != 1:
                raise TypeError(f'{where}: expected bytes of length 1, got {_kind_name(v)}'
                                + (f' of length {len(v)}' if isinstance(v, (bytes, bytearray))
                                   else ''))
            return bytes(v)
    elif base == 'string':
        bound = spec.str_bound

        def check(v):
            if not isinstance(v, str):
                raise TypeError(f'{where}: expected str, got {_kind_name(v)}')
            if bound and len(v) > bound:
                raise ValueError(f'{where}: string of length {len(v)} exceeds the bound {bound}')
            return v
    else:
        raise ValueError(f'{where}: unsupported type {base!r}')
    return check


def _scalar_converter(where: str, spec: FieldSpec, nested_cls: type | None):
    check = _scalar_check(where, spec, nested_cls)
    return lambda v, strict: check(v)


def _length_check(where: str, spec: FieldSpec, n: int) -> None:
    if spec.kind == 'array' and n != spec.size:
        raise ValueError(f'{where}: expected exactly {spec.size} elements, got {n}')
    if spec.kind == 'sequence' and spec.size and n > spec.size:
        raise ValueError(f'{where}: expected at most {spec.size} elements, got {n}')


def _describe(spec: FieldSpec) -> str:
    if spec.kind == 'array':
        return f'a sequence of {spec.size} {spec.python_type}'
    return f'a sequence of {spec.python_type}'


def _numeric_container_converter(where: str, spec: FieldSpec):
    typecode, dtype = NUMERIC[spec.base]
    is_float = dtype.kind == 'f'
    lo, hi = INT_RANGES.get(spec.base, (None, None))
    fixed = spec.kind == 'array'

    def from_ndarray(v: np.ndarray, copy: bool) -> np.ndarray:
        if v.ndim != 1:
            raise ValueError(f'{where}: expected a 1-D array, got shape {v.shape}')
        if v.dtype != dtype:
            kind = v.dtype.kind
            if kind == 'b' or kind not in 'iuf' or (kind == 'f' and not is_float):
                raise TypeError(f'{where}: expected {_describe(spec)}, got {_kind_name(v)}')
            if not is_float and len(v) and (v.min() < lo or v.max() > hi):
                raise ValueError(f'{where}: values outside [{lo}, {hi}] for {spec.base}')
            return v.astype(dtype)
        return v.copy() if copy else v

    def bad_element(v, want_float: bool) -> None:
        for i, item in enumerate(v):
            ok = isinstance(item, float) if want_float else (
                isinstance(item, (int, np.integer)) or (is_float and isinstance(item, float)))
            if not ok:
                raise TypeError(f'{where}: expected {_describe(spec)}, got {type(v).__name__} '
                                f'containing {_kind_name(item)} at index {i}')

    def conv(v, strict):
        if v.__class__ is np.ndarray:
            if strict and not fixed:
                raise TypeError(f'{where}: expected {_describe(spec)}, got a numpy array (rclpy '
                                'accepts numpy for sequences in the constructor only; assign '
                                'array.array or a list, or pass it to the constructor)')
            _length_check(where, spec, len(v))
            # a sequence is rebuilt from the bytes anyway: no copy of the array first
            arr = from_ndarray(v, copy=fixed and not strict)
            return arr if fixed else array.array(typecode, arr.tobytes())
        if v.__class__ is array.array and v.typecode == typecode:
            _length_check(where, spec, len(v))
            if fixed:
                return np.array(v, dtype=dtype)
            return v if strict else array.array(typecode, v)
        if isinstance(v, (bytes, bytearray)) and typecode == 'B':  # e.g. image data
            _length_check(where, spec, len(v))
            return np.frombuffer(v, dtype=dtype).copy() if fixed else array.array('B', v)
        if not _is_sequence(v) and v.__class__ is not array.array:
            raise TypeError(f'{where}: expected {_describe(spec)}, got {_kind_name(v)}')
        _length_check(where, spec, len(v))
        if strict:  # rclpy's setters: float elements for float fields, int for int fields
            bad_element(v, want_float=is_float)
        try:
            out = array.array(typecode, v)
        except TypeError:
            bad_element(v, want_float=False)
            raise TypeError(f'{where}: expected {_describe(spec)}') from None
        except OverflowError:
            raise ValueError(f'{where}: values outside [{lo}, {hi}] for {spec.base}') from None
        if typecode == 'f' and any(math.isinf(x) for x in out) and not any(
                math.isinf(x) for x in v):
            raise ValueError(f'{where}: values outside the float32 range')
        return np.frombuffer(out, dtype=dtype).copy() if fixed else out

    return conv


def _list_converter(where: str, spec: FieldSpec, nested_cls: type | None):
    check = _scalar_check(where, spec, nested_cls)
    # elements whose exact class passes the check unchanged (str without a bound, a nested
    # message) are checked in one pass over their classes, not one call each (a JointState's
    # 25 names, /tf's transforms); anything else takes the element-wise path below
    exact = nested_cls if nested_cls is not None else (
        str if spec.base == 'string' and not spec.str_bound else None)

    def conv(v, strict):
        if not _is_sequence(v):
            raise TypeError(f'{where}: expected {_describe(spec)}, got {_kind_name(v)}')
        _length_check(where, spec, len(v))
        if exact is not None and v.__class__ is list and (
                not v or set(map(type, v)) == {exact}):
            return v
        for i, item in enumerate(v):
            try:
                check(item)
            except TypeError:
                raise TypeError(f'{where}: expected {_describe(spec)}, got {type(v).__name__} '
                                f'containing {_kind_name(item)} at index {i}') from None
            except ValueError as exc:  # e.g. a string over its bound: name the element
                raise ValueError(str(exc).replace(where, f'{where}[{i}]', 1)) from None
        if spec.base == 'byte':
            return [bytes(item) for item in v]
        return v if v.__class__ is list else list(v)

    return conv
