"""Raw CDR over Cyclone DDS: a writer and a reader that move serialized ROS 2 messages (with the
4-byte encapsulation header) without building Python samples.

cyclonedds-python serializes in Python and hands bytes to its C layer (``ddspy_write``), and
``ddspy_take`` returns the received bytes before ``IdlStruct.deserialize``; these classes call
those two functions directly with the runtime's CDR. The topic is still created with the
generated IdlStruct (:mod:`.idl_types`) so the type name and type information are right.
"""
from __future__ import annotations

import os
import threading
from typing import Callable

from cyclonedds._clayer import ddspy_take, ddspy_write
from cyclonedds.core import DDSException, Entity, InstanceState, SampleState, ViewState
from cyclonedds.domain import Domain, DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.qos import Policy, Qos
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic

from .discovery import rmw_config
from .idl_types import idl_struct
from .names import dds_topic

_ANY = SampleState.Any | ViewState.Any | InstanceState.Any
# Cyclone over loopback only, unicast discovery (no multicast needed): the tests' and
# benchmark's configuration. Peers on this host are found by probing participant indices.
LOOPBACK_CONFIG = (
    '<CycloneDDS><Domain Id="any"><General><Interfaces><NetworkInterface name="lo"/>'
    '</Interfaces><AllowMulticast>false</AllowMulticast></General><Discovery>'
    '<ParticipantIndex>auto</ParticipantIndex><MaxAutoParticipantIndex>30'
    '</MaxAutoParticipantIndex><Peers><Peer address="127.0.0.1"/></Peers></Discovery>'
    '</Domain></CycloneDDS>')


MATCH_RETRIES = 10


def matched_count(get_matched: Callable[[], list]) -> int:
    """How many peers ``get_matched`` (an entity's ``get_matched_subscriptions`` or
    ``get_matched_publications``) lists. cyclonedds-python sizes the handle array with one C call
    and fills it with a second; a peer matched in between makes the fill return more than the
    array holds and its list comprehension raises ``IndexError: invalid index`` (cyclonedds
    11.0.1, cyclonedds/pub.py and sub.py). The next call sees the new count: retry."""
    for _ in range(MATCH_RETRIES - 1):
        try:
            return len(get_matched())
        except IndexError:
            continue
    return len(get_matched())


def domain_id_from_env(default: int = 0) -> int:
    """``ROS_DOMAIN_ID`` as ROS 2 reads it (unset or empty: ``default``)."""
    text = os.environ.get('ROS_DOMAIN_ID', '').strip()
    return int(text) if text else default


# rmw_cyclonedds' participant USER_DATA (ros2/rmw_cyclonedds rmw_node.cpp, jazzy:
# "enclave=<enclave>;"): ROS 2's graph takes a participant's enclave from it
ENCLAVE_USER_DATA = b'enclave=/;'
_domains: dict[int, list] = {}  # domain id -> [Domain or None, participants]; rmw's refcount
_domains_lock = threading.Lock()


def participant(domain_id: int, config: str = '', *, whole: bool = False) -> DomainParticipant:
    """A participant on ``domain_id`` with the discovery a ROS 2 node (rmw_cyclonedds) would
    use here (:mod:`.discovery`); ``config`` (Cyclone XML or a file:// URI) replaces
    ``CYCLONEDDS_URI`` for this domain when given. ``whole``: ``config`` is the whole
    configuration, nothing is taken from the environment (a ``--processes`` run's,
    :func:`.discovery.run_config`). Participants of one domain in one process share its
    configuration, as rmw_cyclonedds' do: the first one sets it."""
    if not 0 <= domain_id <= 232:
        raise ValueError(f'domain id {domain_id}: expected 0..232 (ROS_DOMAIN_ID)')
    env = dict(os.environ, CYCLONEDDS_URI=config) if config else os.environ
    with _domains_lock:
        entry = _domains.get(domain_id)
        if entry is None:
            try:
                domain = Domain(domain_id, config if whole else rmw_config(env))
            except DDSException:  # made outside this module (a plain DomainParticipant)
                domain = None
            entry = _domains[domain_id] = [domain, 0]
        entry[1] += 1
    try:
        dp = DomainParticipant(domain_id, qos=Qos(Policy.Userdata(data=ENCLAVE_USER_DATA)))
    except BaseException:
        _release(domain_id)
        raise
    dp._zoo_domain_id = domain_id
    return dp


def _release(domain_id: int) -> None:
    with _domains_lock:
        entry = _domains[domain_id]
        entry[1] -= 1
        if entry[1] == 0:
            del _domains[domain_id]
            if entry[0] is not None:
                Entity.__del__(entry[0])


def close(dp: DomainParticipant) -> None:
    """Delete ``dp`` and everything it holds now (not at garbage collection); the domain goes
    with its last participant of ours."""
    Entity.__del__(dp)
    domain_id = getattr(dp, '_zoo_domain_id', None)
    if domain_id is not None:
        dp._zoo_domain_id = None
        _release(domain_id)


def writer_participant(reader, handle: int) -> str:
    """The GUID (as a string) of the participant of the writer ``handle`` that ``reader``
    matched, '' when DDS no longer knows it."""
    try:
        data = reader.get_matched_publication_data(handle)
    except Exception:  # noqa: BLE001 - unmatched meanwhile: unknown
        return ''
    return str(data.participant_key) if data is not None else ''


class WriterFilter:
    """Accepts samples only from writers of the expected participants (their GUIDs); the
    others are counted and reported through ``refused(where, source)``. The answer per writer
    is cached by its instance handle."""

    def __init__(self, participants, refused: Callable[[str, str], None]):
        self.participants = {str(p) for p in participants}
        self.refused = refused
        self._known: dict[tuple[int, int], bool] = {}

    def __call__(self, reader, handle: int, where: str) -> bool:
        key = (id(reader), handle)
        ok = self._known.get(key)
        if ok is None:
            source = writer_participant(reader, handle)
            ok = source in self.participants
            if source:  # unknown writers are asked again next time
                self._known[key] = ok
        else:
            source = ''
        if not ok:
            self.refused(where, source or writer_participant(reader, handle))
        return ok


def pad4(data: bytes) -> bytes:
    """CDR padded to a multiple of 4 bytes, as cyclonedds' DataWriter.write sends it."""
    extra = -len(data) % 4
    return data + b'\0' * extra if extra else data


class RawWriter:
    def __init__(self, dp: DomainParticipant, ros_topic: str, type_name: str, qos: Qos, *,
                 dds_name: str = '', struct=None, publisher=None):
        """``dds_name``/``struct``: another DDS topic and type (a service's rq/rr topics);
        ``publisher``: the writer's (its partitions), else the participant's default."""
        self.topic = Topic(dp, dds_name or dds_topic(ros_topic), struct or idl_struct(type_name),
                           qos=qos)
        self.writer = DataWriter(publisher or dp, self.topic, qos)
        self.type_name = self.topic.typename
        self._ref = self.writer._ref

    def write(self, cdr: bytes) -> None:
        ret = ddspy_write(self._ref, pad4(cdr))
        if ret < 0:
            raise DDSException(ret, f'writing on {self.topic.name}')

    def matched(self) -> int:
        return matched_count(self.writer.get_matched_subscriptions)


class RawReader:
    def __init__(self, dp: DomainParticipant, ros_topic: str, type_name: str, qos: Qos, *,
                 dds_name: str = '', struct=None, subscriber=None, accept=None):
        """``dds_name``/``struct``: another DDS topic and type (a service's rq/rr topics);
        ``subscriber``: the reader's (its partitions), else the participant's default.
        ``accept``: a :class:`WriterFilter`; samples of writers it refuses are dropped."""
        self.topic = Topic(dp, dds_name or dds_topic(ros_topic), struct or idl_struct(type_name),
                           qos=qos)
        self.reader = DataReader(subscriber or dp, self.topic, qos)
        self.type_name = self.topic.typename
        self._ref = self.reader._ref
        self.accept = accept

    def take(self, n: int = 64) -> list[bytes]:
        """Up to ``n`` received samples' CDR bytes (non-blocking)."""
        ret = ddspy_take(self._ref, _ANY, n)
        if isinstance(ret, int):
            raise DDSException(ret, f'taking from {self.topic.name}')
        if self.accept is None:
            return [data for data, info in ret if info.valid_data]
        return [data for data, info in ret if info.valid_data and
                self.accept(self.reader, info.publication_handle, self.topic.name)]

    def matched(self) -> int:
        return matched_count(self.reader.get_matched_publications)
