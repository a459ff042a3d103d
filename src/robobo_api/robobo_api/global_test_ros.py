"""Example program: the global test (R22) against the real Robobo's ROS interface only -
``/<robot>/irs``, ``/<robot>/blob``, the ``moveWheels`` and ``movePanTilt`` services and
``unlock/move`` - with the same decisions as the robobopy example
(robobo_api.global_test_logic). Runs as node ``global_test`` (scenario ``robobo_global_test``)
or ``ros2 run robobo_api global_test --ros-args -p robot:=robobo``.

One decision every ``period`` seconds (0.1: robobopy's blocking calls poll at this rate too); a
``turn`` is a timed moveWheels whose end is its ``unlock/move``.
"""
from __future__ import annotations

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.robobo_msgs.msg import Blob, IRs
from zoo_runtime.interfaces.robobo_msgs.srv import MovePanTilt, MoveWheels
from zoo_runtime.interfaces.std_msgs.msg import Int8, Int16, Int32

from .global_test_logic import Action, GlobalTest

IR_NAMES = {'frontc': 'Front-C', 'frontr': 'Front-R', 'frontrr': 'Front-RR', 'frontl': 'Front-L',
            'frontll': 'Front-LL', 'backc': 'Back-C', 'backr': 'Back-R', 'backl': 'Back-L'}
FOREVER_MS = 100_000_000  # robobopy's moveWheels: 100000 s, i.e. until the next command
TURN_UNLOCK_ID = 7


class GlobalTestRos(rclpy.node.Node):
    def __init__(self, **kwargs):
        super().__init__('global_test', **kwargs)
        p = parameter_schema.load('robobo_api', 'global_test').declare(self)
        robot, period = p['robot'], p['period']
        ns = f'/{robot}'
        self.logic = GlobalTest()
        self.irs: dict[str, float] = {}
        self.blob = (0.0, 0.0, 0)
        self.last: Action | None = None
        self.turning = False
        self.ready = False
        self.done_at: float | None = None
        self.wheels = self.create_client(MoveWheels, f'{ns}/moveWheels')
        self.pan_tilt = self.create_client(MovePanTilt, f'{ns}/movePanTilt')
        self.create_subscription(IRs, f'{ns}/irs', self._on_irs, 10)
        self.create_subscription(Blob, f'{ns}/blob', self._on_blob, 10)
        self.create_subscription(Int16, f'{ns}/unlock/move', self._on_unlock, 10)
        self.create_timer(period, self._tick)
        self._pose_phone = None
        self._pose_phone_if_served()

    def _pose_phone_if_served(self) -> None:
        """The phone forward and at the power-on tilt, as the robobopy example does, once the
        service is there: under ROS robobo_api is another process, and a request sent before
        the service is discovered is lost (the robot then never started)."""
        if self._pose_phone is not None or not self.pan_tilt.service_is_ready():
            return
        self._pose_phone = self.pan_tilt.call_async(MovePanTilt.Request(
            panpos=Int16(data=180), panspeed=Int8(data=30), tiltpos=Int16(data=70),
            tiltspeed=Int8(data=30)))
        self._pose_phone.add_done_callback(lambda _f: setattr(self, 'ready', True))

    def _on_irs(self, m: IRs) -> None:
        self.irs = {name: getattr(m, field).range for field, name in IR_NAMES.items()}

    def _on_blob(self, m: Blob) -> None:
        if m.color.data == 'green':
            self.blob = (m.center.x, m.center.y, m.size.data)

    def _on_unlock(self, m: Int16) -> None:
        if m.data == TURN_UNLOCK_ID:
            self.turning = False

    def _move(self, lspeed: int, rspeed: int, time_ms: int, unlock_id: int = 0) -> None:
        self.wheels.call_async(MoveWheels.Request(
            lspeed=Int8(data=lspeed), rspeed=Int8(data=rspeed), time=Int32(data=time_ms),
            unlockid=Int16(data=unlock_id)))

    def _tick(self) -> None:
        self._pose_phone_if_served()
        if not self.ready or self.turning or self.logic.done or not self.irs:
            return
        now = self.get_clock().now().nanoseconds * 1e-9
        action = self.logic.step(now, self.irs, self.blob)
        if action.kind == 'turn':
            self.turning = True
            self._move(action.lspeed, action.rspeed, int(action.seconds * 1000), TURN_UNLOCK_ID)
        elif action.kind == 'stop':
            self._move(0, 0, 1000)  # robobopy's stopMotors: speed 0 for 1 s
            self.done_at = now
            self.get_logger().info(f'stopped in front of the ball at t = {now:.1f} s')
        elif action != self.last:
            self._move(action.lspeed, action.rspeed, FOREVER_MS)
        self.last = action

    def robozoo_metrics(self) -> dict:
        return {'done': self.logic.done, 'done_at_s': self.done_at, 'mode': self.logic.mode,
                'wall_turns': self.logic.wall_turns}



def main(args=None) -> None:
    spin_node(GlobalTestRos, args)
