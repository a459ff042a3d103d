"""Embedded message classes behave like rclpy's generated ones: defaults, storage, checks.

Tests of rclpy-compatible behaviour run on the embedded classes and, where a ROS 2 is sourced, on
the real generated ones (the ``cls`` fixture). The strict field checks are embedded runtime only:
Jazzy's generated classes check fields only with ``ROS_PYTHON_CHECK_FIELDS=1`` (or
``check_fields=True``), and then raise a bare AssertionError; ours always check, with one line
naming the field. ``test_rclpy_with_checks_rejects_what_we_reject`` holds the two side by side.
"""
import array
import copy
import importlib
import pickle

import numpy as np
import pytest

from zoo_runtime.messages import (UnknownInterfaceError, embedded_message, get_interface,
                                  get_message, get_service, type_name_of)

JointState = embedded_message('sensor_msgs/msg/JointState')
Imu = embedded_message('sensor_msgs/msg/Imu')
Time = embedded_message('builtin_interfaces/msg/Time')
Point = embedded_message('geometry_msgs/msg/Point')


def real_message(type_name: str) -> type:
    pkg, kind, short = type_name.split('/')
    return getattr(importlib.import_module(f'{pkg}.{kind}'), short)


@pytest.fixture(params=['embedded', 'ros'])
def cls(request):
    """``cls('pkg/msg/T')``: the embedded class, or the real generated one."""
    if request.param == 'embedded':
        return embedded_message
    pytest.importorskip('rclpy', reason='no real ROS 2 message classes here (the ROS tier has '
                                        'them)')
    return real_message


def test_defaults_and_storage_follow_rclpy(cls):
    JointState, Imu = cls('sensor_msgs/msg/JointState'), cls('sensor_msgs/msg/Imu')
    js = JointState()
    assert js.name == [] and js.header.frame_id == '' and js.header.stamp.sec == 0
    assert isinstance(js.position, array.array) and js.position.typecode == 'd'
    imu = Imu()
    assert imu.orientation_covariance.dtype == np.float64
    assert imu.orientation_covariance.shape == (9,) and not imu.orientation_covariance.any()
    assert imu.orientation.w == 1.0 and imu.orientation.x == 0.0  # Quaternion.msg "float64 w 1"
    assert cls('sensor_msgs/msg/NavSatStatus')().status == -2
    assert cls('geometry_msgs/msg/Quaternion').W__DEFAULT == 1.0
    uuid = cls('unique_identifier_msgs/msg/UUID')().uuid
    assert uuid.dtype == np.uint8 and uuid.shape == (16,)
    assert cls('std_msgs/msg/Char')().data == 0  # ROS 2 char is uint8
    assert cls('std_msgs/msg/Byte')().data == b'\x00'  # byte is an octet
    # Fresh containers per instance, never shared defaults.
    a, b = JointState(), JointState()
    a.name.append('x')
    a.header.frame_id = 'f'
    assert b.name == [] and b.header.frame_id == ''


def test_constants_are_class_attributes_in_rclpy_form(cls):
    DiagnosticStatus = cls('diagnostic_msgs/msg/DiagnosticStatus')
    assert DiagnosticStatus.WARN == b'\x01'  # byte constants are bytes in rclpy
    assert cls('visualization_msgs/msg/Marker').LINE_STRIP == 4
    assert cls('sensor_msgs/msg/NavSatStatus').STATUS_UNKNOWN == -2
    assert cls('sensor_msgs/msg/PointField').FLOAT64 == 8


def test_constructor_converts_like_rclpy_init(cls):
    JointState, Imu = cls('sensor_msgs/msg/JointState'), cls('sensor_msgs/msg/Imu')
    js = JointState(name=['a', 'b'], position=[0, 1], velocity=np.array([1, 2]),
                    effort=np.array([0.5, 1.5], dtype=np.float32))
    assert js.name == ['a', 'b']
    assert js.position == array.array('d', [0.0, 1.0])
    assert js.velocity == array.array('d', [1.0, 2.0])
    assert js.effort == array.array('d', [0.5, 1.5])
    src = array.array('d', [3.0])
    assert JointState(position=src).position is not src  # rclpy's __init__ copies
    imu = Imu(orientation_covariance=range(9))
    assert imu.orientation_covariance.dtype == np.float64 and imu.orientation_covariance[8] == 8.0


def test_setattr_is_strict_like_rclpy_setters():
    """Embedded runtime only: rclpy's setters check like this with ROS_PYTHON_CHECK_FIELDS=1."""
    js = JointState()
    with pytest.raises(TypeError, match=r'^sensor_msgs/msg/JointState\.position: expected a '
                                        r'sequence of float, got list containing int at index 1$'):
        js.position = [0.0, 1]
    js.position = [0.5, 1.5]
    assert js.position == array.array('d', [0.5, 1.5])
    same = array.array('d', [2.0])
    js.velocity = same
    assert js.velocity is same  # rclpy keeps a matching array.array as is
    # rclpy's setters refuse numpy for sequences (the constructor converts it): so do we.
    with pytest.raises(TypeError, match=r'JointState\.effort: .*got a numpy array'):
        js.effort = np.array([1.0, 2.0])
    assert JointState(effort=np.array([1.0, 2.0])).effort == array.array('d', [1.0, 2.0])
    imu = Imu()
    cov = np.ones(9)
    imu.orientation_covariance = cov
    assert imu.orientation_covariance is cov


JS, TIME = 'sensor_msgs/msg/JointState', 'builtin_interfaces/msg/Time'
# (type, kwargs from a class getter, our exception and line, rclpy with checks rejects it too)
WRONG_VALUES = [
    (JS, lambda m: {'position': 'abc'}, TypeError,
     'sensor_msgs/msg/JointState.position: expected a sequence of float, got str', True),
    (JS, lambda m: {'name': ['a', 3]}, TypeError,
     'sensor_msgs/msg/JointState.name: expected a sequence of str, got list containing int at '
     'index 1', True),
    ('geometry_msgs/msg/Point', lambda m: {'x': 1}, TypeError,
     'geometry_msgs/msg/Point.x: expected float, got int (rclpy rejects int for float fields: '
     'write 1.0)', True),
    ('geometry_msgs/msg/Point', lambda m: {'x': '1.0'}, TypeError,
     'geometry_msgs/msg/Point.x: expected float, got str', True),
    (TIME, lambda m: {'sec': 1.0}, TypeError,
     'builtin_interfaces/msg/Time.sec: expected int in [-2147483648, 2147483647], got float',
     True),
    (TIME, lambda m: {'sec': 2**31}, ValueError,
     'builtin_interfaces/msg/Time.sec: expected int in [-2147483648, 2147483647], got 2147483648',
     True),
    (TIME, lambda m: {'nanosec': -1}, ValueError,
     'builtin_interfaces/msg/Time.nanosec: expected int in [0, 4294967295], got -1', True),
    ('std_msgs/msg/Bool', lambda m: {'data': 1}, TypeError,
     'std_msgs/msg/Bool.data: expected bool, got int', True),
    ('std_msgs/msg/Int8MultiArray', lambda m: {'data': [1, 200]}, ValueError,
     'std_msgs/msg/Int8MultiArray.data: values outside [-128, 127] for int8', True),
    ('std_msgs/msg/Int32MultiArray', lambda m: {'data': [1.5]}, TypeError,
     'std_msgs/msg/Int32MultiArray.data: expected a sequence of int, got list containing float '
     'at index 0', True),
    ('sensor_msgs/msg/Imu', lambda m: {'orientation_covariance': [0.0] * 8}, ValueError,
     'sensor_msgs/msg/Imu.orientation_covariance: expected exactly 9 elements, got 8', True),
    # rclpy's __init__ casts numpy arrays to the field's dtype (numpy.array(v, dtype=...)),
    # dropping imaginary parts and fractions: we refuse the lossy cast.
    ('sensor_msgs/msg/Imu', lambda m: {'orientation_covariance': np.zeros(9, np.complex128)},
     TypeError, 'sensor_msgs/msg/Imu.orientation_covariance: expected a sequence of 9 float, got '
     'numpy array of complex128', False),
    ('unique_identifier_msgs/msg/UUID', lambda m: {'uuid': np.full(16, 1.5)}, TypeError,
     'unique_identifier_msgs/msg/UUID.uuid: expected a sequence of 16 int, got numpy array of '
     'float64', False),
    ('sensor_msgs/msg/Imu', lambda m: {'header': m(TIME)()}, TypeError,
     'sensor_msgs/msg/Imu.header: expected std_msgs/msg/Header, got builtin_interfaces/msg/Time',
     True),
    ('rmw_dds_common/msg/NodeEntitiesInfo', lambda m: {'node_name': 'n' * 257}, ValueError,
     'rmw_dds_common/msg/NodeEntitiesInfo.node_name: string of length 257 exceeds the bound 256',
     True),
    ('rcl_interfaces/msg/ParameterDescriptor',
     lambda m: {'integer_range': [m('rcl_interfaces/msg/IntegerRange')()] * 2}, ValueError,
     'rcl_interfaces/msg/ParameterDescriptor.integer_range: expected at most 1 elements, got 2',
     True),
    ('std_msgs/msg/Byte', lambda m: {'data': b'ab'}, TypeError,
     'std_msgs/msg/Byte.data: expected bytes of length 1, got bytes of length 2', True),
    (JS, lambda m: {'foo': 1}, TypeError,
     "sensor_msgs/msg/JointState() got an unexpected keyword argument 'foo'", True),
]


@pytest.mark.parametrize('type_name, kwargs, exc, message, rclpy_rejects', WRONG_VALUES)
def test_wrong_values_give_one_clear_line(type_name, kwargs, exc, message, rclpy_rejects):
    with pytest.raises(exc) as info:
        embedded_message(type_name)(**kwargs(embedded_message))
    assert str(info.value) == message


@pytest.mark.filterwarnings('ignore:Casting complex values')  # rclpy's cast, checked below
@pytest.mark.parametrize('type_name, kwargs, exc, message, rclpy_rejects', WRONG_VALUES)
def test_rclpy_with_checks_rejects_what_we_reject(type_name, kwargs, exc, message,
                                                  rclpy_rejects):
    """Real generated classes with check_fields=True (ROS_PYTHON_CHECK_FIELDS=1) refuse the same
    values (with AssertionError, TypeError or OverflowError), except the marked lossy casts."""
    pytest.importorskip('rclpy', reason='no real ROS 2 message classes here (the ROS tier has '
                                        'them)')
    Real = real_message(type_name)
    if rclpy_rejects:
        with pytest.raises((AssertionError, TypeError, ValueError, OverflowError)):
            Real(check_fields=True, **kwargs(real_message))
    else:
        Real(check_fields=True, **kwargs(real_message))


def test_setattr_checks_and_unknown_attributes():
    """Embedded runtime only (see the module docstring)."""
    p = Point()
    with pytest.raises(TypeError, match=r'^geometry_msgs/msg/Point\.y: expected float, got int'):
        p.y = 2
    assert p.y == 0.0  # unchanged after a rejected assignment
    with pytest.raises(AttributeError, match=r"^geometry_msgs/msg/Point has no field 'w' "
                                             r'\(fields: x, y, z\)$'):
        p.w = 1.0
    with pytest.raises(AttributeError, match=r"^geometry_msgs/msg/Point has no field 'w'"):
        _ = p.w
    with pytest.raises(TypeError, match=r'^sensor_msgs/msg/Imu\.header: expected std_msgs/msg/'
                                        r'Header, got geometry_msgs/msg/Point$'):
        Imu().header = p


def test_unknown_types_name_close_matches():
    with pytest.raises(UnknownInterfaceError, match=r"^unknown message type 'sensor_msgs/msg/"
                                                    r"JointStat': did you mean sensor_msgs/msg/"
                                                    r'JointState'):
        get_message('sensor_msgs/msg/JointStat')
    with pytest.raises(LookupError, match=r"no interface package 'sensor_msg'; did you mean "
                                          r'sensor_msgs'):
        get_message('sensor_msg/JointState')
    with pytest.raises(UnknownInterfaceError, match=r"^unknown service type 'std_srvs/srv/Tigger':"
                                                    r' did you mean std_srvs/srv/Trigger\?$'):
        get_service('std_srvs/srv/Tigger')
    with pytest.raises(UnknownInterfaceError, match='is not of the form'):
        get_message('JointState')


def test_equality_repr_and_fields(cls):
    JointState, Imu, Point = (cls('sensor_msgs/msg/JointState'), cls('sensor_msgs/msg/Imu'),
                              cls('geometry_msgs/msg/Point'))
    a = JointState(name=['j'], position=[1.0])
    assert a == JointState(name=['j'], position=[1.0])
    assert a != JointState(name=['j'], position=[2.0])
    assert Imu() == Imu() and Imu() != Imu(orientation_covariance=[1.0] * 9)
    assert Point() != cls('geometry_msgs/msg/Vector3')()  # same fields, other type
    assert repr(Point(x=1.5)) == 'geometry_msgs.msg.Point(x=1.5, y=0.0, z=0.0)'
    assert repr(JointState(position=[1.0])) == (
        "sensor_msgs.msg.JointState(header=std_msgs.msg.Header(stamp=builtin_interfaces.msg."
        "Time(sec=0, nanosec=0), frame_id=''), name=[], position=[1.0], velocity=[], effort=[])")
    assert JointState.get_fields_and_field_types() == {
        'header': 'std_msgs/Header', 'name': 'sequence<string>', 'position': 'sequence<double>',
        'velocity': 'sequence<double>', 'effort': 'sequence<double>'}
    assert Imu.get_fields_and_field_types()['orientation_covariance'] == 'double[9]'
    assert cls('rcl_interfaces/msg/ParameterDescriptor').get_fields_and_field_types()[
        'integer_range'] == 'sequence<rcl_interfaces/IntegerRange, 1>'
    assert cls('std_msgs/msg/Empty').get_fields_and_field_types() == {}


def test_copy_deepcopy_pickle(cls):
    JointState, Imu = cls('sensor_msgs/msg/JointState'), cls('sensor_msgs/msg/Imu')
    a = Imu(orientation_covariance=[1.0] * 9)
    a.header.frame_id = 'imu'
    shallow = copy.copy(a)
    assert shallow == a and shallow.header is a.header
    deep = copy.deepcopy(a)
    deep.header.frame_id = 'other'
    deep.orientation_covariance[0] = 5.0
    assert a.header.frame_id == 'imu' and a.orientation_covariance[0] == 1.0
    js = JointState(name=['a'], position=[1.0])
    deep_js = copy.deepcopy(js)
    deep_js.position[0] = 2.0
    assert js.position[0] == 1.0
    assert pickle.loads(pickle.dumps(a)) == a


def test_services_and_type_names():
    """The classes the import path resolves to (real ones under real ROS)."""
    JointState = get_message('sensor_msgs/msg/JointState')
    SetBool = get_service('std_srvs/srv/SetBool')
    assert SetBool.Request(data=True).data is True
    assert SetBool.Response().message == ''
    with pytest.raises(NotImplementedError):
        SetBool()
    assert get_interface('std_srvs/SetBool') is SetBool
    assert get_interface('sensor_msgs/JointState') is JointState
    assert type_name_of(SetBool) == 'std_srvs/srv/SetBool'
    assert type_name_of(SetBool.Request()) == 'std_srvs/srv/SetBool_Request'
    assert type_name_of(JointState()) == 'sensor_msgs/msg/JointState'
    assert get_message('std_srvs/srv/SetBool_Response') is SetBool.Response
    assert get_service('rcl_interfaces/srv/ListParameters').Request.DEPTH_RECURSIVE == 0


def test_type_name_of_real_rclpy_classes():
    # rosidl_generator_py puts classes in modules named pkg.msg._snake_name / pkg.srv._snake_name.
    real_msg = type('JointState', (), {'__module__': 'sensor_msgs.msg._joint_state'})
    real_req = type('SetBool_Request', (), {'__module__': 'std_srvs.srv._set_bool'})
    real_srv = type('SetBool', (), {'__module__': 'std_srvs.srv._set_bool'})
    assert type_name_of(real_msg) == 'sensor_msgs/msg/JointState'
    assert type_name_of(real_msg()) == 'sensor_msgs/msg/JointState'
    assert type_name_of(real_req) == 'std_srvs/srv/SetBool_Request'
    assert type_name_of(real_srv) == 'std_srvs/srv/SetBool'
    with pytest.raises(TypeError, match='is not a ROS message or service type'):
        type_name_of(3.0)
