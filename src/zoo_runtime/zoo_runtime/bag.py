"""rosbag2 recording (MCAP storage, CDR messages) and reading into numpy arrays.

``BagWriter`` writes rosbag2 format version 9 with the MCAP storage plugin through rosbags, with
``ros2msg`` schemas and RIHS01 hashes from the shared typestore, so ``ros2 bag``, Foxglove and
rosbags open the result. ``BagRecorder`` records the topics of a live embedded context.
``read_bag`` turns a bag into per-topic :class:`Table` objects for plots and tests.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
from rosbags.interfaces import (Connection, MessageDefinitionFormat, Nodetype, Qos, QosDurability,
                                QosHistory, QosLiveliness, QosReliability, QosTime)
from rosbags.rosbag2 import Reader, StoragePlugin, Writer
from rosbags.typesys import Stores, get_typestore, get_types_from_msg

from zoo_runtime import messages

__all__ = ['BagWriter', 'BagRecorder', 'read_bag', 'Table', 'qos_for_bag']

# rosbag2 writes RMW's "infinite" duration like this in metadata.yaml.
_INFINITE = QosTime(sec=9223372036, nsec=854775807)
_TIME_TYPES = ('builtin_interfaces/msg/Time', 'builtin_interfaces/msg/Duration')


def qos_for_bag(profile: object) -> Qos:
    """A rosbags ``Qos`` from a rosbags Qos or an rclpy-like QoSProfile (``history``, ``depth``,
    ``reliability``, ``durability`` whose enum names are rclpy's, e.g. ``TRANSIENT_LOCAL``)."""
    if isinstance(profile, Qos):
        return profile

    def pick(enum, attr, default):
        value = getattr(profile, attr, None)
        name = getattr(value, 'name', value)
        if name is None:
            return default
        try:
            return enum[str(name).upper().removeprefix('RMW_QOS_POLICY_')]
        except KeyError:
            raise ValueError(f'QoS {attr}={name!r} has no rosbag2 equivalent; expected one of '
                             f'{", ".join(m.name for m in enum)}') from None

    return Qos(history=pick(QosHistory, 'history', QosHistory.KEEP_LAST),
               depth=int(getattr(profile, 'depth', 10) or 0),
               reliability=pick(QosReliability, 'reliability', QosReliability.RELIABLE),
               durability=pick(QosDurability, 'durability', QosDurability.VOLATILE),
               deadline=_INFINITE, lifespan=_INFINITE,
               liveliness=pick(QosLiveliness, 'liveliness', QosLiveliness.AUTOMATIC),
               liveliness_lease_duration=_INFINITE, avoid_ros_namespace_conventions=False)


class BagWriter:
    """Write messages to a new rosbag2 (v9, MCAP) directory at ``path``.

    ``write(topic, msg, t_ns)`` registers the topic's connection on first use (type from the
    message, msgdef + RIHS01 from the typestore) and stores the CDR bytes at log time ``t_ns``.
    ``topics_qos`` maps topics to the offered QoS recorded for them (e.g. TRANSIENT_LOCAL for
    ``/robot_description`` so ``ros2 bag play`` latches it). Use as a context manager or call
    ``close()``.
    """

    def __init__(self, path: str | Path, *,
                 topics_qos: Mapping[str, object | Sequence[object]] | None = None) -> None:
        self.path = Path(path)
        if self.path.exists():
            raise FileExistsError(f'{self.path}: a file or bag already exists there; bags are '
                                  'never overwritten, choose a new path')
        self._qos = dict(topics_qos or {})
        self._writer = Writer(self.path, version=9, storage_plugin=StoragePlugin.MCAP)
        self._writer.open()
        self._connections: dict[str, Connection] = {}
        self.counts: dict[str, int] = {}

    def add_topic(self, topic: str, type_name: str) -> None:
        """Declare ``topic`` with ``type_name`` before (or without) writing to it."""
        if topic in self._connections:
            if self._connections[topic].msgtype != type_name:
                raise TypeError(f'{self.path}: topic {topic} is recorded as '
                                f'{self._connections[topic].msgtype}, not {type_name}')
            return
        qos = self._qos.get(topic, ())
        profiles = [qos_for_bag(q) for q in (qos if isinstance(qos, (list, tuple)) else [qos])]
        self._connections[topic] = self._writer.add_connection(
            topic, type_name, msgdef=messages.msgdef(type_name), rihs01=messages.rihs01(type_name),
            offered_qos_profiles=profiles)
        self.counts[topic] = 0

    def write(self, topic: str, msg: object, t_ns: int) -> None:
        """Append ``msg`` on ``topic`` at log time ``t_ns`` (int nanoseconds)."""
        conn = self._connections.get(topic)
        type_name = messages.type_name_of(msg)
        if conn is None or conn.msgtype != type_name:
            self.add_topic(topic, type_name)
            conn = self._connections[topic]
        if not isinstance(t_ns, (int, np.integer)) or t_ns < 0:
            raise ValueError(f'{self.path}: log time of a message on {topic} must be a '
                             f'non-negative int of nanoseconds, got {t_ns!r}')
        self._writer.write(conn, int(t_ns), messages.serialize(msg))
        self.counts[topic] += 1

    def close(self) -> None:
        """Finish the MCAP file and write metadata.yaml (idempotent)."""
        if self._writer.storage is not None:
            self._writer.close()

    def __enter__(self) -> BagWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()  # keep what was recorded, also when the scenario failed


class BagRecorder:
    """Record topics of a live embedded context into a bag at ``path``.

    Uses the context's hooks: ``add_publish_observer(fn)`` (``fn(topic, msg)`` on every publish),
    ``remove_publish_observer(handle)``, ``topic_type(topic)`` and ``sim_time_ns()`` (log time;
    wall time ``time.time_ns()`` when no lockstep executor drives the context). ``topics=None``
    records every topic. ``counts`` holds the number of messages recorded per topic.
    """

    def __init__(self, context: object, path: str | Path, topics: Iterable[str] | None = None, *,
                 topics_qos: Mapping[str, object] | None = None) -> None:
        self.context = context
        self.path = Path(path)
        self.topics = None if topics is None else frozenset(topics)
        self._qos = topics_qos
        self._writer: BagWriter | None = None
        self._handle = None
        self._lock = threading.Lock()

    @property
    def counts(self) -> dict[str, int]:
        return dict(self._writer.counts) if self._writer else {}

    def start(self) -> BagRecorder:
        if self._writer is not None:
            raise RuntimeError(f'{self.path}: recorder already started')
        self._writer = BagWriter(self.path, topics_qos=self._qos)
        for topic in sorted(self.topics or ()):  # known topics appear even without messages
            type_name = self.context.topic_type(topic)
            if type_name:
                self._writer.add_topic(topic, type_name)
        self._handle = self.context.add_publish_observer(self._on_publish, self.topics)
        return self

    def _on_publish(self, topic: str, msg: object) -> None:
        if self.topics is not None and topic not in self.topics:
            return
        t_ns = self.context.sim_time_ns()
        with self._lock:
            if self._writer is not None:
                self._writer.write(topic, msg, time.time_ns() if t_ns is None else t_ns)

    def stop(self) -> None:
        """Stop recording and close the bag (idempotent)."""
        if self._handle is not None:
            self.context.remove_publish_observer(self._handle)
            self._handle = None
        with self._lock:
            if self._writer is not None:
                self._writer.close()

    def __enter__(self) -> BagRecorder:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Table:
    """The messages of one topic: ``t`` (float64 seconds of log time), ``t_ns`` (int64), columns by
    dotted field path (``table['position']``, ``table['header.stamp']``) and ``msgs`` (embedded
    messages, decoded on first access).

    Column rules, N = number of messages:
    - numeric and bool scalar fields -> array of shape (N,);
    - ``builtin_interfaces`` Time/Duration fields (e.g. ``header.stamp``) -> float64 seconds (N,);
    - fixed-size numeric arrays, and numeric sequences of the same length k in every message
      -> (N, k); numeric sequences whose length varies -> list of N 1-D arrays;
    - string fields -> list of N str;
    - string arrays/sequences (e.g. JointState ``name``) -> the first message's list of str when
      every message has the same list, else a list of N lists;
    - nested messages contribute their own fields under ``outer.inner``; arrays/sequences of
      messages get no column (use ``msgs``).
    """

    def __init__(self, topic: str, type_name: str, t_ns: np.ndarray, columns: dict[str, object],
                 raw: list[bytes]) -> None:
        self.topic = topic
        self.type_name = type_name
        self.t_ns = t_ns
        self.t = t_ns.astype(np.float64) / 1e9
        self.columns = columns
        self._raw = raw
        self._msgs: list | None = None

    @property
    def msgs(self) -> list:
        if self._msgs is None:
            self._msgs = [messages.deserialize(d, self.type_name) for d in self._raw]
        return self._msgs

    def __len__(self) -> int:
        return len(self.t_ns)

    def __getitem__(self, key: str):
        try:
            return self.columns[key]
        except KeyError:
            raise KeyError(f'{self.topic} ({self.type_name}) has no column {key!r}; columns: '
                           f'{", ".join(self.columns) or "none"}') from None

    def keys(self) -> list[str]:
        return list(self.columns)

    def __repr__(self) -> str:
        return f'Table({self.topic!r}, {self.type_name}, {len(self)} messages)'


def read_bag(path: str | Path, topics: Iterable[str] | None = None) -> dict[str, Table]:
    """Read a rosbag2 bag (any storage rosbags reads) into a :class:`Table` per topic.

    Messages are decoded with the message definitions stored in the bag, so a bag written with
    other definitions still reads as recorded. ``topics`` selects topics (all by default); a topic
    that is not in the bag is an error naming the topics that are.
    """
    path = Path(path)
    with Reader(path) as reader:
        available = {c.topic for c in reader.connections}
        wanted = available if topics is None else set(topics)
        missing = sorted(wanted - available)
        if missing:
            raise KeyError(f'{path}: no topic {", ".join(missing)} in the bag; it has: '
                           f'{", ".join(sorted(available)) or "none"}')
        store = get_typestore(Stores.EMPTY)
        conns = [c for c in reader.connections if c.topic in wanted]
        for conn in conns:
            if conn.msgdef.format != MessageDefinitionFormat.MSG:
                raise ValueError(f'{path}: topic {conn.topic} has a {conn.msgdef.format.name} '
                                 'message definition; only ros2msg is supported')
            store.register(get_types_from_msg(conn.msgdef.data, conn.msgtype))
        stamps: dict[str, list[int]] = {c.topic: [] for c in conns}
        raws: dict[str, list[bytes]] = {c.topic: [] for c in conns}
        for conn, t_ns, data in reader.messages(connections=conns):
            stamps[conn.topic].append(t_ns)
            raws[conn.topic].append(bytes(data))
    types = {c.topic: c.msgtype for c in conns}
    tables = {}
    for topic in sorted(stamps):
        decoded = [store.deserialize_cdr(d, types[topic]) for d in raws[topic]]
        columns: dict[str, object] = {}
        _columns(store, types[topic], decoded, '', columns)
        tables[topic] = Table(topic, types[topic], np.array(stamps[topic], dtype=np.int64),
                              columns, raws[topic])
    return tables


def _columns(store, type_name: str, objs: list, prefix: str, out: dict[str, object]) -> None:
    for name, (nodetype, rest) in store.fielddefs[type_name][1]:
        key = prefix + name
        values = [getattr(o, name) for o in objs]
        if nodetype == Nodetype.NAME:
            if rest in _TIME_TYPES:
                out[key] = np.array([v.sec + v.nanosec * 1e-9 for v in values], dtype=np.float64)
            else:
                _columns(store, rest, values, key + '.', out)
        elif nodetype == Nodetype.BASE:
            out[key] = list(values) if rest[0] == 'string' else np.array(values)
        else:
            (subtype, sub), _ = rest
            if subtype == Nodetype.NAME:
                continue
            if sub[0] == 'string':
                first = list(values[0]) if values else []
                out[key] = first if all(list(v) == first for v in values) else [
                    list(v) for v in values]
            elif values and len({len(v) for v in values}) == 1:
                out[key] = np.stack([np.asarray(v) for v in values])
            elif values:
                out[key] = [np.array(v) for v in values]
            else:
                out[key] = np.empty((0, 0))
