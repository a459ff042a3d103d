"""The joint PID node: position targets in, velocity commands out, for a list of joints at once.

Topics (relative to the namespace): subscribes ``joint_targets`` and ``joint_states``
(sensor_msgs/JointState; targets may carry velocities for feed-forward) and ``robot_description``
(std_msgs/String, transient-local) for the joint limits; publishes ``<joint>/cmd_vel``
(std_msgs/Float64) or the grouped ``joint_commands`` (sensor_msgs/JointState with ``velocity``),
by ``command_interface``. Service ``~/reset`` (std_srvs/Empty) forgets targets, states and
controller memory, for reproducible runs after a simulation reset.

Parameters: params/pid.yaml (PARAMETERS.md); ``gains.<joint>.*`` and ``joint_limits.<joint>.*``
are settable at run time, checked together by params.py (min < max needs both).
"""
from __future__ import annotations

import math

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.interfaces.rcl_interfaces.msg import SetParametersResult
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.std_msgs.msg import Float64, String
from zoo_runtime.interfaces.std_srvs.srv import Empty

from .control_loop import DEFAULT_GAINS, DEFAULT_RATE_HZ, ControlLoop
from .joint_limits import KEYS as LIMIT_KEYS
from .joint_limits import JointLimits, limits_from_params, limits_from_urdf
from zoo_runtime.entry import spin_node
from zoo_runtime.tick_time import tick_time
from .params import GAIN_KEYS, ParameterError, parse_gains

Node = rclpy.node.Node
QoSProfile = rclpy.qos.QoSProfile
DurabilityPolicy = rclpy.qos.DurabilityPolicy

STARTUP_ONLY = ('joints', 'preset', 'command_interface', 'use_robot_description')


class JointPidController(Node):
    def __init__(self, **kwargs):
        super().__init__('joint_pid_controller', **kwargs)
        schema = parameter_schema.load('joint_pid_control', 'pid')
        p = schema.declare(self, skip=('rate',))  # rate: its default is the preset's
        self.joints, self.preset = list(p['joints']), p['preset']
        rate = schema.declare(self, 'rate', default=DEFAULT_RATE_HZ[self.preset])['rate']
        self._timeout, self.command_interface = p['watchdog_timeout'], p['command_interface']
        use_urdf = p['use_robot_description']
        for j in self.joints:  # defaults: control_loop.DEFAULT_GAINS, no limits (infinite)
            schema.declare(self, 'gains.<joint>', joint=j)
            schema.declare(self, 'joint_limits.<joint>', joint=j)
        self._gains = self._parse_gains({})
        self._param_limits = self._parse_limits({})
        self._urdf_limits: dict[str, JointLimits] | None = None
        self.loop: ControlLoop | None = None
        self.ticks = 0
        self.reports = {'clamped': 0, 'stopped': 0}

        self.create_subscription(JointState, 'joint_targets', self._on_targets, 10)
        self.create_subscription(JointState, 'joint_states', self._on_states, 10)
        if self.command_interface == 'grouped':
            self._grouped_pub = self.create_publisher(JointState, 'joint_commands', 10)
        else:
            self._joint_pubs = [self.create_publisher(Float64, f'{j}/cmd_vel', 10)
                                for j in self.joints]
        self.create_service(Empty, '~/reset', self._on_reset)
        if use_urdf and not self._all_limits_given():
            latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL)
            self.create_subscription(String, 'robot_description', self._on_description, latched)
            self.get_logger().info('waiting for robot_description for the joint limits')
        else:
            self._start_loop()
        self._timer = self.create_timer(1.0 / rate, self._tick)
        self.add_on_set_parameters_callback(self._validate_parameters)
        self.add_post_set_parameters_callback(self._apply_parameters)

    # -- parameters -------------------------------------------------------------------------
    def _current(self, prefix: str) -> dict:
        keys = GAIN_KEYS if prefix == 'gains' else LIMIT_KEYS
        names = [f'{prefix}.{j}.{k}' for j in self.joints for k in keys]
        return {p.name: p.value for p in self.get_parameters(names)}

    def _parse_gains(self, changes: dict):
        return parse_gains({**self._current('gains'), **changes}, self.joints,
                           {j: DEFAULT_GAINS for j in self.joints})

    def _parse_limits(self, changes: dict) -> dict[str, JointLimits]:
        merged = {**self._current('joint_limits'), **changes}
        given = {k: v for k, v in merged.items() if math.isfinite(v)}
        return limits_from_params(given, self.joints)

    def _all_limits_given(self) -> bool:
        return all(j in self._param_limits and all(
            math.isfinite(getattr(self._param_limits[j], k)) for k in LIMIT_KEYS)
            for j in self.joints)

    def _validate_parameters(self, params) -> SetParametersResult:
        changes = {p.name: p.value for p in params}
        try:
            for name, value in changes.items():
                if name in STARTUP_ONLY:
                    raise ParameterError(f'{name}: set at start-up only')
            if any(n.startswith('gains.') for n in changes):
                if self.preset == 'thesis':
                    raise ParameterError("gains: preset 'thesis' runs the seed's fixed law")
                gains = self._parse_gains(changes)
                if self.loop is not None:
                    self.loop.effective_gains([gains[j] for j in self.joints])
            if any(n.startswith('joint_limits.') for n in changes):
                self._parse_limits(changes)
        except ParameterError as e:
            return SetParametersResult(successful=False, reason=str(e))
        return SetParametersResult(successful=True)

    def _apply_parameters(self, params) -> None:
        names = {p.name for p in params}
        if any(n.startswith('gains.') for n in names):
            self._gains = self._parse_gains({})
            if self.loop is not None:
                self.loop.set_gains([self._gains[j] for j in self.joints])
        if any(n.startswith('joint_limits.') for n in names):
            self._param_limits = self._parse_limits({})
            if self.loop is not None:
                self.loop.set_limits(self._limits())
        if 'watchdog_timeout' in names:
            self._timeout = self.get_parameter('watchdog_timeout').value
            if self.loop is not None:
                self.loop.watchdog.timeout = self._timeout
        if 'rate' in names:
            self._timer.cancel()
            self.destroy_timer(self._timer)
            self._timer = self.create_timer(1.0 / self.get_parameter('rate').value, self._tick)

    # -- limits -----------------------------------------------------------------------------
    def _limits(self) -> list[JointLimits]:
        """Per joint and key: the parameter when given (finite), else the URDF's, else none."""
        out = []
        for j in self.joints:
            given = self._param_limits.get(j, JointLimits())
            urdf = (self._urdf_limits or {}).get(j, JointLimits())
            out.append(JointLimits(**{
                k: getattr(given, k) if math.isfinite(getattr(given, k)) else getattr(urdf, k)
                for k in LIMIT_KEYS}).validated(f'joint_limits.{j}'))
        return out

    def _start_loop(self) -> None:
        self.loop = ControlLoop(self.joints, self.preset, [self._gains[j] for j in self.joints],
                                self._limits(), self._timeout)

    def _on_description(self, msg: String) -> None:
        try:
            self._urdf_limits = limits_from_urdf(msg.data, self.joints)
            limits = self._limits()
        except ParameterError as e:
            self.get_logger().error(str(e))
            return
        if self.loop is None:
            self._start_loop()
            self.get_logger().info(f'joint limits from robot_description; controlling '
                                   f'{len(self.joints)} joints at '
                                   f'{self.get_parameter("rate").value:g} Hz')
        else:
            self.loop.set_limits(limits)

    # -- inputs and tick --------------------------------------------------------------------
    def _now_ns(self) -> int:
        return self.get_clock().now().nanoseconds

    def _on_targets(self, msg: JointState) -> None:
        if self.loop is None:
            return
        try:
            self.loop.on_targets(msg.name, msg.position, msg.velocity, self._now_ns())
        except ValueError as e:
            self.get_logger().warning(f'joint_targets ignored: {e}', throttle_duration_sec=5.0)

    def _on_states(self, msg: JointState) -> None:
        if self.loop is None:
            return
        try:
            self.loop.on_states(msg.name, msg.position, self._now_ns())
        except ValueError as e:
            self.get_logger().warning(f'joint_states ignored: {e}', throttle_duration_sec=5.0)

    def _on_reset(self, request, response):
        if self.loop is not None:
            self.loop.reset()
        return response

    def _tick(self) -> None:
        if self.loop is None:
            return
        now = tick_time(self._timer)  # late on a loaded machine, it still computes for its tick
        cmd, clamped, silent, back = self.loop.tick(now.nanoseconds)
        self.ticks += 1
        log = self.get_logger()
        action = 'velocity 0 (thesis preset)' if self.preset == 'thesis' else 'clamped'
        for j in clamped:
            k = self.loop.index[j]
            lim = self.loop.limits[k]
            log.warning(f'target {self.loop.target[k]:.4f} rad for {j} is at or beyond its '
                        f'limits [{lim.lower:.4f}, {lim.upper:.4f}]: {action}')
        if silent:
            log.warning(f'no target or state for {self._timeout:g} s, stopped: '
                        f'{", ".join(silent)}')
        if back:
            log.info(f'controlling {", ".join(back)}')
        self.reports['clamped'] += len(clamped)
        self.reports['stopped'] += len(silent)
        if self.command_interface == 'grouped':
            msg = JointState(name=self.joints, velocity=cmd.tolist())
            msg.header.stamp = now.to_msg()
            self._grouped_pub.publish(msg)
        else:
            for pub, c in zip(self._joint_pubs, cmd.tolist()):
                pub.publish(Float64(data=c))

    def robozoo_metrics(self) -> dict:
        return {'ticks': self.ticks, 'clamped_targets': self.reports['clamped'],
                'watchdog_stops': self.reports['stopped']}


def main(args=None):
    spin_node(JointPidController, args)
