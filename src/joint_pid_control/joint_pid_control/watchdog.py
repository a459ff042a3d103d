"""Command watchdog: a joint is live only while both its target and its measured state are fresh.

ros2_control's velocity controllers have no command timeout (specs/ros_stack.md §2.7), so the PID
node stops a joint (zero velocity, PID state reset) when either input has been silent for longer
than ``timeout`` seconds. A joint is not live before its first target and first state. Times are
integer nanoseconds (ROS time), so that the outcome at the timeout boundary does not depend on
float rounding of absolute times.
"""
from __future__ import annotations

import math

import numpy as np

NEVER = -(2 ** 62)


class Watchdog:
    def __init__(self, n: int, timeout: float):
        if not timeout > 0.0:
            raise ValueError(f'watchdog_timeout: expected > 0 s (inf disables), got {timeout}')
        self.timeout = timeout
        self.target_seen = np.full(n, NEVER, dtype=np.int64)
        self.state_seen = np.full(n, NEVER, dtype=np.int64)

    @property
    def timeout(self) -> float:
        return self._timeout

    @timeout.setter
    def timeout(self, seconds: float) -> None:
        self._timeout = seconds
        self._timeout_ns = int(round(seconds * 1e9)) if math.isfinite(seconds) else 2 ** 62

    def saw_targets(self, mask: np.ndarray, now_ns: int) -> None:
        self.target_seen[np.asarray(mask, dtype=bool)] = now_ns

    def saw_states(self, mask: np.ndarray, now_ns: int) -> None:
        self.state_seen[np.asarray(mask, dtype=bool)] = now_ns

    def live(self, now_ns: int) -> np.ndarray:
        oldest = np.minimum(self.target_seen, self.state_seen)
        return (oldest != NEVER) & (now_ns - oldest <= self._timeout_ns)
