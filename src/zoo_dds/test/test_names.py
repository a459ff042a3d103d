import pytest

from zoo_dds.names import dds_topic, dds_type, ros_topic, ros_type


def test_topic_names_get_the_rt_prefix():
    assert dds_topic('/nao/joint_states') == 'rt/nao/joint_states'
    assert dds_topic('/clock') == 'rt/clock'
    assert ros_topic('rt/nao/joint_commands') == '/nao/joint_commands'


def test_type_names_get_the_dds_module_and_underscore():
    assert dds_type('sensor_msgs/msg/JointState') == 'sensor_msgs::msg::dds_::JointState_'
    assert ros_type('tf2_msgs::msg::dds_::TFMessage_') == 'tf2_msgs/msg/TFMessage'


@pytest.mark.parametrize('bad', ['nao/joint_states', '/a//b', '/a/'])
def test_relative_or_malformed_topics_are_refused(bad):
    with pytest.raises(ValueError, match='fully qualified'):
        dds_topic(bad)


@pytest.mark.parametrize('bad', ['sensor_msgs/JointState', 'std_srvs/srv/SetBool'])
def test_non_message_types_are_refused(bad):
    with pytest.raises(ValueError, match='pkg/msg/Type'):
        dds_type(bad)
