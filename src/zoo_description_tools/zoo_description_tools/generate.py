"""Run xacro on a description package with validated arguments."""
from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path
from typing import Any, Mapping

from .cache import cached, content_key, tree_files
from .errors import DescriptionError
from .locate import find_description
from .xacro_args import resolve_args, to_xacro_string

# xacro appends the guard expression to a ${xacro.fatal(...)} message; the message says it all.
_FATAL_SUFFIX = re.compile(r" when evaluating expression 'xacro\.fatal\(.*\)'$")


def robot_name(package: str) -> str:
    """``go1_description`` -> ``go1``."""
    return package.removesuffix('_description')


def xacro_path(package: str) -> Path:
    """The top-level xacro file ``urdf/<robot>.urdf.xacro`` of ``package``."""
    path = find_description(package) / 'urdf' / f'{robot_name(package)}.urdf.xacro'
    if not path.is_file():
        raise DescriptionError(f'{package}: missing {path}')
    return path


def resolved_args(package: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every declared xacro argument of ``package`` with its validated value."""
    return resolve_args(find_description(package), args)


def xacro_to_urdf(package: str, args: Mapping[str, Any] | None = None) -> str:
    """The URDF text of ``package`` for the xacro arguments ``args`` (validated against the
    package's ``config/xacro_args.yaml`` first; omitted arguments take their declared default)."""
    path = xacro_path(package)
    return run_xacro(path, resolve_args(path.parent.parent, args))


def run_xacro(path: Path, args: Mapping[str, Any] | None = None) -> str:
    """The workspace's one way to run xacro: the URDF text of the xacro file ``path`` with
    ``args`` as given (no validation; :func:`xacro_to_urdf` validates a package's). ``$(find
    pkg)`` uses the ament index under ROS and :func:`find_description` without it. Any failure
    is one :class:`DescriptionError` line naming the file."""
    mappings = {str(k): to_xacro_string(v) for k, v in (args or {}).items()}
    path = Path(path)
    # the output depends on xacro's version, the arguments and the files of the package the
    # file sits in (its includes): a change to any of them is a cache miss (cache.py)
    key = content_key('xacro', _xacro_version(), str(path), sorted(mappings.items()),
                      files=tree_files(path.parent.parent))
    return cached('xacro', key, lambda: _process(path, mappings))


def _process(path: Path, mappings: dict[str, str]) -> str:
    import xacro  # imported here: importing it costs ~0.1 s and a cache hit does not need it
    import xacro.substitution_args as subst
    try:
        import ament_index_python  # noqa: F401  (real ROS: xacro's own $(find))
    except ImportError:
        subst._eval_find = lambda pkg: str(find_description(pkg))
    try:
        doc = xacro.process_file(str(path), mappings=mappings)
    except Exception as exc:  # xacro raises XacroException, expat and Python errors alike
        message = _FATAL_SUFFIX.sub('', ' '.join(str(exc).split())) or type(exc).__name__
        raise DescriptionError(f'{path}: xacro failed: {message}') from None
    return doc.toprettyxml(indent='  ')


def _xacro_version() -> str:
    try:
        return importlib.metadata.version('xacro')
    except importlib.metadata.PackageNotFoundError:  # a ROS install's xacro
        return 'ros'
