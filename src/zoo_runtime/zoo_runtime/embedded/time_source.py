"""rclpy.time_source: drives ROS clocks from /clock while ``use_sim_time`` is true."""
from __future__ import annotations

from ._msgs import message
from .clock import ROSClock
from .qos import QoSProfile, ReliabilityPolicy

__all__ = ['TimeSource', 'CLOCK_TOPIC', 'USE_SIM_TIME_NAME']

CLOCK_TOPIC = '/clock'
USE_SIM_TIME_NAME = 'use_sim_time'


class TimeSource:
    def __init__(self, *, node=None):
        self._clocks: list[ROSClock] = []
        self._node = None
        self._subscription = None
        self._active = False
        self._last_ns: int | None = None
        if node is not None:
            self.attach_node(node)

    @property
    def ros_time_is_active(self) -> bool:
        return self._active

    @ros_time_is_active.setter
    def ros_time_is_active(self, enabled: bool) -> None:
        enabled = bool(enabled)
        if enabled == self._active:
            return
        self._active = enabled
        for clock in self._clocks:
            clock._set_ros_time_is_active(enabled)
        if enabled:
            self._subscribe()
        elif self._subscription is not None and self._node is not None:
            self._node.destroy_subscription(self._subscription)
            self._subscription = None

    def _subscribe(self) -> None:
        if self._node is not None and self._subscription is None:
            self._subscription = self._node.create_subscription(
                message('rosgraph_msgs/msg/Clock'), CLOCK_TOPIC, self.clock_callback,
                QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))

    def attach_node(self, node) -> None:
        from .parameter import Parameter
        if self._node is not None:
            self.detach_node()
        self._node = node
        if not node.has_parameter(USE_SIM_TIME_NAME):
            node.declare_parameter(USE_SIM_TIME_NAME, False)
        param = node.get_parameter(USE_SIM_TIME_NAME)
        if param.type_ == Parameter.Type.BOOL:
            self.ros_time_is_active = param.value
        elif param.type_ != Parameter.Type.NOT_SET:
            node.get_logger().error(f"Invalid type for parameter '{USE_SIM_TIME_NAME}' "
                                    f'{param.type_!r} should be bool')
        if self._active:
            self._subscribe()
        node.add_post_set_parameters_callback(self._on_parameters_set)

    def detach_node(self) -> None:
        if self._node is None:
            return
        if self._subscription is not None:
            self._node.destroy_subscription(self._subscription)
            self._subscription = None
        self._node.remove_post_set_parameters_callback(self._on_parameters_set)
        self._node = None

    def attach_clock(self, clock: ROSClock) -> None:
        if not isinstance(clock, ROSClock):
            raise ValueError('TimeSource.attach_clock: only a ROSClock can be attached')
        if self._last_ns is not None:
            clock._set_override_ns(self._last_ns)
        clock._set_ros_time_is_active(self._active)
        self._clocks.append(clock)

    def clock_callback(self, msg) -> None:
        self._set_time_ns(msg.clock.sec * 1_000_000_000 + msg.clock.nanosec)

    def _set_time_ns(self, ns: int) -> None:
        """What a /clock message of time ``ns`` does (the lockstep executor calls it directly for
        the nodes it spins)."""
        self._last_ns = ns
        for clock in self._clocks:
            clock._set_override_ns(ns)

    def _on_parameters_set(self, parameters) -> None:
        from .parameter import Parameter
        for param in parameters:
            if param.name == USE_SIM_TIME_NAME and param.type_ == Parameter.Type.BOOL:
                self.ros_time_is_active = param.value

    def destroy(self) -> None:
        self.detach_node()
        self._clocks.clear()
