"""Talker and listener: the smallest scenario that proves the wiring (topics, a service, parameters,
sim time) before any robot exists. Same node code under real rclpy and the embedded runtime."""
from __future__ import annotations

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.std_msgs.msg import String
from zoo_runtime.interfaces.std_srvs.srv import Trigger
from zoo_runtime.interfaces.zoo_interfaces.msg import Counter

Node = rclpy.node.Node


class Talker(Node):
    """Publishes ``<message> <n>`` on ``chatter`` at ``rate`` Hz (sim time when use_sim_time)."""

    def __init__(self, **kwargs):
        super().__init__('talker', **kwargs)
        try:  # the schema refuses a rate with no timer period (0, inf, NaN), also when set later
            rate = parameter_schema.load('zoo_bringup', 'talker').declare(self)['rate']
        except parameter_schema.ParameterSchemaError:
            self.destroy_node()
            raise
        self.sent = 0
        self._pub = self.create_publisher(String, 'chatter', 10)
        self._timer = self.create_timer(1.0 / rate, self._tick)

    def _tick(self):
        msg = String(data=f"{self.get_parameter('message').value} {self.sent}")
        self._pub.publish(msg)
        self.sent += 1

    def robozoo_metrics(self) -> dict:
        return {'sent': self.sent}


class Listener(Node):
    """Counts ``chatter`` messages, republishes the count on ``count`` and resets it on the
    ``reset_count`` service (std_srvs/Trigger)."""

    def __init__(self, **kwargs):
        super().__init__('listener', **kwargs)
        parameter_schema.load('zoo_bringup', 'listener').declare(self)
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
