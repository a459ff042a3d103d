"""The gait player walking the coupled-wave walk on sim time against a scripted stand-in for the simulator: the four services
(R11), the reset sequence, 18 target updates per period (R13), hip yaw-pitch at 0 (R14), the
6 s limit and fall termination (R16) and repeatability (R15)."""
import math

import numpy as np
import pytest

from zoo_runtime import EMBEDDED, rclpy

if not EMBEDDED:
    pytest.skip('lockstep tests need the embedded runtime', allow_module_level=True)

from zoo_runtime.embedded.executors import LockstepExecutor  # noqa: E402
from zoo_runtime.interfaces.nav_msgs.msg import Odometry  # noqa: E402
from zoo_runtime.interfaces.sensor_msgs.msg import JointState  # noqa: E402
from zoo_runtime.interfaces.std_srvs.srv import Empty, Trigger  # noqa: E402
from zoo_runtime.interfaces.zoo_interfaces.msg import WalkParams as WalkParamsMsg  # noqa: E402
from zoo_runtime.interfaces.zoo_interfaces.msg import WalkStatistics  # noqa: E402
from zoo_runtime.interfaces.zoo_interfaces.srv import (GetWalkStatistics,  # noqa: E402
                                                       SetWalkParams)

from coupled_wave_gait.nao_wave_walk import PARAM_NAMES, NaoWaveWalk, WalkParams  # noqa: E402
from gait_player.player_node import GaitPlayer  # noqa: E402

P = rclpy.parameter.Parameter
SIM = P('use_sim_time', value=True)
PARAMS = [0.6, 15.0, -20.0, 30.0, 0.5, 40.0, 10.0, 0.0, -20.0, 25.0]
S = 1_000_000_000


class ScriptedRobot:
    """Physics + node: /sim/reset and joint_pid_controller/reset services, a base that walks
    along x at ``speed`` m/s from the last reset (and drops to 0.1 m at ``fall_at`` s),
    odometry at 100 Hz."""

    def __init__(self, ctx, speed=0.05, fall_at=None):
        self.step_ns = 1_000_000
        self.speed, self.fall_at = speed, fall_at
        self.t_reset = None
        self.calls = []
        self.targets = []
        self.node = rclpy.create_node('robot', context=ctx, namespace='/nao',
                                      parameter_overrides=[SIM])
        self.node.create_service(Empty, '/sim/reset', lambda q, r: self._reset('sim', r))
        self.node.create_service(Empty, 'joint_pid_controller/reset',
                                 lambda q, r: self._reset('pid', r))
        self.odom = self.node.create_publisher(Odometry, 'odometry/ground_truth', 10)
        self.node.create_timer(0.01, self._publish)
        self.node.create_subscription(JointState, 'joint_targets', self._on_targets, 100)

    def now_ns(self):
        return self.node.get_clock().now().nanoseconds

    def now(self):
        return self.now_ns() * 1e-9

    def _reset(self, who, response):
        self.calls.append((who, self.now()))
        self.t_reset = self.now_ns()  # integer ns: walks after a reset are bitwise repeatable
        return response

    def _on_targets(self, msg):
        self.targets.append((self.now(), list(msg.name), np.array(msg.position)))

    def _publish(self):
        m = Odometry()
        t = 0.0 if self.t_reset is None else (self.now_ns() - self.t_reset) * 1e-9
        m.pose.pose.position.x = self.speed * t
        m.pose.pose.position.z = 0.1 if self.fall_at is not None and t >= self.fall_at else 0.33
        self.odom.publish(m)

    def advance(self, n):
        pass


class Rig:
    """A Walker, a scripted robot (``robot_class``; test_player_pd.py brings its own) and a
    client node on one lockstep executor."""

    def __init__(self, walker_params=(), robot_class=None, **robot):
        self.ctx = rclpy.context.Context()
        rclpy.init(context=self.ctx)
        self.robot = (robot_class or ScriptedRobot)(self.ctx, **robot)
        self.client_node = rclpy.create_node('client', context=self.ctx, namespace='/nao',
                                             parameter_overrides=[SIM])
        self.stats = []
        self.client_node.create_subscription(WalkStatistics, 'walk_statistics',
                                             self.stats.append, 10)
        self.walker = GaitPlayer(context=self.ctx, namespace='/nao',
                             parameter_overrides=[SIM] + list(walker_params))
        self.ex = LockstepExecutor(context=self.ctx)
        for n in (self.robot.node, self.client_node, self.walker):
            self.ex.add_node(n)
        self.ex.set_physics(self.robot)

    def call(self, srv, name, request):
        fut = self.client_node.create_client(srv, name).call_async(request)
        self.ex.spin_until(self.ex.now_ns + 1_000_000)
        assert fut.done()
        return fut.result()

    def run_for(self, seconds):
        self.ex.spin_until(self.ex.now_ns + int(round(seconds * S)))

    def close(self):
        self.ex.shutdown()
        for n in (self.robot.node, self.client_node, self.walker):
            n.destroy_node()
        rclpy.shutdown(context=self.ctx)


@pytest.fixture
def rig():
    made = []

    def make(*args, **kwargs):
        made.append(Rig(*args, **kwargs))
        return made[-1]
    yield make
    for r in made:
        r.close()


def set_params(r, values=PARAMS):
    msg = WalkParamsMsg(**dict(zip(PARAM_NAMES, values)))
    return r.call(SetWalkParams, 'set_params', SetWalkParams.Request(params=msg))


def test_services_reset_sequence_playback_and_statistics(rig):
    r = rig()
    r.run_for(0.1)
    res = r.call(Trigger, 'start_walk', Trigger.Request())
    assert not res.success and 'set_params' in res.message
    assert set_params(r).success
    res = r.call(Trigger, 'start_walk', Trigger.Request())
    assert res.success, res.message
    t_start = r.ex.now_ns / S
    r.run_for(7.0)
    # The simulator, then the PID node were reset before the walk.
    assert [c[0] for c in r.robot.calls] == ['sim', 'pid']
    # Walk targets: from the first odometry after the reset, one per T/18 of sim time.
    walk = NaoWaveWalk(WalkParams.from_sequence(PARAMS))
    moving = [(t, q) for t, names, q in r.robot.targets if np.any(q != 0.0)]
    times = np.array([t for t, _ in moving])
    t0 = times[0]
    assert t0 - t_start < 0.05
    assert np.all(np.abs(np.diff(times) - 0.6 / 18) <= 0.001 + 1e-9)   # T/18 +- one step
    assert np.sum(times < t0 + 0.6 - 1e-6) == 18                        # 18 per period
    for k, (t, q) in enumerate(moving[:40]):
        np.testing.assert_allclose(q, walk.sample_rad(k), atol=1e-12)
        assert q[walk.joints.index('LHipYawPitch')] == q[walk.joints.index('RHipYawPitch')] == 0
    assert times[-1] - t0 <= 6.0 + 0.6 / 18
    # Statistics after 6 s of sim time: 0.05 m/s -> 30 cm straight, ten 3 cm steps.
    assert len(r.stats) == 1
    s = r.stats[0]
    assert s.sim_time == pytest.approx(6.0, abs=0.011) and not s.fallen
    assert s.distance == pytest.approx(30.0, abs=0.1)
    assert s.deviation == pytest.approx(3.0, abs=0.01)
    assert s.fitness == pytest.approx(30 * math.sqrt(10 / 6), rel=0.01) and s.id == 1
    got = r.call(GetWalkStatistics, 'get_statistics', GetWalkStatistics.Request())
    assert got.valid and got.finished and got.statistics == s


def test_fall_ends_the_walk_with_zero_fitness(rig):
    r = rig([P('params', value=PARAMS), P('auto_start', value=True)], fall_at=2.0)
    r.run_for(4.0)
    assert len(r.stats) == 1
    s = r.stats[0]
    assert s.fallen and s.fitness == 0.0
    assert abs(s.sim_time - 2.0) <= 0.6 / 18


def test_stop_walk_and_repeatable_walks(rig):
    r = rig([P('params', value=PARAMS), P('duration', value=2.0)])
    set_params(r)
    for _ in range(2):
        assert r.call(Trigger, 'start_walk', Trigger.Request()).success
        r.run_for(3.0)
    a, b = r.stats
    assert (a.id, b.id) == (1, 2)
    a.id = b.id = 0
    assert a == b                                                 # R15: same statistics
    assert r.call(Trigger, 'start_walk', Trigger.Request()).success
    r.run_for(1.0)
    again = r.call(Trigger, 'start_walk', Trigger.Request())
    assert not again.success and 'already' in again.message
    assert r.call(Trigger, 'stop_walk', Trigger.Request()).success
    assert len(r.stats) == 3 and r.stats[-1].sim_time < 1.0
    assert not r.call(Trigger, 'stop_walk', Trigger.Request()).success


def test_bad_parameters_are_refused(rig):
    r = rig()
    res = set_params(r, [0.0] + PARAMS[1:])
    assert not res.success and 'period_s' in res.message
    with pytest.raises(Exception, match="parameter 'mode' = 'wave' .*: expected sampled or "
                       "continuous, got 'wave'"):
        GaitPlayer(context=r.ctx, parameter_overrides=[P('mode', value='wave')])
    with pytest.raises(Exception, match="generator: expected one of nao_wave_walk, "
                       "nao_wave_walk_flat, nao_wave_walk_smooth, nao_zmp_walk, snake_gait, "
                       "got 'snake'; did you mean 'snake_gait'"):
        GaitPlayer(context=r.ctx, parameter_overrides=[P('generator', value='snake')])
    with pytest.raises(Exception, match="parameter 'ramp_time' = -1.0 .*: expected >= 0 s, "
                       "got -1.0"):
        GaitPlayer(context=r.ctx, parameter_overrides=[P('ramp_time', value=-1.0)])


def test_continuous_mode_publishes_the_waves_at_the_control_rate(rig):
    r = rig([P('params', value=PARAMS), P('auto_start', value=True),
             P('mode', value='continuous'), P('continuous_rate', value=200.0),
             P('duration', value=1.0)])
    r.run_for(1.5)
    walk = NaoWaveWalk(WalkParams.from_sequence(PARAMS))
    moving = [(t, q) for t, _, q in r.robot.targets if np.any(q != 0.0)]
    t0 = moving[0][0]
    assert len(moving) == 201                                  # 200 Hz for 1 s, both ends
    for t, q in moving[::20]:
        np.testing.assert_allclose(q, walk.continuous_rad(t - t0), atol=1e-9)


def test_ramp_eases_from_the_reset_posture_into_the_gait(rig):
    """ramp_time: the first targets go from the reset posture (0, inside the limits) to the
    gait's without a jump, then the gait plays unchanged."""
    r = rig([P('params', value=PARAMS), P('auto_start', value=True),
             P('mode', value='continuous'), P('continuous_rate', value=200.0),
             P('duration', value=1.0), P('ramp_time', value=0.3)])
    r.run_for(1.5)
    walk = NaoWaveWalk(WalkParams.from_sequence(PARAMS))
    moving = [(t, q) for t, _, q in r.robot.targets if np.any(q != 0.0)]
    t0 = moving[0][0] - 1.0 / 200.0                            # the first target is the posture
    steps = [np.max(np.abs(b[1] - a[1])) for a, b in zip(moving, moving[1:])]
    jump = np.max(np.abs(walk.continuous_rad(0.0)))             # what the ramp spreads out
    assert jump > 0.5 and max(steps[:60]) < jump / 20
    for t, q in moving:
        s = (t - t0) / 0.3
        w = 1.0 if s >= 1.0 else s * s * (3.0 - 2.0 * s)
        np.testing.assert_allclose(q, w * walk.continuous_rad(t - t0), atol=1e-9)


def test_metrics_report_the_walk_under_way_and_the_finished_one(rig):
    r = rig([P('params', value=PARAMS), P('auto_start', value=True)], speed=0.1, fall_at=3.0)
    assert r.walker.robozoo_metrics() == {'walks': 0, 'state': 'idle', 'params': None}
    r.run_for(1.5)
    m = r.walker.robozoo_metrics()                      # under way: the walk so far, in metres
    assert m['state'] == 'walking' and m['params'] == PARAMS and not m['fell']
    assert m['forward_m'] == pytest.approx(0.1 * m['walk_time_s'], abs=1e-9)
    assert m['walk_time_s'] == pytest.approx(1.45, abs=0.06)
    assert m['lateral_m'] == 0.0 and m['min_torso_z_m'] == pytest.approx(0.33)
    r.run_for(3.0)
    m = r.walker.robozoo_metrics()                      # fell at 3 s: finished, fitness 0
    assert m['state'] == 'done' and m['fell'] and m['fitness'] == 0.0
    assert m['min_torso_z_m'] == pytest.approx(0.1)
    assert m['distance_m'] == pytest.approx(m['statistics']['distance'] / 100)
    assert m['walk_time_s'] == pytest.approx(3.0, abs=0.011)
