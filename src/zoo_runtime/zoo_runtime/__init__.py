"""One node code, two worlds.

``from zoo_runtime import rclpy`` gives the real ``rclpy`` when it imports and ``ZOO_RUNTIME`` is not
``embedded``; otherwise the in-process implementation in :mod:`zoo_runtime.embedded`, which has
rclpy's names and semantics for everything robozoo nodes use. ``zoo_runtime.rclpy.<sub>`` (``node``,
``qos``, ``executors`` ...) is importable either way, and messages come from
``zoo_runtime.interfaces.<pkg>.msg|srv`` which resolves the same way.
"""
from __future__ import annotations

import importlib
import os
import sys

__all__ = ['rclpy', 'EMBEDDED', 'workspace_root']

# Submodules of rclpy our nodes and tests may import through zoo_runtime.rclpy.<name>.
RCLPY_SUBMODULES = (
    'node', 'qos', 'executors', 'parameter', 'duration', 'time', 'clock', 'task', 'logging',
    'exceptions', 'publisher', 'subscription', 'service', 'client', 'timer', 'callback_groups',
    'clock_type', 'context', 'utilities', 'topic_endpoint_info',
)


def _choose():
    mode = os.environ.get('ZOO_RUNTIME', 'auto').strip().lower()
    if mode not in ('auto', 'embedded', 'ros'):
        raise ImportError(
            f"ZOO_RUNTIME={mode!r} is not understood: expected 'auto', 'embedded' or 'ros'")
    if mode != 'embedded':
        try:
            real = importlib.import_module('rclpy')
            return real, False
        except ImportError:
            if mode == 'ros':
                raise ImportError('ZOO_RUNTIME=ros but rclpy does not import: source a ROS 2 '
                                  'install (e.g. /opt/ros/jazzy/setup.bash) first') from None
    return importlib.import_module('zoo_runtime.embedded'), True


rclpy, EMBEDDED = _choose()
sys.modules[__name__ + '.rclpy'] = rclpy
for _sub in RCLPY_SUBMODULES:
    try:
        sys.modules[f'{__name__}.rclpy.{_sub}'] = importlib.import_module(
            f'{rclpy.__name__}.{_sub}')
    except ImportError:  # a submodule the embedded runtime has no need for
        pass


def workspace_root() -> str | None:
    """:func:`zoo_runtime.resources.workspace_root` as a string (None outside a workspace)."""
    from .resources import workspace_root as root
    r = root()
    return str(r) if r else None
