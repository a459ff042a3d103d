"""The generated IdlStructs: DDS type names, and cyclonedds' own XCDR1 encoding of a sample equals
the runtime's CDR (rosbags) byte for byte, so raw bytes and typed peers agree."""
import pytest
from zoo_runtime import messages

from zoo_dds.idl_types import idl_struct
from zoo_dds.names import dds_type
from zoo_dds.transport import pad4


def _joint_state():
    msg = messages.get_message('sensor_msgs/msg/JointState')(
        name=['HeadYaw', 'HeadPitch', 'LShoulderPitch'], position=[0.1, -0.2, 1.5],
        velocity=[0.0, 1.0, -1.0], effort=[])
    msg.header.stamp.sec, msg.header.stamp.nanosec, msg.header.frame_id = 12, 345, 'nao/base'
    return msg


def _imu():
    msg = messages.get_message('sensor_msgs/msg/Imu')()  # float64[9] covariances
    msg.orientation.w = 1.0
    msg.angular_velocity_covariance[4] = 0.5
    return msg


def _odometry():
    msg = messages.get_message('nav_msgs/msg/Odometry')(child_frame_id='nao/base')
    msg.pose.pose.position.z = 0.33
    return msg


def _tf():
    tf = messages.get_message('geometry_msgs/msg/TransformStamped')(child_frame_id='b')
    tf.transform.rotation.w = 1.0
    return messages.get_message('tf2_msgs/msg/TFMessage')(transforms=[tf, tf])


CASES = {'sensor_msgs/msg/JointState': _joint_state, 'sensor_msgs/msg/Imu': _imu,
         'nav_msgs/msg/Odometry': _odometry, 'tf2_msgs/msg/TFMessage': _tf,
         'rosgraph_msgs/msg/Clock': lambda: messages.get_message('rosgraph_msgs/msg/Clock')(),
         'std_msgs/msg/String': lambda: messages.get_message('std_msgs/msg/String')(data='hi'),
         'std_msgs/msg/Empty': lambda: messages.get_message('std_msgs/msg/Empty')()}


@pytest.mark.parametrize('type_name', sorted(CASES))
def test_xcdr1_encoding_equals_the_runtime_cdr(type_name):
    cdr = messages.serialize(CASES[type_name]())
    cls = idl_struct(type_name)
    sample = cls.deserialize(cdr)
    assert pad4(sample.serialize()) == pad4(cdr)
    assert cdr[:4] == b'\x00\x01\x00\x00'  # CDR_LE encapsulation, XCDR1
    back = messages.deserialize(pad4(cdr), type_name)  # the padded form DDS delivers
    assert messages.serialize(back) == cdr


def test_type_names_and_nested_types():
    js = idl_struct('sensor_msgs/msg/JointState')
    assert js.__idl__.idl_transformed_typename == dds_type('sensor_msgs/msg/JointState')
    assert idl_struct('std_msgs/msg/Header').__idl__.idl_transformed_typename == \
        'std_msgs::msg::dds_::Header_'
    assert idl_struct('sensor_msgs/msg/JointState') is js  # cached
    sample = js.deserialize(messages.serialize(_joint_state()))
    assert sample.name[0] == 'HeadYaw' and sample.header.frame_id == 'nao/base'


def test_unknown_type_is_refused():
    with pytest.raises(ValueError, match='unknown message type'):
        idl_struct('no_pkg/msg/Nothing')
