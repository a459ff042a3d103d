"""One cyclonedds ``IdlStruct`` per ROS 2 message type, generated from the message definition.

The class gives the DDS type name (``pkg::msg::dds_::Type_``), keylessness and the XTypes type
information Cyclone announces in discovery; the bridge never uses it to (de)serialize: samples
go through as the runtime's CDR bytes. Its XCDR1 encoding of a sample equals rosbags' CDR byte
for byte (tested), so a peer defining the same struct by hand, rmw_cyclonedds (no type
information: matched by name) and Fast DDS all read what the bridge writes.

ROS -> IDL as rosidl_adapter maps it: ``byte`` octet, ``char`` uint8, ``string<=N`` bounded
string, ``T[N]`` array, ``T[]``/``T[<=N]`` (bounded) sequence, nested types by reference, an
empty message gets rosidl's ``structure_needs_at_least_one_member`` (rosbags adds it too).
Members keep their ROS names, as unitree_sdk2_python's generated types do.
"""
from __future__ import annotations

import threading

from cyclonedds.idl import IdlStruct, make_idl_struct
from cyclonedds.idl import types as t
from rosbags.typesys.base import Nodetype
from zoo_runtime import messages

from .names import split_type

_BASE = {'bool': bool, 'byte': t.byte, 'char': t.uint8, 'int8': t.int8, 'uint8': t.uint8,
         'int16': t.int16, 'uint16': t.uint16, 'int32': t.int32, 'uint32': t.uint32,
         'int64': t.int64, 'uint64': t.uint64, 'float32': t.float32, 'float64': t.float64}
_cache: dict[str, type[IdlStruct]] = {}
_lock = threading.RLock()


def idl_struct(type_name: str) -> type[IdlStruct]:
    """The IdlStruct of ``pkg/msg/Type`` (cached; nested types are generated too)."""
    cls = _cache.get(type_name)
    if cls is None:
        with _lock:
            cls = _cache.get(type_name) or _make(type_name)
    return cls


def _make(type_name: str) -> type[IdlStruct]:
    pkg, kind, short = split_type(type_name)
    try:
        _, fields = messages.typestore().fielddefs[type_name]
    except KeyError:
        raise ValueError(f"unknown message type '{type_name}'") from None
    members = {name: _member(type_name, name, node) for name, node in fields}
    cls = make_idl_struct(f'{short}_', f'{pkg}.{kind}.dds_.{short}_', members)
    _cache[type_name] = cls
    return cls


def service_struct(srv_type: str, part: str) -> type[IdlStruct]:
    """The IdlStruct of a service request or response as rmw_cyclonedds puts it on the wire:
    ``pkg::srv::dds_::T_Request_`` led by its request header (the client's 8-byte id and a
    sequence number, ``cdds_request_header_t`` in rmw_cyclonedds' serdata.hpp), then the
    fields of ``pkg/srv/T_Request`` (or ``_Response``)."""
    key = f'{srv_type}_{part}'
    cls = _cache.get(key)
    if cls is not None:
        return cls
    with _lock:
        pkg, _, short = srv_type.split('/')
        try:
            _, fields = messages.typestore().fielddefs[key]
        except KeyError:
            raise ValueError(f"unknown service type '{srv_type}'") from None
        members = {'request_header_guid': t.uint64, 'request_header_seq': t.int64}
        members.update((name, _member(key, name, node)) for name, node in fields)
        cls = make_idl_struct(f'{short}_{part}_', f'{pkg}.srv.dds_.{short}_{part}_', members)
        _cache[key] = cls
        return cls


def _member(owner: str, field: str, node: tuple) -> object:
    kind, arg = node
    if kind == Nodetype.BASE:
        base, bound = arg
        if base == 'string':
            return t.bounded_str[bound] if bound else str
        if base in _BASE:
            return _BASE[base]
    elif kind == Nodetype.NAME:
        return idl_struct(arg)
    elif kind == Nodetype.ARRAY:
        return t.array[_member(owner, field, arg[0]), arg[1]]
    elif kind == Nodetype.SEQUENCE:
        sub, bound = arg
        inner = _member(owner, field, sub)
        return t.sequence[inner, bound] if bound else t.sequence[inner]
    raise ValueError(f"{owner}.{field}: field type {node!r} has no cyclonedds mapping "
                     '(wstring/wchar are not supported)')
