"""rclpy.topic_endpoint_info: what ``Node.get_publishers_info_by_topic`` and
``get_subscriptions_info_by_topic`` return (no GIDs or type hashes in-process)."""
from __future__ import annotations

from enum import IntEnum

__all__ = ['TopicEndpointTypeEnum', 'TopicEndpointInfo']


class TopicEndpointTypeEnum(IntEnum):
    INVALID = 0
    PUBLISHER = 1
    SUBSCRIPTION = 2


class TopicEndpointInfo:
    __slots__ = ('node_name', 'node_namespace', 'topic_type', 'endpoint_type', 'qos_profile')

    def __init__(self, node_name: str = '', node_namespace: str = '', topic_type: str = '',
                 endpoint_type: TopicEndpointTypeEnum = TopicEndpointTypeEnum.INVALID,
                 qos_profile=None):
        self.node_name = node_name
        self.node_namespace = node_namespace
        self.topic_type = topic_type
        self.endpoint_type = TopicEndpointTypeEnum(endpoint_type)
        self.qos_profile = qos_profile

    def __eq__(self, other) -> bool:
        return isinstance(other, TopicEndpointInfo) and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self) -> str:
        return (f'Node name: {self.node_name}\nNode namespace: {self.node_namespace}\n'
                f'Topic type: {self.topic_type}\nEndpoint type: {self.endpoint_type.name}\n'
                f'QoS profile: {self.qos_profile}')
