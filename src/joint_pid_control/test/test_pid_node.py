"""The PID node in the embedded runtime, on sim time in lockstep with ideal velocity joints:
topics, limits from parameters or a latched robot_description, watchdog, run-time gain changes,
the grouped command interface and the reset service."""
import math

import numpy as np
import pytest

from zoo_runtime import EMBEDDED, rclpy

if not EMBEDDED:
    pytest.skip('lockstep tests need the embedded runtime', allow_module_level=True)

from zoo_runtime.embedded.executors import LockstepExecutor  # noqa: E402
from zoo_runtime.interfaces.sensor_msgs.msg import JointState  # noqa: E402
from zoo_runtime.interfaces.std_msgs.msg import Float64, String  # noqa: E402
from zoo_runtime.interfaces.std_srvs.srv import Empty  # noqa: E402

from joint_pid_control.params import ParameterError  # noqa: E402
from joint_pid_control.pid_node import JointPidController  # noqa: E402

P = rclpy.parameter.Parameter
JOINTS = ['RKneePitch', 'RAnkleRoll']
URDF = """<robot name="leg"><link name="a"/><link name="b"/><link name="c"/>
<joint name="RKneePitch" type="revolute"><parent link="a"/><child link="b"/>
  <limit lower="-0.103083" upper="2.120198" effort="3.023" velocity="6.40239"/></joint>
<joint name="RAnkleRoll" type="revolute"><parent link="b"/><child link="c"/>
  <limit lower="-0.768992" upper="0.397761" effort="3.348" velocity="4.16174"/></joint>
</robot>"""


class JointSim:
    """Physics for the lockstep executor: ideal velocity joints (q' = commanded velocity), with a
    node that takes per-joint or grouped commands and publishes joint_states at 100 Hz."""

    def __init__(self, ctx, joints, grouped=False):
        self.step_ns = 1_000_000
        self.joints = list(joints)
        self.q = np.zeros(len(joints))
        self.v = np.zeros(len(joints))
        self.commands = []
        self.node = rclpy.create_node('fake_sim', context=ctx, namespace='/nao',
                                      parameter_overrides=[P('use_sim_time', value=True)])
        if grouped:
            self.node.create_subscription(JointState, 'joint_commands', self._grouped, 10)
        else:
            for k, j in enumerate(self.joints):
                self.node.create_subscription(Float64, f'{j}/cmd_vel',
                                              lambda m, k=k: self._one(k, m.data), 10)
        self.pub = self.node.create_publisher(JointState, 'joint_states', 10)
        self.node.create_timer(0.01, self._publish)

    def _one(self, k, v):
        self.v[k] = v

    def _grouped(self, msg):
        self.commands.append(msg)
        for name, v in zip(msg.name, msg.velocity):
            self.v[self.joints.index(name)] = v

    def _publish(self):
        self.pub.publish(JointState(name=self.joints, position=self.q.tolist()))

    def advance(self, n):
        self.q += self.v * n * self.step_ns * 1e-9


class Rig:
    def __init__(self, overrides, grouped=False, description=None, targets=None, target_until=1e9):
        self.ctx = rclpy.context.Context()
        rclpy.init(context=self.ctx)
        self.sim = JointSim(self.ctx, JOINTS, grouped)
        self.driver = rclpy.create_node('driver', context=self.ctx, namespace='/nao',
                                        parameter_overrides=[P('use_sim_time', value=True)])
        if description is not None:
            qos = rclpy.qos.QoSProfile(depth=1,
                                       durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)
            self.driver.create_publisher(String, 'robot_description', qos).publish(
                String(data=description))
        self.targets = dict(targets or {})
        self.target_until = target_until
        self.target_pub = self.driver.create_publisher(JointState, 'joint_targets', 10)
        self.driver.create_timer(0.05, self._send_targets)
        self.pid = JointPidController(context=self.ctx, namespace='/nao', parameter_overrides=[
            P('use_sim_time', value=True), P('joints', value=JOINTS)] +
            [P(k, value=v) for k, v in overrides.items()])
        self.ex = LockstepExecutor(context=self.ctx)
        for n in (self.sim.node, self.driver, self.pid):
            self.ex.add_node(n)
        self.ex.set_physics(self.sim)

    def _send_targets(self):
        now = self.driver.get_clock().now().nanoseconds * 1e-9
        if self.targets and now <= self.target_until:
            self.target_pub.publish(JointState(name=list(self.targets),
                                               position=list(self.targets.values())))

    def run_to(self, t):
        self.ex.spin_until(int(round(t * 1e9)))

    def close(self):
        self.ex.shutdown()
        for n in (self.sim.node, self.driver, self.pid):
            n.destroy_node()
        rclpy.shutdown(context=self.ctx)


@pytest.fixture
def rig():
    made = []

    def make(*args, **kwargs):
        r = Rig(*args, **kwargs)
        made.append(r)
        return r
    yield make
    for r in made:
        r.close()


def test_tracks_targets_and_clamps_to_robot_description_limits(rig):
    r = rig({}, description=URDF, targets={'RKneePitch': 0.5, 'RAnkleRoll': 0.9, 'HeadYaw': 1.0})
    r.run_to(1.0)
    assert r.sim.q[0] == pytest.approx(0.5, abs=0.01)        # PI: ~1 % overshoot, slow tail
    assert r.sim.q[1] == pytest.approx(0.397761, abs=5e-3)   # 0.9 clamped to the URDF upper limit
    assert r.pid.robozoo_metrics()['clamped_targets'] == 1     # reported once


def test_limits_from_parameters_without_robot_description(rig):
    r = rig({'use_robot_description': False, 'joint_limits.RAnkleRoll.upper': 0.2},
            targets={'RKneePitch': -0.5, 'RAnkleRoll': 0.3})
    r.run_to(1.0)
    assert r.sim.q.tolist() == pytest.approx([-0.5, 0.2], abs=0.01)


def test_watchdog_stops_joints_when_targets_go_silent(rig):
    r = rig({'use_robot_description': False, 'watchdog_timeout': 0.2, 'gains.RKneePitch.p': 0.5,
             'gains.RKneePitch.i': 0.0}, targets={'RKneePitch': 2.0}, target_until=0.5)
    r.run_to(0.6)
    assert r.sim.v[0] > 0.5                      # still driving towards 2 rad
    r.run_to(0.76)                               # last target at 0.5 s + 0.2 s timeout
    assert r.sim.v[0] == 0.0
    q_stop = r.sim.q[0]
    r.run_to(1.5)
    assert r.sim.q[0] == q_stop
    assert r.pid.robozoo_metrics()['watchdog_stops'] == 1


def test_gains_change_at_run_time_with_validation(rig):
    r = rig({'use_robot_description': False}, targets={'RKneePitch': 1.0})
    r.run_to(0.02)
    res = r.pid.set_parameters([P('gains.RKneePitch.p', value=2.0),
                                P('gains.RKneePitch.i', value=0.0)])
    assert all(x.successful for x in res)
    r.run_to(0.3)
    # with p = 2 1/s the error decays as exp(-2 t): about 0.56 rad left after ~0.28 s
    assert 0.4 < 1.0 - r.sim.q[0] < 0.7
    bad = r.pid.set_parameters_atomically([P('gains.RKneePitch.u_clamp_min', value=2.0),
                                           P('gains.RKneePitch.u_clamp_max', value=1.0)])
    assert not bad.successful and 'gains.RKneePitch.u_clamp_min/u_clamp_max' in bad.reason
    bad = r.pid.set_parameters([P('gains.RKneePitch.antiwindup_strategy', value='legacy')])[0]
    assert not bad.successful and 'antiwindup_strategy' in bad.reason
    bad = r.pid.set_parameters([P('preset', value='thesis')])[0]
    assert not bad.successful and 'preset: set at start-up only' in bad.reason
    assert r.pid.get_parameter('gains.RKneePitch.u_clamp_min').value == -math.inf


def test_grouped_commands_and_reset_service(rig):
    r = rig({'use_robot_description': False, 'command_interface': 'grouped', 'rate': 50.0},
            grouped=True, targets={'RKneePitch': 0.3, 'RAnkleRoll': -0.2})
    r.run_to(1.0)
    msg = r.sim.commands[-1]
    assert list(msg.name) == JOINTS and len(msg.velocity) == 2
    assert len(r.sim.commands) == 50             # one grouped message per tick at 50 Hz
    assert r.sim.q.tolist() == pytest.approx([0.3, -0.2], abs=5e-3)
    client = r.driver.create_client(Empty, 'joint_pid_controller/reset')
    fut = client.call_async(Empty.Request())
    r.targets = {}                                # nobody sends targets after the reset
    r.run_to(1.05)
    assert fut.done()
    assert r.sim.v.tolist() == [0.0, 0.0]        # no fresh target since the reset: stopped
    assert r.pid.loop.controller.i_term.tolist() == [0.0, 0.0]


def test_bad_startup_parameters_are_named():
    ctx = rclpy.context.Context()
    rclpy.init(context=ctx)
    try:
        with pytest.raises(ValueError, match="parameter 'joints' = None: expected a non-empty"):
            JointPidController(context=ctx)
        with pytest.raises(ValueError, match=r"parameter 'preset' = 'fast' \(from [^)]+\): "
                                             'expected one of'):
            JointPidController(context=ctx, parameter_overrides=[
                P('joints', value=JOINTS), P('preset', value='fast')])
        with pytest.raises(Exception, match=r"'gains.RKneePitch.p' to ''high''"):
            JointPidController(context=ctx, parameter_overrides=[
                P('joints', value=JOINTS), P('gains.RKneePitch.p', value='high')])
    finally:
        rclpy.shutdown(context=ctx)


def test_schema_gain_defaults_are_the_control_loops():
    """params/pid.yaml declares the gains with control_loop.DEFAULT_GAINS, their other owner."""
    import dataclasses
    from zoo_runtime import parameter_schema
    from joint_pid_control.control_loop import DEFAULT_GAINS
    schema = parameter_schema.load('joint_pid_control', 'pid')
    declared = {e.name.rsplit('.', 1)[1]: e.default for e in schema.entries.values()
                if e.name.startswith('gains.')}
    assert declared == dataclasses.asdict(DEFAULT_GAINS)
