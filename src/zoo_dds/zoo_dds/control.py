"""The control channel of a multi-process run: the lockstep's ticks and acknowledgements, the
start-up hand-shake and end-of-run requests, as small typed DDS samples.

Two topics per run, ``robozoo/<run>/down`` (process 0 to all) and ``robozoo/<run>/up`` (all to
process 0); without the ``rt/`` prefix ROS 2 tools do not list them. Reliable, KEEP_ALL: a lost
or dropped control sample would stall the lockstep. ``body`` is JSON.
"""

import json
import time
from dataclasses import dataclass
from typing import Callable

from cyclonedds.core import ReadCondition, WaitSet
from cyclonedds.idl import IdlStruct
from cyclonedds.idl.types import int32, int64
from cyclonedds.pub import DataWriter
from cyclonedds.qos import Policy, Qos
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration

from .transport import _ANY, matched_count

POLL_S = 0.1  # how often a wait looks at ``alive`` (a dead peer) between samples


@dataclass
class Control(IdlStruct, typename='robozoo::Control'):
    kind: str
    proc: int32
    t_ns: int64
    round: int32
    body: str


# USER_DATA: a ROS 2 tool on the domain parses every endpoint's USER_DATA for a type hash and
# warns, on each call, about one it cannot parse (rmw_cyclonedds rmw_node.cpp, jazzy:
# handle_builtintopic_endpoint); a key without "typehash" parses as "no hash", quietly
# (rmw_dds_common qos.cpp parse_type_hash_from_user_data)
CONTROL_QOS = Qos(Policy.Reliability.Reliable(duration(seconds=10)), Policy.History.KeepAll,
                  Policy.Durability.Volatile, Policy.Userdata(data=b'robozoo=control;'))


class ChannelTimeout(TimeoutError):
    pass


class ControlChannel:
    """``send`` on one topic, ``recv`` from the other (``parent``: down/up, else up/down)."""

    def __init__(self, dp, run_id: str, *, parent: bool):
        down = Topic(dp, f'robozoo/{run_id}/down', Control, qos=CONTROL_QOS)
        up = Topic(dp, f'robozoo/{run_id}/up', Control, qos=CONTROL_QOS)
        self.writer = DataWriter(dp, down if parent else up, CONTROL_QOS)
        self.reader = DataReader(dp, up if parent else down, CONTROL_QOS)
        self.waitset = WaitSet(dp)
        self.waitset.attach(ReadCondition(self.reader, _ANY))
        self._backlog: list[Control] = []

    def send(self, kind: str, proc: int = 0, t_ns: int = 0, round_: int = 0,
             body: object = None) -> None:
        self.writer.write(Control(kind=kind, proc=proc, t_ns=t_ns, round=round_,
                                  body=json.dumps(body, separators=(',', ':'),
                                                  default=_jsonable)))

    def recv(self, want: Callable[[Control], bool], timeout_s: float,
             alive: Callable[[], None] = lambda: None) -> Control:
        """The first sample ``want`` accepts (others stay queued for later calls); calls
        ``alive()`` (which raises when a peer died) at least every POLL_S."""
        end = time.monotonic() + timeout_s
        while True:
            for i, msg in enumerate(self._backlog):
                if want(msg):
                    return self._backlog.pop(i)
            got = self.reader.take(64)
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
