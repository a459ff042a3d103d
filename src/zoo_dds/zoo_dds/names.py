"""ROS 2 <-> DDS names, as rmw_cyclonedds and rmw_fastrtps spell them on the wire.

Topic ``/nao/joint_states`` is the DDS topic ``rt/nao/joint_states``; message type
``sensor_msgs/msg/JointState`` is the DDS type ``sensor_msgs::msg::dds_::JointState_``.
"""
from __future__ import annotations

TOPIC_PREFIX = 'rt'


def dds_topic(ros_topic: str) -> str:
    """``/a/b`` -> ``rt/a/b`` (the name must be fully qualified)."""
    if not ros_topic.startswith('/') or ros_topic.endswith('/') or '//' in ros_topic:
        raise ValueError(f"topic '{ros_topic}': expected a fully qualified name like /robot/x")
    return TOPIC_PREFIX + ros_topic


def ros_topic(dds_name: str) -> str:
    """``rt/a/b`` -> ``/a/b``."""
    if not dds_name.startswith(TOPIC_PREFIX + '/'):
        raise ValueError(f"DDS topic '{dds_name}' is not a ROS topic (no '{TOPIC_PREFIX}/')")
    return dds_name[len(TOPIC_PREFIX):]


def split_type(type_name: str) -> tuple[str, str, str]:
    """``pkg/msg/Type`` -> (pkg, 'msg', Type)."""
    parts = type_name.split('/')
    if len(parts) != 3 or not all(parts) or parts[1] != 'msg':
        raise ValueError(f"type '{type_name}': expected pkg/msg/Type")
    return parts[0], parts[1], parts[2]


def dds_type(type_name: str) -> str:
    """``pkg/msg/Type`` -> ``pkg::msg::dds_::Type_``."""
    pkg, kind, short = split_type(type_name)
    return f'{pkg}::{kind}::dds_::{short}_'


def ros_type(dds_name: str) -> str:
    """``pkg::msg::dds_::Type_`` -> ``pkg/msg/Type``."""
    parts = dds_name.split('::')
    if len(parts) != 4 or parts[2] != 'dds_' or not parts[3].endswith('_'):
        raise ValueError(f"DDS type '{dds_name}' is not a ROS 2 type (pkg::msg::dds_::Type_)")
    return f'{parts[0]}/{parts[1]}/{parts[3][:-1]}'


def service_topics(service: str) -> tuple[str, str]:
    """``/a/b`` -> (``rq/a/bRequest``, ``rr/a/bReply``), the request and reply topics of a
    service as rmw_cyclonedds and rmw_fastrtps name them."""
    dds_topic(service)  # validates
    return f'rq{service}Request', f'rr{service}Reply'


def dds_service_type(srv_type: str, part: str) -> str:
    """(``pkg/srv/T``, ``Request`` or ``Response``) -> ``pkg::srv::dds_::T_Request_``."""
    parts = srv_type.split('/')
    if len(parts) != 3 or not all(parts) or parts[1] != 'srv' or part not in ('Request',
                                                                                'Response'):
        raise ValueError(f"service type '{srv_type}' {part}: expected pkg/srv/Type, "
                         'Request or Response')
    return f'{parts[0]}::srv::dds_::{parts[2]}_{part}_'
