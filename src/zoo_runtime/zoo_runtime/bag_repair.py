"""Inspect and repair rosbag2 MCAP bags whose recording was killed before the bag was closed.

A killed recorder leaves ``<bag>/<bag>.mcap`` without summary, footer and end magic, and no
``metadata.yaml``. Every chunk it flushed is still intact: :func:`repair_bag` reads the records of
those chunks (and the complete message records of a torn, uncompressed last chunk), writes them
through rosbags' ``Writer`` into a sibling temporary directory and swaps the result in. The torn
original is kept as ``<bag>/<bag>.mcap.unfinished``; a repair that is itself killed is simply run
again. Plain Python and rosbags, no ROS imports.

MCAP record layout (https://mcap.dev/spec): opcode u8, body length u64, body. Strings are a u32
byte length + UTF-8. The records used here: Header 0x01, Footer 0x02, Schema 0x03, Channel 0x04,
Message 0x05, Chunk 0x06, DataEnd 0x0F.
"""
from __future__ import annotations

import mmap
import os
import shutil
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rosbags.rosbag2 import Reader, StoragePlugin, Writer
from rosbags.rosbag2.errors import ReaderError
# module-level helpers of rosbags' MCAP storage (rosbags is pinned to 0.11.9 in requirements.txt)
from rosbags.rosbag2.storage_mcap import decompress, get_qos
from rosbags.typesys import Stores, get_typestore, get_types_from_msg

__all__ = ['BagError', 'BagInfo', 'RepairReport', 'bag_info', 'bag_state', 'repair_bag',
           'unfinished_error']

MAGIC = b'\x89MCAP0\r\n'
OP_HEADER, OP_FOOTER, OP_SCHEMA, OP_CHANNEL, OP_MESSAGE, OP_CHUNK, OP_DATA_END = (
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0F)
UNFINISHED_SUFFIX = '.unfinished'
_RECORD = struct.Struct('<BQ')
_MESSAGE = struct.Struct('<HIQQ')  # channel id, sequence, log time, publish time
_CHUNK = struct.Struct('<QQQI')  # start time, end time, uncompressed size, crc32


class BagError(ValueError):
    """A bag that cannot be read or repaired; the message is one line naming the path."""


@dataclass
class _Schema:
    name: str
    encoding: str
    data: str


@dataclass
class _Channel:
    schema_id: int
    topic: str
    encoding: str
    metadata: bytes


@dataclass
class _Scan:
    """What a pass over an MCAP file found."""

    size: int = 0
    chunks: int = 0  # complete chunks read
    torn_chunk_messages: int = 0  # complete message records read from a torn last chunk
    used_bytes: int = 0  # file bytes whose records were read; the rest is lost
    skipped: int = 0  # records that did not parse
    finished: bool = False  # the data section ended with DataEnd or Footer (file was closed)
    schemas: dict[int, _Schema] = field(default_factory=dict)
    channels: dict[int, _Channel] = field(default_factory=dict)


# -- MCAP scanning ---------------------------------------------------------------------------------

def _string(buf: bytes, pos: int) -> tuple[str, int]:
    (n,) = struct.unpack_from('<I', buf, pos)
    end = pos + 4 + n
    if end > len(buf):
        raise struct.error('string runs past its record')
    return bytes(buf[pos + 4:end]).decode(), end


def _records(buf: bytes) -> Iterator[tuple[int, bytes, int]]:
    """(opcode, body, end offset) of the complete records in ``buf``; stops at a torn one."""
    pos, size = 0, len(buf)
    while pos + 9 <= size:
        op, length = _RECORD.unpack_from(buf, pos)
        end = pos + 9 + length
        if end > size:
            return
        yield op, buf[pos + 9:end], end
        pos = end


def _chunk_records(body: memoryview, complete: bool) -> tuple[memoryview | bytes, int]:
    """The records region of a chunk body and its offset in ``body``. A torn chunk gives its
    partial records only when it is uncompressed (its message records are then plain bytes)."""
    _, _, usize, crc = _CHUNK.unpack_from(body, 0)
    compression, pos = _string(body, _CHUNK.size)
    (csize,) = struct.unpack_from('<Q', body, pos)
    data = body[pos + 8:pos + 8 + csize]
    if complete:
        if len(data) != csize:
            raise struct.error('chunk data runs past its record')
        return decompress(data, compression, usize, crc), pos + 8
    return (b'' if compression else data), pos + 8


def _scan(mcap: Path, scan: _Scan) -> Iterator[tuple[int, memoryview | bytes]]:
    """Yield the Schema, Channel and Message records of ``mcap`` in file order (chunks opened),
    filling ``scan`` on the way. Stops at the data section's end or at the first torn record."""
    with mcap.open('rb') as f:
        scan.size = os.fstat(f.fileno()).st_size
        if not scan.size:
            return
            # unmapped when the last view of it goes, i.e. when this generator is done
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    data = memoryview(mapped)
    if data[:8] != MAGIC[:len(data[:8])]:
        raise BagError(f'{mcap}: not an MCAP file (bad magic); expected a rosbag2 MCAP bag')
    scan.used_bytes = min(scan.size, 8)
    first = True
    for op, rec, end in _records(data[8:]):
        if first and op != OP_HEADER:
            raise BagError(f'{mcap}: not an MCAP file (no header record)')
        first = False
        if op in (OP_DATA_END, OP_FOOTER):
            scan.finished = True
            scan.used_bytes = 8 + end
            return
        if op == OP_CHUNK:
            try:
                records, _ = _chunk_records(rec, complete=True)
            except (struct.error, ReaderError, UnicodeDecodeError):
                return  # a damaged chunk: keep what came before it
            yield from _inner(records)
            scan.chunks += 1
        elif op in (OP_SCHEMA, OP_CHANNEL, OP_MESSAGE):
            yield op, rec
        scan.used_bytes = 8 + end
    yield from _torn_tail(data, scan)


def _inner(records: memoryview | bytes) -> Iterator[tuple[int, memoryview | bytes]]:
    for op, rec, _ in _records(records):
        if op in (OP_SCHEMA, OP_CHANNEL, OP_MESSAGE):
            yield op, rec


def _torn_tail(data: memoryview, scan: _Scan) -> Iterator[tuple[int, memoryview]]:
    """The complete records inside a torn last chunk (uncompressed chunks only)."""
    base = scan.used_bytes
    if len(data) - base < 9 or data[base] != OP_CHUNK:
        return
    try:
        records, offset = _chunk_records(data[base + 9:], complete=False)
    except (struct.error, UnicodeDecodeError):
        return  # torn inside the chunk's own header
    for op, rec, end in _records(records):
        if op == OP_MESSAGE:
            scan.torn_chunk_messages += 1
        if op in (OP_SCHEMA, OP_CHANNEL, OP_MESSAGE):
            yield op, rec
        scan.used_bytes = base + 9 + offset + end


def _parse(op: int, rec: memoryview | bytes, scan: _Scan) -> tuple[int, int, bytes] | None:
    """Record a schema or channel in ``scan``; a message gives (channel id, log time, data).
    A record that does not parse is skipped (counted in ``scan.skipped``)."""
    try:
        if op == OP_MESSAGE:
            channel_id, _, log_time, _ = _MESSAGE.unpack_from(rec, 0)
            return channel_id, log_time, bytes(rec[_MESSAGE.size:])
        (key,) = struct.unpack_from('<H', rec, 0)
        if op == OP_SCHEMA:
            name, pos = _string(rec, 2)
            encoding, pos = _string(rec, pos)
            text, _ = _string(rec, pos)
            scan.schemas.setdefault(key, _Schema(name, encoding, text))
        else:
            (schema_id,) = struct.unpack_from('<H', rec, 2)
            topic, pos = _string(rec, 4)
            encoding, pos = _string(rec, pos)
            (n,) = struct.unpack_from('<I', rec, pos)
            scan.channels.setdefault(key, _Channel(schema_id, topic, encoding,
                                                   bytes(rec[pos + 4:pos + 4 + n])))
    except (struct.error, UnicodeDecodeError):
        scan.skipped += 1
    return None


# -- bag layout ------------------------------------------------------------------------------------

def unfinished_error(path: Path) -> BagError:
    return BagError(f'{path}: the bag is unfinished (its recording was stopped before the bag was '
                    f'closed); `robozoo bag repair {path}` makes it readable')


def _ends_closed(mcap: Path) -> bool:
    with mcap.open('rb') as f:
        f.seek(0, os.SEEK_END)
        if f.tell() < 2 * len(MAGIC):
            return False
        f.seek(-len(MAGIC), os.SEEK_END)
        return f.read() == MAGIC


def bag_state(path: str | Path) -> tuple[str, Path]:
    """``('complete', path)`` for a bag rosbags reads, ``('unfinished', mcap)`` for an MCAP bag
    whose recording was not closed (``mcap``: the file to recover from). Anything else raises
    :class:`BagError` with one line naming the path and what was expected."""
    path = Path(path)
    expected = 'expected a rosbag2 bag directory (metadata.yaml and a .mcap file)'
    if not path.exists():
        raise BagError(f'{path}: no such file or directory; {expected}')
    if not path.is_dir():
        hint = f' such as {path.parent}' if path.suffix == '.mcap' else ''
        raise BagError(f'{path}: is a file; {expected}{hint}')
    mcaps = sorted(path.glob('*.mcap'))
    kept = path / f'{path.name}.mcap{UNFINISHED_SUFFIX}'
    if (path / 'metadata.yaml').exists():
        if not any(not _ends_closed(m) for m in mcaps):
            try:
                with Reader(path):
                    return 'complete', path
            except (ReaderError, OSError, ValueError, KeyError) as err:
                raise BagError(f'{path}: rosbags cannot read this bag: '
                               f'{str(err).splitlines()[0] if str(err) else type(err).__name__}'
                               ) from None
    if kept.exists():  # a repair that did not finish: the original is the source
        _check_magic(kept)
        return 'unfinished', kept
    if not mcaps:
        other = ' (only MCAP bags can be repaired)' if any(path.glob('*.db3')) else ''
        raise BagError(f'{path}: not a rosbag2 bag{other}; {expected}')
    if len(mcaps) > 1:
        raise BagError(f'{path}: {len(mcaps)} .mcap files and no complete metadata.yaml; '
                       'repair handles single-file bags only')
    _check_magic(mcaps[0])
    return 'unfinished', mcaps[0]


def _check_magic(mcap: Path) -> None:
    with mcap.open('rb') as f:
        start = f.read(len(MAGIC))
    if start != MAGIC[:len(start)]:  # empty or a torn magic is an unfinished bag
        raise BagError(f'{mcap}: not an MCAP file (bad magic); expected a rosbag2 MCAP bag')


# -- info ------------------------------------------------------------------------------------------

@dataclass
class BagInfo:
    """Topics, types, message counts and time span of a complete or unfinished bag."""

    path: Path
    complete: bool
    topics: dict[str, tuple[str, int]]  # topic -> (type, messages)
    start_ns: int | None
    end_ns: int | None

    @property
    def messages(self) -> int:
        return sum(n for _, n in self.topics.values())

    @property
    def duration_s(self) -> float:
        return 0.0 if self.start_ns is None else (self.end_ns - self.start_ns) / 1e9


def bag_info(path: str | Path) -> BagInfo:
    """What a bag holds. For an unfinished bag: what :func:`repair_bag` would recover."""
    path = Path(path)
    state, source = bag_state(path)
    if state == 'complete':
        with Reader(path) as reader:
            topics = {t: (i.msgtype or '', i.msgcount) for t, i in reader.topics.items()}
            count = reader.message_count
            start, end = (reader.start_time, reader.end_time - 1) if count else (None, None)
        return BagInfo(path, True, dict(sorted(topics.items())), start, end)
    scan = _Scan()
    counts: dict[int, int] = {}
    start = end = None
    for op, rec in _records_or_error(source, scan):
        msg = _parse(op, rec, scan)
        if msg is not None and msg[0] in scan.channels:
            counts[msg[0]] = counts.get(msg[0], 0) + 1
            start = msg[1] if start is None else min(start, msg[1])
            end = msg[1] if end is None else max(end, msg[1])
    topics: dict[str, tuple[str, int]] = {}
    for cid, ch in scan.channels.items():
        schema = scan.schemas.get(ch.schema_id)
        old = topics.get(ch.topic, ('', 0))[1]
        topics[ch.topic] = (schema.name if schema else '', old + counts.get(cid, 0))
    return BagInfo(path, False, dict(sorted(topics.items())), start, end)


def _records_or_error(source: Path, scan: _Scan) -> Iterator[tuple[int, bytes]]:
    try:
        for op, rec in _scan(source, scan):
            yield op, rec
    except OSError as err:
        raise BagError(f'{source}: cannot read: {err.strerror or err}') from None


# -- repair ----------------------------------------------------------------------------------------

@dataclass
class RepairReport:
    """What :func:`repair_bag` did. ``repaired`` is False for a bag that was already complete."""

    path: Path
    repaired: bool
    topics: dict[str, int] = field(default_factory=dict)  # messages kept per topic
    chunks: int = 0  # complete chunks recovered
    torn_chunk_messages: int = 0  # of those messages, the ones salvaged from the torn last chunk
    lost_bytes: int = 0  # bytes at the end of the torn file that held no complete message
    original: Path | None = None  # where the torn original was kept

    @property
    def messages(self) -> int:
        return sum(self.topics.values())

    def __str__(self) -> str:
        if not self.repaired:
            return f'{self.path}: already complete, nothing changed'
        lines = [f'{self.path}: repaired, {self.messages} messages kept '
                 f'({self.chunks} complete chunks, {self.torn_chunk_messages} messages from the '
                 f'torn last chunk; {self.lost_bytes} bytes at the end were lost)']
        lines += [f'  {topic}: {n}' for topic, n in sorted(self.topics.items())]
        lines.append(f'  the torn original is kept as {self.original}; delete it once you no '
                     'longer need it')
        return '\n'.join(lines)


class _Rewriter:
    """Writes the recovered records into a new bag through rosbags' Writer."""

    def __init__(self, path: Path, scan: _Scan) -> None:
        self.scan = scan
        self.writer = Writer(path, version=9, storage_plugin=StoragePlugin.MCAP)
        self.writer.open()
        self.conns: dict[int, object] = {}  # channel id -> rosbags Connection
        self.by_key: dict[tuple, object] = {}
        self.counts: dict[str, int] = {}
        self.hashes: dict[str, str] = {}

    def record(self, op: int, rec: bytes) -> None:
        msg = _parse(op, rec, self.scan)
        if msg is None:
            return
        channel_id, log_time, data = msg
        conn = self.conns.get(channel_id) or self._connect(channel_id)
        if conn is None:
            return  # a message whose channel record was lost: nothing can decode it
        self.writer.write(conn, log_time, data)
        self.counts[conn.topic] += 1

    def _connect(self, channel_id: int):
        ch = self.scan.channels.get(channel_id)
        schema = self.scan.schemas.get(ch.schema_id) if ch else None
        if ch is None or schema is None:
            return None
        key = (ch.topic, schema.name, ch.encoding, ch.metadata)
        if key not in self.by_key:  # rosbags refuses the same connection twice
            self.by_key[key] = self.writer.add_connection(
                ch.topic, schema.name, msgdef=schema.data, rihs01=self._rihs01(ch.topic, schema),
                serialization_format=ch.encoding, offered_qos_profiles=get_qos(ch.metadata))
            self.counts.setdefault(ch.topic, 0)
        self.conns[channel_id] = self.by_key[key]
        return self.conns[channel_id]

    def _rihs01(self, topic: str, schema: _Schema) -> str:
        """The type hash is only in metadata.yaml; recompute it from the stored definition."""
        if schema.name not in self.hashes:
            if schema.encoding != 'ros2msg':
                raise BagError(f'topic {topic} has a {schema.encoding or "missing"} message '
                               'definition; repair handles ros2msg only')
            store = get_typestore(Stores.EMPTY)
            store.register(get_types_from_msg(schema.data, schema.name))
            self.hashes[schema.name] = store.hash_rihs01(schema.name)
        return self.hashes[schema.name]

    def close(self) -> None:
        self.writer.close()


def repair_bag(path: str | Path) -> RepairReport:
    """Make the unfinished MCAP bag at ``path`` readable, keeping every recoverable message.

    Nothing is lost if this is interrupted: the repaired bag is completed in ``.<name>.repairing``
    beside the bag before anything in the bag changes, the torn file is renamed to
    ``<name>.mcap.unfinished`` (and kept), and ``metadata.yaml`` appears last. Running it again
    after an interruption resumes from the kept original. A complete bag is left untouched.
    """
    path = Path(path)
    state, source = bag_state(path)
    if state == 'complete':
        return RepairReport(path, repaired=False)
    tmp_root = path.parent / f'.{path.name}.repairing'
    shutil.rmtree(tmp_root, ignore_errors=True)  # left by an interrupted repair: ours to remove
    tmp_root.mkdir()
    try:
        new = tmp_root / path.name  # rosbags names the storage file after the directory
        scan = _Scan()
        rewriter = _Rewriter(new, scan)
        try:
            for op, rec in _records_or_error(source, scan):
                rewriter.record(op, rec)
        finally:
            rewriter.close()
        kept = path / f'{path.name}.mcap{UNFINISHED_SUFFIX}'
        _swap_in(path, source, kept, new)
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)
    lost = 0 if scan.finished else scan.size - scan.used_bytes  # a summary is no loss
    return RepairReport(path, True, rewriter.counts, scan.chunks, scan.torn_chunk_messages, lost,
                        kept)


def _swap_in(path: Path, source: Path, kept: Path, new: Path) -> None:
    """Each step is a rename, so an interruption leaves the original (as ``kept``) in place."""
    if source != kept:
        source.rename(kept)
    stale_meta = path / 'metadata.yaml'
    if stale_meta.exists():  # metadata of a torn file: not to be trusted, keep it beside it
        stale_meta.rename(path / f'metadata.yaml{UNFINISHED_SUFFIX}')
    (new / f'{path.name}.mcap').replace(path / f'{path.name}.mcap')
    (new / 'metadata.yaml').replace(path / 'metadata.yaml')
