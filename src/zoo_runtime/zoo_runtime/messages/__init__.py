"""ROS 2 messages and services for robozoo, with or without a ROS install.

``get_message('sensor_msgs/msg/JointState')`` (also ``'sensor_msgs/JointState'``),
``get_service('std_srvs/srv/SetBool')`` and ``get_interface(name)`` return the class the import path
``zoo_runtime.interfaces.<pkg>.msg|srv`` gives: the real generated class under real ROS, else an
embedded class built from the rosbags Jazzy typestore plus the ``.msg``/``.srv`` files of the
workspace (see :mod:`.registry` for the sources). Embedded classes behave like rclpy's: keyword-only
constructor with ROS defaults, checked field assignment, constants as class attributes, equality,
rclpy's ``repr`` and ``get_fields_and_field_types()``.

``serialize``/``deserialize`` speak CDR (little-endian, 4-byte encapsulation header); embedded
messages are serialised by functions generated from their fields (:mod:`.cdr`, rosbags' byte
layout, checked against ``Typestore.serialize_cdr``), others through rosbags; ``deserialize`` goes
through rosbags and always returns embedded instances. ``msgdef`` gives the
``ros2msg`` schema text and ``rihs01`` the REP-2016 type hash used in rosbag2/MCAP files.
"""
from __future__ import annotations

import difflib
import importlib

from rosbags.typesys.store import Typestore

from . import cdr, registry
from .convert import from_rosbags_func, to_rosbags_func
from .msgfile import InterfaceDefinitionError
from .registry import UnknownInterfaceError

__all__ = [
    'get_message', 'get_service', 'get_interface', 'type_name_of', 'serialize', 'deserialize',
    'deserialize_message', 'to_rosbags', 'from_rosbags', 'msgdef', 'rihs01', 'typestore', 'embedded_message',
    'embedded_service', 'UnknownInterfaceError', 'InterfaceDefinitionError',
]

_KINDS = ('msg', 'srv', 'action')


def _split(name: str, kind: str) -> tuple[str, str, str]:
    """'pkg/kind/T', 'pkg/T' or 'pkg.kind.T' -> (pkg, kind, T)."""
    if not isinstance(name, str):
        raise TypeError(f'interface type name must be a str like "pkg/{kind}/Type", '
                        f'got {type(name).__name__}')
    parts = name.replace('.', '/').split('/')
    if len(parts) == 2 and all(parts):
        return parts[0], kind, parts[1]
    if len(parts) == 3 and all(parts) and parts[1] in _KINDS:
        return parts[0], parts[1], parts[2]
    raise UnknownInterfaceError(f'interface type name {name!r} is not of the form '
                                f'"pkg/{kind}/Type" or "pkg/Type"')


def _real(pkg: str, kind: str, short: str, full: str, what: str) -> type:
    """The real generated class; ``T_Request``/``T_Response`` also via service ``T``. Unknown
    names raise naming close matches, as the embedded registry does."""
    try:
        module = importlib.import_module(f'{pkg}.{kind}')
    except ImportError:
        module = None
    if module is not None:
        try:
            if hasattr(module, short) or not short.endswith(('_Request', '_Response')):
                return getattr(module, short)
            service, part = short.rsplit('_', 1)
            return getattr(getattr(module, service), part)
        except AttributeError:
            pass
        marker = 'Request' if what == 'service' else 'get_fields_and_field_types'
        names = [n for n, c in vars(module).items() if isinstance(c, type) and hasattr(c, marker)]
        close = difflib.get_close_matches(short, names, n=3)
        hint = (f'did you mean {", ".join(f"{pkg}/{kind}/{c}" for c in close)}?' if close
                else f'no {short} in the ROS package {pkg}.{kind}')
        raise UnknownInterfaceError(f'unknown {what} type {full!r}: {hint}')
    try:  # no such ROS package: the embedded registry names close package names
        (embedded_service if what == 'service' else embedded_message)(f'{pkg}/{kind}/{short}')
    except UnknownInterfaceError as err:
        raise UnknownInterfaceError(str(err)) from None
    raise UnknownInterfaceError(f'unknown {what} type {full!r}: no ROS interface package '
                                f'{pkg}.{kind} imports')


def embedded_message(name: str) -> type:
    """The embedded class of message ``name`` (whatever the mode)."""
    cls = registry._classes.get(name)
    if cls is not None:
        return cls
    pkg, kind, short = _split(name, 'msg')
    if kind == 'srv' and not short.endswith(('_Request', '_Response')):
        raise UnknownInterfaceError(f'{name!r} is a service, not a message: use get_service(), '
                                    f'or {name}_Request / {name}_Response')
    return registry.message_class(f'{pkg}/{kind}/{short}')


def embedded_service(name: str) -> type:
    """The embedded class of service ``name`` (whatever the mode)."""
    pkg, kind, short = _split(name, 'srv')
    if kind != 'srv':
        raise UnknownInterfaceError(f'{name!r} is not a service type (expected "pkg/srv/Type")')
    return registry.service_class(f'{pkg}/srv/{short}')


def _embedded() -> bool:
    from zoo_runtime import EMBEDDED
    return EMBEDDED


def get_message(name: str) -> type:
    """Message class for ``'pkg/msg/Type'`` or ``'pkg/Type'``; raises UnknownInterfaceError."""
    if _embedded():
        return embedded_message(name)
    pkg, kind, short = _split(name, 'msg')
    return _real(pkg, kind, short, name, 'message')


def get_service(name: str) -> type:
    """Service class (``.Request``/``.Response``) for ``'pkg/srv/Type'`` or ``'pkg/Type'``."""
    if _embedded():
        return embedded_service(name)
    pkg, _, short = _split(name, 'srv')
    return _real(pkg, 'srv', short, name, 'service')


def get_interface(name: str) -> type:
    """Message or service class; ``'pkg/Type'`` tries the message first."""
    pkg, kind, short = _split(name, 'msg')
    if kind == 'srv' and not short.endswith(('_Request', '_Response')):
        return get_service(name)
    try:
        return get_message(name)
    except UnknownInterfaceError:
        if name.count('/') != 1:
            raise
    try:
        return get_service(name)
    except UnknownInterfaceError:
        raise registry.unknown('interface', f'{pkg}/msg/{short}') from None


def type_name_of(obj: object) -> str:
    """``'pkg/msg/Type'`` (``'pkg/srv/Type'`` for services and their parts) of a message or service
    class or instance: embedded, real rclpy (module ``pkg.msg._type``) or a rosbags dataclass."""
    cls = obj if isinstance(obj, type) else type(obj)
    name = getattr(cls, '_zoo_type', None)
    if name is not None:
        return name
    name = getattr(cls, '__msgtype__', None)
    if isinstance(name, str):
        return name
    parts = cls.__module__.split('.')
    if len(parts) >= 3 and parts[-2] in _KINDS and parts[-1].startswith('_'):
        return f'{parts[-3]}/{parts[-2]}/{cls.__name__}'
    raise TypeError(f'{cls.__module__}.{cls.__qualname__} is not a ROS message or service type')


def typestore() -> Typestore:
    """The shared rosbags Typestore with the Jazzy and workspace types registered."""
    return registry.typestore()


def to_rosbags(msg: object) -> object:
    """The rosbags dataclass holding the same data as ``msg``."""
    return to_rosbags_func(type_name_of(msg))(msg)


def from_rosbags(obj: object) -> object:
    """The embedded message holding the same data as rosbags dataclass ``obj``."""
    return from_rosbags_func(obj.__msgtype__)(obj)


_serializers: dict[type, object] = {}  # message class -> its serialize function


def serialize(msg: object) -> bytes:
    """CDR bytes (little-endian, with the 4-byte header) of ``msg``."""
    func = _serializers.get(msg.__class__)
    if func is None:
        func = _serializers[msg.__class__] = _serializer(msg.__class__)
    return func(msg)


def _serializer(cls: type):
    """Embedded classes: generated straight from the fields (:mod:`.cdr`, the same bytes);
    others (real rclpy), and types that module does not cover: through rosbags."""
    name = type_name_of(cls)
    if getattr(cls, '_zoo_fields', None) is not None and registry.message_class(name) is cls:
        func = cdr.serializer(name)
        if func is not None:
            return func
    to_rb, store = to_rosbags_func(name), registry.typestore()

    def via_rosbags(msg: object) -> bytes:
        return bytes(store.serialize_cdr(to_rb(msg), name, little_endian=True))
    return via_rosbags


def serialize_via_rosbags(msg: object) -> bytes:
    """``serialize`` through rosbags' dataclasses and serializer (the reference for tests)."""
    name = type_name_of(msg)
    return bytes(registry.typestore().serialize_cdr(to_rosbags_func(name)(msg), name,
                                                     little_endian=True))


def deserialize(data: bytes | memoryview, type_name: str) -> object:
    """Embedded message of ``type_name`` decoded from CDR ``data``."""
    name = _full_name(type_name)
    return from_rosbags_func(name)(registry.typestore().deserialize_cdr(data, name))


def deserialize_message(data: bytes | memoryview, type_name: str) -> object:
    """Message of the class ``get_message(type_name)`` gives, decoded from CDR ``data``: under real
    ROS the generated class decoded by rclpy's own deserializer (array.array for numeric
    sequences, numpy for fixed arrays, as a subscriber would get it), else an embedded one."""
    if _embedded():
        return deserialize(data, type_name)
    from rclpy.serialization import deserialize_message as real_deserialize
    return real_deserialize(bytes(data), get_message(type_name))


def _full_name(type_name: str) -> str:
    return type_name_of(embedded_message(type_name))


def msgdef(type_name: str) -> str:
    """The ``ros2msg`` schema text (rosbag2/MCAP) of a message type."""
    name = _full_name(type_name)
    return registry.typestore().generate_msgdef(name, ros_version=2)[0]


def rihs01(type_name: str) -> str:
    """The REP-2016 type hash ``RIHS01_<sha256>`` of a message type."""
    return registry.typestore().hash_rihs01(_full_name(type_name))
