"""zoo_dds.discovery: the Cyclone discovery fragment rmw_cyclonedds builds from ROS 2's
environment (rmw_node.cpp check_create_domain, jazzy), put before CYCLONEDDS_URI."""
import pytest
from zoo_dds.discovery import rmw_config


def test_unset_range_is_subnet_with_participant_indices_and_static_peers():
    cfg = rmw_config({'ROS_STATIC_PEERS': '10.0.0.2; ;host-b', 'CYCLONEDDS_URI': 'file://x.xml'})
    assert cfg.startswith('<CycloneDDS><Domain><Discovery><ParticipantIndex>auto<')
    assert '<MaxAutoParticipantIndex>32<' in cfg and 'AllowMulticast' not in cfg
    assert '<Peer address="10.0.0.2"/><Peer address="host-b"/>' in cfg
    assert cfg.endswith('</CycloneDDS>,file://x.xml')


def test_localhost_is_unicast_to_localhost_on_loopback():
    cfg = rmw_config({'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST'})
    assert '<AllowMulticast>false</AllowMulticast>' in cfg
    assert '<NetworkInterface address="127.0.0.1"/>' in cfg
    assert '<Peers><Peer address="localhost"/></Peers>' in cfg
    chosen = rmw_config({'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST',
                         'CYCLONEDDS_URI': '<CycloneDDS><Domain><General><Interfaces>'
                         '<NetworkInterface name="lo"/>'})
    assert 'address="127.0.0.1"' not in chosen  # the user's interface choice stands


def test_off_and_system_default():
    off = rmw_config({'ROS_AUTOMATIC_DISCOVERY_RANGE': 'OFF', 'ROS_STATIC_PEERS': 'h'})
    assert '<ParticipantIndex>none<' in off and '<Tag>ros_discovery_off_' in off
    assert 'Peer ' not in off
    assert rmw_config({'ROS_AUTOMATIC_DISCOVERY_RANGE': 'SYSTEM_DEFAULT',
                       'CYCLONEDDS_URI': 'u'}) == 'u'
    with pytest.raises(ValueError, match='ROS_AUTOMATIC_DISCOVERY_RANGE'):
        rmw_config({'ROS_AUTOMATIC_DISCOVERY_RANGE': 'moon'})
