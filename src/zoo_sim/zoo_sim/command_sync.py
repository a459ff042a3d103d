"""Free-running physics (ros2 launch) that waits for the controllers' commands.

In the embedded world the lockstep executor runs every controller tick due at sim time t before
physics steps past t. Under real ROS each controller is a process of its own: left alone, its
command for t reaches the simulator a step or more later (more under load), and fast PD loops
(the Go1 tracker at 500 Hz, the Nao walk at 250 Hz) then push a robot over that stands in
lockstep. So the simulator learns each command topic's period from the commands' header stamps
(the sim time of the controller's tick: zoo_runtime.tick_time) and does not step past the
instant the next command is due before it has arrived. Only a source whose last intervals were
all equal (a timer) is waited for: commands sent on events, and a source that just missed a
tick, are not. A source silent for ``timeout_s`` of wall time (stopped, finished, or slower than
it was) is no longer waited for until it sends again. Unstamped commands (stamp 0) are never
waited for. No ROS import: the node shell feeds it stamps and asks it."""
from __future__ import annotations

import time

REGULAR = 3  # equal intervals in a row that make a source periodic


class CommandSync:
    def __init__(self, timeout_s: float = 0.1):
        self.timeout_s = timeout_s
        self._last: dict[object, int] = {}
        self._intervals: dict[object, list[int]] = {}
        self._stalled: set[object] = set()

    def note(self, source: object, stamp_ns: int) -> None:
        """A command of ``source`` computed at sim time ``stamp_ns`` arrived."""
        if stamp_ns <= 0:
            return
        last = self._last.get(source)
        if last is not None and stamp_ns > last:
            kept = self._intervals.setdefault(source, [])
            kept.append(stamp_ns - last)
            del kept[:-REGULAR]
        if last is None or stamp_ns > last:
            self._last[source] = stamp_ns
        self._stalled.discard(source)

    def due(self, now_ns: int) -> list[object]:
        """The sources whose next command is due at or before ``now_ns`` and has not arrived."""
        due = []
        for source, last in list(self._last.items()):  # the executor's thread may add one
            kept = self._intervals.get(source)
            if (source not in self._stalled and kept and len(kept) == REGULAR
                    and kept.count(kept[0]) == REGULAR and now_ns >= last + kept[0]):
                due.append(source)
        return due

    def wait(self, now_ns: int, poll_s: float = 0.0001) -> None:
        """Block until every due command is in, or mark the late sources stalled."""
        waiting = self.due(now_ns)
        if not waiting:
            return
        give_up = time.monotonic() + self.timeout_s
        while waiting:
            if time.monotonic() > give_up:
                self._stalled.update(waiting)
                return
            time.sleep(poll_s)
            waiting = self.due(now_ns)
