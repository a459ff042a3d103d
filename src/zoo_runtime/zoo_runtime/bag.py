"""rosbag2 recording (MCAP storage, CDR messages) and reading into numpy arrays.

``BagWriter`` writes rosbag2 format version 9 with the MCAP storage plugin through rosbags, with
``ros2msg`` schemas and RIHS01 hashes from the shared typestore, so ``ros2 bag``, Foxglove and
rosbags open the result. ``BagRecorder`` records the topics of a live embedded context, with
optional size and duration limits. ``read_bag`` turns a bag into per-topic :class:`Table` objects
for plots and tests. Chunks are flushed every second of log time, so a killed recording loses at
most that; ``repair_bag`` (from :mod:`zoo_runtime.bag_repair`) makes such a bag readable.
"""
from __future__ import annotations

import os
import shutil
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib.metadata import version as rosbags_version
from pathlib import Path

import numpy as np
from rosbags.interfaces import (Connection, MessageDefinitionFormat, Nodetype, Qos, QosDurability,
                                QosHistory, QosLiveliness, QosReliability, QosTime)
from rosbags.rosbag2 import CompressionMode, Reader, StoragePlugin, Writer
from rosbags.rosbag2.errors import ReaderError
from rosbags.typesys import Stores, get_typestore, get_types_from_msg

from zoo_runtime import messages
from zoo_runtime.bag_repair import (BagError, BagInfo, RepairReport, bag_info, bag_state,
                                    repair_bag, unfinished_error)

__all__ = ['BagWriter', 'BagRecorder', 'read_bag', 'Table', 'qos_for_bag', 'BagError',
           'BagClosedError', 'BagWriteError', 'repair_bag', 'RepairReport', 'bag_info', 'BagInfo']

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


class BagClosedError(BagError):
    """A write to a bag that was already closed."""


class BagWriteError(BagError):
    """The disk refused a write (full, a quota, a file-size limit): the bag was left unfinished
    at its last flushed chunk, as a killed recording leaves it (``repair_bag`` reads it)."""


# rosbags' McapWriter keeps the open chunk in memory and writes summary, footer and metadata.yaml
# only in close(): a killed recorder would leave nothing readable. BagWriter therefore closes and
# flushes chunks itself and undoes a write that an exception (e.g. from a signal handler)
# interrupted half-way. Both use McapWriter internals of rosbags 0.11.9, the version
# requirements.txt pins; _check_internals says so clearly if another version lacks them.
_INTERNALS = {'Writer': ('storage', 'connections', 'counts', 'added_types', 'min_timestamp',
                         'max_timestamp'),
              'McapWriter': ('bio', 'chunk', 'chunks', 'close_chunk', 'schemas', 'channels',
                             'channel_stats', 'message_start_time', 'message_end_time'),
              'PendingChunk': ('bio', 'msgs', 'message_start_time', 'message_end_time')}


# an MCAP Message record: opcode, record length, channel id, sequence, log time, publish time
_MESSAGE_RECORD = struct.Struct('<BQHIQQ')
_CHUNK_BYTES = 2**20  # rosbags' McapWriter closes a chunk beyond this
_INLINE_VERSION = '0.11.9'


def _check_internals(writer: Writer) -> None:
    objs = {'Writer': writer, 'McapWriter': writer.storage,
            'PendingChunk': getattr(writer.storage, 'chunk', None)}
    missing = [f'{cls}.{attr}' for cls, attrs in _INTERNALS.items() for attr in attrs
               if not hasattr(objs[cls], attr)]
    if missing:
        raise RuntimeError(f'rosbags {rosbags_version("rosbags")} lacks {", ".join(missing)}: '
                           'zoo_runtime.bag flushes MCAP chunks through internals of rosbags '
                           '0.11.9 (pinned in requirements.txt); install that version')


class _Undo:
    """The writer's state before one write (or chunk flush): what an interrupted one goes back to.
    Restoring is idempotent, so it may itself be interrupted and run again."""

    def __init__(self, bag: BagWriter, conn_id: int | None, topic: str | None,
                 new_topic: bool) -> None:
        w = bag._writer
        st = w.storage
        ch = self.chunk = st.chunk
        self.chunk_state = (ch.bio.tell(), ch.message_start_time, ch.message_end_time)
        self.file_state = (st.bio.tell(), len(st.chunks))
        self.times = (st.message_start_time, st.message_end_time, w.min_timestamp,
                      w.max_timestamp)
        self.bag_state = (bag._total, bag.flushed_messages)
        self.conn_id, self.topic = conn_id, topic
        if conn_id is not None:
            index = ch.msgs.get(conn_id)
            self.n_index = None if index is None else len(index)
            self.counts = (st.channel_stats[conn_id], w.counts[conn_id], bag.counts[topic])
        # a new topic adds a schema, channel and connection: rare, so copied whole
        self.tables = (list(w.connections), dict(w.counts), set(w.added_types),
                       list(st.schemas), list(st.channels), dict(st.channel_stats),
                       dict(bag._connections), dict(bag.counts)) if new_topic else None

    def restore(self, bag: BagWriter) -> None:
        w = bag._writer
        st = w.storage
        ch = st.chunk = self.chunk
        pos, ch.message_start_time, ch.message_end_time = self.chunk_state
        ch.bio.seek(pos)
        ch.bio.truncate()
        file_pos, n_chunks = self.file_state
        if st.bio.tell() != file_pos:  # a chunk was being written to the file
            st.bio.seek(file_pos)
            st.bio.truncate()
        del st.chunks[n_chunks:]
        st.message_start_time, st.message_end_time, w.min_timestamp, w.max_timestamp = self.times
        bag._total, bag.flushed_messages = self.bag_state
        if self.conn_id is not None:
            if self.n_index is None:
                ch.msgs.pop(self.conn_id, None)
            else:
                del ch.msgs[self.conn_id][self.n_index:]
            st.channel_stats[self.conn_id], w.counts[self.conn_id], bag.counts[self.topic] = (
                self.counts)
        if self.tables is not None:
            (w.connections[:], w.counts, w.added_types, st.schemas[:], st.channels[:],
             st.channel_stats, bag._connections, bag.counts) = (
                list(self.tables[0]), dict(self.tables[1]), set(self.tables[2]),
                list(self.tables[3]), list(self.tables[4]), dict(self.tables[5]),
                dict(self.tables[6]), dict(self.tables[7]))


class BagWriter:
    """Write messages to a new rosbag2 (v9, MCAP) directory at ``path``.

    ``write(topic, msg, t_ns)`` registers the topic's connection on first use (type from the
    message, msgdef + RIHS01 from the typestore) and stores the CDR bytes at log time ``t_ns``.
    ``topics_qos`` maps topics to the offered QoS recorded for them (e.g. TRANSIENT_LOCAL for
    ``/robot_description`` so ``ros2 bag play`` latches it). Use as a context manager or call
    ``close()``.

    Surviving a kill: a chunk is closed and handed to the OS when its messages span
    ``flush_period_s`` of log time (None: only at rosbags' 1 MB chunk size), so a killed process
    loses at most that much; ``repair_bag`` makes such a bag readable. ``flushed_messages`` counts
    the messages already handed over. A write interrupted by an exception (a signal handler) is
    undone, and ``close()`` called from a signal handler during a write takes effect when the write
    is done: the bag stays valid. Not thread-safe; ``BagRecorder`` serialises its calls.
    """

    def __init__(self, path: str | Path, *,
                 topics_qos: Mapping[str, object | Sequence[object]] | None = None,
                 flush_period_s: float | None = 1.0) -> None:
        self.path = Path(path)
        if self.path.exists():
            raise FileExistsError(f'{self.path}: a file or bag already exists there; bags are '
                                  'never overwritten, choose a new path')
        if flush_period_s is not None and not flush_period_s > 0:
            raise ValueError(f'{self.path}: flush_period_s must be positive seconds or None, got '
                             f'{flush_period_s!r}')
        self._qos = dict(topics_qos or {})
        self._period_ns = None if flush_period_s is None else int(flush_period_s * 1e9)
        self._writer = Writer(self.path, version=9, storage_plugin=StoragePlugin.MCAP)
        self._writer.open()
        try:
            _check_internals(self._writer)
        except RuntimeError:
            self._writer.storage.abort()
            shutil.rmtree(self.path)  # created just now, by us
            raise
        self._flushed_bytes = 0  # the file holds whole records up to here
        self.flushed_messages = 0
        self.failed: str | None = None  # why the disk refused a write (BagWriteError)
        try:
            self._writer.storage.bio.flush()  # the MCAP header is on disk from the start
        except OSError as exc:
            raise self._fail(exc) from None
        self._flushed_bytes = self._writer.storage.bio.tell()
        # _write's inline path replicates rosbags 0.11.9's MCAP writer (uncompressed only)
        self._inline = (rosbags_version('rosbags') == _INLINE_VERSION and
                        self._writer.compression_mode == CompressionMode.NONE and
                        type(self._writer.storage).__name__ == 'McapWriter')
        self._connections: dict[str, Connection] = {}
        self.counts: dict[str, int] = {}
        self.flushed_messages = 0
        self._total = 0
        self._undo: _Undo | None = None  # set while a write is under way or was interrupted
        self._writing = None  # the frame of the action under way
        self._close_requested = False
        self._closed = False
        self._final_size = 0

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def size_bytes(self) -> int:
        """Bytes of the MCAP file so far, the open chunk included."""
        st = self._writer.storage
        if st is None or self._closed:
            return self._final_size
        return st.bio.tell() + st.chunk.bio.tell()

    def add_topic(self, topic: str, type_name: str) -> None:
        """Declare ``topic`` with ``type_name`` before (or without) writing to it."""
        if topic in self._connections:
            if self._connections[topic].msgtype != type_name:
                raise TypeError(f'{self.path}: topic {topic} is recorded as '
                                f'{self._connections[topic].msgtype}, not {type_name}')
            return
        self._check_open()
        qos = self._qos.get(topic, ())
        profiles = [qos_for_bag(q) for q in (qos if isinstance(qos, (list, tuple)) else [qos])]
        msgdef, rihs01 = messages.msgdef(type_name), messages.rihs01(type_name)
        self._guarded(lambda: self._add_connection(topic, type_name, msgdef, rihs01, profiles),
                      None, None, True)

    def _add_connection(self, topic: str, type_name: str, msgdef: str, rihs01: str,
                        profiles: list[Qos]) -> None:
        self._connections[topic] = self._writer.add_connection(
            topic, type_name, msgdef=msgdef, rihs01=rihs01, offered_qos_profiles=profiles)
        self.counts[topic] = 0

    def write(self, topic: str, msg: object, t_ns: int) -> None:
        """Append ``msg`` on ``topic`` at log time ``t_ns`` (int nanoseconds)."""
        self._check_open()
        conn = self._connections.get(topic)
        type_name = messages.type_name_of(msg)
        if conn is None or conn.msgtype != type_name:
            self.add_topic(topic, type_name)
            conn = self._connections[topic]
        if not isinstance(t_ns, (int, np.integer)) or t_ns < 0:
            raise ValueError(f'{self.path}: log time of a message on {topic} must be a '
                             f'non-negative int of nanoseconds, got {t_ns!r}')
        data = messages.serialize(msg)
        self._guarded(lambda: self._write(conn, topic, int(t_ns), data), conn.id, topic, False)

    def _write(self, conn: Connection, topic: str, t_ns: int, data: bytes) -> None:
        w = self._writer
        st = w.storage
        chunk = st.chunk
        if self._inline:
            # rosbags 0.11.9's Writer.write + McapWriter.write for an uncompressed bag and a
            # connection of ours, inline: the same MCAP Message record, index entry and counts
            # (its connection check compares dataclasses, most of its cost per message)
            cid = conn.id
            if t_ns < st.message_start_time:
                st.message_start_time = t_ns
            if t_ns > st.message_end_time:
                st.message_end_time = t_ns
            st.channel_stats[cid] += 1
            if t_ns < chunk.message_start_time:
                chunk.message_start_time = t_ns
            if t_ns > chunk.message_end_time:
                chunk.message_end_time = t_ns
            bio = chunk.bio
            chunk.msgs[cid].append((t_ns, bio.tell()))
            bio.write(_MESSAGE_RECORD.pack(0x05, 22 + len(data), cid, 0, t_ns, t_ns))
            bio.write(data)
            if bio.tell() > _CHUNK_BYTES:
                st.close_chunk()
            w.counts[cid] += 1
            if t_ns < w.min_timestamp:
                w.min_timestamp = t_ns
            if t_ns > w.max_timestamp:
                w.max_timestamp = t_ns
        else:
            w.write(conn, t_ns, data)
        self.counts[topic] += 1
        self._total += 1
        if st.chunk is not chunk:  # rosbags closed a full chunk: hand it to the OS
            self._flush_file()
        elif self._period_ns is not None and t_ns - chunk.message_start_time >= self._period_ns:
            self._flush_chunk()

    def _flush_chunk(self) -> None:
        self._writer.storage.close_chunk()
        self._flush_file()

    def _flush_file(self) -> None:
        # flush, not fsync: a killed process loses nothing the OS has; power loss is out of scope
        self._writer.storage.bio.flush()
        self._flushed_bytes = self._writer.storage.bio.tell()
        self.flushed_messages = self._total

    def _guarded(self, action: Callable[[], None], *undo: object) -> None:
        """Run ``action``; if anything interrupts it, go back to the state before it. Once
        ``_writing`` is set, close() waits for the action, so the checks below stay true."""
        try:
            self._writing = sys._getframe()
            self._rollback()  # an earlier action whose rollback was interrupted
            self._check_open()
            self._undo = _Undo(self, *undo)
            action()
            self._undo = None
        except OSError as exc:  # no room: undoing would write again; cut the file back instead
            raise self._fail(exc) from None
        except BaseException:
            self._rollback()
            raise
        finally:
            self._writing = None
            if self._close_requested:  # close() came from a signal handler during the action
                self.close()

    def _in_action(self) -> bool:
        """Whether this call runs inside an action (a signal handler interrupted it). Checked on
        the stack, as a flag could be left set by an interrupt in ``_guarded``'s finally."""
        frame = sys._getframe(1)
        while frame is not None and self._writing is not None:
            if frame is self._writing:
                return True
            frame = frame.f_back
        return False

    def _rollback(self) -> None:
        if self._undo is not None:
            self._undo.restore(self)
            self._undo = None

    def _check_open(self) -> None:
        if self._closed or self._close_requested:
            raise BagClosedError(f'{self.path}: the bag is closed; no more messages can be added')

    def close(self) -> None:
        """Finish the MCAP file and write metadata.yaml (idempotent; safe from a signal handler).

        Called while a write is under way (a signal handler in the writing thread), it takes
        effect as soon as that write is done or undone. Should close itself be interrupted, every
        message is already on disk and ``repair_bag`` recovers them all."""
        if self._in_action():
            self._close_requested = True
            return
        self._close_requested = False
        if self._closed:
            return
        self._rollback()  # a write whose own rollback was interrupted
        if self._writer.storage.chunk.bio.tell():  # all messages on disk before the summary
            self._guarded(self._flush_chunk, None, None, False)
        self._closed = True
        try:
            self._writer.close()
        except OSError as exc:  # the summary or metadata.yaml found no room
            raise self._fail(exc) from None
        self._final_size = (self.path / f'{self.path.name}.mcap').stat().st_size

    def _fail(self, exc: OSError) -> BagWriteError:
        """The disk refused a write: the MCAP file is cut back to its last flushed chunk (what a
        killed recording leaves, which ``repair_bag`` reads) and the writer dropped without its
        summary, which would need room. Nothing is written to the bag after this."""
        mcap = self.path / f'{self.path.name}.mcap'
        st = self._writer.storage
        raw = getattr(getattr(st, 'bio', None), 'raw', None)
        try:
            if raw is not None:
                raw.close()  # the buffered bytes are dropped, never written later
        except OSError:
            pass
        try:
            os.truncate(mcap, self._flushed_bytes)
        except OSError:
            pass  # the flushed part is intact either way; repair_bag stops at a torn record
        self._writer.metapath.with_suffix('.yaml.tmp').unlink(missing_ok=True)
        self._undo = None
        self._closed = True
        self._final_size = self._flushed_bytes
        self.failed = (f'{mcap}: {exc.strerror or exc}; the bag holds the '
                       f'{self.flushed_messages} messages written before, unfinished')
        return BagWriteError(self.failed)

    def __enter__(self) -> BagWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()  # keep what was recorded, also when the scenario failed


def _fmt_bytes(n: int) -> str:
    return f'{n / 1e6:.1f} MB' if n >= 1e5 else f'{n / 1e3:.1f} kB' if n >= 100 else f'{n} bytes'


class BagRecorder:
    """Record topics of a live embedded context into a bag at ``path``.

    Uses the context's hooks: ``add_publish_observer(fn)`` (``fn(topic, msg)`` on every publish),
    ``remove_publish_observer(handle)``, ``topic_type(topic)`` and ``sim_time_ns()`` (log time;
    wall time ``time.time_ns()`` when no lockstep executor drives the context). ``topics=None``
    records every topic. ``counts`` holds the number of messages recorded per topic.

    Limits: ``max_bytes`` (size of the MCAP file) and ``max_duration_s`` (log time since the first
    recorded message) stop the recording, not the run: the bag is closed, valid, and
    ``limit_reached`` holds a one-line reason (None while recording is unlimited by them).
    ``flush_period_s``: see :class:`BagWriter`. ``stop()`` is idempotent and may be called from a
    signal handler, also while a message is being written. A write the disk refuses (full, a
    quota) stops the recording and sets ``failed`` to a line naming the file: the bag is left
    unfinished at its last flushed chunk, for ``repair_bag``; publishers never see the error.
    """

    def __init__(self, context: object, path: str | Path, topics: Iterable[str] | None = None, *,
                 topics_qos: Mapping[str, object] | None = None, max_bytes: int | None = None,
                 max_duration_s: float | None = None,
                 flush_period_s: float | None = 1.0) -> None:
        for name, value in (('max_bytes', max_bytes), ('max_duration_s', max_duration_s)):
            if value is not None and not value > 0:
                raise ValueError(f'{path}: {name} must be positive or None, got {value!r}')
        self.context = context
        self.path = Path(path)
        self.topics = None if topics is None else frozenset(topics)
        self.max_bytes = max_bytes
        self.max_duration_s = max_duration_s
        self.limit_reached: str | None = None
        self._qos = topics_qos
        self._flush_period_s = flush_period_s
        self._writer: BagWriter | None = None
        self._handle = None
        self._t0: int | None = None
        self.failed: str | None = None  # the disk refused a write: recording stopped, why
        # re-entrant: stop() from a signal handler may run while this thread is in _on_publish
        self._lock = threading.RLock()

    @property
    def counts(self) -> dict[str, int]:
        return dict(self._writer.counts) if self._writer else {}

    @property
    def size_bytes(self) -> int:
        return self._writer.size_bytes if self._writer else 0

    def start(self) -> BagRecorder:
        if self._writer is not None:
            raise RuntimeError(f'{self.path}: recorder already started')
        self._writer = BagWriter(self.path, topics_qos=self._offered_qos(),
                                 flush_period_s=self._flush_period_s)
        for topic in sorted(self.topics or ()):  # known topics appear even without messages
            type_name = self.context.topic_type(topic)
            if type_name:
                self._writer.add_topic(topic, type_name)
        self._handle = self.context.add_publish_observer(self._on_publish, self.topics)
        self._record_latched()
        return self

    def _offered_qos(self) -> dict:
        """The QoS each topic's publishers offer (as ``ros2 bag record`` stores it, so that
        ``ros2 bag play`` latches ``/tf_static`` again), unless ``topics_qos`` names it."""
        qos = {}
        graph = getattr(self.context, '_graph', None)
        if graph is not None:
            with graph.lock:
                qos = {name: [p.qos_profile for p in topic.publishers]
                       for name, topic in graph.topics.items() if topic.publishers}
        qos.update(self._qos or {})
        return qos

    def _record_latched(self) -> None:
        """What TRANSIENT_LOCAL publishers (``/tf_static``, ``robot_description``) published
        before the recorder started: ``ros2 bag record`` receives it when it subscribes, so a bag
        started after the nodes still holds the static transforms."""
        graph = getattr(self.context, '_graph', None)
        if graph is None:
            return
        with graph.lock:
            latched = [(name, list(pub._history)) for name, topic in sorted(graph.topics.items())
                       if self.topics is None or name in self.topics
                       for pub in topic.publishers if getattr(pub, '_history', None)]
        for name, msgs in latched:
            for msg in msgs:
                self._on_publish(name, msg)

    def _on_publish(self, topic: str, msg: object) -> None:
        if self.topics is not None and topic not in self.topics:
            return
        t_ns = self.context.sim_time_ns()
        t_ns = time.time_ns() if t_ns is None else t_ns
        handle = None
        with self._lock:
            writer = self._writer
            if writer is None or writer.closed:
                return
            try:
                reason = self._record(writer, topic, msg, t_ns)
            except BagWriteError as exc:  # not the publisher's problem: the run reads `failed`
                self.failed, reason = str(exc), None
                handle, self._handle = self._handle, None
            if reason is not None and not writer.closed:
                self.limit_reached = reason
                try:
                    writer.close()
                except BagWriteError as exc:
                    self.failed = str(exc)
                handle, self._handle = self._handle, None
        if handle is not None:  # publishers need not build messages for us any more
            self.context.remove_publish_observer(handle)

    def _record(self, writer: BagWriter, topic: str, msg: object, t_ns: int) -> str | None:
        """Write one message; returns why recording must stop when a limit is reached."""
        if self._t0 is None:
            self._t0 = t_ns
        elapsed = (t_ns - self._t0) / 1e9
        if self.max_duration_s is not None and elapsed > self.max_duration_s:
            return f'duration limit {self.max_duration_s:g} s reached'
        try:
            writer.write(topic, msg, t_ns)
        except BagClosedError:
            return None  # stop() ran meanwhile, from a signal handler
        if self.max_bytes is not None and not writer.closed and (
                writer.size_bytes >= self.max_bytes):
            return f'size limit {_fmt_bytes(self.max_bytes)} reached after {elapsed:.1f} s'
        return None

    def stop(self) -> None:
        """Stop recording and close the bag (idempotent)."""
        with self._lock:
            handle, self._handle = self._handle, None
            if self._writer is not None:
                try:
                    self._writer.close()
                except BagWriteError as exc:
                    self.failed = self.failed or str(exc)
        if handle is not None:
            self.context.remove_publish_observer(handle)

    def __enter__(self) -> BagRecorder:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Table:
    """The messages of one topic: ``t`` (float64 seconds of log time), ``t_ns`` (int64), columns by
    dotted field path (``table['position']``, ``table['header.stamp']``) and ``msgs`` (messages of
    the classes ``messages.get_message`` gives: embedded, or the real ones under real ROS; decoded
    on first access).

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
            decode = messages.deserialize_message  # real classes under real ROS, as written
            self._msgs = [decode(d, self.type_name) for d in self._raw]
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
    that is not in the bag is an error naming the topics that are. A bag whose recording was not
    closed (killed) raises :class:`BagError` saying so and how to repair it; nothing is repaired
    behind the user's back, as repairing changes the bag's files.
    """
    path = Path(path)
    with _open_reader(path) as reader:
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


@contextmanager
def _open_reader(path: Path) -> Iterator[Reader]:
    try:
        reader = Reader(path)
        reader.open()
    except (ReaderError, OSError):
        state, _ = bag_state(path)  # one line for what is not a bag at all
        if state == 'unfinished':
            raise unfinished_error(path) from None
        raise
    try:
        yield reader
    finally:
        reader.close()


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
