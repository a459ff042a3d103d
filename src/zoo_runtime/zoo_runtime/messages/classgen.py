"""Generate rclpy-like message classes (source code per type, compiled once with ``exec``).

A generated class has ``__slots__`` named after the fields so reads are plain slot reads; the
keyword-only ``__init__`` and ``__setattr__`` check values with :mod:`.fields` (scalars get an
inline fast path); ``__eq__``, ``__repr__``, ``__copy__``, ``__deepcopy__`` and ``__reduce__``
match what rclpy's generated Python offers. Unlike rclpy the slots are not ``_``-prefixed: use
``get_fields_and_field_types()`` to walk fields portably.
"""
from __future__ import annotations

import array
import keyword

import numpy as np

from .fields import FLOAT32_MAX, INT_RANGES, NO_DEFAULT, NUMERIC, FieldSpec, make_converter

_MISSING = object()
_SCALAR_DEFAULTS = {'bool': False, 'byte': b'\x00', 'string': ''}


def _scalar_default(spec: FieldSpec) -> object:
    if spec.default is not NO_DEFAULT:
        return spec.default
    if spec.base in NUMERIC:
        return 0.0 if spec.base.startswith('float') else 0
    return _SCALAR_DEFAULTS[spec.base]


def _fast_check(spec: FieldSpec, var: str) -> str:
    """A cheap condition that is False for an already valid scalar value."""
    if spec.base in ('float32', 'float64'):
        return f'{var}.__class__ is not float' + (
            f' or not {-FLOAT32_MAX!r} <= {var} <= {FLOAT32_MAX!r}'
            if spec.base == 'float32' else '')
    if spec.base in INT_RANGES:
        lo, hi = INT_RANGES[spec.base]
        return f'{var}.__class__ is not int or not {lo} <= {var} <= {hi}'
    if spec.base == 'bool':
        return f'{var}.__class__ is not bool'
    if spec.base == 'string':
        return f'{var}.__class__ is not str' + (
            f' or len({var}) > {spec.str_bound}' if spec.str_bound else '')
    return 'True'  # byte: always through the converter


def _default_expr(i: int, spec: FieldSpec, ns: dict) -> str:
    """Expression building a fresh default value of a non-scalar or nested field."""
    has_default = spec.default is not NO_DEFAULT
    if spec.kind == 'scalar':  # nested message
        return f'_T{i}()'
    if spec.numeric_container:
        typecode, dtype = NUMERIC[spec.base]
        if spec.kind == 'array':
            ns[f'_d{i}'] = np.array(spec.default if has_default else np.zeros(spec.size),
                                    dtype=dtype)
            return f'_d{i}.copy()'
        if has_default:
            ns[f'_d{i}'] = array.array(typecode, spec.default)
            return f'_array({typecode!r}, _d{i})'
        return f'_array({typecode!r})'
    if has_default:
        ns[f'_d{i}'] = tuple(spec.default)
        return f'_list(_d{i})'
    if spec.kind == 'sequence':
        return '[]'
    if spec.nested:
        return f'[_T{i}() for _ in _range({spec.size})]'
    return f'[{_scalar_default(spec)!r}] * {spec.size}'


def build_message_class(type_name: str, constants: list[tuple[str, str, object]],
                        specs: list[FieldSpec], nested: dict[str, type]) -> type:
    """The class for ``type_name`` (``pkg/msg/Name`` or ``pkg/srv/Name_Request``); ``nested`` maps
    every nested type name the fields use to its (already built) class."""
    pkg, kind, short = type_name.split('/')
    for spec in specs:
        if keyword.iskeyword(spec.name):
            raise ValueError(f'{type_name}.{spec.name}: a Python keyword cannot be a field name')
    names = [s.name for s in specs]
    ns: dict[str, object] = {
        '_D': _MISSING, '_array': array.array, '_list': list, '_range': range,
        '_aeq': np.array_equal, '_new': object.__new__,
    }
    params, init, setters, eqs, copies, deep = [], [], [], [], [], []
    for i, spec in enumerate(specs):
        n = spec.name
        ns[f'_c{i}'] = make_converter(type_name, spec, nested.get(spec.base))
        if spec.nested:
            ns[f'_T{i}'] = nested[spec.base]
        if spec.kind == 'scalar' and not spec.nested:
            ns[f'_d{i}'] = _scalar_default(spec)
            params.append(f'{n}=_d{i}')
            init.append(f'    if {_fast_check(spec, n)}: {n} = _c{i}({n}, False)')
            setters.append(f'def _set{i}(self, v):\n'
                           f'    if {_fast_check(spec, "v")}: v = _c{i}(v, True)\n'
                           f'    _s{i}(self, v)')
        else:
            params.append(f'{n}=_D')
            init.append(f'    if {n} is _D: {n} = {_default_expr(i, spec, ns)}')
            if spec.kind == 'scalar':
                init.append(f'    elif {n}.__class__ is not _T{i}: {n} = _c{i}({n}, False)')
                setters.append(f'def _set{i}(self, v):\n'
                               f'    if v.__class__ is not _T{i}: v = _c{i}(v, True)\n'
                               f'    _s{i}(self, v)')
            else:
                init.append(f'    else: {n} = _c{i}({n}, False)')
                setters.append(f'def _set{i}(self, v):\n    _s{i}(self, _c{i}(v, True))')
        init.append(f'    _s{i}(_self, {n})')
        eqs.append(f'_aeq(self.{n}, other.{n})' if spec.numeric_container and spec.kind == 'array'
                   else f'self.{n} == other.{n}')
        copies.append(f'    _s{i}(new, self.{n})')
        deep.append(f'    _s{i}(new, {_deepcopy_expr(spec, f"self.{n}")})')

    src = [
        f"def __init__(_self{', *, ' + ', '.join(params) if params else ''}):",
        *(init or ['    pass']),
        *setters,
        'def __setattr__(self, name, value):',
        '    try:',
        '        setter = _SETTERS[name]',
        '    except KeyError:',
        '        raise _no_field(name) from None',
        '    setter(self, value)',
        'def __eq__(self, other):',
        '    if other.__class__ is not _C:',
        '        return False',
        f"    return {' and '.join(eqs) if eqs else 'True'}",
        'def __copy__(self):',
        '    new = _new(_C)',
        *copies,
        '    return new',
        'def __deepcopy__(self, memo=None):',
        '    new = _new(_C)',
        *deep,
        '    return new',
        'def __reduce__(self):',
        f"    return _rebuild, ({type_name!r}, ({''.join(f'self.{n}, ' for n in names)}))",
    ]
    exec(compile('\n'.join(src), f'<{type_name}>', 'exec'), ns)  # noqa: S102
    ns['__init__'].__qualname__ = type_name  # "pkg/msg/T() got an unexpected keyword argument"
    ns['_SETTERS'] = {n: ns[f'_set{i}'] for i, n in enumerate(names)}
    field_list = ', '.join(names) or 'none'
    ns['_no_field'] = lambda name: AttributeError(
        f'{type_name} has no field {name!r} (fields: {field_list})')
    ns['_rebuild'] = rebuild
    body = {
        '__slots__': tuple(names),
        '__module__': f'zoo_runtime.interfaces.{pkg}.{kind}',
        '__qualname__': short,
        '__doc__': f'Message class {type_name!r} (embedded robozoo build).',
        '__hash__': None,
        '_zoo_type': type_name,
        '_zoo_fields': tuple(specs),
        '_fields_and_field_types': {s.name: s.idl_type() for s in specs},
        '_repr_spec': tuple((s.name, s.numeric_container and s.kind == 'sequence')
                            for s in specs),
        'get_fields_and_field_types': classmethod(_get_fields_and_field_types),
        '__repr__': _repr,
        '__getattr__': _getattr,
    }
    for name in ('__init__', '__setattr__', '__eq__', '__copy__', '__deepcopy__', '__reduce__'):
        body[name] = ns[name]
    for cname, ctype, value in constants:
        body[cname] = _constant_value(ctype, value)
    for spec in specs:
        if spec.default is not NO_DEFAULT:  # rclpy's <FIELD>__DEFAULT attribute
            body[f'{spec.name.upper()}__DEFAULT'] = spec.default
    cls = type(short, (), body)
    ns['_C'] = cls
    for i, n in enumerate(names):
        ns[f'_s{i}'] = cls.__dict__[n].__set__
    return cls


def _deepcopy_expr(spec: FieldSpec, var: str) -> str:
    if spec.kind == 'scalar':
        return f'{var}.__deepcopy__(memo)' if spec.nested else var
    if spec.numeric_container:
        return f'{var}.copy()' if spec.kind == 'array' else f'{var}[:]'
    if spec.nested:
        return f'[m.__deepcopy__(memo) for m in {var}]'
    return f'_list({var})'


def _constant_value(ctype: str, value: object) -> object:
    if ctype == 'byte':  # rclpy: octet constants are bytes
        return bytes([value & 0xFF])
    if ctype in ('float32', 'float64'):
        return float(value)
    if ctype == 'bool':
        return bool(value)
    return value


def _get_fields_and_field_types(cls) -> dict[str, str]:
    return dict(cls._fields_and_field_types)


def _repr(self) -> str:
    parts = []
    for name, is_array_array in self._repr_spec:
        value = getattr(self, name)
        text = repr(value)
        if is_array_array:  # rclpy strips "array('d', ...)" down to the list
            text = text[len("array('X', "):-1] if len(value) else '[]'
        parts.append(f'{name}={text}')
    pkg, kind, short = self._zoo_type.split('/')
    return f"{pkg}.{kind}.{short}({', '.join(parts)})"


def _getattr(self, name: str):
    fields = ', '.join(s.name for s in self._zoo_fields) or 'none'
    raise AttributeError(f'{self._zoo_type} has no field {name!r} (fields: {fields})')


def rebuild(type_name: str, values: tuple) -> object:
    """Unpickle: rebuild a message of ``type_name`` from its field values (already valid)."""
    from . import registry
    cls = registry.message_class(type_name)
    msg = object.__new__(cls)
    for spec, value in zip(cls._zoo_fields, values):
        cls.__dict__[spec.name].__set__(msg, value)
    return msg


def build_service_class(type_name: str, request: type, response: type) -> type:
    """rclpy-like service class: ``.Request``/``.Response``; instantiating it is an error."""
    pkg, kind, short = type_name.split('/')

    def __init__(self):  # noqa: N807
        raise NotImplementedError(f'{type_name}: service classes cannot be instantiated; use '
                                  f'{short}.Request() / {short}.Response()')

    return type(short, (), {
        '__module__': f'zoo_runtime.interfaces.{pkg}.{kind}', '__qualname__': short,
        '__doc__': f'Service class {type_name!r} (embedded robozoo build).',
        '_zoo_type': type_name, 'Request': request, 'Response': response,
        '__init__': __init__,
    })
