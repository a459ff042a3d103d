"""Embedded message classes against the real rosidl-generated ones, where a ROS 2 is sourced (the
ROS tier): the same fields, types, defaults and constants, and our CDR serializer writes the bytes
``rclpy.serialization.serialize_message`` writes, for every type both have (the Jazzy standard
types and the workspace's own: zoo_interfaces, robobo_msgs, opencv_apps)."""
import array
import importlib

import numpy as np
import pytest

from test_messages_cdr import JAZZY_TYPES, _random_message
from zoo_runtime import messages
from zoo_runtime.messages import embedded_message, registry, serialize

serialization = pytest.importorskip(
    'rclpy.serialization',
    reason='real rclpy is not importable: no real ROS 2 message classes here (the ROS tier has them)')
RUNS_ON_REAL_RCLPY = True  # counted as such by the ROS tier (tools/pytest_plugins/ros_tier.py)

WORKSPACE_PACKAGES = ('zoo_interfaces', 'robobo_msgs', 'opencv_apps')


def _workspace_types():
    return [name for pkg in WORKSPACE_PACKAGES for name in registry.known_types(pkg)
            if '/srv/' not in name or name.endswith(('_Request', '_Response'))]


TYPES = JAZZY_TYPES + _workspace_types()


def real_class(type_name: str) -> type:
    """The generated class of ``type_name`` (services' parts through the service class)."""
    pkg, kind, short = type_name.split('/')
    try:
        module = importlib.import_module(f'{pkg}.{kind}')
    except ImportError:
        pytest.skip(f'{pkg} is not in this ROS 2 install')
    if kind == 'srv':
        service, part = short.rsplit('_', 1)
        return getattr(getattr(module, service), part)
    if not hasattr(module, short):
        pytest.skip(f'{type_name} is not in this ROS 2 install')
    return getattr(module, short)


def to_real(msg):
    """The real message holding ``msg``'s (embedded) data, built through the real constructor."""
    kwargs = {}
    for spec in msg._zoo_fields:
        value = getattr(msg, spec.name)
        if spec.nested:
            value = to_real(value) if spec.kind == 'scalar' else [to_real(v) for v in value]
        kwargs[spec.name] = value
    return real_class(msg._zoo_type)(**kwargs)


def assert_same(emb, real, where):
    """Same value held in the same kind of container (rclpy's storage rules)."""
    if hasattr(real, 'get_fields_and_field_types'):
        for name in real.get_fields_and_field_types():
            assert_same(getattr(emb, name), getattr(real, name), f'{where}.{name}')
    elif isinstance(real, np.ndarray):
        assert isinstance(emb, np.ndarray), where
        assert (emb.dtype, emb.shape) == (real.dtype, real.shape), where
        np.testing.assert_array_equal(emb, real, err_msg=where)
    elif isinstance(real, array.array):
        assert isinstance(emb, array.array) and emb.typecode == real.typecode, where
        assert emb == real, where
    elif isinstance(real, list):
        assert isinstance(emb, list) and len(emb) == len(real), where
        for i, (e, r) in enumerate(zip(emb, real)):
            assert_same(e, r, f'{where}[{i}]')
    else:
        assert type(emb) is type(real) and emb == real, f'{where}: {emb!r} != {real!r}'


def _constants(cls) -> dict:
    fields = set(cls._zoo_fields and (s.name for s in cls._zoo_fields))
    return {k: v for k, v in vars(cls).items() if k.isupper() and k not in fields
            and not k.endswith('__DEFAULT')}


@pytest.mark.parametrize('type_name', TYPES)
def test_embedded_class_matches_the_generated_one(type_name):
    Real, Emb = real_class(type_name), embedded_message(type_name)
    assert Emb.get_fields_and_field_types() == Real.get_fields_and_field_types()
    assert_same(Emb(), Real(), type_name)  # defaults, field by field
    for name, value in _constants(Emb).items():
        assert type(value) is type(getattr(Real, name)) and value == getattr(Real, name), name


@pytest.mark.parametrize('type_name', TYPES)
def test_our_cdr_bytes_are_rclpys(type_name):
    """serialize(embedded) == serialize_message(real) for default and random content, rclpy
    reads our bytes back to the same message, and a real message goes through us unchanged."""
    Real = real_class(type_name)
    rng = np.random.default_rng(sum(map(ord, type_name)))
    samples = [embedded_message(type_name)()] + [
        _random_message(embedded_message(type_name), rng) for _ in range(6)]
    for msg in samples:
        real = to_real(msg)
        data = serialization.serialize_message(real)
        assert serialize(msg) == data
        assert serialization.deserialize_message(data, Real) == real
        assert serialize(real) == data  # real classes go through rosbags
        assert_same(messages.deserialize(data, type_name), real, type_name)
