"""Walk evaluation: termination, statistics and fitness of a walk (specs/nao.md §6, §11 items 3-5).

Positions come in metres (simulator frame) and statistics are reported in centimetres and seconds,
the original's units, because the fitness value depends on them. A fall is the metrics
observer's rule on the base height (``zoo_sim.metrics.has_fallen``). Resolutions of the spec's
gaps:
- straightness uses a lateral reference instead of y0 (0/0 at the world origin):
  straightness = y_ref / (y_ref + |y1 - y0|), y_ref = 100 cm by default;
- fitness = sqrt(d³/t) · sqrt(1/max(error, 1e-4 cm)) · straightness, 0 after a fall;
- fitness_pct = 100 · min(1, fitness / fitness_ref). fitness_ref defaults to the fitness of the
  project's walking target (R26): a straight 30 cm walk in 6 s with T = 0.6 s, sampled once per
  period, i.e. 30·sqrt(10/6) = 38.73; so 70 % (the results-file threshold) means "at least 70 % of
  that target";
- deviation ("error") is the mean planar distance between consecutive once-per-period samples of
  the base, the first from the start pose (``deviation_from='origin'`` gives the original code's
  first sample from (0, 0)). Only complete periods count; a walk that ends before the first
  period ends uses its end pose as its one sample.
- the original distance has no direction, so a search maximising it is as happy walking
  backwards; ``direction='forward'`` (ours) scores only the progress along +x, max(0, x1 - x0),
  for walks that must go forward (R26). The reported distances are unchanged.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Sequence

from zoo_sim.metrics import has_fallen

M_TO_CM = 100.0
MIN_ERROR_CM = 1e-4
EPS_T = 1e-9  # s; sim-time comparisons at period and duration boundaries


def straightness(dy_cm: float, y_ref_cm: float = 100.0) -> float:
    return y_ref_cm / (y_ref_cm + abs(dy_cm))


def fitness(distance_cm: float, time_s: float, error_cm: float, dy_cm: float,
            y_ref_cm: float = 100.0, fallen: bool = False) -> float:
    """Rivas' fitness ("salud") with the guards above."""
    if fallen or time_s <= 0.0:
        return 0.0
    error = max(error_cm, MIN_ERROR_CM)
    return math.sqrt(distance_cm ** 3 / time_s) * math.sqrt(1.0 / error) * \
        straightness(dy_cm, y_ref_cm)


def straight_walk_fitness(distance_cm: float, time_s: float, period_s: float) -> float:
    """Fitness of a perfectly straight walk sampled once per period: error = d/n, n = t/T."""
    n = time_s / period_s
    return fitness(distance_cm, time_s, distance_cm / n, 0.0)


REFERENCE_FITNESS = straight_walk_fitness(30.0, 6.0, 0.6)


@dataclass(frozen=True)
class EvaluationConfig:
    duration_s: float = 6.0       # walking time limit, sim time (the code-faithful preset is 7.0)
    fall_height_m: float = 0.15   # base (model origin) height below which the robot has fallen
    y_ref_cm: float = 100.0
    fitness_ref: float = REFERENCE_FITNESS
    accept_pct: float = 70.0      # results-file threshold on fitness_pct (non-fallen only)
    deviation_from: str = 'start'  # 'start' | 'origin' (the original code's (0, 0))
    direction: str = 'any'        # 'any' (the original) | 'forward' (progress along +x only)

    def __post_init__(self):
        for name in ('duration_s', 'y_ref_cm', 'fitness_ref'):
            if not getattr(self, name) > 0.0:
                raise ValueError(f'evaluation {name}: expected > 0, got {getattr(self, name)}')
        if self.deviation_from not in ('start', 'origin'):
            raise ValueError(f"evaluation deviation_from: expected 'start' or 'origin', "
                             f"got {self.deviation_from!r}")
        if self.direction not in ('any', 'forward'):
            raise ValueError(f"evaluation direction: expected 'any' or 'forward', "
                             f"got {self.direction!r}")


@dataclass
class WalkStatistics:
    """The seed's StadisticsData with corrected names (specs/nao.md §8.2), cm and s."""
    id: int = 0
    x0: float = 0.0
    y0: float = 0.0
    z0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0
    z1: float = 0.0
    sim_time: float = 0.0     # walking time, s
    distance: float = 0.0
    distance_x: float = 0.0   # |x1 - x0|
    distance_y: float = 0.0   # |y1 - y0|
    deviation: float = 0.0
    straightness: float = 0.0
    fallen: bool = False
    fitness: float = 0.0
    fitness_pct: float = 0.0
    limit_hits: int = 0       # gait samples outside the joint limits (clamped when commanded)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> 'WalkStatistics':
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"walk statistics: unknown field(s) {', '.join(unknown)}")
        return cls(**d)

    def accepted(self, accept_pct: float = 70.0) -> bool:
        return not self.fallen and self.fitness_pct > accept_pct


class WalkMonitor:
    """Follows one walk sample by sample: decides when it ends (time limit or fall) and computes
    its statistics. Feed it the base position (m) at increasing sim times (s)."""

    def __init__(self, period_s: float, config: EvaluationConfig | None = None):
        if not period_s > 0.0:
            raise ValueError(f'walk monitor period_s: expected > 0 s, got {period_s}')
        self.period_s = period_s
        self.config = config or EvaluationConfig()
        self.t0: float | None = None
        self.finished = False
        self.fallen = False
        self._start = self._last = (0.0, 0.0, 0.0)  # cm
        self._t_last = 0.0
        self._cycle_samples: list[tuple[float, float]] = []  # (x, y) cm at the end of each period
        self.min_z_m = math.inf  # lowest base height seen during the walk

    def start(self, t: float, xyz_m: Sequence[float]) -> None:
        self.t0, self.finished, self.fallen = t, False, False
        self._start = self._last = tuple(float(v) * M_TO_CM for v in xyz_m)
        self._t_last = t
        self._cycle_samples = []
        self.min_z_m = float(xyz_m[2])

    def update(self, t: float, xyz_m: Sequence[float]) -> bool:
        """Record a sample; True once the walk is over (further samples are ignored)."""
        if self.t0 is None:
            raise RuntimeError('walk monitor: update() before start()')
        if self.finished:
            return True
        self._last = tuple(float(v) * M_TO_CM for v in xyz_m)
        self._t_last = t
        self.min_z_m = min(self.min_z_m, float(xyz_m[2]))
        elapsed = t - self.t0
        while elapsed >= (len(self._cycle_samples) + 1) * self.period_s - EPS_T:
            self._cycle_samples.append(self._last[:2])
        if has_fallen(xyz_m[2], self.config.fall_height_m):
            self.finished = self.fallen = True
        elif elapsed >= self.config.duration_s - EPS_T:
            self.finished = True
        return self.finished

    def stop(self) -> None:
        """End the walk early (stop_walk) at the last sample."""
        self.finished = True

    def statistics(self, id: int = 0, limit_hits: int = 0) -> WalkStatistics:
        if self.t0 is None:
            raise RuntimeError('walk monitor: statistics() before start()')
        c = self.config
        (x0, y0, z0), (x1, y1, z1) = self._start, self._last
        dx, dy = x1 - x0, y1 - y0
        d = math.hypot(dx, dy)
        t = self._t_last - self.t0
        dev = self._deviation()
        scored = d if c.direction == 'any' else max(0.0, dx)
        f = fitness(scored, t, dev, dy, c.y_ref_cm, self.fallen)
        return WalkStatistics(
            id=id, x0=x0, y0=y0, z0=z0, x1=x1, y1=y1, z1=z1, sim_time=t, distance=d,
            distance_x=abs(dx), distance_y=abs(dy), deviation=dev,
            straightness=straightness(dy, c.y_ref_cm), fallen=self.fallen, fitness=f,
            fitness_pct=100.0 * min(1.0, f / c.fitness_ref), limit_hits=limit_hits)

    def _deviation(self) -> float:
        first = self._start[:2] if self.config.deviation_from == 'start' else (0.0, 0.0)
        samples = self._cycle_samples or [self._last[:2]]
        pts = [first] + samples
        steps = [math.dist(a, b) for a, b in zip(pts, pts[1:])]
        return sum(steps) / len(steps)


def evaluate_path(times: Sequence[float], positions_m: Sequence[Sequence[float]], period_s: float,
                  config: EvaluationConfig | None = None, id: int = 0) -> WalkStatistics:
    """Statistics of a recorded base path; samples after the walk ended are ignored."""
    if len(times) == 0 or len(times) != len(positions_m):
        raise ValueError(f'evaluate_path: need as many positions as times (>= 1), got '
                         f'{len(positions_m)} positions and {len(times)} times')
    mon = WalkMonitor(period_s, config)
    mon.start(times[0], positions_m[0])
    for t, p in zip(times[1:], positions_m[1:]):
        if mon.update(t, p):
            break
    return mon.statistics(id)
