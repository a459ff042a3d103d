"""The gait player node: plays any registered gait (:mod:`.registry`) named by the
``generator`` parameter (default ``nao_wave_walk``, the Nao 10-parameter coupled-wave walk).

A timed protocol (:class:`~gait_player.legs.LegProtocol`, the snake's gaits) is played leg by
leg at its own rate on ``joint_targets``, with the parameters the gait declares
(:mod:`.legs`). Every other gait is a walk, played through the seed's Walker interface
(setParams, startWalk, stopWalk, getStadistics) as ROS 2 services, driving the
:class:`~gait_player.generator.GaitGenerator` through ``joint_targets`` on sim time.

Services (relative to the namespace): ``set_params`` (zoo_interfaces/SetWalkParams),
``start_walk`` and ``stop_walk`` (std_srvs/Trigger), ``get_statistics``
(zoo_interfaces/GetWalkStatistics); ``set_params`` needs a gait that plays walk parameters
(its entry's ``walk_params``). Topics: publishes ``joint_targets`` (sensor_msgs/JointState,
rad), or for a generator with PD commands (``nao_zmp_walk``) ``joint_pd_commands``
(zoo_interfaces/JointPDCommand: positions, velocities, feed-forward torques and the generator's
gains, at ``continuous_rate``), and ``walk_statistics`` (zoo_interfaces/WalkStatistics, once per
finished walk); subscribes the base pose (``odometry_topic``, nav_msgs/Odometry) and
``robot_description`` (latched; to count gait samples outside the joint limits, and the model a
generator plans on). A generator's own parameters are ``gait.<name>`` (its registry entry's
``options``).

Parameters come from schemas (zoo_runtime's parameter_schema, :func:`schema_of`): the player's
``generator`` (params/player.yaml), then a walk's (params/_walk.yaml) or none, and the gait's
own, from the part its registry entry names (``parameters``), checked as one schema.

A walk (specs/nao.md §5.5): targets 0 for every gait joint; at the next odometry message call
each of ``reset_services`` in turn (std_srvs/Empty; the simulator's world reset and the PID
node's reset); wait ``settle_time``; record the start pose from the next odometry message; play
the gait until the evaluation ends it (``duration`` of sim time, or a fall below
``fall_height``) or ``stop_walk``. With ``ramp_time`` > 0 (ours; the seed jumps) the targets
ease from the reset posture into the gait over the first ``ramp_time`` s (:func:`ramp_in`).
Starting the reset on an odometry message puts every walk at the same phase of the simulator's
publishing, so that evaluating the same candidate twice gives the same statistics (R15).
start_walk answers at once; the statistics come on ``walk_statistics`` and from get_statistics.
"""
from __future__ import annotations

import math

import numpy as np

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.tick_time import tick_time
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.std_msgs.msg import String
from zoo_runtime.interfaces.std_srvs.srv import Empty, Trigger
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand
from zoo_runtime.interfaces.zoo_interfaces.msg import WalkStatistics as WalkStatisticsMsg
from zoo_runtime.interfaces.zoo_interfaces.srv import GetWalkStatistics, SetWalkParams

from joint_pid_control.joint_limits import all_limits_from_urdf
from joint_pid_control.params import ParameterError

from .generator import GaitGenerator
from .legs import LegPlayback, LegProtocol
from .registry import lookup, resolve_name
from .walk_evaluation import M_TO_CM, EvaluationConfig, WalkMonitor, WalkStatistics

Node = rclpy.node.Node
QoSProfile = rclpy.qos.QoSProfile
DurabilityPolicy = rclpy.qos.DurabilityPolicy

IDLE, ARMING, RESETTING, SETTLING, WALKING, DONE = (
    'idle', 'arming', 'resetting', 'settling', 'walking', 'done')
SETTLE_PUBLISH_PERIOD = 0.05  # s: zero targets while resetting/settling keep the PID fed
CANNOT_PLAN = 'cannot plan the gait'


def ramp_in(start: np.ndarray, gait: np.ndarray, s: float) -> np.ndarray:
    """The targets ``s`` (0..1) of the way from the reset posture ``start`` to the gait's
    ``gait``, eased (smoothstep: zero speed at both ends), so that the first targets do not ask
    the joints to jump from the reset posture to the gait at full speed."""
    s = min(max(s, 0.0), 1.0)
    w = s * s * (3.0 - 2.0 * s)
    return start + w * (gait - start)


def schema_of(entry) -> parameter_schema.Schema:
    """The parameters the player declares for registry entry ``entry``: its own, a walk's
    (a :class:`~gait_player.generator.Generator`), and those of the gait's schema part."""
    schema = parameter_schema.load('gait_player', 'player')
    parts = [] if isinstance(entry, LegProtocol) else [parameter_schema.load('gait_player',
                                                                            '_walk')]
    if entry.parameters is not None:
        parts.append(parameter_schema.load(*entry.parameters))
    return schema.including(*parts)


class GaitPlayer(Node):
    def __init__(self, **kwargs):
        super().__init__('gait_player', **kwargs)
        generator = parameter_schema.load('gait_player', 'player').declare(self)['generator']
        try:
            entry = lookup(generator)
        except ValueError as e:
            raise ParameterError(f'{self.get_name()}: parameter generator: {e}') from None
        if resolve_name(generator) != generator:  # a file from before issue 26: it plays
            self.get_logger().warning(f'parameter generator: {generator!r} is now called '
                                      f'{resolve_name(generator)!r}')
        self.legs: LegPlayback | None = None
        self._tick = None  # in a timer's call, the tick it was due at (_now)
        schema = schema_of(entry)
        values = schema.declare(self, skip=('generator',))
        if isinstance(entry, LegProtocol):
            self._init_legs(entry, values)
        else:
            self._init_walk(resolve_name(generator), entry, schema, values)

    def _init_legs(self, entry: LegProtocol, values: dict) -> None:
        """A timed protocol: the gait plans its legs from its parameters; commands on a timer
        from t = 0, or from the first tick someone subscribes them; the run may end when the
        legs are done (``robozoo_finished``)."""
        plan = entry.plan(values, self.get_name())
        self._targets_pub = self.create_publisher(JointState, 'joint_targets', 10)
        self.legs = LegPlayback(plan, self._publish)
        if plan.observer is not None:
            self.create_subscription(plan.observer.msg_type, plan.observer.topic,
                                     self.legs.on_message, 10)
        self.robozoo_finished = self.legs.finished
        self._legs_timer = self.create_timer(plan.interval, self._legs_step)

    def _legs_step(self) -> None:
        if self.legs.tick == 0 and self._targets_pub.get_subscription_count() == 0:
            # under ROS the simulator's or bus's subscription is discovered a moment after
            # start: a goal sent before is lost, and a gait without its first goals is another
            self.get_logger().info(f'waiting for a subscriber on {self._targets_pub.topic_name} '
                                   'to start the gait', once=True)
            return
        self._at_tick(self._legs_timer, self.legs.step)

    def _init_walk(self, generator: str, entry, schema: parameter_schema.Schema,
                   values: dict) -> None:
        """A walk: the single-value checks are the schema's, those across parameters here."""
        initial, version = values['params'], values['version']
        self.use_hardcoded, self.mode = values['use_hardcoded'], values['mode']
        self.continuous_rate, self.arm_swing = values['continuous_rate'], values['arm_swing']
        self.settle_time, self.ramp_time = values['settle_time'], values['ramp_time']
        try:
            self.eval_config = EvaluationConfig(
                duration_s=values['duration'], fall_height_m=values['fall_height'],
                y_ref_cm=values['y_ref_cm'], fitness_ref=values['fitness_ref'],
                deviation_from=values['deviation_from'], direction=values['direction'])
            spec = entry.walk_params
            if spec is not None and version not in spec.versions:
                raise ValueError(f'version: expected one of {", ".join(spec.versions)}, got '
                                 f'{version!r}')
            self.params = spec.from_sequence(initial) if initial and spec is not None else None
        except ValueError as e:
            raise ParameterError(f'{self.get_name()}: parameter {e}') from None
        self.version = spec.versions[version] if spec is not None else None
        self._make_gait = entry
        self.pd = entry.command_interface == 'pd'
        # the generator's own parameters, gait.<name> (the ZMP walk's step length, gains, ...)
        self.gait_options = {
            name: schema.declare(self, 'gait.<option>', default=default, option=name)[
                f'gait.{name}'] for name, default in entry.options().items()}
        try:
            if entry.check is not None:
                entry.check(self.gait_options)
        except ValueError as e:
            raise ParameterError(f'{self.get_name()}: parameter gait.{e}') from None
        if self.pd and self.mode != 'continuous':
            raise ParameterError(f'{self.get_name()}: parameter mode: {generator} plays '
                                 f'continuously, got {self.mode!r}')
        if self.pd and self.ramp_time > 0.0:
            raise ParameterError(f'{self.get_name()}: parameter ramp_time: {generator} starts '
                                 f'from the reset posture itself; expected 0, got {self.ramp_time}')
        self._urdf: str | None = None

        self.state = IDLE
        self.walks = 0
        self.walk: GaitGenerator | None = None
        self.monitor: WalkMonitor | None = None
        self.last_statistics: WalkStatistics | None = None
        self._limits: dict[str, tuple[float, float]] = {}
        self._timer = None
        self._k = 0
        self._t0_ns = 0
        self._settle_until_ns = 0
        self._resets = [self.create_client(Empty, name) for name in values['reset_services']]

        if self.pd:
            self._pd_pub = self.create_publisher(JointPDCommand, 'joint_pd_commands', 10)
        else:
            self._targets_pub = self.create_publisher(JointState, 'joint_targets', 10)
        self._stats_pub = self.create_publisher(WalkStatisticsMsg, 'walk_statistics', 10)
        self.create_subscription(Odometry, values['odometry_topic'], self._on_odometry, 10)
        latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
        self.create_subscription(String, 'robot_description', self._on_description, latched)
        self.create_service(SetWalkParams, 'set_params', self._on_set_params)
        self.create_service(Trigger, 'start_walk', self._on_start)
        self.create_service(Trigger, 'stop_walk', self._on_stop)
        self.create_service(GetWalkStatistics, 'get_statistics', self._on_get_statistics)
        if values['auto_start']:
            self._auto = self.create_timer(SETTLE_PUBLISH_PERIOD, self._auto_start)

    # -- services ---------------------------------------------------------------------------
    def _on_set_params(self, request, response):
        spec = self._make_gait.walk_params
        if spec is None:
            response.success, response.message = False, 'this gait plays no walk parameters'
            return response
        try:
            self.params = spec.from_sequence([float(getattr(request.params, n))
                                              for n in spec.names])
            response.success, response.message = True, 'parameters set'
        except ValueError as e:
            response.success, response.message = False, str(e)
        return response

    def _on_start(self, request, response):
        response.success, response.message = self.start()
        return response

    def _on_stop(self, request, response):
        if self.state == WALKING:
            self.monitor.stop()
            self._finish()
            response.success, response.message = True, 'walk stopped'
        elif self.state in (ARMING, RESETTING, SETTLING):
            self._set_timer(None)
            self.state = IDLE
            response.success, response.message = True, 'walk cancelled before it started'
        else:
            response.success, response.message = False, f'no walk to stop (state {self.state})'
        return response

    def _on_get_statistics(self, request, response):
        if self.monitor is not None and self.monitor.t0 is not None:
            response.valid = True
            response.finished = self.state == DONE
            response.statistics = self._to_msg(self._statistics())
        return response

    # -- walk sequence ----------------------------------------------------------------------
    def start(self) -> tuple[bool, str]:
        if self.state in (ARMING, RESETTING, SETTLING, WALKING):
            return False, f'a walk is already under way (state {self.state})'
        entry = self._make_gait
        if entry.walk_params is not None and self.params is None:
            return False, 'no gait parameters: call set_params first (or set parameter params)'
        if entry.needs_description and self._urdf is None:
            return False, 'waiting for robot_description (the gait is planned on the robot model)'
        missing = [c.srv_name for c in self._resets if not c.service_is_ready()]
        if missing:
            return False, f'reset service(s) not available: {", ".join(missing)}'
        params = None
        if entry.walk_params is not None:
            params = self.version.apply(self.params) if self.use_hardcoded else self.params
        try:
            self.walk = entry(params, self.version, self.arm_swing, urdf=self._urdf,
                              options=self.gait_options)
        except ValueError as e:
            return False, f'{CANNOT_PLAN}: {e}'
        self.monitor = WalkMonitor(self.walk.period, self.eval_config)
        self.walks += 1
        self.state = ARMING
        self._set_timer(None)
        self._publish_zero()
        shown = params.as_tuple() if params is not None else self.gait_options.values()
        return True, f'walk {self.walks} starting: {", ".join(f"{v:g}" for v in shown)}'

    def _call_resets(self, pending: list) -> None:
        if self.state != RESETTING:
            return
        if not pending:
            # Zero targets from the reset on, on a timer that starts with it: the PID node sees
            # the same inputs at the same times after every reset.
            self.state = SETTLING
            self._settle_until_ns = self._now_ns() + int(round(self.settle_time * 1e9))
            self._publish_zero()
            self._set_timer(SETTLE_PUBLISH_PERIOD, self._publish_zero)
            return
        future = pending[0].call_async(Empty.Request())
        future.add_done_callback(lambda _f: self._call_resets(pending[1:]))

    def _auto_start(self) -> None:
        ok, message = self.start()
        if ok:
            self._auto.cancel()
            self.get_logger().info(message)
        elif message.startswith(CANNOT_PLAN):  # the same parameters will not plan next time
            self._auto.cancel()
            self.get_logger().error(f'auto_start: {message}')
        else:
            self.get_logger().warning(f'auto_start waiting: {message}', once=True)

    def _on_odometry(self, msg: Odometry) -> None:
        p = msg.pose.pose.position
        if self.state == ARMING:
            self.state = RESETTING
            self._call_resets(list(self._resets))
        elif self.state == SETTLING and self._now_ns() >= self._settle_until_ns:
            self._begin((p.x, p.y, p.z))
        elif self.state == WALKING and self.monitor.update(self._elapsed(), (p.x, p.y, p.z)):
            self._finish()

    def _elapsed(self) -> float:
        """Walking time from integer nanoseconds, so that it does not depend on when the walk
        started (floats of absolute times would round differently)."""
        return (self._now_ns() - self._t0_ns) * 1e-9

    def _begin(self, xyz) -> None:
        if self.pd and self._pd_pub.get_subscription_count() == 0:
            self.get_logger().error(
                f'nobody subscribes {self._pd_pub.topic_name}: the walk\'s PD commands reach no '
                'motor (a simulator backend without PD commands, e.g. gazebo: use a position '
                'gait such as nao_wave_walk there)', once=True)
        self.state = WALKING
        self._t0_ns, self._k = self._now_ns(), 0
        self.monitor.start(0.0, xyz)
        period = self.walk.sample_interval if self.mode == 'sampled' else 1.0 / self.continuous_rate
        self._set_timer(period, self._play)
        self._play_at(0.0)

    def _play(self) -> None:
        self._k += 1
        self._play_at(self._elapsed())

    def _play_at(self, elapsed: float) -> None:
        if self.pd:
            self._publish_pd(*self.walk.pd_lists(elapsed))
            return
        if self.mode == 'sampled':
            q = self.walk.sample_rad(self._k).tolist()  # counted ticks: exactly 18 per period
        else:
            q = self.walk.continuous_list(elapsed)
        if elapsed < self.ramp_time:
            q = ramp_in(self._zero_targets(), np.array(q), elapsed / self.ramp_time).tolist()
        self._publish(self.walk.joints, q)

    def _finish(self) -> None:
        self._set_timer(None)
        self.state = DONE
        self.last_statistics = self._statistics()
        self._stats_pub.publish(self._to_msg(self.last_statistics))
        s = self.last_statistics
        self.get_logger().info(
            f'walk {s.id}: {s.distance:.1f} cm in {s.sim_time:.2f} s, deviation '
            f'{s.deviation:.2f} cm, {"FALLEN" if s.fallen else "standing"}, fitness '
            f'{s.fitness:.3g} ({s.fitness_pct:.1f} %)')

    # -- helpers ----------------------------------------------------------------------------
    def _statistics(self) -> WalkStatistics:
        hits = sum(self.walk.limit_violations(self._limits).values())
        return self.monitor.statistics(id=self.walks, limit_hits=hits)

    def _publish_zero(self) -> None:
        """The seed's reset posture, all targets 0, kept inside the known joint limits (the
        elbow rolls' ranges exclude 0), so that the PID node has nothing to clamp."""
        if self.pd:
            # the plan's first command: the reset posture with the torques that hold it up (with
            # none, the PD sags under gravity while it settles and the walk starts off a lean)
            _, _, tau = self.walk.pd_lists(0.0)
            self._publish_pd(self._zero_targets().tolist(), [0.0] * len(tau), tau)
        else:
            self._publish(self.walk.joints, self._zero_targets().tolist())

    def _zero_targets(self) -> np.ndarray:
        lim = [self._limits.get(j, (-math.inf, math.inf)) for j in self.walk.joints]
        return np.array([min(max(0.0, lo), hi) for lo, hi in lim])

    def _publish(self, names, positions) -> None:
        msg = JointState(name=list(names), position=positions)
        msg.header.stamp = self._now().to_msg()
        self._targets_pub.publish(msg)

    def _publish_pd(self, q, dq, tau) -> None:
        msg = JointPDCommand(name=list(self.walk.joints), position=q, velocity=dq, effort=tau,
                             kp=self.walk.kp, kd=self.walk.kd)
        msg.header.stamp = self._now().to_msg()
        self._pd_pub.publish(msg)

    def _set_timer(self, period: float | None, callback=None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self.destroy_timer(self._timer)
            self._timer = None
        if period is not None:
            self._timer = self.create_timer(period, lambda: self._at_tick(self._timer, callback))

    def _at_tick(self, timer, callback) -> None:
        """Run ``callback``, the call of ``timer``, with ``_now`` at the tick it was due at."""
        self._tick = tick_time(timer)
        try:
            callback()
        finally:
            self._tick = None

    def _now(self):
        """Sim time; in a timer's call the tick it was due at, however late a loaded machine
        runs it (what the commands are computed for and stamped with: zoo_runtime.tick_time)."""
        return self._tick if self._tick is not None else self.get_clock().now()

    def _now_ns(self) -> int:
        return self._now().nanoseconds

    def _on_description(self, msg: String) -> None:
        self._urdf = msg.data
        try:
            self._limits = {j: (lim.lower, lim.upper)
                            for j, lim in all_limits_from_urdf(msg.data).items()}
        except ParameterError as e:
            self.get_logger().error(str(e))

    @staticmethod
    def _to_msg(s: WalkStatistics) -> WalkStatisticsMsg:
        d = s.to_dict()
        d['limit_hits'] = int(d['limit_hits'])
        return WalkStatisticsMsg(**d)

    def robozoo_metrics(self) -> dict:
        """A timed protocol: its legs (:meth:`LegPlayback.metrics`). A walk: the current walk
        (finished or still under way when the run ends) in SI units, plus the seed's statistics
        record (cm, s) under ``statistics``."""
        if self.legs is not None:
            return self.legs.metrics()
        params = None
        if self.walk is not None:
            p = self.walk.params
            params = list(p.as_tuple()) if hasattr(p, 'as_tuple') else p.as_dict()
        out = {'walks': self.walks, 'state': self.state, 'params': params}
        if self.monitor is None or self.monitor.t0 is None:
            return out
        s = self.last_statistics if self.state == DONE else self._statistics()
        cm = 1.0 / M_TO_CM
        out.update(
            walk_time_s=s.sim_time, distance_m=s.distance * cm, forward_m=(s.x1 - s.x0) * cm,
            lateral_m=(s.y1 - s.y0) * cm, deviation_cm=s.deviation, straightness=s.straightness,
            fitness=s.fitness, fitness_pct=s.fitness_pct, fell=s.fallen,
            min_torso_z_m=self.monitor.min_z_m, statistics=s.to_dict())
        return out


def main(args=None):
    spin_node(GaitPlayer, args)
