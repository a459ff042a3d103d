"""ROS shell between the emulated bus and the simulated robot: goals written on the bus go out on
``/<robot>/joint_targets`` (sensor_msgs/JointState, radians), torque enable and the speed and
torque limits on ``/<robot>/servo_settings`` (zoo_interfaces/ServoSettings; sent again every
SETTINGS_REPEAT_S, so a simulator that subscribes late still gets them), ``/<robot>/joint_states``
fills the servos' present position, velocity and load. Runs in the scenario's executor (sim time).

``watch(pty)``: the link's timer also checks the bus thread; if it died, the run stops with its
one line (RunStopped in the embedded world: the run's CLI reports it and exits non-zero; under
real ROS the line is logged as an error and the process exits 1)."""
from __future__ import annotations

from zoo_runtime import EMBEDDED, rclpy
from zoo_runtime.interfaces.sensor_msgs.msg import JointState
from zoo_runtime.interfaces.zoo_interfaces.msg import ServoSettings

from .plants import JointsPlant

PUBLISH_PERIOD_S = 0.01  # goals reach the topic within 10 ms; the AX-12 model takes them at 10 Hz
SETTINGS_REPEAT_S = 1.0


class SimLink(rclpy.node.Node):
    def __init__(self, plant: JointsPlant | None, robot: str | None,
                 node_name: str = 'dxl_emulator_link', **kwargs) -> None:
        super().__init__(node_name, **kwargs)
        self._watched = None
        if plant is not None:
            self.link(plant, robot)

    def watch(self, pty) -> None:
        """Stop the run when ``pty``'s bus thread dies (checked every PUBLISH_PERIOD_S)."""
        self._watched = pty

    def link(self, plant: JointsPlant, robot: str) -> None:
        """Take the robot's joint states into the plant, its goals out on joint_targets."""
        self.plant = plant
        self._sent = -1
        self.states_seen = 0
        self.create_subscription(JointState, f'/{robot}/joint_states', self._on_states, 10)
        self._pub = self.create_publisher(JointState, f'/{robot}/joint_targets', 10)
        self._settings_pub = self.create_publisher(ServoSettings, f'/{robot}/servo_settings', 10)
        self._settings_sent = (-1, 0)  # (version, nanoseconds) of the last settings sent
        self.create_timer(PUBLISH_PERIOD_S, self._publish_goals)

    def _on_states(self, msg: JointState) -> None:
        self.states_seen += 1
        stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        self.plant.update_states(msg.name, msg.position, msg.velocity, msg.effort, stamp)

    def _publish_goals(self) -> None:
        pty = self._watched
        if pty is not None and pty.died.is_set():
            self._watched = None
            line = f'{self.get_name()}: {pty.bus_error}'
            if EMBEDDED:
                from zoo_runtime.embedded.exceptions import RunStopped
                raise RunStopped(line)
            self.get_logger().error(line)
            raise SystemExit(1)
        self._publish_settings()  # first: a torque-on and its goal reach the simulator in order
        version, goals = self.plant.goals()
        if version == self._sent or not goals:
            return
        self._sent = version
        msg = JointState(name=list(goals), position=[float(v) for v in goals.values()])
        msg.header.stamp = self.get_clock().now().to_msg()
        self._pub.publish(msg)

    def _publish_settings(self) -> None:
        version, settings = self.plant.settings()
        now = self.get_clock().now()
        sent, at = self._settings_sent
        if not settings or (version == sent and now.nanoseconds - at < SETTINGS_REPEAT_S * 1e9):
            return
        self._settings_sent = (version, now.nanoseconds)
        on, speed, torque = zip(*settings.values())
        msg = ServoSettings(name=list(settings), torque_enable=[bool(v) for v in on],
                            speed_limit=[float(v) for v in speed],
                            torque_limit=[float(v) for v in torque])
        msg.header.stamp = now.to_msg()
        self._settings_pub.publish(msg)
