"""One import path for ROS interfaces, e.g. ``from zoo_runtime.interfaces.sensor_msgs.msg import
JointState``.

Importing this package installs a meta-path finder for ``zoo_runtime.interfaces.<pkg>`` and
``zoo_runtime.interfaces.<pkg>.msg|srv``. Under real ROS (``zoo_runtime.EMBEDDED`` false) those
names are aliases of the real ``<pkg>``/``<pkg>.msg``/``<pkg>.srv`` modules. Embedded, they are
modules whose attributes resolve lazily to :mod:`zoo_runtime.messages` classes (``.srv`` also
gives the ``Name_Request``/``Name_Response`` message classes). An unknown package or type raises
ImportError with one line naming close matches; so does ``getattr`` of an unknown CamelCase type
name (a plain AttributeError would lose that message in ``from ... import``).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

_PREFIX = __name__ + '.'
_KINDS = ('msg', 'srv')


def _embedded() -> bool:
    from zoo_runtime import EMBEDDED
    return EMBEDDED


class _InterfaceFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Creates the ``zoo_runtime.interfaces.*`` modules on import."""

    def find_spec(self, fullname, path, target=None):
        if not fullname.startswith(_PREFIX):
            return None
        parts = fullname[len(_PREFIX):].split('.')
        if len(parts) > 2 or (len(parts) == 2 and parts[1] not in _KINDS):
            raise ModuleNotFoundError(
                f'no module {fullname!r}: use zoo_runtime.interfaces.<pkg>.msg or .srv and import '
                'types from it', name=fullname)
        pkg = parts[0]
        if _embedded():
            from zoo_runtime.messages import registry
            if not registry.is_package(pkg):
                raise ModuleNotFoundError(str(registry.unknown_package(pkg)),
                                          name=fullname)
        else:
            real = '.'.join(parts)
            if importlib.util.find_spec(pkg) is None or (
                    len(parts) == 2 and importlib.util.find_spec(real) is None):
                raise ModuleNotFoundError(f'no ROS interface module {real!r} (is its package built '
                                          'and the workspace sourced?)', name=fullname)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=len(parts) == 1)

    def create_module(self, spec):
        parts = spec.name[len(_PREFIX):].split('.')
        if not _embedded():
            return importlib.import_module('.'.join(parts))
        module = types.ModuleType(spec.name)
        if len(parts) == 2:
            module.__getattr__ = _type_resolver(module, parts[0], parts[1])
            module.__dir__ = lambda: _names(parts[0], parts[1])
        return module

    def exec_module(self, module):
        pass


def _names(pkg: str, kind: str) -> list[str]:
    from zoo_runtime.messages import registry
    names = [n.split('/')[2] for n in registry.known_types(pkg) if n.split('/')[1] == kind]
    return sorted(n for n in names if kind == 'msg' or not n.endswith(('_Request', '_Response')))


def _type_resolver(module: types.ModuleType, pkg: str, kind: str):
    def __getattr__(name: str):  # noqa: N807
        if not name[:1].isupper():  # dunders and probes (hasattr) behave like a normal module
            if name == '__all__':
                return _names(pkg, kind)
            raise AttributeError(f'module {module.__name__!r} has no attribute {name!r}')
        from zoo_runtime import messages
        try:
            if kind == 'srv' and not name.endswith(('_Request', '_Response')):
                value = messages.embedded_service(f'{pkg}/srv/{name}')
            else:
                value = messages.embedded_message(f'{pkg}/{kind}/{name}')
        except messages.UnknownInterfaceError as exc:
            # ImportError (not AttributeError) so "from ... import X" shows this message.
            raise ImportError(f'cannot import {name!r} from {module.__name__}: {exc}',
                              name=module.__name__) from None
        setattr(module, name, value)
        return value
    return __getattr__


def _install() -> None:
    if not any(isinstance(f, _InterfaceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _InterfaceFinder())


_install()
