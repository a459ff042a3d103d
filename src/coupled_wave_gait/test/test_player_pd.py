"""The gait player walking a PD generator (nao_zmp_walk, the zmp_walk package's plan) on sim time
against a scripted stand-in for the simulator: it waits for robot_description, then sends
zoo_interfaces/JointPDCommand with the generator's joints, gains, velocities and feed-forward
torques: the reset posture with the standing torques while it settles, the plan while it walks.
Its gait.<name> parameters reach the plan; what a PD generator cannot do is refused at
construction; a wave generator still sends plain joint targets."""
import numpy as np
import pytest

from zoo_runtime import EMBEDDED, rclpy

if not EMBEDDED:
    pytest.skip('lockstep tests need the embedded runtime', allow_module_level=True)

from zoo_runtime.interfaces.nav_msgs.msg import Odometry  # noqa: E402
from zoo_runtime.interfaces.sensor_msgs.msg import JointState  # noqa: E402
from zoo_runtime.interfaces.std_msgs.msg import String  # noqa: E402
from zoo_runtime.interfaces.std_srvs.srv import Empty  # noqa: E402
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand  # noqa: E402

from joint_pid_control.params import ParameterError  # noqa: E402
from gait_player.player_node import GaitPlayer  # noqa: E402
from test_player_walk import Rig  # noqa: E402  (its lockstep rig, with this file's robot)

P = rclpy.parameter.Parameter
SIM = P('use_sim_time', value=True)
S = 1_000_000_000
RATE = 250.0                                           # Hz, the shipped scenario's
PD_WALK = [P('generator', value='nao_zmp_walk'), P('mode', value='continuous'),
           P('continuous_rate', value=RATE), P('reset_services', value=['/sim/reset'])]


@pytest.fixture(scope='module')
def nao_urdf():
    from zoo_description_tools.generate import xacro_to_urdf
    return xacro_to_urdf('nao_description', {'hip_yaw_pitch': 'independent'})


@pytest.fixture(autouse=True)
def plan_cache(tmp_path_factory, monkeypatch):
    """One fresh plan cache for the module: the Walker's plan is computed once (~1-2 s), the
    test's own generator is the cached plan, and the user's cache is left alone."""
    monkeypatch.setenv('ROBOZOO_CACHE_DIR', str(tmp_path_factory.getbasetemp() / 'plans'))


class ScriptedRobot:
    """The simulator's side: /sim/reset, odometry at 100 Hz (standing still), the latched
    robot_description once :meth:`describe` is called, and a record of the commands."""

    def __init__(self, ctx):
        self.step_ns = 1_000_000
        self.resets = []
        self.pd, self.targets = [], []
        self.node = rclpy.create_node('robot', context=ctx, namespace='/nao',
                                      parameter_overrides=[SIM])
        self.node.create_service(Empty, '/sim/reset', self._reset)
        self.odom = self.node.create_publisher(Odometry, 'odometry/ground_truth', 10)
        self.node.create_timer(0.01, self._publish)
        latched = rclpy.qos.QoSProfile(depth=1,
                                       durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)
        self.description = self.node.create_publisher(String, 'robot_description', latched)
        self.node.create_subscription(JointPDCommand, 'joint_pd_commands', self.pd.append, 1000)
        self.node.create_subscription(JointState, 'joint_targets', self.targets.append, 1000)

    def describe(self, urdf):
        self.description.publish(String(data=urdf))

    def _reset(self, request, response):
        self.resets.append(self.node.get_clock().now().nanoseconds)
        return response

    def _publish(self):
        m = Odometry()
        m.pose.pose.position.z = 0.33
        self.odom.publish(m)

    def advance(self, n):
        pass


@pytest.fixture
def rig():
    made = []

    def make(walker_params=()):
        made.append(Rig(walker_params, robot_class=ScriptedRobot))
        return made[-1]
    yield make
    for r in made:
        r.close()


def _stamp_ns(msg):
    return msg.header.stamp.sec * S + msg.header.stamp.nanosec


def test_waits_for_the_description_then_settles_and_plays_the_plan_as_pd_commands(
        rig, nao_urdf):
    from zmp_walk.generator import NaoZmpWalk
    from zmp_walk.params import ZmpWalkParams
    r = rig(PD_WALK + [P('settle_time', value=0.3), P('duration', value=1.5),
                       P('gait.step_length', value=0.05)])
    r.run_for(0.05)
    ok, message = r.walker.start()
    assert not ok and message == ('waiting for robot_description (the gait is planned on the '
                                  'robot model)')
    assert r.robot.pd == [] and r.robot.targets == []
    r.robot.describe(nao_urdf)
    r.run_for(0.05)
    ok, message = r.walker.start()
    assert ok, message
    r.run_for(2.5)

    # the gait.<name> parameter reached the plan; the test's generator is the same (cached) plan
    assert r.walker.walk.params.step_length == 0.05
    walk = NaoZmpWalk(nao_urdf, ZmpWalkParams(step_length=0.05))
    assert walk.plan.q.tobytes() == r.walker.walk.plan.q.tobytes()

    cmds = r.robot.pd
    assert r.robot.targets == [] and len(r.robot.resets) == 1
    for m in cmds:
        assert list(m.name) == list(walk.joints)
        assert list(m.kp) == walk.kp and list(m.kd) == walk.kd
        assert len(m.position) == len(m.velocity) == len(m.effort) == len(walk.joints)
    t0 = r.walker._t0_ns                                   # when the walk began
    # the walk's first command is the last one stamped t0 (the settle timer may fire then too)
    first = max(i for i, m in enumerate(cmds) if _stamp_ns(m) == t0)
    settle, walking = cmds[:first], cmds[first:]
    # from start() through the reset and 0.3 s of settling: the reset posture (0, inside the
    # URDF limits: the elbow rolls at +-0.0349), still, held up by the plan's standing torques
    assert len(settle) >= 6 and _stamp_ns(settle[-1]) - r.robot.resets[0] >= 0.25 * S
    posture = np.zeros(len(walk.joints))
    for j, v in (('LElbowRoll', -0.0349066), ('RElbowRoll', 0.0349066)):
        posture[walk.joints.index(j)] = v
    standing = walk.plan.tau[0]
    assert np.abs(standing).max() > 0.1                   # the legs do carry the robot
    for m in settle:
        assert list(m.position) == posture.tolist()
        assert list(m.velocity) == [0.0] * len(walk.joints)
        assert list(m.effort) == standing.tolist()
    # walking: the plan at the elapsed sim time, at 250 Hz, for the 1.5 s duration
    elapsed = np.array([(_stamp_ns(m) - t0) * 1e-9 for m in walking])
    assert len(walking) == int(1.5 * RATE) + 1
    np.testing.assert_allclose(np.diff(elapsed), 1 / RATE, atol=1e-9)
    for m, t in zip(walking, elapsed):
        q, dq, tau = walk.plan.at(t)
        np.testing.assert_allclose(m.position, q, rtol=0, atol=1e-12)
        np.testing.assert_allclose(m.velocity, dq, rtol=0, atol=1e-12)
        np.testing.assert_allclose(m.effort, tau, rtol=0, atol=1e-12)
    knee = walk.joints.index('LKneePitch')
    assert walking[-1].position[knee] > 0.5                 # crouched by then: it moved
    assert len(r.stats) == 1 and r.stats[0].limit_hits == 0
    assert r.walker.robozoo_metrics()['params']['step_length'] == 0.05


def test_a_bad_gait_parameter_or_playback_mode_is_refused_at_construction(rig, nao_urdf):
    r = rig()
    with pytest.raises(ParameterError) as e:
        GaitPlayer(context=r.ctx, parameter_overrides=PD_WALK + [P('gait.step_length', value=-1.0)])
    assert str(e.value) == 'gait_player: parameter gait.step_length: expected >= 0, got -1.0'
    with pytest.raises(ParameterError) as e:
        GaitPlayer(context=r.ctx, parameter_overrides=PD_WALK + [P('mode', value='sampled')])
    assert str(e.value) == ("gait_player: parameter mode: nao_zmp_walk plays continuously, got "
                            "'sampled'")
    with pytest.raises(ParameterError) as e:
        GaitPlayer(context=r.ctx, parameter_overrides=PD_WALK + [P('ramp_time', value=0.5)])
    assert str(e.value) == ('gait_player: parameter ramp_time: nao_zmp_walk starts from the reset '
                            'posture itself; expected 0, got 0.5')


def test_a_plan_that_cannot_be_made_is_a_refused_start(rig, nao_urdf):
    r = rig(PD_WALK + [P('gait.torso_height', value=0.34)])
    r.robot.describe(nao_urdf)
    r.run_for(0.05)
    ok, message = r.walker.start()
    assert not ok and message == ('cannot plan the gait: torso_height: expected below the '
                                  'straight-legged 0.3330 m (the knees must bend), got 0.34')
    r.run_for(0.2)
    assert r.robot.pd == [] and r.walker.state == 'idle'


def test_auto_start_gives_up_on_a_plan_that_cannot_be_made(rig, nao_urdf):
    """The same parameters will not plan 50 ms later: auto_start says so once and stops, rather
    than planning (about a second each) over and over."""
    r = rig(PD_WALK + [P('gait.torso_height', value=0.34), P('auto_start', value=True)])
    r.robot.describe(nao_urdf)
    r.run_for(0.5)
    assert r.walker._auto.is_canceled() and r.walker.walks == 0 and r.robot.pd == []


def test_a_wave_generator_still_sends_joint_targets(rig):
    r = rig([P('generator', value='nao_wave_walk'), P('mode', value='continuous'),
             P('params', value=[0.6, 15.0, -20.0, 30.0, 0.5, 40.0, 10.0, 0.0, -20.0, 25.0]),
             P('auto_start', value=True), P('duration', value=0.5),
             P('reset_services', value=['/sim/reset'])])
    r.run_for(1.0)
    assert len(r.robot.targets) > 40 and r.robot.pd == []
    assert not any(name.startswith('gait.') for name in r.walker._parameters)
