"""The gait search node: the seed's "search walks" button as a ROS 2 client of the Walker.

One candidate at a time: ``set_params`` (zoo_interfaces/SetWalkParams), ``start_walk``
(std_srvs/Trigger), then the result on ``walk_statistics``; every result goes to the search
journal, so the run resumes where it stopped and shares its journal with the parallel command
(``bin/robozoo search <scenario>``, same settings and output). Service and topic
names are relative: put the node in the Walker's namespace.

Parameters: the search settings (``strategy``, ``key``, ``budget``, ``sigma0``, ``start``,
``accept_pct``, ``output``; see search/settings.py) and ``workers``, which only the parallel
command uses (``starts``, its robust scoring, is refused here). A relative ``output`` is taken
from the workspace root.
"""
from __future__ import annotations

from dataclasses import fields

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.std_srvs.srv import Trigger
from zoo_runtime.interfaces.zoo_interfaces.msg import WalkParams as WalkParamsMsg
from zoo_runtime.interfaces.zoo_interfaces.msg import WalkStatistics as WalkStatisticsMsg
from zoo_runtime.interfaces.zoo_interfaces.srv import SetWalkParams

from joint_pid_control.params import ParameterError

from gait_player.walk_evaluation import WalkStatistics
from .nao_wave_walk import PARAM_NAMES
from .search.session import SearchSession
from .search.settings import SearchSettings

Node = rclpy.node.Node

IDLE, SETTING, STARTING, WALKING, DONE = 'idle', 'setting', 'starting', 'walking', 'done'
POLL_PERIOD = 0.05  # s of sim time between checks for the next candidate
DEFAULT_OUTPUT = 'out/gait_search'


class GaitSearch(Node):
    def __init__(self, **kwargs):
        super().__init__('gait_search', **kwargs)
        # the schema has SearchSettings' defaults; SearchSettings checks them (also for the CLI)
        values = parameter_schema.load('coupled_wave_gait', 'gait_search').declare(self)
        values['start'], values['starts'] = values['start'] or (), values['starts'] or ()
        try:
            self.settings = SearchSettings.from_parameters(values, self.get_name())
        except ValueError as e:
            raise ParameterError(str(e)) from None
        if self.settings.starts:
            raise ParameterError(f'{self.get_name()}: parameter starts: the node walks each '
                                 'candidate once; robust scoring is python -m '
                                 'zoo_experiments.gait_search --starts')
        self.output = self.settings.output_dir(DEFAULT_OUTPUT)
        self.session = SearchSession(self.settings.make_strategy(), self.output,
                                     self.settings.budget or None, self.settings.accept_pct)
        self.state = IDLE
        self.summary: dict | None = None
        self._candidate = None
        self._set_params = self.create_client(SetWalkParams, 'set_params')
        self._start_walk = self.create_client(Trigger, 'start_walk')
        self.create_subscription(WalkStatisticsMsg, 'walk_statistics', self._on_statistics, 10)
        self._timer = self.create_timer(POLL_PERIOD, self._poll)
        self.get_logger().info(
            f'{self.settings.strategy} search into {self.output}: '
            f'{self.session.recorded()} of {self.session.total} candidates already journaled')

    def _poll(self) -> None:
        if self.state != IDLE:
            return
        if not (self._set_params.service_is_ready() and self._start_walk.service_is_ready()):
            self.get_logger().info('waiting for the walker services', once=True)
            return
        cand = self.session.next()
        if cand is None:
            self._finish()
            return
        self._candidate, self.state = cand, SETTING
        msg = WalkParamsMsg(**dict(zip(PARAM_NAMES, cand.values)))
        future = self._set_params.call_async(SetWalkParams.Request(params=msg))
        future.add_done_callback(self._on_params_set)

    def _on_params_set(self, future) -> None:
        res = future.result()
        if not res.success:
            self._fail(f'set_params refused candidate {self._candidate.seq}: {res.message}')
            return
        self.state = STARTING
        self._start_walk.call_async(Trigger.Request()).add_done_callback(self._on_started)

    def _on_started(self, future) -> None:
        res = future.result()
        if not res.success:
            self._fail(f'start_walk failed for candidate {self._candidate.seq}: {res.message}')
            return
        self.state = WALKING

    def _on_statistics(self, msg: WalkStatisticsMsg) -> None:
        if self.state != WALKING:
            return
        stats = WalkStatistics(**{f.name: getattr(msg, f.name) for f in fields(WalkStatistics)})
        stats = self.session.record(self._candidate, stats)
        self.get_logger().info(
            f'candidate {stats.id} ({self.session.recorded()}/{self.session.total}): '
            f'{"FALLEN" if stats.fallen else f"{stats.distance_x:.1f} cm"}, fitness '
            f'{stats.fitness:.4g}, best {self.session.best:.4g}')
        self.state = IDLE

    def _fail(self, reason: str) -> None:
        self.get_logger().error(f'search stopped: {reason}')
        self._finish()

    def _finish(self) -> None:
        self._timer.cancel()
        self.state = DONE
        self.summary = self.session.export()
        best = self.summary['best']
        self.get_logger().info(
            f"search done: {self.summary['candidates']} candidates, {self.summary['fallen']} "
            f"fallen, best fitness {best['fitness'] if best else None} -> {self.output}")

    def robozoo_metrics(self) -> dict:
        out = {'state': self.state, 'output': str(self.output),
               'candidates': self.session.recorded(), 'budget': self.session.total,
               'evaluated_this_run': self.session.evaluated, 'best_fitness': self.session.best}
        if self.summary is not None:
            out['summary'] = self.summary
        return out


def main(args=None):
    spin_node(GaitSearch, args)
