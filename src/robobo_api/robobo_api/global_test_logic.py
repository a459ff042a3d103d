"""The global test's behaviour (specs/robobo.md 6 and R22), one decision per tick, no I/O: both
example programs (robobopy and ROS) feed it the same readings and execute what it returns, so
they run the same logic. Standard library only.

Behaviour (R22, the thesis' script): drive straight; when the front IR sensors see a wall, turn
about 90 degrees away from the side that sees it more, then look around in place once (one
revolution); whenever the green blob is seen, centre it and drive at it until it is big enough
(close), then stop. If the look-around shows no blob, drive on.

Readings: ``irs`` maps robobopy's IR names ('Front-C', 'Front-L', ...) to intensities (the
simulator's thesis law: open floor ~9 on level sensors, ~45 on the floor-tilted Front-L/R, 57 at
15 cm from a white wall on Front-C); ``blob`` is (x %, y %, size px) of the green blob, size 0
when none.
"""
from __future__ import annotations

from dataclasses import dataclass

SCAN_SPEED = 6          # in-place turn while looking (about 40 deg/s)
SCAN_TIME_S = 10.0      # a bit more than one revolution at SCAN_SPEED
DRIVE_SPEED = 20
TRACK_SPEED = 15
TRACK_GAIN = 10         # speed difference at the image edge
CENTRE_TOLERANCE = 15   # % of the width: beyond it the robot turns in place towards the blob
STOP_SIZE = 8000        # px of the 480 x 640 image: the ball ~8 cm ahead of the robot's front
TURN_SPEED, TURN_TIME_S = 20, 1.37  # an in-place quarter turn (spec R25)
WALL = {'Front-C': 60, 'Front-LL': 60, 'Front-RR': 60, 'Front-L': 80, 'Front-R': 80}
LEFT, RIGHT = ('Front-LL', 'Front-L'), ('Front-RR', 'Front-R')
TOUCHING = 300          # Front-C this high while tracking: something is within ~6 cm, stop


@dataclass(frozen=True)
class Action:
    """``wheels`` (l, r) until told otherwise, ``turn`` (l, r) for ``seconds`` (blocking), or
    ``stop``."""
    kind: str
    lspeed: int = 0
    rspeed: int = 0
    seconds: float = 0.0


class GlobalTest:
    def __init__(self):
        self.mode = 'drive'
        self.mode_since = 0.0
        self.done = False
        self.wall_turns = 0

    def _enter(self, mode: str, now: float) -> None:
        self.mode, self.mode_since = mode, now

    def step(self, now: float, irs: dict[str, float], blob: tuple[float, float, int]
             ) -> Action:
        x, _y, size = blob
        seen = size > 0
        if self.mode == 'stop':
            return Action('stop')
        if self.mode == 'track' or seen:
            return self._track(now, irs, x, size, seen)
        if self.mode == 'scan':
            if now - self.mode_since < SCAN_TIME_S:
                return Action('wheels', -SCAN_SPEED, SCAN_SPEED)
            self._enter('drive', now)
        wall = [k for k, limit in WALL.items() if irs.get(k, 0) > limit]
        if wall:  # turn away from the side that sees more, then look around again
            self._enter('scan', now)
            left = sum(irs.get(k, 0) for k in LEFT)
            right = sum(irs.get(k, 0) for k in RIGHT)
            sign = 1 if left > right else -1   # +1: turn right (clockwise)
            self.wall_turns += 1
            return Action('turn', sign * TURN_SPEED, -sign * TURN_SPEED, TURN_TIME_S)
        return Action('wheels', DRIVE_SPEED, DRIVE_SPEED)

    def _track(self, now: float, irs: dict[str, float], x: float, size: int, seen: bool
               ) -> Action:
        if self.mode != 'track':
            self._enter('track', now)
        if not seen:
            self._enter('scan', now)
            return Action('wheels', -SCAN_SPEED, SCAN_SPEED)
        if size >= STOP_SIZE or irs.get('Front-C', 0) > TOUCHING:
            self._enter('stop', now)
            self.done = True
            return Action('stop')
        error = (x - 50.0) / 50.0          # > 0: the blob is right of centre
        if abs(x - 50.0) > CENTRE_TOLERANCE:
            turn = SCAN_SPEED if error > 0 else -SCAN_SPEED
            return Action('wheels', turn, -turn)
        diff = int(round(TRACK_GAIN * error))
        return Action('wheels', TRACK_SPEED + diff, TRACK_SPEED - diff)
