"""The shared rosbags typestore and the message/service classes built from it, created lazily.

Type sources, in order of precedence:
1. rosbags ``Stores.ROS2_JAZZY`` (162 message types of the standard packages; no services);
2. per package, the first of these directories holding ``msg/`` or ``srv/`` files:
   ``<ws>/src/<pkg>`` (``<ws>`` = :func:`zoo_runtime.workspace_root`), then
   ``zoo_runtime/interface_defs/<pkg>`` (standard definitions the typestore lacks, e.g. std_srvs),
   then ``<prefix>/share/<pkg>`` for each prefix of ``AMENT_PREFIX_PATH``.
A type already in the Jazzy store is never redefined. A package's files are parsed and registered
the first time one of its types (or a type referring to it) is needed.
"""
from __future__ import annotations

import difflib
import threading
from pathlib import Path

from rosbags.interfaces import Nodetype
from rosbags.typesys import Stores, get_typestore
from rosbags.typesys.store import Typestore

from .classgen import build_message_class, build_service_class
from .fields import NO_DEFAULT, spec_from_fielddef
from .msgfile import EMPTY_MEMBER, InterfaceDefinitionError, ParsedType, parse_msg, parse_srv

# Field defaults of Jazzy types that are not zero; rosbags' fielddefs drop defaults.
# geometry_msgs/msg/Quaternion.msg: "float64 w 1"; sensor_msgs/msg/NavSatStatus.msg (Jazzy):
# "int8 status -2 # STATUS_UNKNOWN" (upstream ros2/common_interfaces).
JAZZY_DEFAULTS: dict[str, dict[str, object]] = {
    'geometry_msgs/msg/Quaternion': {'w': 1.0},
    'sensor_msgs/msg/NavSatStatus': {'status': -2},
}
INTERFACE_DEFS = Path(__file__).resolve().parent.parent / 'interface_defs'


class UnknownInterfaceError(LookupError):
    """An unknown package, message or service type; the one-line message names close matches."""


_lock = threading.RLock()
_store: Typestore | None = None
_jazzy_names: frozenset[str] = frozenset()
_classes: dict[str, type] = {}
_services: dict[str, type] = {}
_defaults: dict[str, dict[str, object]] = {}
_pkg_dirs: dict[str, list[Path]] | None = None
_loaded: set[str] = set()
_srv_names: dict[str, list[str]] = {}  # pkg -> service names defined by its .srv files


def typestore() -> Typestore:
    """The shared Typestore (Jazzy + registered workspace types)."""
    global _store, _jazzy_names
    if _store is None:
        with _lock:
            if _store is None:
                store = get_typestore(Stores.ROS2_JAZZY)
                _jazzy_names = frozenset(store.fielddefs)
                _defaults.update({k: dict(v) for k, v in JAZZY_DEFAULTS.items()})
                _store = store
    return _store


def package_dirs() -> dict[str, list[Path]]:
    """Interface package name -> directories that define it, highest precedence first."""
    global _pkg_dirs
    if _pkg_dirs is None:
        with _lock:
            if _pkg_dirs is None:
                _pkg_dirs = _discover()
    return _pkg_dirs


def _discover() -> dict[str, list[Path]]:
    from zoo_runtime.resources import ament_prefixes, workspace_root
    ws = workspace_root()
    roots = ([ws / 'src'] if ws else []) + [INTERFACE_DEFS] + [
        prefix / 'share' for prefix in ament_prefixes()]
    found: dict[str, list[Path]] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for pkg_dir in sorted(root.iterdir()):
            if any((pkg_dir / sub).is_dir() and any((pkg_dir / sub).glob(f'*.{sub}'))
                   for sub in ('msg', 'srv')):
                found.setdefault(pkg_dir.name, []).append(pkg_dir)
    return found


def known_packages() -> list[str]:
    store_pkgs = {name.split('/')[0] for name in typestore().fielddefs}
    return sorted(store_pkgs | set(package_dirs()))


def is_package(pkg: str) -> bool:
    typestore()
    return pkg in package_dirs() or any(n.startswith(pkg + '/') for n in _jazzy_names)


def ensure_package(pkg: str) -> None:
    """Parse and register the interface files of ``pkg`` (once)."""
    if pkg in _loaded:
        return
    with _lock:
        if pkg in _loaded:
            return
        store = typestore()
        _loaded.add(pkg)  # before recursing: packages may refer to each other
        dirs = package_dirs().get(pkg)
        if not dirs:
            return
        try:
            _register_package(store, pkg, dirs[0])
        except Exception:
            _loaded.discard(pkg)  # report the same error again on the next use
            raise


def _register_package(store: Typestore, pkg: str, pkg_dir: Path) -> None:
    parsed, sources = _parse_package(pkg, pkg_dir)
    new = {p.name: p for p in parsed if p.name not in _jazzy_names}
    for p in new.values():
        for fname, desc in p.fields:
            ref = _nested_name(desc)
            if ref and ref not in new:
                ensure_package(ref.split('/')[0])
                if ref not in store.fielddefs:
                    raise InterfaceDefinitionError(
                        f'{sources[p.name]}: field {fname!r} refers to unknown type {ref}')
    store.register({name: p.fielddef() for name, p in new.items()})
    for name, p in new.items():
        if p.defaults:
            _defaults[name] = p.defaults


def _nested_name(desc: tuple) -> str | None:
    nodetype, rest = desc
    if nodetype in (Nodetype.ARRAY, Nodetype.SEQUENCE):
        nodetype, rest = rest[0]
    return rest if nodetype == Nodetype.NAME else None


def _parse_package(pkg: str, pkg_dir: Path) -> tuple[list[ParsedType], dict[str, Path]]:
    parsed: list[ParsedType] = []
    sources: dict[str, Path] = {}
    srvs = []
    for path in sorted((pkg_dir / 'msg').glob('*.msg')):
        p = parse_msg(path.read_text(encoding='utf-8'), f'{pkg}/msg/{path.stem}', str(path))
        parsed.append(p)
        sources[p.name] = path
    for path in sorted((pkg_dir / 'srv').glob('*.srv')):
        for p in parse_srv(path.read_text(encoding='utf-8'), f'{pkg}/srv/{path.stem}', str(path)):
            parsed.append(p)
            sources[p.name] = path
        srvs.append(path.stem)
    _srv_names[pkg] = srvs
    return parsed, sources


def known_types(pkg: str) -> list[str]:
    """Full names of the messages and services of ``pkg``."""
    ensure_package(pkg)
    names = {n for n in typestore().fielddefs if n.startswith(pkg + '/')}
    names.update(f'{pkg}/srv/{s}' for s in _srv_names.get(pkg, []))
    return sorted(names)


def unknown_package(pkg: str) -> UnknownInterfaceError:
    from zoo_runtime import workspace_root
    close = difflib.get_close_matches(pkg, known_packages(), n=3)
    hint = f'did you mean {", ".join(close)}?' if close else (
        f'known packages: {", ".join(known_packages())}')
    if workspace_root() is None:
        hint += ' (no robozoo workspace found for <ws>/src packages: set ROBOZOO_WS)'
    return UnknownInterfaceError(f'no interface package {pkg!r}; {hint}')


def unknown(kind: str, name: str) -> UnknownInterfaceError:
    """The error for an unknown ``kind`` ('message'/'service'/'interface') named ``name``."""
    pkg = name.split('/')[0]
    if not is_package(pkg):
        return UnknownInterfaceError(f'unknown {kind} type {name!r}: {unknown_package(pkg)}')
    names = known_types(pkg)
    if kind == 'service':
        names = [n for n in names if n in _services_of(pkg)]
    elif kind == 'message':
        names = [n for n in names if n not in _services_of(pkg)]
    by_short = {n.rsplit('/', 1)[1]: n for n in names}
    close = difflib.get_close_matches(name.rsplit('/', 1)[-1], by_short, n=3)
    if close:
        hint = f'did you mean {", ".join(by_short[c] for c in close)}?'
    else:
        hint = f'{pkg} has: {", ".join(n.split("/", 1)[1] for n in names) or "none"}'
    return UnknownInterfaceError(f'unknown {kind} type {name!r}: {hint}')


def _services_of(pkg: str) -> set[str]:
    return {f'{pkg}/srv/{s}' for s in _srv_names.get(pkg, [])}


def message_class(type_name: str) -> type:
    """The embedded class of a full message type name (``pkg/msg/T``, ``pkg/srv/T_Request``)."""
    cls = _classes.get(type_name)
    if cls is not None:
        return cls
    with _lock:
        cls = _classes.get(type_name)
        if cls is None:
            cls = _build(type_name)
    return cls


def _build(type_name: str) -> type:
    store = typestore()
    ensure_package(type_name.split('/')[0])
    if type_name not in store.fielddefs:
        raise unknown('message', type_name)
    constants, fields = store.fielddefs[type_name]
    if len(fields) == 1 and fields[0][0] == EMPTY_MEMBER:
        fields = []  # rclpy hides the member rosidl adds to empty structures
    defaults = _defaults.get(type_name, {})
    specs = [spec_from_fielddef(name, desc, defaults.get(name, NO_DEFAULT))
             for name, desc in fields]
    nested = {s.base: message_class(s.base) for s in specs if s.nested}
    cls = build_message_class(type_name, constants, specs, nested)
    _classes[type_name] = cls
    return cls


def service_class(type_name: str) -> type:
    """The embedded class of a full service type name ``pkg/srv/T``."""
    cls = _services.get(type_name)
    if cls is not None:
        return cls
    with _lock:
        cls = _services.get(type_name)
        if cls is None:
            pkg, _, short = type_name.split('/')
            ensure_package(pkg)
            if short not in _srv_names.get(pkg, []):
                raise unknown('service', type_name)
            cls = build_service_class(type_name, message_class(type_name + '_Request'),
                                      message_class(type_name + '_Response'))
            _services[type_name] = cls
    return cls
