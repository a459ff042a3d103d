"""Contact schedules: per foot, alternating stance/swing phase durations summing to T (R3.5).

Feet are always in the order FL, FR, RL, RR, which is TOWR's LF, RF, LH, RH (spec go1.md §2.1;
upstream ethz-adrl/towr towr/include/towr/models/endeffector_mappings.h).

Presets:
- ``C0``-``C4``: TOWR's quadruped combos, ported from ethz-adrl/towr
  towr/src/quadruped_gait_generator.cc and towr/src/gait_generator.cc (same strides, same
  ``RemoveTransition``, same per-foot merging, normalised and scaled to T).
- ``trot4``: the thesis task's "4-step trot in 3.2 s" (spec go1.md §5.7, §12 row 6). Our decision:
  four trot strides, i.e. every foot steps 4 times, the diagonal pairs RF+LH and LF+RH swinging in
  turn with no flight and no overlap: stand 0.3 s | 8 x 0.325 s diagonal swings | stand 0.3 s.
  Two diagonal steps (one per pair) cannot reach 1.7 m with the Go1 box: each stance phase lets
  the base move at most 2 x 0.16 m over a planted foot, so 4 diagonal steps in all (2 per pair)
  cap the travel at about 1.1 m; TOWR's own C1 (which the thesis' TOWR run may have used) has
  seven diagonal steps with flight phases.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Sequence

import numpy as np

FEET = ('FL', 'FR', 'RL', 'RR')
EPS = 1e-9


class ScheduleError(ValueError):
    """A schedule that cannot be built (unknown name, bad duration); the message is one line."""


def towr_state(code: str) -> tuple[bool, bool, bool, bool]:
    """TOWR's two-letter contact states (quadruped_gait_generator.cc): the first letter is the hind
    legs, the second the front legs; I = none, P = left, b = right, B = both in contact.
    Returns contact flags in the order FL, FR, RL, RR."""
    legs = {'I': (False, False), 'P': (True, False), 'b': (False, True), 'B': (True, True)}
    (lh, rh), (lf, rf) = legs[code[0]], legs[code[1]]
    return (lf, rf, lh, rh)


# TOWR strides: (durations, states); names as in quadruped_gait_generator.cc
_STRIDES: dict[str, tuple[tuple[float, ...], tuple[str, ...]]] = {
    'Stand': ((0.3,), ('BB',)),
    'Walk2': ((0.25, 0.13, 0.25, 0.13, 0.25, 0.13, 0.25, 0.13),
              ('bB', 'bb', 'Bb', 'Pb', 'PB', 'PP', 'BP', 'bP')),
    'Run2': ((0.4, 0.1, 0.4, 0.1), ('bP', 'II', 'Pb', 'II')),
    'Run2E': ((0.4,), ('bP',)),
    'Run3': ((0.3, 0.1, 0.3, 0.1), ('PP', 'II', 'bb', 'II')),
    'Run3E': ((0.3,), ('PP',)),
    'Hop1': ((0.3, 0.1, 0.3, 0.1), ('BI', 'II', 'IB', 'II')),
    'Hop1E': ((0.3,), ('BI',)),
    'Hop3': ((0.2, 0.3, 0.2, 0.2, 0.2, 0.3, 0.2, 0.2),
             ('Bb', 'BI', 'BP', 'bP', 'bB', 'IB', 'PB', 'Pb')),
}


def _remove_transition(stride: tuple[tuple[float, ...], tuple[str, ...]]):
    """TOWR's GaitGenerator::RemoveTransition: drop the last phase, add its time to the new last."""
    times, states = list(stride[0]), list(stride[1])
    last = times.pop()
    times[-1] += last
    states.pop()
    return tuple(times), tuple(states)


_STRIDES['Walk2E'] = _remove_transition(_STRIDES['Walk2'])
_STRIDES['Hop3E'] = _remove_transition(_STRIDES['Hop3'])

# QuadrupedGaitGenerator::SetCombo
COMBOS = {
    'C0': ('overlap-walk', ('Stand', 'Walk2', 'Walk2', 'Walk2', 'Walk2E', 'Stand')),
    'C1': ('fly-trot', ('Stand', 'Run2', 'Run2', 'Run2', 'Run2E', 'Stand')),
    'C2': ('pace', ('Stand', 'Run3', 'Run3', 'Run3', 'Run3E', 'Stand')),
    'C3': ('bound', ('Stand', 'Hop1', 'Hop1', 'Hop1', 'Hop1E', 'Stand')),
    'C4': ('gallop', ('Stand', 'Hop3', 'Hop3', 'Hop3', 'Hop3E', 'Stand')),
}
TROT4_DURATION = 3.2  # s, the thesis task (spec go1.md §5.7)
TROT4_STAND = 0.3  # s, TOWR's Stand stride
GAITS = ('trot4', *COMBOS)


def stance_intervals(durations: Sequence[float], in_contact_at_start: bool,
                     end: float) -> list[tuple[float, float]]:
    """(start, end) of each stance of one foot: its phases alternate from the first one's kind."""
    out, t, stance = [], 0.0, in_contact_at_start
    for d in durations:
        if stance:
            out.append((t, min(t + d, end)))
        t, stance = t + d, not stance
    return [(a, b) for a, b in out if b > a]


@dataclasses.dataclass(frozen=True)
class ContactSchedule:
    """Per foot (FL, FR, RL, RR): alternating phase durations, the first a stance phase when
    ``contact_at_start`` is true."""
    name: str
    durations: tuple[tuple[float, ...], ...]
    contact_at_start: tuple[bool, ...]

    def __post_init__(self):
        if len(self.durations) != len(self.contact_at_start) or not self.durations:
            raise ScheduleError(f'schedule {self.name}: one duration list and one start contact '
                                'flag per foot expected')
        totals = [sum(d) for d in self.durations]
        for foot, d in enumerate(self.durations):
            if not d or min(d) <= 0 or not np.all(np.isfinite(d)):
                raise ScheduleError(f'schedule {self.name}: foot {foot}: phase durations must be '
                                    f'positive and finite, got {d}')
            if abs(totals[foot] - totals[0]) > 1e-6:
                raise ScheduleError(f'schedule {self.name}: foot {foot} phases sum to '
                                    f'{totals[foot]:.6g} s, foot 0 to {totals[0]:.6g} s')

    @property
    def duration(self) -> float:
        return float(sum(self.durations[0]))

    @property
    def n_feet(self) -> int:
        return len(self.durations)

    def is_stance(self, foot: int, phase: int) -> bool:
        return (phase % 2 == 0) == self.contact_at_start[foot]

    def contact(self, t: Sequence[float] | np.ndarray) -> np.ndarray:
        """(N, n_feet) contact flags at times t; at a phase boundary the later phase (the
        state the foot is in right after t), so a touchdown sample reads 'in contact'."""
        t = np.asarray(t, dtype=float)
        out = np.zeros((t.size, self.n_feet), dtype=bool)
        for foot, ends in enumerate(self._ends):
            phase = np.minimum(np.searchsorted(ends, t + 1e-10, side='right'), len(ends) - 1)
            out[:, foot] = (phase % 2 == 0) == self.contact_at_start[foot]
        return out

    @functools.cached_property
    def _ends(self) -> list[np.ndarray]:
        """Per foot, the end time of each phase (the tracker asks ``contact`` at 500 Hz)."""
        return [np.cumsum(d) for d in self.durations]

    def stances(self, end: float | None = None) -> list[list[tuple[float, float]]]:
        """Per foot, its stance phases as exact (touchdown, lift-off) times, cut at ``end``
        (default: the schedule's duration)."""
        end = self.duration if end is None else end
        return [stance_intervals(d, c, end) for d, c in zip(self.durations, self.contact_at_start)]

    def counts(self) -> list[dict[str, int]]:
        """Stance and swing phase counts per foot."""
        return [{'stance': sum(self.is_stance(f, p) for p in range(len(d))),
                 'swing': sum(not self.is_stance(f, p) for p in range(len(d)))}
                for f, d in enumerate(self.durations)]

    def scaled(self, duration: float) -> 'ContactSchedule':
        k = duration / self.duration
        return dataclasses.replace(
            self, durations=tuple(tuple(x * k for x in d) for d in self.durations))

    def with_durations(self, durations: Sequence[Sequence[float]]) -> 'ContactSchedule':
        return dataclasses.replace(self, durations=tuple(tuple(float(x) for x in d)
                                                         for d in durations))

    def key(self) -> tuple:
        """What an NLP's structure depends on (phase counts and durations, start contacts)."""
        return (tuple(tuple(round(x, 12) for x in d) for d in self.durations),
                self.contact_at_start)


def from_global_phases(name: str, times: Sequence[float],
                       states: Sequence[tuple[bool, ...]]) -> ContactSchedule:
    """Per-foot durations from whole-robot phases (TOWR's GaitGenerator::GetPhaseDurations):
    consecutive phases with the same contact state of a foot merge into one."""
    n_feet = len(states[0])
    durations: list[list[float]] = [[] for _ in range(n_feet)]
    acc = [0.0] * n_feet
    for k, (t, s) in enumerate(zip(times, states)):
        for foot in range(n_feet):
            acc[foot] += t
            if k + 1 == len(times) or states[k + 1][foot] != s[foot]:
                durations[foot].append(acc[foot])
                acc[foot] = 0.0
    return ContactSchedule(name, tuple(map(tuple, durations)), tuple(states[0]))


def towr_combo(combo: str, duration: float) -> ContactSchedule:
    """TOWR's quadruped combo ``C0``..``C4`` scaled to ``duration`` seconds."""
    _, strides = COMBOS[combo]
    times: list[float] = []
    states: list[tuple[bool, ...]] = []
    for stride in strides:
        t, s = _STRIDES[stride]
        times += t
        states += [towr_state(c) for c in s]
    return from_global_phases(combo, times, states).scaled(duration)


def trot(strides: int, duration: float, stand: float) -> ContactSchedule:
    """A trot without flight: stand, then ``strides`` x (RF+LH swing, LF+RH swing), stand."""
    swing = (duration - 2 * stand) / (2 * strides)
    if swing <= 0:
        raise ScheduleError(f'trot: {duration} s leaves no time for {strides} strides after '
                            f'2 x {stand} s standing')
    times = [stand] + [swing] * (2 * strides) + [stand]
    states = [towr_state('BB')] + [towr_state(c) for c in ('bP', 'Pb') * strides] \
        + [towr_state('BB')]
    return from_global_phases(f'trot{strides}', times, states)


def make_schedule(gait: str, duration: float = TROT4_DURATION) -> ContactSchedule:
    """A preset by name (``trot4``, ``C0``..``C4``) lasting ``duration`` seconds."""
    if not (np.isfinite(duration) and duration > 0):
        raise ScheduleError(f'duration {duration!r}: expected a positive number of seconds')
    if gait == 'trot4':
        # the stand phases keep their share of the 3.2 s task when T changes
        return trot(4, duration, TROT4_STAND * duration / TROT4_DURATION)
    if gait in COMBOS:
        return towr_combo(gait, duration)
    raise ScheduleError(f"gait '{gait}': unknown (known: {', '.join(GAITS)})")
