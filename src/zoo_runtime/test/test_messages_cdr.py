"""CDR through rosbags: every Jazzy type round-trips and matches rosbags' own bytes.

About the embedded classes, in both modes (explicitly ``embedded_message``, not the class the
import path resolves to); test_messages_real.py holds them against rclpy's generated classes and
serializer where a ROS 2 is sourced."""
import array

import numpy as np
import pytest
from rosbags.interfaces import Nodetype
from rosbags.typesys import Stores, get_typestore

from zoo_runtime import messages
from zoo_runtime.messages import (deserialize, embedded_message, from_rosbags, serialize,
                                  to_rosbags)

ORACLE = get_typestore(Stores.ROS2_JAZZY)  # independent of the store zoo_runtime uses
JAZZY_TYPES = sorted(ORACLE.fielddefs)
# Non-zero ROS defaults, from upstream ros2/common_interfaces: geometry_msgs/msg/Quaternion.msg
# "float64 w 1"; sensor_msgs/msg/NavSatStatus.msg (Jazzy) "int8 status -2".
ROS_DEFAULTS = {'geometry_msgs/msg/Quaternion': {'w': 1.0},
                'sensor_msgs/msg/NavSatStatus': {'status': -2}}
DTYPES = {'bool': np.bool_, 'byte': np.uint8, 'char': np.uint8, 'int8': np.int8, 'uint8': np.uint8,
          'int16': np.int16, 'uint16': np.uint16, 'int32': np.int32, 'uint32': np.uint32,
          'int64': np.int64, 'uint64': np.uint64, 'float32': np.float32, 'float64': np.float64}


def oracle_default(name: str):
    """A rosbags dataclass of ``name`` holding ROS default data, built from fielddefs only."""
    values = []
    for fname, (nodetype, rest) in ORACLE.fielddefs[name][1]:
        if fname in ROS_DEFAULTS.get(name, {}):
            values.append(ROS_DEFAULTS[name][fname])
        elif nodetype == Nodetype.BASE:
            base = rest[0]
            values.append('' if base == 'string' else False if base == 'bool'
                          else 0.0 if base.startswith('float') else 0)
        elif nodetype == Nodetype.NAME:
            values.append(oracle_default(rest))
        else:
            (subtype, sub), count = rest
            fixed = nodetype == Nodetype.ARRAY
            if subtype == Nodetype.NAME:
                values.append([oracle_default(sub) for _ in range(count)] if fixed else [])
            elif sub[0] == 'string':
                values.append([''] * count if fixed else [])
            else:
                values.append(np.zeros(count if fixed else 0, dtype=DTYPES[sub[0]]))
    return ORACLE.types[name](*values)


def test_the_jazzy_store_is_what_we_expect():
    assert len(JAZZY_TYPES) == 162
    assert ORACLE.hash_rihs01('std_msgs/msg/String') == (  # ros_stack.md section 11.3
        'RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18')


@pytest.mark.parametrize('type_name', JAZZY_TYPES)
def test_default_message_round_trips_and_matches_rosbags_bytes(type_name):
    msg = embedded_message(type_name)()
    data = serialize(msg)
    assert data[:4] == b'\x00\x01\x00\x00'  # CDR little-endian encapsulation header
    assert data == bytes(ORACLE.serialize_cdr(oracle_default(type_name), type_name,
                                              little_endian=True))
    back = deserialize(data, type_name)
    assert type(back) is type(msg)
    assert back == msg


def _stamp(sec, nanosec, frame=''):
    Header = embedded_message('std_msgs/msg/Header')
    Time = embedded_message('builtin_interfaces/msg/Time')
    return Header(stamp=Time(sec=sec, nanosec=nanosec), frame_id=frame)


def _vec(cls_name, **kw):
    return embedded_message(cls_name)(**kw)


def sample_messages():
    """Non-default data: nested messages, fixed arrays, sequences of messages, bounded strings."""
    Imu = embedded_message('sensor_msgs/msg/Imu')
    JointState = embedded_message('sensor_msgs/msg/JointState')
    TFMessage = embedded_message('tf2_msgs/msg/TFMessage')
    TransformStamped = embedded_message('geometry_msgs/msg/TransformStamped')
    Odometry = embedded_message('nav_msgs/msg/Odometry')
    PointCloud2 = embedded_message('sensor_msgs/msg/PointCloud2')
    PointField = embedded_message('sensor_msgs/msg/PointField')
    DiagnosticArray = embedded_message('diagnostic_msgs/msg/DiagnosticArray')
    DiagnosticStatus = embedded_message('diagnostic_msgs/msg/DiagnosticStatus')
    KeyValue = embedded_message('diagnostic_msgs/msg/KeyValue')
    MarkerArray = embedded_message('visualization_msgs/msg/MarkerArray')
    Marker = embedded_message('visualization_msgs/msg/Marker')
    NodeEntitiesInfo = embedded_message('rmw_dds_common/msg/NodeEntitiesInfo')
    Counter = embedded_message('zoo_interfaces/msg/Counter')
    Step = messages.embedded_service('zoo_interfaces/srv/Step')
    Quaternion = embedded_message('geometry_msgs/msg/Quaternion')
    return [
        Imu(header=_stamp(12, 345, 'imu_link'),
            orientation=Quaternion(x=0.1, y=-0.2, z=0.3, w=0.9),
            orientation_covariance=np.arange(9, dtype=float) * 0.5,
            angular_velocity=_vec('geometry_msgs/msg/Vector3', x=1.5, y=-2.5, z=3.25),
            linear_acceleration=_vec('geometry_msgs/msg/Vector3', z=-9.81)),
        JointState(header=_stamp(1, 2), name=['hip', 'knee', 'ankle'],
                   position=[0.1, -0.2, 0.3], velocity=[1.0, 2.0, 3.0], effort=[]),
        TFMessage(transforms=[
            TransformStamped(header=_stamp(3, 4, 'world'), child_frame_id=f'link{i}')
            for i in range(3)]),
        Odometry(header=_stamp(5, 6, 'odom'), child_frame_id='base_link'),
        PointCloud2(header=_stamp(7, 8), height=1, width=2,
                    fields=[PointField(name='x', offset=0, datatype=PointField.FLOAT32, count=1),
                            PointField(name='y', offset=4, datatype=PointField.FLOAT32, count=1)],
                    is_bigendian=False, point_step=8, row_step=16,
                    data=np.arange(16, dtype=np.uint8), is_dense=True),
        DiagnosticArray(header=_stamp(9, 10), status=[
            DiagnosticStatus(level=DiagnosticStatus.WARN, name='motor', message='hot',
                             hardware_id='m1', values=[KeyValue(key='temp', value='81')]),
            DiagnosticStatus(level=b'\xff', name='bus')]),
        MarkerArray(markers=[Marker(header=_stamp(11, 12, 'map'), ns='path', id=7,
                                    type=Marker.LINE_STRIP,
                                    points=[_vec('geometry_msgs/msg/Point', x=float(i))
                                            for i in range(4)],
                                    text='hello', frame_locked=True)]),
        NodeEntitiesInfo(node_namespace='/' + 'n' * 255, node_name='talker'),
        Counter(stamp=_stamp(13, 14).stamp, count=2**40, last='tick'),
        Step.Request(steps=250),
        Step.Response(success=True, message='ok', sim_time=_stamp(15, 16).stamp),
    ]


@pytest.mark.parametrize('msg', sample_messages(), ids=lambda m: messages.type_name_of(m))
def test_non_default_round_trip(msg):
    name = messages.type_name_of(msg)
    data = serialize(msg)
    back = deserialize(data, name)
    assert back == msg
    assert back is not msg
    # An independent decoder (rosbags with our registered types) sees the same content.
    decoded = messages.typestore().deserialize_cdr(data, name)
    assert from_rosbags(decoded) == msg
    assert serialize(from_rosbags(to_rosbags(msg))) == data


def test_decoded_values_seen_by_rosbags():
    imu, joints, tf = sample_messages()[:3]
    rb = ORACLE.deserialize_cdr(serialize(imu), 'sensor_msgs/msg/Imu')
    assert rb.header.frame_id == 'imu_link' and rb.header.stamp.nanosec == 345
    assert rb.orientation.w == 0.9 and rb.linear_acceleration.z == -9.81
    np.testing.assert_array_equal(rb.orientation_covariance, np.arange(9) * 0.5)
    rb = ORACLE.deserialize_cdr(serialize(joints), 'sensor_msgs/msg/JointState')
    assert rb.name == ['hip', 'knee', 'ankle']
    np.testing.assert_array_equal(rb.position, [0.1, -0.2, 0.3])
    assert len(rb.effort) == 0
    rb = ORACLE.deserialize_cdr(serialize(tf), 'tf2_msgs/msg/TFMessage')
    assert [t.child_frame_id for t in rb.transforms] == ['link0', 'link1', 'link2']


def test_byte_fields_are_octets_on_the_wire():
    DiagnosticStatus = embedded_message('diagnostic_msgs/msg/DiagnosticStatus')
    data = serialize(DiagnosticStatus(level=b'\xff'))
    assert data[4] == 0xFF
    assert deserialize(data, 'diagnostic_msgs/msg/DiagnosticStatus').level == b'\xff'
    ParameterValue = embedded_message('rcl_interfaces/msg/ParameterValue')
    pv = ParameterValue(byte_array_value=[b'\x01', b'\xfe'], bool_array_value=[True, False])
    back = deserialize(serialize(pv), 'rcl_interfaces/msg/ParameterValue')
    assert back.byte_array_value == [b'\x01', b'\xfe']
    assert back.bool_array_value == [True, False]


def test_deserialized_containers_are_rclpy_types_and_writable():
    imu, joints = sample_messages()[:2]
    back = deserialize(serialize(joints), 'sensor_msgs/JointState')
    assert isinstance(back.position, array.array) and back.position.typecode == 'd'
    back.position[0] = 5.0
    cloud = deserialize(serialize(sample_messages()[4]), 'sensor_msgs/msg/PointCloud2')
    assert isinstance(cloud.data, array.array) and cloud.data.typecode == 'B'
    back_imu = deserialize(serialize(imu), 'sensor_msgs/msg/Imu')
    assert back_imu.orientation_covariance.dtype == np.float64
    back_imu.orientation_covariance[0] = 1.0  # own, writable memory
    assert back_imu.orientation_covariance.flags.writeable


def test_msgdef_and_type_hash():
    text = messages.msgdef('sensor_msgs/JointState')
    assert text.startswith('std_msgs/Header header\nstring[] name\nfloat64[] position\n')
    assert '\n' + '=' * 80 + '\nMSG: builtin_interfaces/Time\n' in text
    assert messages.rihs01('std_msgs/msg/String') == ORACLE.hash_rihs01('std_msgs/msg/String')
    counter = messages.msgdef('zoo_interfaces/msg/Counter')
    assert counter.startswith('builtin_interfaces/Time stamp\nuint64 count\nstring last\n')
    assert messages.rihs01('zoo_interfaces/msg/Counter').startswith('RIHS01_')


def _random_message(cls, rng, depth=0):
    """An embedded message of ``cls`` with random content: strings of 0-5 characters (some not
    ASCII) and sequences of 0-3 elements, so every alignment case occurs."""
    from zoo_runtime.messages.fields import NUMERIC
    from zoo_runtime.messages import registry
    values = {}
    for spec in cls._zoo_fields:
        def one():
            if spec.nested:
                return _random_message(registry.message_class(spec.base), rng, depth + 1)
            if spec.base == 'string':
                n = int(rng.integers(0, 6)) if not spec.str_bound else min(
                    spec.str_bound, int(rng.integers(0, 6)))
                return ''.join(rng.choice(list('abcdé€xyz'), n))
            if spec.base == 'bool':
                return bool(rng.integers(0, 2))
            if spec.base == 'byte':
                return bytes([int(rng.integers(0, 256))])
            dtype = NUMERIC[spec.base][1]
            if dtype.kind == 'f':
                return float(dtype.type(rng.normal() * 100))
            info = np.iinfo(dtype)
            return int(rng.integers(info.min, info.max, endpoint=True, dtype=dtype))
        if spec.kind == 'scalar':
            values[spec.name] = one()
            continue
        n = spec.size if spec.kind == 'array' else int(rng.integers(0, 4 if depth < 2 else 2))
        if spec.kind == 'sequence' and spec.size:
            n = min(n, spec.size)
        items = [one() for _ in range(n)]
        if spec.base in NUMERIC and not spec.nested:
            items = np.array(items, dtype=NUMERIC[spec.base][1])
        values[spec.name] = items
    return cls(**values)


@pytest.mark.parametrize('type_name', JAZZY_TYPES)
def test_generated_serializer_writes_rosbags_bytes(type_name):
    """messages.serialize writes embedded messages from their fields (messages/cdr.py, the
    recording hot path): byte for byte what rosbags' serializer writes, for random content."""
    rng = np.random.default_rng(sum(map(ord, type_name)))
    cls = embedded_message(type_name)
    for _ in range(8):
        msg = _random_message(cls, rng)
        data = serialize(msg)
        assert data == messages.serialize_via_rosbags(msg)
        assert deserialize(data, type_name) == msg


@pytest.mark.parametrize('msg', sample_messages(), ids=lambda m: messages.type_name_of(m))
def test_generated_serializer_on_samples(msg):
    assert serialize(msg) == messages.serialize_via_rosbags(msg)
