"""Gait candidates evaluated on the simulator: ``ScenarioEvaluator(scenario)(params)``.

The scenario's nodes (simulator, joint PID, Walker) are built once per process, on the embedded
lockstep executor, the first time a candidate is evaluated; every candidate after that reuses them.
The Walker resets the world and the PID node before each walk (its ``reset_services``) at a fixed
phase of the simulator's publishing, so a candidate's statistics do not depend on what ran before
it in the process (R15) and a search's results do not depend on how candidates are spread over
worker processes (R24). The scenario's search node, if any, is left out: it is the caller.

``prepare()`` builds the nodes up front (the search command calls it, so that a bad parameter is
refused before any search work) and returns the evaluation settings the search journal's header
keeps (``settings()``). A worker forked after that builds its own nodes logging only errors: the
first build has said the rest.

Robust scoring (``starts``): an open-loop gait can depend on the exact state it starts from, and a
walk that only works from one instant may not survive a small change of the model or its
numerics. With several ``starts`` (the Walker's ``settle_time``, s after the reset), each candidate
walks once per start and is scored by its worst walk (a fall first, then the lowest fitness).

Quality scoring (``quality``, a :class:`QualityScoring`): every walk is also recorded at every
physics step (:class:`~coupled_wave_gait.gait_quality.StepRecorder`) and measured
(:func:`~coupled_wave_gait.gait_quality.measure`); its fitness is multiplied by
:func:`~coupled_wave_gait.gait_quality.penalty_factor` against the acceptance targets made
stricter by ``margin``, and ``fitness_pct`` follows. The returned statistics carry the walk's
``quality`` (a dict: its measurement, the violations, the factor and the unpenalised fitness), which
the search journals next to them.
"""
from __future__ import annotations

import contextlib
import io
import math
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator, Sequence

from gait_player.walk_evaluation import WalkStatistics
from coupled_wave_gait.gait_quality import (QualityTargets, StepRecorder, measure,
                                            penalty_factor, violations)
from coupled_wave_gait.nao_wave_walk import WalkParams

SEARCH_NODE = ('coupled_wave_gait', 'gait_search')
WALKER_NODE = ('gait_player', 'player')
START_TIMEOUT_S = 2.0  # sim s from start_walk to the first step (reset, settle): generous
# Node parameters the evaluator sets itself, per candidate or per walk: not evaluation settings.
PER_CANDIDATE = {'use_sim_time', 'params', 'auto_start'}


class EvaluatorError(RuntimeError):
    pass


@contextlib.contextmanager
def node_log_level(level: str | None) -> Iterator[None]:
    """Inside the block, node loggers without a level of their own log at ``level`` and above
    (None: unchanged); the default level is restored after."""
    if level is None:
        yield
        return
    from zoo_runtime import rclpy

    before = rclpy.logging.get_logger_effective_level('')
    rclpy.logging.set_logger_level('', level)
    try:
        yield
    finally:
        rclpy.logging.set_logger_level('', before)


@dataclass(frozen=True)
class QualityScoring:
    """Fitness x exp(-weight x the relative misses of ``targets`` made stricter by ``margin``);
    ``walk_weight`` (default: ``weight``) weighs the forward and lateral targets."""
    targets: QualityTargets = field(default_factory=QualityTargets)
    margin: float = 0.1
    weight: float = 1.0
    walk_weight: float | None = None

    def __post_init__(self):
        if not 0.0 <= self.margin < 1.0 or not self.weight > 0.0 or \
                not (self.walk_weight is None or self.walk_weight > 0.0):
            raise EvaluatorError(f'quality scoring: expected 0 <= margin < 1 and weights > 0, '
                                 f'got margin {self.margin}, weight {self.weight}, walk_weight '
                                 f'{self.walk_weight}')

    @property
    def aim(self) -> QualityTargets:
        return self.targets.scaled(self.margin)

    def score(self, stats: WalkStatistics, quality, fitness_ref: float) -> WalkStatistics:
        """``stats`` with the penalised fitness and a ``quality`` attribute (a dict)."""
        factor = penalty_factor(quality, self.aim, self.weight, self.walk_weight)
        raw = stats.fitness
        stats.fitness = raw * factor
        stats.fitness_pct = 100.0 * min(1.0, stats.fitness / fitness_ref)
        stats.quality = {'factor': factor, 'raw_fitness': raw,
                         'violations': {k: v for k, v in violations(quality, self.aim).items()
                                        if v > 0.0},
                         'measured': quality.to_dict()}
        del stats.quality['measured']['targets']
        return stats


class ScenarioEvaluator:
    """``evaluate(WalkParams) -> WalkStatistics`` on one embedded run of ``scenario`` (a name under
    config/scenarios or a .yaml path); ``overrides`` are ``node.param=value`` as for ``robozoo run
    --set``. The run is built at the first call (or by :meth:`prepare`); a forked worker process
    whose parent has none builds its own."""

    def __init__(self, scenario: str = 'nao_gait_search', overrides: Sequence[str] = (),
                 starts: Sequence[float] = (), quality: QualityScoring | None = None):
        from zoo_scenario.scenario import apply_overrides, load_scenario

        self.quality = quality
        self.starts = tuple(float(s) for s in starts)
        if any(not s >= 0.0 for s in self.starts):
            raise EvaluatorError(f'evaluator starts: expected settle times >= 0 s, got '
                                 f'{list(self.starts)}')
        self.overrides = list(overrides)
        sc = load_scenario(scenario)
        walkers = [n.name for n in sc.nodes if (n.package, n.executable) == WALKER_NODE]
        if len(walkers) != 1:
            raise EvaluatorError(f'{sc.path}: nodes: expected exactly one gait_player/player '
                                 f'node, found {len(walkers)}')
        self.walker_name = walkers[0]
        sc = apply_overrides(sc, [f'{self.walker_name}.auto_start=false', *overrides])
        sc.nodes = [n for n in sc.nodes if (n.package, n.executable) != SEARCH_NODE]
        self.scenario = sc
        self.robot = sc.robots[0].name if len(sc.robots) == 1 else None
        if quality is not None and self.robot is None:
            raise EvaluatorError(f'{sc.path}: quality scoring needs exactly one robot, found '
                                 f'{len(sc.robots)}')
        self._run = None
        self._walker = None
        self._finished = None
        self._recorder: StepRecorder | None = None
        self._builds = 0  # in this process and the one it was forked from
        self.build_log = ''  # what the build in prepare() logged

    def prepare(self) -> dict:
        """Build the nodes now, so that a bad parameter stops a search before it starts (one
        line naming the --set or the scenario file), and return :meth:`settings`. What the build
        logs is kept in ``build_log`` for the caller to show when the search starts: the one
        line of an error (this build's or the journal's) is all the user needs."""
        from zoo_scenario.scenario import ScenarioError

        if self._run is None:
            held = io.StringIO()
            try:
                with contextlib.redirect_stderr(held):
                    self._build()
            except ScenarioError:
                raise  # the runner's: names the node, the parameter and the --set or file
            except Exception as e:  # noqa: BLE001 - turned into one line naming the culprit
                raise EvaluatorError(self._explain(e)) from e
            self.build_log = held.getvalue()
        return self.settings()

    def settings(self) -> dict:
        """What decides a candidate's fitness, for the search journal's header: every node
        parameter after the overrides (but those set per candidate), the starts, the quality
        scoring. Needs the nodes built (:meth:`prepare`)."""
        params = {f'{name}.{k}': _plain(p.value) for name, node in self._run.nodes.items()
                  for k, p in sorted(node.get_parameters_by_prefix('').items())
                  if k not in PER_CANDIDATE}
        quality: dict[str, Any] = {'enabled': self.quality is not None}
        if self.quality is not None:
            quality.update(margin=self.quality.margin, weight=self.quality.weight,
                           walk_weight=self.quality.walk_weight,
                           targets=asdict(self.quality.targets))
        return {'scenario': self.scenario.name, 'parameters': params,
                'starts': list(self.starts), 'quality': quality}

    def _explain(self, e: Exception) -> str:
        """One line for a failed build, led by the --set whose node and parameter it names."""
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        for ov in self.overrides:
            node, _, param = ov.partition('=')[0].partition('.')
            if node in msg and param in msg:
                return f'--set {ov}: {msg}'
        return f'{self.scenario.path}: {msg}'

    def __call__(self, params: WalkParams) -> WalkStatistics:
        if self._run is None:
            self._build()
        if not self.starts:
            return self._walk(params)
        walks = []
        for settle in self.starts:
            self._walker.settle_time = settle
            walks.append(self._walk(params))
        return min(walks, key=lambda s: (not s.fallen, s.fitness))

    def _walk(self, params: WalkParams) -> WalkStatistics:
        from zoo_runtime import rclpy

        walker = self._walker
        walker.params = params
        ok, message = walker.start()
        if not ok:
            raise EvaluatorError(f'walker {self.walker_name}: {message}')
        self._finished = rclpy.task.Future()
        if self._recorder is not None:
            self._recorder.clear()
        limit = walker.eval_config.duration_s + walker.settle_time + START_TIMEOUT_S
        self._run.executor.spin_until_future_complete(self._finished, timeout_sec=limit)
        if not self._finished.done():
            raise EvaluatorError(f'walker {self.walker_name}: the walk did not end within '
                                 f'{limit:g} s of simulated time (state {walker.state})')
        stats = walker.last_statistics
        if self._recorder is not None:
            stats = WalkStatistics.from_dict(stats.to_dict())  # the walker keeps its own
            quality = measure(self._recorder.recording(), targets=self.quality.targets)
            stats = self.quality.score(stats, quality, walker.eval_config.fitness_ref)
        return stats

    def last_quality(self):
        """The :class:`GaitQuality` of the last walk (needs ``quality``)."""
        if self._recorder is None:
            raise EvaluatorError('last_quality: the evaluator was made without quality scoring')
        return measure(self._recorder.recording(), targets=self.quality.targets)

    def _build(self) -> None:
        from zoo_scenario.runner import ScenarioRun
        from zoo_runtime.interfaces.zoo_interfaces.msg import WalkStatistics as WalkStatisticsMsg

        # A rebuild (each forked worker's) says what the first build said: only errors, then.
        with node_log_level('error' if self._builds else None):
            self._run = ScenarioRun(self.scenario)
        self._builds += 1
        self._walker = self._run.nodes[self.walker_name]
        self._walker.create_subscription(WalkStatisticsMsg, 'walk_statistics', self._on_done, 10)
        self._run.run(0.05)  # latched robot_description in, services up
        if self.quality is not None:
            walker = self._walker
            self._recorder = StepRecorder(
                self._run.physics, self.robot, active=lambda: walker.state == 'walking',
                fall_height_m=walker.eval_config.fall_height_m).install()

    def _on_done(self, _msg) -> None:
        if self._finished is not None and not self._finished.done():
            self._finished.set_result(True)

    def close(self) -> None:
        if self._recorder is not None:
            self._recorder.remove()
            self._recorder = None
        if self._run is not None:
            self._run.close()
            self._run = self._walker = None


def _plain(value: Any) -> Any:
    """A parameter value as JSON can hold it (arrays as lists)."""
    if isinstance(value, (list, tuple)) or hasattr(value, 'tolist'):
        return [_plain(v) for v in (value.tolist() if hasattr(value, 'tolist') else value)]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value

