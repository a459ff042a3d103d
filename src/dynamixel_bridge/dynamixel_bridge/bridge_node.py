"""ROS shell of the bridge (``dynamixel_bridge/bridge``): the simulator's topic names, so a
scenario switches between the simulated snake and a real bus by configuration.

Topics (relative: give the node the robot's namespace, e.g. ``/snake``): publishes
``joint_states`` (sensor_msgs/JointState: rad, rad/s, N m; NaN for a servo that did not answer)
and ``dynamixel/status`` (diagnostic_msgs/DiagnosticArray, one status per servo: OK, or ERROR
with the reason); subscribes ``joint_targets`` (sensor_msgs/JointState positions by name).
Service ``dynamixel/reboot`` (std_srvs/Trigger). Summary metrics: ``robozoo_metrics``.

Parameters: ``port`` (/dev/ttyUSB0 or the emulator's pty), ``baud`` (1000000), ``protocol``
(1 | 2), ``model`` ('' = AX-12A on 1, XM430-W350 on 2), ``ids`` ([1..16]), ``joints``
(default joint_1..joint_n), ``position_min``/``position_max`` (rad per joint; default -+60 deg,
the snake's range, R3), ``rate`` (Hz, 50), ``watchdog_s`` (0.5), ``watchdog_action`` (hold |
torque_off), ``return_delay_us`` (-1 = leave), ``latency_timer_ms`` (1), ``auto_recover`` (true),
``torque_off_on_exit`` (true).
"""
from __future__ import annotations

import math

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.std_srvs.srv import Trigger

from .bridge_core import BridgeConfig, bus_model, open_core

SNAKE_LIMIT_RAD = math.radians(60.0)


class DynamixelBridge(rclpy.node.Node):
    def __init__(self, **kwargs) -> None:
        super().__init__('dynamixel_bridge', **kwargs)
        p = parameter_schema.load('dynamixel_bridge', 'bridge').declare(self)
        model = bus_model(int(p['protocol']), p['model'])
        ids = [int(i) for i in p['ids']]
        joints = [j for j in p['joints'] if j] or [f'joint_{i}' for i in range(1, len(ids) + 1)]
        n = len(ids)
        lo = _per_joint(p['position_min'], n, -SNAKE_LIMIT_RAD, 'position_min')
        hi = _per_joint(p['position_max'], n, SNAKE_LIMIT_RAD, 'position_max')
        self.torque_off_on_exit = bool(p['torque_off_on_exit'])
        self.core, lines = open_core(p['port'], int(p['baud']), model, ids, BridgeConfig(
            joints, lo, hi, watchdog_s=float(p['watchdog_s']),
            watchdog_action=p['watchdog_action'], return_delay_us=int(p['return_delay_us']),
            auto_recover=bool(p['auto_recover']),
            realtime_priority=int(p['realtime_priority'])), int(p['latency_timer_ms']))
        for line in lines:
            self.get_logger().info(line)
        self.joints = joints
        self._states = self.create_publisher(JointState, 'joint_states', 10)
        self._status = self.create_publisher(DiagnosticArray, 'dynamixel/status', 10)
        self.create_subscription(JointState, 'joint_targets', self._on_targets, 10)
        self.create_service(Trigger, 'dynamixel/reboot', self._on_reboot)
        self.create_timer(1.0 / float(p['rate']), self._cycle)

    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _on_targets(self, msg: JointState) -> None:
        problem = self.core.set_targets(list(msg.name), list(msg.position), self._now())
        if problem:
            self.get_logger().warning(f'joint_targets: {problem}', throttle_duration_sec=5.0)

    def _cycle(self) -> None:
        res = self.core.cycle(self._now())
        stamp = self.get_clock().now().to_msg()
        msg = JointState(name=list(self.joints), position=res.position, velocity=res.velocity,
                         effort=res.effort)
        msg.header.stamp = stamp
        self._states.publish(msg)
        for line in res.events:
            if line.startswith('bus thread at SCHED_FIFO'):
                self.get_logger().info(line)
            else:
                self.get_logger().warning(line)
        self._status.publish(self._diagnostics(stamp))

    def _diagnostics(self, stamp) -> DiagnosticArray:
        out = DiagnosticArray()
        out.header.stamp = stamp
        for h in self.core.health.servos.values():
            st = DiagnosticStatus(name=f'dynamixel/{h.joint}', hardware_id=f'id {h.servo_id}',
                                  level=DiagnosticStatus.OK if h.ok else DiagnosticStatus.ERROR,
                                  message='ok' if h.ok else f'{h.reason}: torque off')
            st.values = [KeyValue(key=k, value=str(v)) for k, v in (
                ('faults', h.faults), ('recoveries', h.recoveries),
                ('comm_errors', h.comm_errors))]
            out.status.append(st)
        return out

    def _on_reboot(self, request, response):
        response.success, response.message = self.core.reboot()
        self.get_logger().info(f'reboot: {response.message}')
        return response

    def robozoo_metrics(self) -> dict:
        return self.core.metrics()

    def destroy_node(self) -> None:
        core = getattr(self, 'core', None)
        if core is not None:
            core.shutdown(self.torque_off_on_exit)
            self.core = None
        super().destroy_node()


def _per_joint(values, n: int, default: float, name: str) -> list[float]:
    vals = [float(v) for v in values]
    if len(vals) == 1 and math.isnan(vals[0]):
        return [default] * n
    if len(vals) == 1:
        return vals * n
    if len(vals) != n:
        raise ValueError(f'{name}: {len(vals)} values for {n} joints')
    return vals


def main(args=None) -> None:
    spin_node(DynamixelBridge, args)
