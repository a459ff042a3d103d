"""Runs every validation protocol of the thesis (specs/robobo.md 6) on the simulated Robobo
through its ROS interface, measuring on ground truth (odometry, joint states, IR topics), and
reports the tables in summary.json (``robozoo_metrics``: wheels, pan, tilt, ir_front_c,
ir_front_l, and ``real_robot``: every calibrated cell against the real robot's value, issue 28)
and plots (``robozoo_write_outputs``). Scenario: ``robobo_calibration``.
"""
from __future__ import annotations

import math
from pathlib import Path

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.geometry_msgs.msg import Point, Pose, Quaternion
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.robobo_msgs.srv import MovePanTilt, MoveWheels
from zoo_runtime.interfaces.sensor_msgs.msg import JointState, Range
from zoo_runtime.interfaces.std_msgs.msg import Int8, Int16, Int32
from zoo_runtime.interfaces.zoo_interfaces.srv import SetModelPose

from . import calibration_protocols as proto, real_robot

SETTLE_S = 0.5


class Calibration(rclpy.node.Node):
    def __init__(self, **kwargs):
        super().__init__('calibration', **kwargs)
        self.robot = parameter_schema.load('robobo_api', 'calibration').declare(self)['robot']
        ns = f'/{self.robot}'
        self.tables: dict[str, list[dict]] = {}
        self.done = False
        self.pose = None
        self.q: dict[str, float] = {}
        self.ir: dict[str, float] = {}
        self.create_subscription(Odometry, f'{ns}/odometry/ground_truth', self._on_odom, 10)
        self.create_subscription(JointState, f'{ns}/joint_states', self._on_joints, 10)
        for s in ('front_c', 'front_l'):
            self.create_subscription(Range, f'{ns}/{s}',
                                     lambda m, s=s: self.ir.__setitem__(s, m.range), 10)
        # The protocol coroutine holds its timer's group until it ends (rclpy executors), so
        # it, the clients and the sleeps it awaits share a reentrant group of their own; the
        # subscriptions that resolve its waits stay in the default group.
        self._cb = rclpy.callback_groups.ReentrantCallbackGroup()
        self.wheels = self.create_client(MoveWheels, f'{ns}/moveWheels', callback_group=self._cb)
        self.pan_tilt = self.create_client(MovePanTilt, f'{ns}/movePanTilt',
                                           callback_group=self._cb)
        self.set_pose = self.create_client(SetModelPose, '/sim/set_pose', callback_group=self._cb)
        self._waits: list = []
        self._start = self.create_timer(0.1, self._begin, callback_group=self._cb)

    # -- helpers ----------------------------------------------------------------------------
    def now_s(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _on_odom(self, msg: Odometry) -> None:
        self.pose = msg.pose.pose

    def _on_joints(self, msg: JointState) -> None:
        self.q = dict(zip(msg.name, msg.position))
        stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        for wait in list(self._waits):
            joint, target, future = wait
            if abs(math.degrees(self.q[joint]) - target) <= proto.REACHED_DEG:
                self._waits.remove(wait)
                future.set_result(stamp)

    def sleep(self, seconds: float):
        future = rclpy.task.Future()

        def wake():
            self.destroy_timer(timer)
            future.set_result(None)
        timer = self.create_timer(seconds, wake, callback_group=self._cb)
        return future

    async def teleport(self, x: float, y: float, yaw: float) -> None:
        req = SetModelPose.Request(name=self.robot, pose=Pose(
            position=Point(x=x, y=y, z=0.03225),
            orientation=Quaternion(w=math.cos(yaw / 2), z=math.sin(yaw / 2))))
        resp = await self.set_pose.call_async(req)
        if not resp.success:
            raise RuntimeError(f'calibration: /sim/set_pose failed: {resp.message}')
        await self.sleep(SETTLE_S)

    async def pan_tilt_to(self, pan: int, tilt: int, speed: int = 100) -> None:
        await self.pan_tilt.call_async(MovePanTilt.Request(
            panpos=Int16(data=pan), panspeed=Int8(data=speed), tiltpos=Int16(data=tilt),
            tiltspeed=Int8(data=speed)))

    # -- protocols --------------------------------------------------------------------------
    async def _begin(self) -> None:  # rclpy awaits only coroutine functions' coroutines
        self.destroy_timer(self._start)
        await self._run()

    async def _run(self) -> None:
        await self.sleep(SETTLE_S)
        await self._wheels()
        await self._pan_tilt('pan', 'pan_motor', proto.PAN_MOVES, fixed=70)
        await self._pan_tilt('tilt', 'tilt_motor', proto.TILT_MOVES, fixed=180)
        for sensor in ('front_c', 'front_l'):
            await self._ir(sensor)
        self.done = True
        self.get_logger().info('calibration: every protocol done')

    async def _wheels(self) -> None:
        rows = []
        for p, t in proto.WHEEL_CASES:
            await self.teleport(0.0, 0.0, 0.0)
            start = self.pose
            await self.wheels.call_async(MoveWheels.Request(
                lspeed=Int8(data=p), rspeed=Int8(data=p), time=Int32(data=int(t * 1000))))
            await self.sleep(t + SETTLE_S)
            end = self.pose
            dist = math.hypot(end.position.x - start.position.x,
                              end.position.y - start.position.y)
            rows.append({'P': p, 't_s': t, 'distance_cm': round(dist * 100, 3),
                         'heading_change_deg': round(math.degrees(abs(
                             _yaw(end.orientation) - _yaw(start.orientation))), 3)})
        self.tables['wheels'] = rows

    async def _pan_tilt(self, name: str, joint: str, moves: dict, fixed: int) -> None:
        rows = []
        for speed in proto.PAN_TILT_SPEEDS:
            for degrees in proto.PAN_TILT_DEGREES:
                start, target = moves[degrees]
                await self.pan_tilt_to(start if name == 'pan' else fixed,
                                       start if name == 'tilt' else fixed)
                await self.sleep(0.2)
                future = rclpy.task.Future()
                self._waits.append((joint, target, future))
                t0 = self.now_s()
                req = MovePanTilt.Request(
                    panpos=Int16(data=target if name == 'pan' else fixed),
                    panspeed=Int8(data=speed if name == 'pan' else -1),
                    tiltpos=Int16(data=target if name == 'tilt' else fixed),
                    tiltspeed=Int8(data=speed if name == 'tilt' else -1))
                await self.pan_tilt.call_async(req)
                reached = await future
                rows.append({'speed': speed, 'degrees': degrees,
                             'time_s': round(reached - t0, 3)})
        self.tables[name] = rows
        await self.pan_tilt_to(180, 70)

    async def _ir(self, sensor: str) -> None:
        rows = []
        for d_cm in proto.IR_DISTANCES_CM:
            await self.teleport(*proto.robot_pose_for_ir(sensor, d_cm / 100))
            await self.sleep(0.2)  # two IR updates (10 Hz) after settling
            rows.append({'distance_cm': d_cm, 'value': round(float(self.ir[sensor]), 4)})
        self.tables[f'ir_{sensor}'] = rows

    # -- reports ----------------------------------------------------------------------------
    def robozoo_metrics(self) -> dict:
        return {'complete': self.done, **self.tables,
                'real_robot': real_robot.compare(self.tables)}

    def robozoo_write_outputs(self, folder: Path) -> list[Path]:
        from .calibration_plots import plot_tables
        return plot_tables(self.tables, Path(folder))


def _yaw(q) -> float:
    return math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))


def main(args=None) -> None:
    spin_node(Calibration, args)
