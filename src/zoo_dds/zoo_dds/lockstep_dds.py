"""The lockstep executor across processes: process 0 (the simulator's) drives sim time; every
other process runs its nodes on its own LockstepExecutor and moves only when told.

At each tick t of process 0, after its own work at t has settled:

1. a round is held with the processes that have work at t: a timer due (round 0) or samples
   written for them; process 0 sends ``tick(t, round, orders, to)``, ``orders`` being every
   process's writes since the last round (topic ids, in write order), ``to`` the addressed
   processes (the others sleep; their clocks catch up at their next round);
2. each addressed process advances its executor to t (its timers due at t run), waits until the
   samples the orders announce for it have arrived, publishes /clock for t and then the samples
   in-process in that order, lets its executor settle at t, and answers
   ``ack(t, round, order, next_due)``;
3. process 0 delivers what the acks announce for it and settles again at t; while anything was
   written that some process reads, another round follows (a reply to a reply within one tick,
   as the in-process executor drains it);
4. process 0 advances physics to its next timer or the earliest ``next_due`` of the others,
   whichever comes first, so no process's timer is ever skipped or late.

So every callback runs at the sim time it would run in-process; what can differ is the order of
callbacks within one tick across processes (in-process: global publish order). Process 0
publishes /clock at every tick with work in any process, as the in-process executor does.

The two executors extend zoo_runtime's LockstepExecutor at its tick (``_work_at_now``), its
advance (``_advance(t_end)``) and its /clock (``_publish_clock``); tests/test_multiprocess_run.py
fails if those change under them.
"""
from __future__ import annotations

from typing import Callable

from zoo_runtime.embedded.lockstep import MAX_ROUNDS, LockstepExecutor

from .control import Control, ControlChannel, body

TIMEOUT_S = 60.0  # for one round: generous, a child's first callbacks may import and build


class ProcessLockstepExecutor(LockstepExecutor):
    """Process 0's executor: the in-process lockstep plus the rounds with the other processes
    (``coordinator``, set once they are running)."""

    coordinator = None

    def clock_at_now(self) -> None:
        if self._last_clock_ns != self._now:
            self._publish_clock(self._now)

    def _work_at_now(self) -> None:
        coordinator = self.coordinator
        if coordinator is not None:  # a ROS 2 node's commands, at the first tick after them
            coordinator.link.deliver_peers(self.clock_at_now)
        if coordinator is not None and self._last_clock_ns != self._now and \
                coordinator.work_at(self._now):
            self._publish_clock(self._now)  # /clock as in-process: ticks with work anywhere
        super()._work_at_now()
        if coordinator is not None:
            coordinator.settle(self._now, super()._work_at_now)

    def _advance(self, t_end):
        due = self.coordinator.next_due(self._now) if self.coordinator is not None else None
        if due is not None:
            t_end = due if t_end is None else min(t_end, due)
        super()._advance(t_end)


class ChildLockstepExecutor(LockstepExecutor):
    """The executor of a process that follows process 0's ticks."""

    def clock_at_now(self) -> None:
        """Publish /clock for the current tick unless done: samples from other processes are
        delivered after it, as in-process every message of a tick comes after its /clock."""
        if self._last_clock_ns != self._now:
            self._publish_clock(self._now)


class Coordinator:
    """Process 0's side of the rounds."""

    def __init__(self, channel: ControlChannel, link, plans: list[dict], topics: list[str],
                 alive: Callable[[], None], clock_at_now: Callable[[], None]):
        self.channel = channel
        self.clock_at_now = clock_at_now
        self.link = link
        self.n = len(plans)
        self.alive = alive
        self._due: dict[int, int | None] = {p: None for p in range(1, self.n)}
        # ids some other process reads, per writer: only those are worth a round
        self._read_by_others = [set() for _ in plans]
        self._reads = [set() for _ in plans]  # ids each process reads
        ids = {t: i for i, t in enumerate(topics)}
        for p, plan in enumerate(plans):
            for topic, info in plan['in'].items():
                self._reads[p].add(ids[topic])
                for q in info['from']:
                    self._read_by_others[q].add(ids[topic])
        self._orders: dict[int, list[int]] = {}  # the children's writes from the last acks
        self.rounds = 0
        self._request = 0

    def start(self, ready: dict[int, dict]) -> None:
        """After the hand-shake: the children's first due times and latched writes."""
        for p, info in ready.items():
            self._due[p] = info.get('next_due')
            self._orders[p] = info.get('order', [])

    def due_at(self, t: int) -> bool:
        """Whether another process has a timer due at ``t``."""
        return any(d is not None and d <= t for d in self._due.values())

    def work_at(self, t: int) -> bool:
        """Whether another process has work at ``t`` (a timer, or samples to take)."""
        mine = self._read_by_others[0]
        return (self.due_at(t) or any(self._orders.values())
                or any(i in mine for i in self.link.order))

    def next_due(self, now: int) -> int | None:
        dues = [d for d in self._due.values() if d is not None and d > now]
        return min(dues) if dues else None

    def settle(self, t: int, local_work: Callable[[], None]) -> None:
        round_ = 0
        while True:
            orders = dict(self._orders)
            orders[0] = self.link.take_order(self._read_by_others[0])
            self._orders = {}
            # the processes with work in this round: a timer due (round 0) or samples to take;
            # the others sleep through it (their clocks catch up at their next round)
            written = {i for o in orders.values() for i in o}
            to = [p for p in range(1, self.n) if (written & self._reads[p]) or (
                round_ == 0 and self._due[p] is not None and self._due[p] <= t)]
            if not to:
                return
            if round_ >= MAX_ROUNDS:
                raise RuntimeError(f'multi-process lockstep: work at t={t / 1e9:.9f} s did not '
                                   f'settle after {MAX_ROUNDS} rounds between processes')
            self.channel.send('tick', 0, t, round_, {'orders': orders, 'to': to})
            acks: dict[int, dict] = {}
            while len(acks) < len(to):
                msg = self.channel.recv(lambda m: m.kind == 'ack' and m.t_ns == t
                                        and m.round == round_, TIMEOUT_S, self.alive)
                acks[msg.proc] = body(msg)
            for p, ack in acks.items():
                self._due[p] = ack['next_due']
                self._orders[p] = [i for i in ack['order'] if i in self._read_by_others[p]]
            if self.link.deliver(self._orders, TIMEOUT_S, self.alive, self.clock_at_now):
                local_work()
            self.rounds += 1
            round_ += 1
        # (the loop returns above)

    def request(self, proc: int, kind: str, payload=None, timeout_s: float = TIMEOUT_S,
                alive: Callable[[], None] | None = None):
        """Ask process ``proc`` for something (metrics, outputs, finished); its answer.
        ``alive`` checks that process (default: all of them)."""
        self._request += 1
        rid = self._request
        self.channel.send(kind, proc, 0, rid, payload)
        msg = self.channel.recv(lambda m: m.kind == 'reply' and m.proc == proc and
                                m.round == rid, timeout_s, alive or self.alive)
        answer = body(msg)
        if isinstance(answer, dict) and 'error' in answer:
            raise RuntimeError(answer['error'])
        return answer


def serve(executor: ChildLockstepExecutor, channel: ControlChannel, link, proc: int,
          handlers: dict[str, Callable], alive: Callable[[], None], read_by_others: set[int],
          next_due: Callable[[], int | None]) -> None:
    """A child's loop: rounds and requests until ``exit``."""
    mine = (lambda m: m.kind in ('tick', 'exit') or
            (m.kind not in ('reply', 'ack') and m.proc == proc))
    while True:
        msg: Control = channel.recv(mine, 3600.0, alive)
        if msg.kind == 'tick':
            tick = body(msg)
            if proc not in tick['to']:
                continue
            t = msg.t_ns
            if executor.now_ns < t:
                executor.spin_until(t)  # to t: the timers due at t run
            orders = tick['orders']
            orders.pop(str(proc), None)
            peers = link.deliver_peers(executor.clock_at_now)  # at its rounds only
            if link.deliver(orders, TIMEOUT_S, alive, executor.clock_at_now) or peers:
                executor.spin_until(t)  # settle at t
            channel.send('ack', proc, t, msg.round,
                         {'order': link.take_order(read_by_others), 'next_due': next_due()})
        elif msg.kind == 'exit':
            return
        else:
            handler = handlers.get(msg.kind)
            try:
                answer = handler(body(msg)) if handler else {'error': f'unknown {msg.kind!r}'}
            except Exception as exc:  # noqa: BLE001 - the answer carries it to process 0
                answer = {'error': f'{type(exc).__name__}: {exc}'}
            channel.send('reply', proc, 0, msg.round, answer)
