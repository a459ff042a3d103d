"""The control channel of a multi-process run: the lockstep's ticks and acknowledgements, the
start-up hand-shake and end-of-run requests, as small typed DDS samples.

Two topics per run, ``robozoo/<run>/down`` (process 0 to all) and ``robozoo/<run>/up`` (all to
process 0), in the run's own DDS partition; without the ``rt/`` prefix ROS 2 tools do not list
them. Reliable, KEEP_ALL: a lost or dropped control sample would stall the lockstep. ``body`` is
JSON.

Only the run's own processes are heard: every sample carries ``auth``, an HMAC-SHA256 (with the
run's secret key, which process 0 makes and hands to its children on their stdin, never over
DDS) of its direction, fields and ``seq``, a per-sender counter. A sample whose ``auth`` does not
check out, or whose ``seq`` is not above the last one of its sender (a replay), is dropped,
counted, and reported in one rate-limited line naming its DDS participant (:class:`Refusals`).
Any DDS participant that joins the partition can read the samples; it cannot make new ones.
"""

import hashlib
import hmac
import json
import sys
import time
from dataclasses import dataclass
from typing import Callable

from cyclonedds._clayer import ddspy_take
from cyclonedds.core import DDSException, ReadCondition, WaitSet
from cyclonedds.idl import IdlStruct
from cyclonedds.idl.types import int32, int64
from cyclonedds.pub import DataWriter, Publisher
from cyclonedds.qos import Policy, Qos
from cyclonedds.sub import DataReader, Subscriber
from cyclonedds.topic import Topic
from cyclonedds.util import duration
from zoo_runtime.rate_limited_log import RateLimitedLog

from .transport import _ANY, matched_count, writer_participant

POLL_S = 0.1  # how often a wait looks at ``alive`` (a dead peer) between samples
REPORT_EVERY_S = 10.0  # refused samples: at most one line per this many seconds


@dataclass
class Control(IdlStruct, typename='robozoo::Control'):
    kind: str
    proc: int32
    t_ns: int64
    round: int32
    body: str
    seq: int64 = 0
    auth: str = ''


def partition(run_id: str) -> str:
    """The DDS partition of a run's own traffic (control, and the samples between its
    processes): another run, or a DDS peer that does not join it, never matches these."""
    return f'robozoo.{run_id}'


def _mac(key: bytes, direction: str, msg: Control) -> str:
    text = '\x00'.join((direction, msg.kind, str(msg.proc), str(msg.t_ns), str(msg.round),
                        str(msg.seq), msg.body))
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


class Refusals:
    """Samples refused because they are not from this run: counted (``counts``, by where), and
    reported on stderr at most once per REPORT_EVERY_S in one line (the first at once; the rest
    summed up in the next line, or by ``flush`` at the end), naming where they came in, the last
    one's reason and its DDS participant. The rate limiting is zoo_runtime.rate_limited_log's
    (one key: every refusal of this process)."""

    def __init__(self, who: str, *, every_s: float = REPORT_EVERY_S, out=None,
                 clock: Callable[[], float] = time.monotonic):
        self.who = who  # 'robozoo' or "robozoo: node 'walker'"
        self.out = out
        self.counts: dict[str, int] = {}
        self._unreported: dict[str, int] = {}
        self._log = RateLimitedLog(every_s, clock, full=lambda key, last: self._line(1, last),
                                   count=lambda c: self._line(c.n, c.last), emit=self._print)

    def __call__(self, where: str, source: str,
                 why: str = "its writer is not one of this run's processes") -> None:
        self.counts[where] = self.counts.get(where, 0) + 1
        self._unreported[where] = self._unreported.get(where, 0) + 1
        self._log.event('refused', (where, source, why))

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def flush(self) -> None:
        self._log.flush()

    def _line(self, n: int, last: tuple[str, str, str]) -> str:
        where, source, why = last
        parts = ', '.join(f'{w}: {k}' for w, k in sorted(self._unreported.items()))
        self._unreported = {}
        return (f"{self.who}: warning: refused {n} DDS sample(s) not from this run's processes "
                f'({parts}); last on {where}: {why}, from DDS participant {source or "unknown"}')

    def _print(self, line: str) -> None:
        print(line, file=self.out or sys.stderr, flush=True)


# USER_DATA: a ROS 2 tool on the domain parses every endpoint's USER_DATA for a type hash and
# warns, on each call, about one it cannot parse (rmw_cyclonedds rmw_node.cpp, jazzy:
# handle_builtintopic_endpoint); a key without "typehash" parses as "no hash", quietly
# (rmw_dds_common qos.cpp parse_type_hash_from_user_data)
CONTROL_QOS = Qos(Policy.Reliability.Reliable(duration(seconds=10)), Policy.History.KeepAll,
                  Policy.Durability.Volatile, Policy.Userdata(data=b'robozoo=control;'))


class ChannelTimeout(TimeoutError):
    pass


class ControlChannel:
    """``send`` on one topic, ``recv`` from the other (``parent``: down/up, else up/down).
    ``key``: the run's secret (signs what is sent, checks what is received); ``refusals``: where
    refused samples are counted and reported."""

    def __init__(self, dp, run_id: str, *, parent: bool, key: bytes,
                 refusals: Refusals | None = None):
        if len(key) < 16:
            raise ValueError('control channel: expected a secret key of at least 16 bytes')
        down = Topic(dp, f'robozoo/{run_id}/down', Control, qos=CONTROL_QOS)
        up = Topic(dp, f'robozoo/{run_id}/up', Control, qos=CONTROL_QOS)
        scope = Qos(Policy.Partition(partitions=[partition(run_id)]))
        self._publisher = Publisher(dp, qos=scope)
        self._subscriber = Subscriber(dp, qos=scope)
        self.writer = DataWriter(self._publisher, down if parent else up, CONTROL_QOS)
        self.reader = DataReader(self._subscriber, up if parent else down, CONTROL_QOS)
        self.waitset = WaitSet(dp)
        self.waitset.attach(ReadCondition(self.reader, _ANY))
        self._backlog: list[Control] = []
        self._key = key
        self._out, self._in = ('down', 'up') if parent else ('up', 'down')
        self._where = f'robozoo/{run_id}/{self._in}'
        self._seq = 0
        self._last_seq: dict[int, int] = {}  # per sender: process 0 (down) or the child (up)
        self.refusals = refusals if refusals is not None else Refusals('robozoo')

    def send(self, kind: str, proc: int = 0, t_ns: int = 0, round_: int = 0,
             body: object = None) -> None:
        self._seq += 1
        msg = Control(kind=kind, proc=proc, t_ns=t_ns, round=round_,
                      body=json.dumps(body, separators=(',', ':'), default=_jsonable),
                      seq=self._seq)
        msg.auth = _mac(self._key, self._out, msg)
        self.writer.write(msg)

    def _take(self) -> list[Control]:
        """The samples received, signed with the run's key and not seen before; the others
        are refused."""
        ret = ddspy_take(self.reader._ref, _ANY, 64)
        if isinstance(ret, int):
            raise DDSException(ret, f'taking from {self._where}')
        out = []
        for data, info in ret:
            if not info.valid_data:
                continue
            try:
                msg = Control.deserialize(data)
            except Exception:  # noqa: BLE001 - not ours to crash on
                msg, why = None, 'a malformed sample'
            else:
                sender = 0 if self._in == 'down' else msg.proc
                why = ''
                if not hmac.compare_digest(msg.auth.encode(), _mac(self._key, self._in,
                                                                    msg).encode()):
                    why = f"{msg.kind[:32]!r} sample not signed with this run's key"
                elif msg.seq <= self._last_seq.get(sender, 0):
                    why = f'{msg.kind[:32]!r} sample replayed (sequence number {msg.seq})'
            if why:
                self.refusals(self._where, writer_participant(self.reader,
                                                              info.publication_handle), why)
                continue
            self._last_seq[sender] = msg.seq
            out.append(msg)
        return out

    def recv(self, want: Callable[[Control], bool], timeout_s: float,
             alive: Callable[[], None] = lambda: None) -> Control:
        """The first sample ``want`` accepts (others stay queued for later calls); calls
        ``alive()`` (which raises when a peer died) at least every POLL_S."""
        end = time.monotonic() + timeout_s
        while True:
            for i, msg in enumerate(self._backlog):
                if want(msg):
                    return self._backlog.pop(i)
            got = self._take()
            if got:
                self._backlog.extend(got)
                continue
            alive()
            left = end - time.monotonic()
            if left <= 0:
                raise ChannelTimeout(f'no answer on the control channel in {timeout_s:g} s')
            self.waitset.wait(duration(seconds=min(left, POLL_S)))

    def matched(self) -> tuple[int, int]:
        return (matched_count(self.writer.get_matched_subscriptions),
                matched_count(self.reader.get_matched_publications))

    def wait_matched(self, n: int, timeout_s: float, alive: Callable[[], None] = lambda: None
                     ) -> None:
        end = time.monotonic() + timeout_s
        while min(self.matched()) < n:
            alive()
            if time.monotonic() > end:
                raise ChannelTimeout(f'control channel: {self.matched()} of {n} peers '
                                     f'discovered in {timeout_s:g} s (DDS discovery; see '
                                     'CYCLONEDDS_URI in the zoo_dds README)')
            time.sleep(0.01)


def body(msg: Control):
    return json.loads(msg.body) if msg.body else None


def _jsonable(x):
    if hasattr(x, 'tolist'):  # numpy scalars and arrays in a node's metrics
        return x.tolist()
    raise TypeError(f'value of type {type(x).__name__} is not JSON serialisable')
