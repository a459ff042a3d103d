"""The simulator node in the embedded world, on the lockstep executor: topics, commands, services,
determinism through the whole stack, parameter errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import DATA, urdf_text
from zoo_runtime import rclpy
from zoo_runtime.embedded import executors, parameter
from zoo_runtime.interfaces.geometry_msgs.msg import Pose
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.sensor_msgs.msg import Imu, JointState
from zoo_runtime.interfaces.std_msgs.msg import Float64, String
from zoo_runtime.interfaces.std_srvs.srv import Empty, SetBool
from zoo_runtime.interfaces.tf2_msgs.msg import TFMessage
from zoo_runtime.interfaces.zoo_interfaces.msg import LinkContacts
from zoo_runtime.interfaces.zoo_interfaces.srv import SetModelPose, Step
from zoo_sim import SimConfigError
from zoo_sim.sim_node import LATCHED, Simulator

PKG = 'zoo_test_description'


@pytest.fixture(autouse=True)
def test_prefix(monkeypatch):
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(DATA / 'prefix'))


def robot_params(name: str, **extra) -> dict:
    p = {f'robots.{name}.package': PKG, f'robots.{name}.model': 'walker',
         f'robots.{name}.pose': [0.0, 0.0, 0.12, 0.0, 0.0, 0.0]}
    p.update({f'robots.{name}.{k}': v for k, v in extra.items()})
    return p


class Stack:
    """A context, a lockstep executor, the simulator and a probe node recording topics."""

    def __init__(self, names=('w',), **params):
        self.ctx = rclpy.context.Context()
        rclpy.init(args=[], context=self.ctx)
        self.ex = executors.LockstepExecutor(context=self.ctx, step_ns=1_000_000)
        p = {'world': 'empty', 'robot_names': list(names), 'use_sim_time': True}
        for n in names:
            p.update(robot_params(n))
        p.update(params)
        self.sim = Simulator(context=self.ctx, cli_args=['--ros-args', '-r', '__node:=sim'],
                             parameter_overrides=[parameter.Parameter(k, value=v)
                                                  for k, v in p.items()])
        self.ex.add_node(self.sim)
        self.ex.set_physics(self.sim.lockstep_physics)
        self.probe = rclpy.node.Node('probe', context=self.ctx, parameter_overrides=[
            parameter.Parameter('use_sim_time', value=True)])
        self.ex.add_node(self.probe)
        self.got: dict[str, list] = {}

    def record(self, msg_type, topic: str, qos=10) -> list:
        out = self.got.setdefault(topic, [])
        self.probe.create_subscription(msg_type, topic, out.append, qos)
        return out

    def call(self, srv_type, name: str, request):
        client = self.probe.create_client(srv_type, name)
        future = client.call_async(request)
        self.ex.spin_until_future_complete(future, timeout_sec=1.0)
        return future.result()

    def run(self, seconds: float) -> None:
        self.ex.spin_until(self.ex.now_ns + round(seconds * 1e9))

    def close(self) -> None:
        self.sim.destroy_node()
        self.probe.destroy_node()
        self.ex.shutdown()
        self.ctx.try_shutdown()


@pytest.fixture
def stack():
    s = Stack()
    yield s
    s.close()


def test_sensors_are_evaluated_for_an_audience_and_never_published_stale(stack):
    """Without an audience for imu/contacts the backend evaluates no sensor; a subscriber that
    appears mid-run gets every period's readings from then on, equal bitwise to those of a
    backend that evaluates its sensors at every call (stepped in the same calls)."""
    from zoo_sim.mujoco_backend import MujocoPhysics
    from zoo_sim.mujoco_scene import RobotSpec
    physics, calls = stack.sim.physics, []
    inner = physics.advance
    physics.advance = lambda n: (calls.append(n), inner(n))
    stack.run(0.3)
    assert not physics.sensors_fresh  # nobody listened: the steps skipped them
    imu = stack.record(Imu, '/w/imu')
    stack.run(0.3)
    assert len(imu) == 30 and imu[0].header.stamp.nanosec == 310_000_000  # from then on
    bare = MujocoPhysics.create('empty', [RobotSpec('w', package=PKG, model='walker',
                                                    pose=[0.0, 0.0, 0.12, 0.0, 0.0, 0.0])])
    for n in calls:
        bare.advance(n)
    _, gyro, acc = bare.imu('w')
    last = imu[-1]
    assert [last.angular_velocity.x, last.angular_velocity.y, last.angular_velocity.z,
            last.linear_acceleration.x, last.linear_acceleration.y,
            last.linear_acceleration.z] == [*gyro.tolist(), *acc.tolist()]


def test_state_topics_come_at_their_rates(stack):
    js = stack.record(JointState, '/w/joint_states')
    odom = stack.record(Odometry, '/w/odometry/ground_truth')
    imu = stack.record(Imu, '/w/imu')
    contacts = stack.record(LinkContacts, '/w/contacts')
    desc = stack.record(String, '/w/robot_description', LATCHED)
    static = stack.record(TFMessage, '/tf_static', LATCHED)
    tf = stack.record(TFMessage, '/tf')
    stack.run(1.0)
    # rclpy timers first fire one period after creation
    assert (len(js), len(odom), len(imu), len(tf), len(contacts)) == (100, 50, 100, 25, 50)
    assert list(js[-1].name) == ['shoulder', 'elbow']
    assert js[-1].header.stamp.sec == 1 and js[9].header.stamp.nanosec == 100_000_000
    assert desc[0].data.startswith('<?xml') and 'shoulder_effort' not in desc[0].data
    assert odom[-1].child_frame_id == 'w/base_link'
    assert odom[-1].pose.pose.position.z == pytest.approx(0.09, abs=1e-3)  # resting on its feet
    assert imu[-1].linear_acceleration.z == pytest.approx(9.80665, abs=0.05)
    assert list(contacts[-1].in_contact) == [True, True]
    assert sum(f.z for f in contacts[-1].force) == pytest.approx(3.1 * 9.80665, rel=0.02)
    frames = {(t.header.frame_id, t.child_frame_id) for t in tf[-1].transforms}
    assert frames == {('world', 'w/base_link'), ('w/base_link', 'w/upper_arm'),
                      ('w/upper_arm', 'w/forearm')}
    fixed = {t.child_frame_id: t.transform.translation for t in static[0].transforms}
    assert fixed['w/left_foot'].y == pytest.approx(0.07) and fixed['w/left_foot'].z == \
        pytest.approx(-0.07)


def test_per_joint_and_grouped_commands_drive_the_joints(stack):
    js = stack.record(JointState, '/w/joint_states')
    vel = stack.probe.create_publisher(Float64, '/w/shoulder/cmd_vel', 10)
    force = stack.probe.create_publisher(Float64, '/w/elbow/cmd_force', 10)
    group = stack.probe.create_publisher(JointState, '/w/joint_commands', 10)
    vel.publish(Float64(data=1.0))
    stack.run(0.5)
    assert js[-1].velocity[0] == pytest.approx(1.0, abs=1e-3)
    force.publish(Float64(data=0.25))
    stack.run(0.02)
    assert js[-1].effort[1] == pytest.approx(0.25)
    group.publish(JointState(name=['elbow', 'shoulder'], velocity=[-0.5, 0.0]))
    stack.run(0.3)
    assert js[-1].velocity[0] == pytest.approx(0.0, abs=1e-3)
    assert js[-1].velocity[1] == pytest.approx(-0.5, abs=5e-3)  # 1 %: the motor's slip correction
    assert stack.sim.robozoo_metrics()['commands'] == {'w': 3}


def test_unsafe_commands_are_dropped_with_a_warning(stack, capfd):
    js = stack.record(JointState, '/w/joint_states')
    vel = stack.probe.create_publisher(Float64, '/w/shoulder/cmd_vel', 10)
    group = stack.probe.create_publisher(JointState, '/w/joint_commands', 10)
    vel.publish(Float64(data=0.5))
    stack.run(0.2)
    vel.publish(Float64(data=math.nan))
    group.publish(JointState(name=['knee'], velocity=[1.0]))
    stack.run(0.2)
    assert js[-1].velocity[0] == pytest.approx(0.5, abs=1e-3)  # NaN never reached physics
    assert np.isfinite(js[-1].position).all()
    assert stack.sim.physics.command_counts('w') == (1, 0)
    stack.run(1.0)  # the sanitiser's summary is logged once a second
    err = capfd.readouterr().err
    assert err.count('w: unsafe joint commands not passed to physics: shoulder velocity nan') == 1
    assert err.count("/w/joint_commands: unknown joint 'knee'; message dropped") == 1


def test_pause_step_reset_and_set_pose_services(stack):
    js = stack.record(JointState, '/w/joint_states')
    stack.probe.create_publisher(Float64, '/w/shoulder/cmd_vel', 10).publish(Float64(data=1.0))
    stack.run(0.2)
    assert stack.call(SetBool, '/sim/pause', SetBool.Request(data=True)).success
    q = js[-1].position[0]
    stack.run(0.2)
    assert js[-1].position[0] == q  # frozen while the clock runs on
    r = stack.call(Step, '/sim/step', Step.Request(steps=50))
    assert r.success and r.sim_time.nanosec == stack.sim.physics.sim_ns
    stack.run(0.01)
    assert js[-1].position[0] == pytest.approx(q + 0.05, abs=1e-3)
    stack.call(SetBool, '/sim/pause', SetBool.Request(data=False))
    assert not stack.call(Step, '/sim/step', Step.Request(steps=5)).success
    stack.call(Empty, '/sim/reset', Empty.Request())
    stack.run(0.01)
    assert js[-1].position[0] == pytest.approx(0.0, abs=1e-4)
    pose = Pose()
    pose.position.x, pose.position.z = 1.0, 0.5
    ok = stack.call(SetModelPose, '/sim/set_pose', SetModelPose.Request(name='w', pose=pose))
    assert ok.success
    assert stack.sim.physics.base_pose('w')[0][0] == pytest.approx(1.0)
    bad = stack.call(SetModelPose, '/sim/set_pose', SetModelPose.Request(name='zz', pose=pose))
    assert not bad.success and "no robot or world model 'zz'" in bad.message


def joint_stream(seed: int) -> bytes:
    """A scenario: random velocity commands at 200 Hz for 1 s; the joint_states stream."""
    s = Stack()
    try:
        js = s.record(JointState, '/w/joint_states')
        group = s.probe.create_publisher(JointState, '/w/joint_commands', 10)
        rng = np.random.default_rng(seed)
        s.probe.create_timer(0.005, lambda: group.publish(JointState(
            name=['shoulder', 'elbow'], velocity=rng.uniform(-3, 3, 2).tolist())))
        s.run(1.0)
        return b''.join(np.array([*m.position, *m.velocity, *m.effort]).tobytes() for m in js)
    finally:
        s.close()


def test_same_scenario_and_seed_give_bitwise_identical_joint_states():
    assert joint_stream(3) == joint_stream(3)
    assert joint_stream(3) != joint_stream(4)


def test_metrics_are_published_for_robozoo_run(stack):
    from zoo_runtime.interfaces.zoo_interfaces.msg import RobotMetrics
    got = stack.record(RobotMetrics, '/w/metrics')
    stack.run(0.5)
    assert len(got) == 5  # 10 Hz
    summary = got[-1]
    assert summary.robot == 'w' and not summary.fell and summary.drift_xy < 1e-3
    assert math.isnan(summary.fell_at) and summary.joints == 2
    assert stack.sim.robozoo_metrics()['steps'] == 500


def test_xacro_args_reach_the_description():
    s = Stack(**{'robots.w.xacro_args': ['shoulder_effort:=0.5']})
    try:
        assert s.sim.physics.robots['w'].effort_limit[0] == 0.5
    finally:
        s.close()


def test_cmd_vel_turns_the_joint_at_the_commanded_velocity():
    s = Stack(joint_motor='constraint')
    try:
        js = s.record(JointState, '/w/joint_states')
        s.probe.create_publisher(Float64, '/w/shoulder/cmd_vel', 10).publish(Float64(data=1.0))
        s.run(0.5)
        assert s.sim.physics.joint_motor == 'constraint'
        assert js[-1].velocity[0] == pytest.approx(1.0, abs=1e-3)
    finally:
        s.close()


@pytest.mark.parametrize('params,match', [
    ({'robot_names': ['a', 'a'], **robot_params('a')}, "robot name 'a' is used twice"),
    ({'backend': 'bullet'}, "parameter backend: expected one of"),
    ({'robots.w.package': 'no_such_description'}, 'no_such_description: description package not found'),
    ({'robots.w.xacro_args': ['oops']}, "xacro_args: expected 'name:=value'"),
    ({'world': 'atlantis'}, "world 'atlantis' not found"),
    ({'gravity': [0.0, -9.8]}, 'parameter gravity: expected 3 finite numbers'),
    ({'joint_motor': 'ideal'}, "parameter joint_motor: expected one of constraint, got 'ideal'"),
    ({'joint_motor': 'servo'}, "parameter joint_motor: 'servo': the servo motor was removed"),
])
def test_bad_parameters_give_one_clear_error(params, match):
    with pytest.raises(SimConfigError, match=match):
        Stack(**params)


@pytest.mark.parametrize('params,match', [
    ({'imu_rate': -1.0}, r"parameter 'imu_rate' = -1.0 \(from .*\): expected a rate >= 0 Hz \(0: "),
    ({'metrics_rate': 0.0}, r"parameter 'metrics_rate' = 0.0 \(from .*\): expected a rate > 0 Hz"),
    ({'robots.w.package': ''}, r"parameter 'robots.w.package' = '' \(from .*\): expected a desc"),
])
def test_values_out_of_the_schema_name_node_and_parameter(params, match):
    """params/simulator.yaml checks these before the node declares them."""
    with pytest.raises(ValueError, match="node 'sim': " + match):
        Stack(**params)


def test_schema_joint_motor_default_is_joint_motors():
    from zoo_sim.joint_motors import DEFAULT_MOTOR
    from zoo_sim.sim_node import SCHEMA
    assert SCHEMA.entries['joint_motor'].default == DEFAULT_MOTOR


def test_a_registered_sensor_kind_becomes_a_topic(tmp_path, monkeypatch):
    """The sensor interface: a class for a Gazebo sensor type found in a description's <gazebo>
    block gets its MuJoCo sensor and its topic at the block's update_rate."""
    import mujoco
    from zoo_runtime.interfaces.std_msgs.msg import Float64 as F64
    from zoo_sim import sensors

    class Altimeter(sensors.Sensor):
        msg_type = F64

        def add_to_spec(self, spec, body):
            body.add_site(name=self.prefix + self.spec.name)
            spec.add_sensor(name=self.prefix + self.spec.name,
                            type=mujoco.mjtSensor.mjSENS_FRAMEPOS,
                            objtype=mujoco.mjtObj.mjOBJ_SITE, objname=self.prefix + self.spec.name)

        def read(self, model, data):
            return float(self.sensordata(model, data, self.prefix + self.spec.name)[2])

        def message(self, values, stamp):
            return F64(data=values)

    monkeypatch.setitem(sensors.SENSOR_KINDS, 'altimeter', Altimeter)
    share = tmp_path / 'share' / 'alt_description'
    (share / 'urdf').mkdir(parents=True)
    index = tmp_path / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / 'alt_description').touch()
    (share / 'package.xml').write_text((DATA / 'prefix' / 'share' / PKG / 'package.xml')
                                       .read_text().replace(PKG, 'alt_description'))
    (share / 'urdf' / 'alt.urdf').write_text(urdf_text('walker.urdf', **{
        '</robot>': '<gazebo reference="base_link"><sensor name="altitude" type="altimeter">'
                    '<update_rate>20</update_rate></sensor></gazebo></robot>'}))
    monkeypatch.setenv('AMENT_PREFIX_PATH', f"{tmp_path}:{DATA / 'prefix'}")
    s = Stack(**{'robots.w.package': 'alt_description', 'robots.w.model': 'alt'})
    try:
        alt = s.record(F64, '/w/altitude')
        s.run(1.0)
        assert len(alt) == 20 and alt[-1].data == pytest.approx(0.09, abs=1e-3)
    finally:
        s.close()
