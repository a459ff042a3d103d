"""ROS shell of the Go1 UDP bridge (``unitree_udp_bridge/bridge``).

ROS side, under ``/<robot>`` (default ``go1_udp``): ``joint_pd_commands`` in (JointPDCommand,
the simulator's interface: plan_tracker runs unchanged with ``robot: go1_udp``), ``joint_states``
and ``imu`` out from each LowState, ``low_cmd`` out (JointPDCommand: what went on the wire, after
the safety layer). ``odometry/ground_truth`` is relayed from ``odometry_in`` (a LowState carries
no base position: in simulation the simulator's ground truth, on a real robot a motion capture).

Timing: a command goes out as soon as it arrives (the tracker's 500 Hz stream), and at ``rate``
Hz otherwise (damping before the first command, after the watchdog, after power protection);
the socket is read every ``poll_period`` s (the physics step), so a state reaches the ROS side in
the step it arrives.

UDP: the socket is bound to ``local_ip`` ('' = the address this machine reaches ``robot_ip``
from, never the wildcard) and ``local_port`` (0: any); state is taken only from
``robot_ip``:``robot_port``. Datagrams from other peers are dropped, counted
(``foreign_datagrams``) and logged, rate-limited (the first in full, then one count line per
5 s, and what is still counted at shutdown).
"""
from __future__ import annotations

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.sensor_msgs.msg import Imu, JointState
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand

from .bridge_core import BridgeCore
from .link_options import OPTIONS, bridge_config, check_rate

Node = rclpy.node.Node


class Go1UdpBridge(Node):
    def __init__(self, **kwargs):
        super().__init__('go1_udp_bridge', **kwargs)
        schema = parameter_schema.load('unitree_udp_bridge', 'bridge')
        # latency_stamps' default depends on robot_ip
        p = schema.declare(self, skip=('latency_stamps',))
        p.update(schema.declare(self, 'latency_stamps', default=p['robot_ip'].startswith('127.')))
        self.robot, poll = p['robot'], p['poll_period']
        options = {name: p[name] for name in OPTIONS}
        joints, latency, odometry_in = list(p['joint_names']), p['latency_stamps'], p['odometry_in']
        try:
            check_rate('poll_period', poll)
            cfg = bridge_config(options, joints, latency)
            self.core = BridgeCore(cfg)
        except (ValueError, OSError) as exc:
            raise ValueError(f'go1_udp_bridge: {exc}') from None
        rate, safety = float(options['rate']), cfg.safety
        self.period_ns = int(1e9 / rate)
        self.last_send_ns: int | None = None
        self.last_cmd_ns: int | None = None
        self.reported_failure = False
        ns = f'/{self.robot}'
        self.joint_pub = self.create_publisher(JointState, f'{ns}/joint_states', 10)
        self.imu_pub = self.create_publisher(Imu, f'{ns}/imu', 10)
        self.cmd_pub = self.create_publisher(JointPDCommand, f'{ns}/low_cmd', 10)
        self.create_subscription(JointPDCommand, f'{ns}/joint_pd_commands', self._on_command, 10)
        if odometry_in:
            self.odom_pub = self.create_publisher(Odometry, f'{ns}/odometry/ground_truth', 10)
            self.create_subscription(Odometry, odometry_in, self.odom_pub.publish, 10)
        self.create_timer(poll, self._poll)
        local, robot = self.core.address, self.core.target
        self.get_logger().info(f'Go1 UDP bridge: {local[0]}:{local[1]} -> {robot[0]}:{robot[1]} '
                               f'(state taken only from there), topics under {ns}, power level '
                               f'{safety.power_level}, watchdog {cfg.watchdog_s:g} s')

    def _on_command(self, msg: JointPDCommand) -> None:
        try:
            self.core.set_command(msg.name, msg.position, msg.velocity, msg.effort, msg.kp,
                                  msg.kd)
        except (ValueError, IndexError) as exc:
            self.get_logger().warning(f'/{self.robot}/joint_pd_commands: {exc}; dropped',
                                      throttle_duration_sec=1.0)
            return
        if self.core.state == 'running':
            self.last_cmd_ns = self.get_clock().now().nanoseconds
            self._send()

    def _poll(self) -> None:
        state = self.core.receive()
        if state is not None:
            self._publish_state(state)
        now = self.get_clock().now().nanoseconds
        # a streaming command source sets the pace (each command goes out as it comes);
        # otherwise (before the first, after it stopped) the timer keeps `rate`
        streaming = (self.last_cmd_ns is not None
                     and now - self.last_cmd_ns < 1.5 * self.period_ns)
        if not streaming and (self.last_send_ns is None
                              or now - self.last_send_ns >= self.period_ns):
            self._send()
        self._report()

    def _send(self) -> None:
        packet = self.core.cycle()
        self.last_send_ns = self.get_clock().now().nanoseconds
        c = self.core.last_sent
        if packet is not None and c is not None and self.core.state == 'running':
            m = self.core.map
            self.cmd_pub.publish(JointPDCommand(
                name=list(m.sdk_names), position=c.q.tolist(), velocity=c.dq.tolist(),
                effort=c.tau.tolist(), kp=c.kp.tolist(), kd=c.kd.tolist()))

    def _publish_state(self, s) -> None:
        q, dq, tau = self.core.joint_state(s)
        stamp = self.get_clock().now().to_msg()
        msg = JointState(name=list(self.core.map.joints), position=q.tolist(),
                         velocity=dq.tolist(), effort=tau.tolist())
        msg.header.stamp = stamp
        self.joint_pub.publish(msg)
        imu = Imu()
        imu.header.stamp = stamp
        q, g, a = s.imu.quaternion, s.imu.gyroscope, s.imu.accelerometer
        imu.orientation.w, imu.orientation.x, imu.orientation.y, imu.orientation.z = q
        imu.angular_velocity.x, imu.angular_velocity.y, imu.angular_velocity.z = g
        imu.linear_acceleration.x, imu.linear_acceleration.y, imu.linear_acceleration.z = a
        self.imu_pub.publish(imu)

    def _report(self) -> None:
        log = self.get_logger()
        for line in self.core.messages:
            log.warning(line) if line.startswith(('watchdog: no', 'power')) else log.info(line)
        self.core.messages.clear()
        for line in self.core.log.drain():
            log.warning(line)
        if self.core.state == 'failed' and not self.reported_failure:
            self.reported_failure = True
            log.error(self.core.error)

    def robozoo_metrics(self) -> dict:
        return self.core.metrics()

    def destroy_node(self) -> None:
        self.core.log.flush()
        self._report()
        self.core.close()
        super().destroy_node()


def main(args=None) -> None:
    spin_node(Go1UdpBridge, args)
