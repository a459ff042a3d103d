"""Cyclone DDS discovery set up as rmw_cyclonedds sets it up from ROS 2's environment, so that a
zoo_dds participant and a ROS 2 node started with the same ``ROS_AUTOMATIC_DISCOVERY_RANGE`` and
``ROS_STATIC_PEERS`` find each other.

Upstream ros2/rmw_cyclonedds ``rmw_cyclonedds_cpp/src/rmw_node.cpp`` (branch jazzy),
``check_create_domain``: the range (rcl: unset means SUBNET, rcl/discovery_options.h) becomes a
Cyclone XML fragment put before ``CYCLONEDDS_URI``:

- LOCALHOST: multicast off, ``ParticipantIndex auto`` (max 32), ``localhost`` and the static
  peers as peers (unicast discovery over fixed ports: a participant without the same setting is
  never found, nor does it find these);
- SUBNET: ``ParticipantIndex auto`` (max 32) and the static peers, multicast as configured;
- OFF: multicast off and a discovery tag no one else has;
- SYSTEM_DEFAULT: nothing (Cyclone's own defaults).
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping


def discovery_range(environ: Mapping[str, str] = os.environ) -> str:
    value = environ.get('ROS_AUTOMATIC_DISCOVERY_RANGE', '').strip().upper()
    if value not in ('', 'LOCALHOST', 'SUBNET', 'OFF', 'SYSTEM_DEFAULT'):
        raise ValueError(f'ROS_AUTOMATIC_DISCOVERY_RANGE={value!r}: expected LOCALHOST, SUBNET, '
                         'OFF or SYSTEM_DEFAULT')
    return value or 'SUBNET'


def rmw_config(environ: Mapping[str, str] = os.environ) -> str:
    """The Cyclone configuration rmw_cyclonedds would use here: its discovery fragment, a
    comma, then ``CYCLONEDDS_URI`` (Cyclone ignores an empty fragment)."""
    scope = discovery_range(environ)
    uri = environ.get('CYCLONEDDS_URI', '')
    peers = [p for p in environ.get('ROS_STATIC_PEERS', '').split(';') if p.strip()]
    if scope == 'LOCALHOST':
        peers = ['localhost', *peers]
    elif scope in ('OFF', 'SYSTEM_DEFAULT'):
        peers = []  # rmw_cyclonedds ignores them there (with a warning)
    fragment = ''
    if scope != 'SYSTEM_DEFAULT':
        fragment = '<CycloneDDS><Domain>'
        if scope == 'LOCALHOST' and 'NetworkInterface' not in uri:
            # beyond rmw's fragment: on the loopback interface (unless CYCLONEDDS_URI picks
            # one). cyclonedds 11 (pip) on the default interface never received the SPDP a ROS
            # 2 node (Cyclone 0.10.5) started after it sends to localhost, so `ros2 node list`
            # missed a run (measured here)
            fragment += ('<General><Interfaces><NetworkInterface address="127.0.0.1"/>'
                         '</Interfaces><AllowMulticast>false</AllowMulticast></General>')
        elif scope in ('LOCALHOST', 'OFF'):
            fragment += '<General><AllowMulticast>false</AllowMulticast></General>'
        if scope == 'OFF':
            fragment += ('<Discovery><ParticipantIndex>none</ParticipantIndex>'
                         f'<Tag>ros_discovery_off_{os.getpid()}</Tag>')
        else:
            fragment += ('<Discovery><ParticipantIndex>auto</ParticipantIndex>'
                         '<MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>')
        if peers:
            fragment += '<Peers>' + ''.join(f'<Peer address="{p.strip()}"/>' for p in peers) + \
                '</Peers>'
        fragment += '</Discovery></Domain></CycloneDDS>,'
    return fragment + uri


# a name or address Cyclone may take in its XML: no markup, no separators
_NETWORK_WORD = re.compile(r'^[A-Za-z0-9_.:%\[\]-]+$')
_IP_ADDRESS = re.compile(r'^[0-9.]+$|:')


def network_words(flag: str, text: str) -> list[str]:
    """``a,b`` from a command-line option -> ['a', 'b']; one clear line when an item is not an
    interface name, a host name or an address."""
    words = [w.strip() for w in text.split(',') if w.strip()]
    bad = [w for w in words if not _NETWORK_WORD.match(w)]
    if bad or not words:
        raise ValueError(f'{flag} {text!r}: expected interface names, host names or addresses '
                         'separated by commas')
    return words


def run_config(interfaces: list[str] = (), peers: list[str] = ()) -> str:
    """The whole Cyclone configuration of a ``--processes`` run (nothing from CYCLONEDDS_URI or
    ROS 2's discovery variables is merged in): by default the loopback interface only, no
    multicast, and unicast discovery of the participants on this host (``ParticipantIndex auto``
    with rmw_cyclonedds' bound of 32, peer ``localhost``), which is what rmw_cyclonedds
    configures under ``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST``, so ROS 2 nodes started that
    way on this host find the run. ``interfaces`` (names or addresses) replace the loopback
    interface and ``peers`` (host names or addresses) are asked for participants too: both
    take the run beyond this host, only when given (``--dds-interfaces``, ``--dds-peers``).
    Multicast stays off either way."""
    nics = ''.join(f'<NetworkInterface address="{i}"/>' if _IP_ADDRESS.search(i)
                   else f'<NetworkInterface name="{i}"/>' for i in interfaces) or \
        '<NetworkInterface address="127.0.0.1"/>'
    hosts = ''.join(f'<Peer address="{p}"/>' for p in ['localhost', *peers])
    for word in [*interfaces, *peers]:
        if not _NETWORK_WORD.match(word):
            raise ValueError(f'DDS interface or peer {word!r}: expected a name or an address')
    return ('<CycloneDDS><Domain Id="any"><General><Interfaces>' + nics + '</Interfaces>'
            '<AllowMulticast>false</AllowMulticast></General><Discovery>'
            '<ParticipantIndex>auto</ParticipantIndex>'
            '<MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>'
            f'<Peers>{hosts}</Peers></Discovery></Domain></CycloneDDS>')
