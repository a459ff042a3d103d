"""ROS shell of the simulated Go1's UDP endpoint (``unitree_udp/go1_udp_endpoint``).

The robot's topics in (``/<robot>/joint_states``, ``imu``, ``contacts``,
``odometry/ground_truth``), its PD commands out (``/<robot>/joint_pd_commands``: the simulator
applies them through the robot contract's ``pd_commands``, each physics step). The socket is
polled every ``poll_period`` s of sim time (default: the 0.5 ms physics step); a state goes to
the last client on every joint_states message, so the scenario sets the simulator's
``joint_states_rate`` to 500 Hz: the robot answers at 500 Hz of sim time.

Clients: the robot answers the last sender of a valid command (a real Go1 does); a change of
sender and every dropped datagram are logged, rate-limited (the first in full with peer and
reason, then one count line per 5 s, and what is still counted at shutdown).

Time: the SDK sends on wall time, so ``go1_udp_endpoint`` runs paced at real time
(real_time_factor 1); sim time then tracks wall time, and the watchdog runs on the steady clock.
"""
from __future__ import annotations

import numpy as np

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.sensor_msgs.msg import Imu, JointState
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand, LinkContacts

from .constants import HIGH_MODES, HIGH_PORT, LOW_PORT, MODE_DAMPING, N_LEG_MOTORS
from .endpoint import MotorTargets, UdpEndpoint, damping, targets_from_low_cmd
from .high_level import encode_high_state
from .joint_map import JointMap
from .low_level import encode_low_state
from .packet import Header, make_sn, make_version
from .robot_state import Snapshot, foot_forces, high_state, low_state
from .sport_mode import SportMode

Node = rclpy.node.Node
MODELS = {'AIR': 1, 'PRO': 2, 'EDU': 3}


def _triple(text: str, name: str) -> tuple[int, int, int]:
    try:
        parts = tuple(int(p) for p in text.split('.'))
    except ValueError:
        parts = ()
    if len(parts) != 3 or not all(0 <= p <= 255 for p in parts):
        raise ValueError(f"go1_udp_endpoint: parameter {name} = '{text}': expected a.b.c, 0..255")
    return parts  # type: ignore[return-value]


class Go1UdpEndpoint(Node):
    def __init__(self, **kwargs):
        super().__init__('go1_udp_endpoint', **kwargs)
        p = parameter_schema.load('unitree_udp', 'go1_udp_endpoint').declare(self)
        self.robot, self.level, host, port = p['robot'], p['level'], p['host'], p['port']
        poll, self.damping_kd, watchdog_s = p['poll_period'], p['damping_kd'], p['watchdog_s']
        model = p['model']
        hardware = _triple(p['hardware_version'], 'hardware_version')
        firmware = _triple(p['firmware_version'], 'firmware_version')
        self.header = Header(sn=make_sn(4, MODELS[model], (1, 1, 1, 1)),
                             version=make_version(hardware, firmware))
        port = port or (LOW_PORT if self.level == 'low' else HIGH_PORT)
        try:
            self.core = UdpEndpoint(host, port, self.level, watchdog_s)
        except OSError as exc:
            raise ValueError(f'go1_udp_endpoint: cannot listen on {host}:{port}: {exc}') from None
        self.sport = SportMode(damping_kd=self.damping_kd) if self.level == 'high' else None
        self.get_logger().info(f'Go1 {self.level}-level endpoint on {self.core.address[0]}:'
                               f'{self.core.address[1]} (robot {self.robot})')
        self.map: JointMap | None = None
        self.snapshot: Snapshot | None = None
        self.targets: MotorTargets | None = None
        self.published = 0
        ns = f'/{self.robot}'
        self.pub = self.create_publisher(JointPDCommand, f'{ns}/joint_pd_commands', 10)
        self.create_subscription(JointState, f'{ns}/joint_states', self._on_joints, 10)
        self.create_subscription(Imu, f'{ns}/imu', self._on_imu, 10)
        self.create_subscription(LinkContacts, f'{ns}/contacts', self._on_contacts, 10)
        self.create_subscription(Odometry, f'{ns}/odometry/ground_truth', self._on_odom, 10)
        self.create_timer(poll, self._poll)

    # -- commands in ------------------------------------------------------------------------------
    def _poll(self) -> None:
        new = self.core.poll()
        self._log_events()
        if self.map is None or self.snapshot is None or self.core.command is None:
            return  # before the first command the simulator's own motors hold the robot
        if self.core.silent():
            if self.targets is None or not (self.targets.mode == MODE_DAMPING).all():
                self._apply(damping(self.damping_kd, self.snapshot.q))
            return
        if self.sport is not None:
            t = self.get_clock().now().nanoseconds * 1e-9
            self._apply(self.sport.targets(self.core.command, self.snapshot.q, t))
            if new and self.sport.unsupported:
                mode = self.core.command.mode
                self.core.log.event('unsupported HighCmd', (
                    f"mode {mode} ({HIGH_MODES.get(mode, 'unknown')}) needs Unitree's locomotion"
                    ' controller: standing instead (HighState reserve = 1)'))
        elif new:
            self._apply(targets_from_low_cmd(self.core.command, self.damping_kd,
                                             self.snapshot.q))

    def _apply(self, t: MotorTargets) -> None:
        self.targets = t
        m = self.map
        self.pub.publish(JointPDCommand(
            name=list(m.sdk_names), position=t.q.tolist(), velocity=t.dq.tolist(),
            effort=t.tau.tolist(), kp=t.kp.tolist(), kd=t.kd.tolist()))
        self.published += 1

    # -- state out --------------------------------------------------------------------------------
    def _on_joints(self, msg: JointState) -> None:
        if self.map is None:
            self.map = JointMap(list(msg.name))
            z = np.zeros(N_LEG_MOTORS)
            self.snapshot = Snapshot(z, z, z, np.zeros(N_LEG_MOTORS, dtype=int))
        s, m = self.snapshot, self.map
        s.q, s.dq = m.to_sdk(msg.position), m.to_sdk(msg.velocity)
        s.tau = m.to_sdk(msg.effort) if len(msg.effort) else np.zeros(N_LEG_MOTORS)
        s.mode = self.targets.mode if self.targets is not None else s.mode
        s.tick_us = self.get_clock().now().nanoseconds // 1000
        if self.core.client is None:
            return
        if self.sport is None:
            packet = encode_low_state(low_state(s, self.header, self.core.stamp()))
        else:
            packet = encode_high_state(high_state(s, self.header, self.sport.mode,
                                                  self.sport.progress, self.sport.unsupported))
        self.core.send(packet)

    def _on_imu(self, msg: Imu) -> None:
        if self.snapshot is not None:
            o, w, a = msg.orientation, msg.angular_velocity, msg.linear_acceleration
            s = self.snapshot
            s.quat, s.gyro, s.acc = (o.w, o.x, o.y, o.z), (w.x, w.y, w.z), (a.x, a.y, a.z)

    def _on_contacts(self, msg: LinkContacts) -> None:
        if self.snapshot is not None:
            self.snapshot.foot_force = foot_forces(list(msg.link_names),
                                                   [(f.x, f.y, f.z) for f in msg.force])

    def _on_odom(self, msg: Odometry) -> None:
        if self.snapshot is not None:
            p, v = msg.pose.pose.position, msg.twist.twist.linear
            self.snapshot.base_pos = (p.x, p.y, p.z)
            self.snapshot.base_vel = (v.x, v.y, v.z)
            self.snapshot.yaw_speed = msg.twist.twist.angular.z

    def _log_events(self) -> None:
        for line in self.core.log.drain():
            self.get_logger().warning(line)

    # -- results ----------------------------------------------------------------------------------
    def robozoo_metrics(self) -> dict:
        out = self.core.stats.as_dict()
        out.update(level=self.level, port=self.core.address[1], pd_commands=self.published)
        return out

    def destroy_node(self) -> None:
        self.core.log.flush()
        self._log_events()
        self.core.close()
        super().destroy_node()


def main(args=None) -> None:
    spin_node(Go1UdpEndpoint, args)
