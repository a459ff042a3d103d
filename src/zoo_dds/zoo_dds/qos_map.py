"""ROS 2 QoS profile -> Cyclone DDS QoS, the mapping of rmw_cyclonedds (``create_readwrite_qos``
in rmw_node.cpp): history KEEP_LAST(depth; 0 = system default -> 1) or KEEP_ALL; RELIABLE
(blocking time infinite) or BEST_EFFORT; VOLATILE or TRANSIENT_LOCAL (with a durability-service
history equal to the history); deadline/lifespan when specified; liveliness AUTOMATIC or
MANUAL_BY_TOPIC, lease infinite unless specified; auto-dispose off; optional ignore-local; and
``typehash=RIHS01_<sha256>;`` in USER_DATA (what Jazzy's rmw put there, shown by
``ros2 topic info -v``). SYSTEM_DEFAULT means the ROS default. BEST_AVAILABLE (resolved against
the peers by rmw) becomes the policy that matches every peer: reliable and transient local for a
writer, best effort and volatile for a reader.
"""
from __future__ import annotations

from typing import Any

from cyclonedds.internal import dds_infinity
from cyclonedds.qos import Policy, Qos

_INFINITE_NS = 2 ** 63 - 1
_UNLIMITED = -1  # DDS_LENGTH_UNLIMITED


def _name(policy: Any) -> str:
    return getattr(policy, 'name', str(policy)).upper()


def _ns(duration: Any) -> int:
    return int(getattr(duration, 'nanoseconds', duration or 0))


def _dds_duration(duration: Any) -> int:
    ns = _ns(duration)
    return dds_infinity if ns >= _INFINITE_NS else ns


def dds_qos(profile: Any, *, writer: bool, type_hash: str = '', ignore_local: bool = False
            ) -> Qos:
    """The DDS QoS of a writer (``writer=True``) or reader for ROS 2 QoS ``profile`` (an rclpy
    or zoo_runtime QoSProfile)."""
    history = _name(profile.history)
    if history == 'KEEP_ALL':
        hist = Policy.History.KeepAll
    else:
        hist = Policy.History.KeepLast(int(profile.depth) or 1)
    reliability = _name(profile.reliability)
    if reliability == 'BEST_EFFORT' or (reliability == 'BEST_AVAILABLE' and not writer):
        rel = Policy.Reliability.BestEffort
    else:
        rel = Policy.Reliability.Reliable(max_blocking_time=dds_infinity)
    policies: list = [hist, rel, Policy.WriterDataLifecycle(autodispose=False)]
    durability = _name(profile.durability)
    if durability == 'TRANSIENT_LOCAL' or (durability == 'BEST_AVAILABLE' and writer):
        policies += [Policy.Durability.TransientLocal,
                     Policy.DurabilityService(cleanup_delay=0, history=hist,
                                              max_samples=_UNLIMITED, max_instances=_UNLIMITED,
                                              max_samples_per_instance=_UNLIMITED)]
    else:
        policies.append(Policy.Durability.Volatile)
    if _ns(getattr(profile, 'lifespan', 0)):
        policies.append(Policy.Lifespan(_dds_duration(profile.lifespan)))
    if _ns(getattr(profile, 'deadline', 0)):
        policies.append(Policy.Deadline(_dds_duration(profile.deadline)))
    lease = getattr(profile, 'liveliness_lease_duration', 0)
    lease_ns = _dds_duration(lease) if _ns(lease) else dds_infinity
    if _name(getattr(profile, 'liveliness', 'AUTOMATIC')) == 'MANUAL_BY_TOPIC':
        policies.append(Policy.Liveliness.ManualByTopic(lease_duration=lease_ns))
    else:
        policies.append(Policy.Liveliness.Automatic(lease_duration=lease_ns))
    if ignore_local:
        policies.append(Policy.IgnoreLocal.Participant)
    if type_hash:
        policies.append(Policy.Userdata(data=f'typehash={type_hash};'.encode()))
    return Qos(*policies)
