"""The robot contract with a body that is not MuJoCo: a pure-Python kinematic robot implements
zoo_sim.robot_interface.RobotBackend, and the same simulator node shell, joint PID node and
metrics observer run on it unchanged (topics, commands, latched description, services)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from joint_pid_control.pid_node import JointPidController
from zoo_runtime import rclpy
from zoo_runtime.embedded import executors, parameter
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.std_msgs.msg import String
from zoo_runtime.interfaces.std_srvs.srv import Empty
from zoo_sim.robot_interface import RobotBackend, RobotInfo, TreeJoint
from zoo_sim.sim_node import LATCHED, Simulator

URDF = """<robot name="arm">
  <link name="base"/><link name="upper"/><link name="lower"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-1.0" upper="1.0" effort="5" velocity="2"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/>
    <axis xyz="0 0 1"/><limit lower="-2.0" upper="2.0" effort="5" velocity="3"/></joint>
</robot>"""


class KinematicArm:
    """Two joints that turn exactly at the commanded velocity, within their limits (an effort
    command turns a joint of unit inertia). No base motion, no IMU, no contacts."""

    features = frozenset({'joint_states', 'tf'})
    step_ns = 1_000_000

    def __init__(self):
        self.warnings: list[str] = []
        self.sim_ns = 0
        self.paused = False
        self.info = RobotInfo(
            name='arm', joints=['shoulder', 'elbow'], velocity_limits=np.array([2.0, 3.0]),
            effort_limits=np.array([5.0, 5.0]), base_link='base', imu_link='base',
            contact_links=[], links=['base', 'upper', 'lower'],
            tree=[TreeJoint('shoulder', 'base', 'upper', False),
                  TreeJoint('elbow', 'upper', 'lower', False)], urdf=URDF)
        self.lower, self.upper = np.array([-1.0, -2.0]), np.array([1.0, 2.0])
        self.reset()

    def robot_names(self):
        return ['arm']

    def robot_info(self, robot):
        return self.info

    def advance(self, n_steps):
        if not self.paused:
            self.step(n_steps)

    def step(self, n_steps):
        h = self.step_ns * 1e-9
        for _ in range(int(n_steps)):
            self.dq = np.where(self.effort_mode, self.dq + h * self.tau, self.target)
            self.dq = np.clip(self.dq, -self.info.velocity_limits, self.info.velocity_limits)
            self.q = np.clip(self.q + h * self.dq, self.lower, self.upper)
        self.sim_ns += int(n_steps) * self.step_ns

    def reset(self):
        self.q, self.dq = np.zeros(2), np.zeros(2)
        self.target, self.tau = np.zeros(2), np.zeros(2)
        self.effort_mode = np.zeros(2, dtype=bool)

    def set_pose(self, name, xyz, quat_wxyz):
        raise ValueError('the kinematic arm is bolted down')

    def _apply(self, kind, joint, value):
        if not math.isfinite(value):
            return False
        limit = (self.info.velocity_limits if kind == 'velocity' else self.info.effort_limits)[joint]
        value = max(-limit, min(limit, value))
        if kind == 'velocity':
            self.target[joint], self.effort_mode[joint] = value, False
        else:
            self.tau[joint], self.effort_mode[joint] = value, True
        return True

    def commander(self, robot, kind):
        return lambda joint, value: self._apply(kind, joint, value)

    def commands(self, robot, joints, kind, values):
        return sum(self._apply(kind, int(j), float(v)) for j, v in zip(joints, values))

    def joint_state(self, robot):
        return self.q.copy(), self.dq.copy(), np.where(self.effort_mode, self.tau, 0.0)

    def base_pose(self, robot):
        return np.zeros(3), np.array([1.0, 0, 0, 0])

    def base_twist(self, robot):
        return np.zeros(3), np.zeros(3)

    def imu(self, robot):
        raise NotImplementedError

    def contacts(self, robot):
        raise NotImplementedError

    def link_poses(self, robot):
        return self.info.links, np.zeros((3, 3)), np.tile([1.0, 0, 0, 0], (3, 1))

    def sensor_values(self, robot, sensor):
        raise NotImplementedError

    def command_warnings(self, now_ns):
        return []

    def command_counts(self, robot):
        return 0, 0

    def penetration(self, robot):
        return 0.0

    def metrics(self):
        return {'sim_time': self.sim_ns * 1e-9}


@pytest.fixture
def stack():
    ctx = rclpy.context.Context()
    rclpy.init(args=[], context=ctx)
    ex = executors.LockstepExecutor(context=ctx, step_ns=KinematicArm.step_ns)
    arm = KinematicArm()
    assert isinstance(arm, RobotBackend)  # the contract, checked member by member
    sim_time = parameter.Parameter('use_sim_time', value=True)
    sim = Simulator(physics=arm, context=ctx, parameter_overrides=[sim_time])
    pid = JointPidController(context=ctx, namespace='/arm', parameter_overrides=[
        sim_time, parameter.Parameter('joints', value=['shoulder', 'elbow']),
        parameter.Parameter('gains.shoulder.p', value=10.0),
        parameter.Parameter('gains.elbow.p', value=10.0)])
    probe = rclpy.node.Node('probe', context=ctx, parameter_overrides=[sim_time])
    for node in (sim, pid, probe):
        ex.add_node(node)
    ex.set_physics(sim.lockstep_physics)
    yield ex, arm, sim, pid, probe
    for node in (sim, pid, probe):
        node.destroy_node()
    ex.shutdown()
    ctx.try_shutdown()


def test_node_shell_and_pid_run_on_a_kinematic_robot(stack):
    ex, arm, sim, pid, probe = stack
    states, descriptions = [], []
    probe.create_subscription(JointState, '/arm/joint_states', states.append, 10)
    probe.create_subscription(String, '/arm/robot_description', descriptions.append, LATCHED)
    targets = probe.create_publisher(JointState, '/arm/joint_targets', 10)
    ex.spin_until(100_000_000)
    assert descriptions and descriptions[-1].data == URDF
    probe.create_timer(0.02, lambda: targets.publish(
        JointState(name=['shoulder', 'elbow'], position=[0.5, 5.0])))  # fed: no watchdog stop
    ex.spin_until(1_600_000_000)
    last = states[-1]
    assert list(last.name) == ['shoulder', 'elbow']
    assert last.position[0] == pytest.approx(0.5, abs=0.01)   # the PID loop closed over the arm
    assert last.position[1] == pytest.approx(2.0, abs=1e-9)   # the URDF limit, via the contract
    speeds = np.abs([s.velocity[0] for s in states])
    assert speeds.max() <= 2.0 + 1e-9                          # the joint's velocity limit
    metrics = sim.robot_metrics('arm')                         # the metrics observer on it too
    assert not metrics['fell'] and metrics['drift_xyz'] == 0.0 and metrics['joints'] == 2


def test_services_reach_the_backend(stack):
    ex, arm, sim, pid, probe = stack
    arm.q[:] = 0.3
    client = probe.create_client(Empty, '/sim/reset')
    future = client.call_async(Empty.Request())
    ex.spin_until_future_complete(future, timeout_sec=1.0)
    assert future.done() and arm.q.tolist() == [0.0, 0.0]
