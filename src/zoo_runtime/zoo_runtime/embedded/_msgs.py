"""Lazy access to the few message classes the runtime itself needs.

Resolved on first use through ``zoo_runtime.messages``, so importing the runtime stays cheap
and does not depend on import order with the message package.
"""
from __future__ import annotations

import functools


@functools.lru_cache(maxsize=None)
def message(name: str) -> type:
    from zoo_runtime.messages import get_message
    return get_message(name)


def type_name_of(cls_or_instance) -> str:
    from zoo_runtime.messages import type_name_of as _type_name_of
    return _type_name_of(cls_or_instance)
