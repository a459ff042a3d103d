"""Talker and listener: the smallest scenario that proves the wiring (topics, a service, parameters,
sim time) before any robot exists. Same node code under real rclpy and the embedded runtime."""
from __future__ import annotations

import math

from zoo_runtime import rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.std_msgs.msg import String
from zoo_runtime.interfaces.std_srvs.srv import Trigger
from zoo_runtime.interfaces.zoo_interfaces.msg import Counter

Node = rclpy.node.Node


class Talker(Node):
    """Publishes ``<message> <n>`` on ``chatter`` at ``rate`` Hz (sim time when use_sim_time)."""

    def __init__(self, **kwargs):
        super().__init__('talker', **kwargs)
        self.declare_parameter('rate', 10.0)
        self.declare_parameter('message', 'hello robozoo')
        rate = self._rate()
        if rate_problem(rate):  # 1/rate is the timer period: 0, inf or NaN has none
            self.destroy_node()
            raise rclpy.exceptions.InvalidParameterValueException('rate', rate,
                                                                  rate_problem(rate))
        self.sent = 0
        self._pub = self.create_publisher(String, 'chatter', 10)
        self._timer = self.create_timer(1.0 / rate, self._tick)
        self.add_on_set_parameters_callback(self._on_set)

    def _rate(self) -> float:
        return self.get_parameter('rate').value

    def _on_set(self, params):
        from zoo_runtime.interfaces.rcl_interfaces.msg import SetParametersResult
        for p in params:
            if p.name == 'rate' and rate_problem(p.value):
                return SetParametersResult(successful=False, reason=rate_problem(p.value))
        return SetParametersResult(successful=True)

    def _tick(self):
        msg = String(data=f"{self.get_parameter('message').value} {self.sent}")
        self._pub.publish(msg)
        self.sent += 1

    def robozoo_metrics(self) -> dict:
        return {'sent': self.sent}


def rate_problem(rate: float) -> str | None:
    """Why ``rate`` cannot be the talker's rate (None when it can)."""
    if not (math.isfinite(rate) and rate > 0.0):
        return f'expected a finite rate > 0 Hz, got {rate}'
    return None


class Listener(Node):
    """Counts ``chatter`` messages, republishes the count on ``count`` and resets it on the
    ``reset_count`` service (std_srvs/Trigger)."""

    def __init__(self, **kwargs):
        super().__init__('listener', **kwargs)
        self.received = 0
        self.last = ''
        self.create_subscription(String, 'chatter', self._on_chatter, 10)
        self._count_pub = self.create_publisher(Counter, 'count', 10)
        self.create_service(Trigger, 'reset_count', self._on_reset)

    def _on_chatter(self, msg: String):
        self.received += 1
        self.last = msg.data
        self._count_pub.publish(Counter(stamp=self.get_clock().now().to_msg(),
                                        count=self.received, last=msg.data))

    def _on_reset(self, request, response):
        response.success = True
        response.message = f'reset after {self.received} messages'
        self.received = 0
        return response

    def robozoo_metrics(self) -> dict:
        return {'received': self.received, 'last': self.last}


def talker_main(args=None):
    spin_node(Talker, args)


def listener_main(args=None):
    spin_node(Listener, args)
