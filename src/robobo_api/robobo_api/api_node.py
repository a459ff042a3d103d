"""The Robobo's ROS interface on the simulator (specs/robobo.md 7.1, R8-R16, R26): a thin shell
mapping the real robot's services and topics onto the simulator's joint motors and sensors.

Names are relative to the node's namespace (default ``/<robot>``, spec 10 #14), the simulator's
topics are ``/<robot>/...``:

- services ``moveWheels`` (returns at once; ``unlock/move`` carries the unlock id when the move
  ends), ``movePanTilt`` (returns when the motion is over; pan then tilt, or both together with
  ``simultaneous_pan_tilt``), ``resetWheels``, ``api_reset`` (std_srvs/Empty: forget moves and
  encoder offsets after ``/sim/reset``); topic twins ``moveWheels``, ``movePanTilt``,
  ``resetWheelsCommand``; ``setSensorFrequency`` (robobo_msgs, 0 LOW ... 3 MAX: the base's status
  period, so the period of ``wheels``, ``pan``, ``tilt``, robobo_api.status_rates); ``setLed``, ``setEmotion``, ``playSound``, ``talk`` (robobo_msgs, checked
  by robobo_api.effects), which publish what they did on ``leds``, ``emotion``, ``sound``, ``speech``;
- topics ``wheels`` (robobo_msgs/Wheels: cumulative degrees, deg/s), ``pan`` and ``tilt``
  (std_msgs/Int16, degrees), ``irs`` (robobo_msgs/IRs, once all 8 sensors reported, then on
  every sensor update), ``accel``, ``orientation``, ``orientation_euler`` (MINT, R26: the
  phone's, robobo_api.phone_sensors), ``battery/base``, ``battery/phone`` (Int32 percent),
  ``camera/image``, ``camera/image/compressed`` (JPEG), ``camera/camera_info``, ``blob``
  (robobo_msgs/Blob, colours set by ``setBlobCommand``; robobo_api.color_blobs). The 8 IR
  ``Range`` topics come straight from the simulator's IR plug-ins (zoo_sim.ir_sensor).

Everything runs on sim time: pan/tilt control and moves by degrees run on each
``joint_states`` message (100 Hz by default), a timed move ends on a one-shot sim timer. Every
``COMMAND_PERIOD_S`` a timer steps the wheel motor and commands all four joints in one message
stamped with its time: a periodic stamped source, so under real ROS the simulator waits for it
(zoo_sim.command_sync) and each command acts at the instant it was computed for, however late
this process runs (under load a timed move turned 301-341 deg for 318 before).
"""
from __future__ import annotations

import io
import math

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.tick_time import tick_time
from zoo_runtime.interfaces.geometry_msgs.msg import Accel, Quaternion, Vector3
from zoo_runtime.interfaces.opencv_apps.msg import Point2D
from zoo_runtime.interfaces.robobo_msgs.msg import (Blob, IRs, MovePanTiltCommand,
                                                    MoveWheelsCommand, OrientationEuler,
                                                    ResetWheelsCommand, SetBlobCommand, Wheels)
from zoo_runtime.interfaces.robobo_msgs.msg import Led
from zoo_runtime.interfaces.robobo_msgs.srv import (MovePanTilt, MoveWheels, PlaySound,
                                                    ResetWheels, SetEmotion, SetLed,
                                                    SetSensorFrequency, Talk)
from zoo_runtime.interfaces.sensor_msgs.msg import (CameraInfo, CompressedImage, Image, Imu,
                                                    JointState, Range)
from zoo_runtime.interfaces.std_msgs.msg import ColorRGBA, Float64, Int16, Int32, Int64, String
from zoo_runtime.interfaces.std_srvs.srv import Empty
from zoo_runtime.interfaces.zoo_interfaces.srv import MoveWheelsByDegrees

from . import commands, effects
from .axis_mover import AxisMover
from .color_blobs import BlobTracker
from .motor_laws import (PAN_PRESETS, TILT_PRESETS, WHEEL_PRESETS, WheelMotor, preset,
                         wheel_degrees_omega, wheel_omega)
from .phone_sensors import battery_level, phone_acceleration, phone_orientation
from .status_rates import LEVELS, RATES

IR_FIELDS = {'front_c': 'frontc', 'front_r': 'frontr', 'front_rr': 'frontrr', 'front_l': 'frontl',
             'front_ll': 'frontll', 'back_c': 'backc', 'back_r': 'backr', 'back_l': 'backl'}
JOINTS = ('left_motor', 'right_motor', 'pan_motor', 'tilt_motor')
COMMAND_PERIOD_S = 0.002  # the periodic command: the wheel motor's steps


class RoboboApi(rclpy.node.Node):
    def __init__(self, **kwargs):
        super().__init__('robobo_api', **kwargs)
        p = parameter_schema.load('robobo_api', 'robobo_api').declare(self)
        self.robot = robot = p['robot']
        self.wheel_coeffs = preset(WHEEL_PRESETS, p['wheel_preset'], 'wheel')
        self.pan = AxisMover(preset(PAN_PRESETS, p['pan_preset'], 'pan'))
        self.tilt = AxisMover(preset(TILT_PRESETS, p['tilt_preset'], 'tilt'))
        self.params = p
        self.q = [0.0] * 4            # joint angles (rad), JOINTS order
        self.dq = [0.0] * 4
        self.have_state = False
        self.wheel_offset = [0.0, 0.0]  # deg, resetWheels
        self._last_stamp = None
        self._dt = 0.01
        self._wheel_timer = None
        self._wheel_end_s = 0.0       # sim time the running timed move is due to end
        self._wheel_unlock = 0
        self._velocity = [0.0] * 4    # rad/s, the command each joint holds (JOINTS order)
        # the first-order motor (motor_laws.WheelMotor, issue 28's default); None: the law's step
        tau = p['wheel_time_constant']  # >= 0, finite: params/robobo_api.yaml
        self._wheel_motor = WheelMotor(tau) if tau > 0 else None
        self._wheel_ramping = False   # the motor has not settled: stepped each command period
        self._waiters: dict[str, rclpy.task.Future] = {}
        self.irs: dict[str, Range] = {}
        self._imu: Imu | None = None
        self._last_frame_s = -math.inf

        self.cmd = self.create_publisher(JointState, f'/{robot}/joint_commands', 10)
        self.create_subscription(JointState, f'/{robot}/joint_states', self._on_joints, 10)
        self.wheels_pub = self.create_publisher(Wheels, 'wheels', 10)
        self.pan_pub = self.create_publisher(Int16, 'pan', 10)
        self.tilt_pub = self.create_publisher(Int16, 'tilt', 10)
        self.unlock_pub = self.create_publisher(Int16, 'unlock/move', 10)
        self.irs_pub = self.create_publisher(IRs, 'irs', 10)
        for sensor in IR_FIELDS:
            self.create_subscription(Range, f'/{robot}/{sensor}',
                                     lambda msg, s=sensor: self._on_ir(s, msg), 10)
        self.create_service(MoveWheels, 'moveWheels', self._on_move_wheels)
        # The service answers when the move ends: its coroutine awaits the move while the
        # joint_states callback ends it. rclpy holds a mutually exclusive group until the
        # coroutine ends, so in the default group no other callback of this node would run (no
        # response, no topic ever again): this service gets a reentrant one.
        self.create_service(MovePanTilt, 'movePanTilt', self._on_move_pan_tilt,
                            callback_group=rclpy.callback_groups.ReentrantCallbackGroup())
        self.create_service(ResetWheels, 'resetWheels', self._on_reset_wheels)
        self.create_service(MoveWheelsByDegrees, 'moveWheelsByDegrees', self._on_wheels_by_degrees)
        self._by_degrees: dict[int, AxisMover] = {}  # wheel joint -> its move by degrees
        self._by_degrees_unlock = 0
        self.create_service(Empty, 'api_reset', self._on_api_reset)
        self.create_subscription(MoveWheelsCommand, 'moveWheels', self._on_move_wheels_topic, 10)
        self.create_subscription(MovePanTiltCommand, 'movePanTilt', self._on_pan_tilt_topic, 10)
        self.create_subscription(ResetWheelsCommand, 'resetWheelsCommand',
                                 lambda _msg: self.reset_wheels(), 10)
        self._effects()
        self._command_timer = self.create_timer(COMMAND_PERIOD_S, self._on_command_period)
        self._state_timer = None
        if p['state_rate'] > 0:
            self._state_timer = self.create_timer(1.0 / p['state_rate'], self._publish_state)
        self.create_service(SetSensorFrequency, 'setSensorFrequency', self._on_frequency)
        if p['imu_rate'] > 0:
            self.accel_pub = self.create_publisher(Accel, 'accel', 10)
            self.orient_pub = self.create_publisher(Quaternion, 'orientation', 10)
            self.euler_pub = self.create_publisher(OrientationEuler, 'orientation_euler', 10)
            self.battery_pubs = {d: self.create_publisher(Int32, f'battery/{d}', 10)
                                 for d in ('base', 'phone')}
            self._start_s = None
            self.create_subscription(Imu, f'/{robot}/imu', self._on_imu, 10)
            self.create_timer(1.0 / p['imu_rate'], self._publish_imu)
        if p['camera_rate'] > 0:
            self.image_pub = self.create_publisher(Image, 'camera/image', 10)
            self.jpeg_pub = self.create_publisher(CompressedImage, 'camera/image/compressed', 10)
            self.info_pub = self.create_publisher(CameraInfo, 'camera/camera_info', 10)
            self.create_subscription(Image, f'/{robot}/camera', self._on_image, 1)
            self.blobs = BlobTracker((), p['blob_min_area'], p['blob_lost_frames'])
            try:
                self.blobs.set_colors(p['blob_colors'])
            except ValueError as exc:
                raise ValueError(f'parameter blob_colors: {exc}') from None
            self.blob_pub = self.create_publisher(Blob, 'blob', 10)
            self.create_subscription(SetBlobCommand, 'setBlobCommand', self._on_set_blob, 10)

    # -- state ------------------------------------------------------------------------------
    def now_s(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def degrees(self, joint: int) -> float:
        return math.degrees(self.q[joint])

    def _on_joints(self, msg: JointState) -> None:
        index = {n: i for i, n in enumerate(msg.name)}
        for i, joint in enumerate(JOINTS):
            k = index.get(joint)
            if k is not None:
                self.q[i], self.dq[i] = float(msg.position[k]), float(msg.velocity[k])
        stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        if self._last_stamp is not None and stamp > self._last_stamp:
            self._dt = stamp - self._last_stamp
        self._last_stamp = stamp
        self.have_state = True
        self._control_pan_tilt()
        if self._by_degrees:
            self._control_by_degrees()

    def _on_command_period(self) -> None:
        """All four joints' commands, stamped: the wheel motor's for this period."""
        now = tick_time(self._command_timer)  # late on a loaded machine: for its tick
        now_s = now.nanoseconds * 1e-9
        if self._wheel_timer is not None and now_s >= self._wheel_end_s:
            self._end_wheel_move()  # due: the end timer has not run yet
        if self._wheel_ramping:
            self._velocity[:2] = self._wheel_motor.step(now_s, COMMAND_PERIOD_S)
            self._wheel_ramping = not self._wheel_motor.settled
        command = JointState(name=list(JOINTS), velocity=list(self._velocity))
        command.header.stamp = now.to_msg()  # the simulator syncs on it (ROS)
        self.cmd.publish(command)

    def wheel_degrees(self) -> tuple[float, float]:
        """Cumulative (left, right) wheel angles in degrees since the last reset."""
        return (self.degrees(0) - self.wheel_offset[0], self.degrees(1) - self.wheel_offset[1])

    def _publish_state(self) -> None:
        if not self.have_state:
            return
        left, right = self.wheel_degrees()
        self.wheels_pub.publish(Wheels(
            wheelposr=Int64(data=round(right)), wheelposl=Int64(data=round(left)),
            wheelspeedr=Int64(data=round(math.degrees(self.dq[1]))),
            wheelspeedl=Int64(data=round(math.degrees(self.dq[0])))))
        self.pan_pub.publish(Int16(data=round(self.degrees(2))))
        self.tilt_pub.publish(Int16(data=round(self.degrees(3))))

    def _on_frequency(self, req, res):
        """The real app's SET-SENSOR-FREQUENCY sets the base's status period (status_rates);
        here that is the period of the state topics."""
        level = req.frequency.data
        if not 0 <= level < len(LEVELS):
            self.get_logger().warning(f'setSensorFrequency: frequency {level}: expected 0 (LOW) '
                                      '... 3 (MAX); ignored')
            res.error.data = 1
            return res
        if self._state_timer is not None:
            self.destroy_timer(self._state_timer)
        self._state_timer = self.create_timer(RATES[LEVELS[level]].base, self._publish_state)
        return res

    def _on_ir(self, sensor: str, msg: Range) -> None:
        self.irs[sensor] = msg
        if len(self.irs) == len(IR_FIELDS):  # R9: only once all 8 have reported
            self.irs_pub.publish(IRs(**{field: self.irs[s] for s, field in IR_FIELDS.items()}))

    # -- wheels -----------------------------------------------------------------------------
    def _command(self, joints: list[int], velocities: list[float]) -> None:
        """Command joints at once (unstamped: the simulator does not wait for it); the periodic
        command holds them."""
        for j, v in zip(joints, velocities):
            self._velocity[j] = v
        self.cmd.publish(JointState(name=[JOINTS[j] for j in joints], velocity=velocities))

    def _drive_wheels(self, omegas: list[float], at: float | None = None) -> None:
        """The wheels at ``omegas`` (rad/s) from sim time ``at`` (default now): with
        ``wheel_time_constant`` > 0 (0.1 s by default, issue 28) through the first-order motor,
        stepped each command period until it settles; with 0 at once (the thesis' R12 step)."""
        if self._wheel_motor is None:
            self._command([0, 1], omegas)
            return
        self._wheel_motor.set_target(omegas, self.now_s() if at is None else at)
        self._wheel_ramping = True

    def move_wheels(self, lspeed: float, rspeed: float, time_ms: float, unlock_id: int) -> int:
        """Start a timed wheel move (replacing any running one); the error code."""
        cmd, problem = commands.wheels(lspeed, rspeed, time_ms, unlock_id,
                                       self.params['strict_unlock_ids'])
        if problem:
            self.get_logger().error(problem)
            return commands.INVALID
        self._end_wheel_timer()
        self._by_degrees.clear()
        self._drive_wheels([wheel_omega(cmd.lspeed, cmd.time_s, self.wheel_coeffs),
                            wheel_omega(cmd.rspeed, cmd.time_s, self.wheel_coeffs)])
        self._wheel_unlock = cmd.unlock_id
        self._wheel_end_s = self.now_s() + cmd.time_s
        self._wheel_timer = self.create_timer(cmd.time_s, self._end_wheel_move)
        return commands.OK

    def _end_wheel_timer(self) -> None:
        if self._wheel_timer is not None:
            self.destroy_timer(self._wheel_timer)
            self._wheel_timer = None

    def _end_wheel_move(self) -> None:
        self._end_wheel_timer()
        # from when it was due: the motor makes up what ran on (a late timer or command period)
        self._drive_wheels([0.0, 0.0], self._wheel_end_s)  # the motors hold the wheels (MINT)
        self.unlock_pub.publish(Int16(data=self._wheel_unlock))

    def _on_move_wheels(self, req, resp):
        resp.error.data = self.move_wheels(req.lspeed.data, req.rspeed.data, req.time.data,
                                           req.unlockid.data)
        return resp

    def _on_move_wheels_topic(self, msg) -> None:
        self.move_wheels(msg.lspeed.data, msg.rspeed.data, msg.time.data, msg.unlockid.data)

    def _on_wheels_by_degrees(self, req, resp):
        """The app's MOVEBY-DEGREES: the wheel(s) turn by the angle at the calibrated law's speed
        and stop there (landing like the pan/tilt, axis_mover), the other wheel stands; a stall
        (the app's rule: no 1 deg for 2.25 s) or timeout ends it short. ``unlock/move`` then
        carries the unlock id. A timed move or another one replaces it."""
        cmd, problem = commands.wheels_by_degrees(req.wheel, req.degrees, req.speed, req.unlockid)
        if problem:
            self.get_logger().error(problem)
            resp.error = commands.INVALID
            return resp
        self._end_wheel_timer()
        self._wheel_ramping = False
        omega = wheel_degrees_omega(cmd.speed, cmd.degrees, self.wheel_coeffs)
        self._by_degrees = {}
        velocities = [0.0, 0.0]
        for joint in cmd.wheels:
            mover = self._by_degrees[joint] = AxisMover(())
            now = self.degrees(joint)
            velocities[joint] = mover.start(now, now + math.copysign(cmd.degrees, cmd.speed),
                                            cmd.speed, self.now_s(), omega_deg=omega)
        self._by_degrees_unlock = cmd.unlock_id
        self._command([0, 1], velocities)
        resp.error = commands.OK
        return resp

    def _control_by_degrees(self) -> None:
        velocities = [0.0, 0.0]
        for joint, mover in list(self._by_degrees.items()):
            velocities[joint], finished = mover.update(self.degrees(joint), self._dt)
            if finished:
                del self._by_degrees[joint]
        self._command([0, 1], velocities)   # a finished wheel is held at velocity 0
        if not self._by_degrees:
            self.unlock_pub.publish(Int16(data=self._by_degrees_unlock))

    def reset_wheels(self) -> None:
        self.wheel_offset = [self.degrees(0), self.degrees(1)]

    def _on_reset_wheels(self, req, resp):
        self.reset_wheels()
        resp.error.data = commands.OK
        return resp

    def _on_api_reset(self, req, resp):
        self._end_wheel_timer()
        self._by_degrees.clear()
        self._wheel_ramping = False
        if self._wheel_motor is not None:
            self._wheel_motor.reset()
        for name, mover in (('pan', self.pan), ('tilt', self.tilt)):
            mover.stop()  # hold where the reset put the joint
            self._finish(name)
        self.wheel_offset = [0.0, 0.0]
        self._command([0, 1, 2, 3], [0.0] * 4)
        return resp

    # -- pan / tilt -------------------------------------------------------------------------
    def start_axis(self, name: str, target: int, speed: int, unlock_id: int
                   ) -> tuple[rclpy.task.Future | None, int]:
        """Start a pan or tilt move; (future done when it ends or None, error code)."""
        joint = 2 if name == 'pan' else 3
        current = self.degrees(joint)
        cmd, problem = commands.axis(name, int(target), int(speed), int(unlock_id),
                                     round(current), self.params['strict_unlock_ids'])
        if problem:
            self.get_logger().error(problem)
            return None, commands.INVALID
        if cmd.speed is None:
            return None, commands.OK
        mover = self.pan if name == 'pan' else self.tilt
        self._finish(name)  # a new command replaces a running one
        self._command([joint], [mover.start(current, cmd.target, cmd.speed, self.now_s(),
                                            cmd.unlock_id)])
        self._waiters[name] = future = rclpy.task.Future()
        return future, commands.OK

    def _finish(self, name: str) -> None:
        future = self._waiters.pop(name, None)
        if future is not None and not future.done():
            future.set_result(self.now_s())

    def _control_pan_tilt(self) -> None:
        velocities = []
        for name, joint, mover in (('pan', 2, self.pan), ('tilt', 3, self.tilt)):
            velocity, finished = mover.update(self.degrees(joint), self._dt)
            velocities.append(velocity)
            if finished:
                self.unlock_pub.publish(Int16(data=mover.unlock_id))
                self._finish(name)
        self._command([2, 3], velocities)

    async def _on_move_pan_tilt(self, req, resp):
        parts = (('pan', req.panpos.data, req.panspeed.data, req.panunlockid.data),
                 ('tilt', req.tiltpos.data, req.tiltspeed.data, req.tiltunlockid.data))
        error = commands.OK
        if self.params['simultaneous_pan_tilt']:
            started = [self.start_axis(*part) for part in parts]
            for future, err in started:
                error = max(error, err)
            for future, _ in started:
                if future is not None:
                    await future
        else:  # the thesis: pan first, then tilt
            for part in parts:
                future, err = self.start_axis(*part)
                error = max(error, err)
                if future is not None:
                    await future
        resp.error.data = error
        return resp

    def _on_pan_tilt_topic(self, msg) -> None:
        self.start_axis('pan', msg.panpos.data, msg.panspeed.data, msg.panunlockid.data)
        self.start_axis('tilt', msg.tiltpos.data, msg.tiltspeed.data, msg.tiltunlockid.data)

    # -- effects: LEDs, face, sounds, speech (robobo_api.effects) ----------------------------
    def _effects(self) -> None:
        """Services as the real robot's (robobo_msgs SetLed, SetEmotion, PlaySound, Talk); what
        they did is published so a program's effects can be checked: ``leds`` (robobo_msgs/Led,
        one message per LED set), ``emotion``, ``sound``, ``speech`` (std_msgs/String)."""
        self.led_pub = self.create_publisher(Led, 'leds', 10)
        self.emotion_pub = self.create_publisher(String, 'emotion', 10)
        self.sound_pub = self.create_publisher(String, 'sound', 10)
        self.speech_pub = self.create_publisher(String, 'speech', 10)
        self.create_service(SetLed, 'setLed', self._on_set_led)
        for srv, name, field, pub, check in (
                (SetEmotion, 'setEmotion', 'emotion', self.emotion_pub,
                 lambda v: effects.one_of('setEmotion', v, effects.EMOTIONS)),
                (PlaySound, 'playSound', 'sound', self.sound_pub,
                 lambda v: effects.one_of('playSound', v, effects.SOUNDS)),
                (Talk, 'talk', 'text', self.speech_pub, effects.speech)):
            self.create_service(srv, name, lambda req, resp, f=field, p=pub, c=check:
                                self._on_effect(getattr(req, f).data, p, c, resp))

    def _on_set_led(self, req, resp):
        leds, problem = effects.led(req.id.data, req.color.data)
        for name, (r, g, b) in leds:
            self.led_pub.publish(Led(id=String(data=name), color=ColorRGBA(r=r, g=g, b=b, a=1.0)))
        return self._effect_done(problem, resp)

    def _on_effect(self, value: str, pub, check, resp):
        problem = check(value)
        if problem is None:
            pub.publish(String(data=value))
        return self._effect_done(problem, resp)

    def _effect_done(self, problem: str | None, resp):
        if problem:
            self.get_logger().error(problem)
        resp.error.data = effects.INVALID if problem else effects.OK
        return resp

    # -- IMU (MINT extension, R26) ----------------------------------------------------------
    def _on_imu(self, msg: Imu) -> None:
        self._imu = msg

    def _publish_imu(self) -> None:
        """The phone's sensors (phone_sensors): the base IMU turned by pan and tilt, battery."""
        if self._imu is None:
            return
        o, a = self._imu.orientation, self._imu.linear_acceleration
        pan, tilt = self.degrees(2), self.degrees(3)
        ax, ay, az = phone_acceleration((a.x, a.y, a.z), pan, tilt)
        self.accel_pub.publish(Accel(linear=Vector3(x=ax, y=ay, z=az)))
        self.orient_pub.publish(Quaternion(x=o.x, y=o.y, z=o.z, w=o.w))
        yaw, pitch, roll = phone_orientation((o.w, o.x, o.y, o.z), pan, tilt)
        self.euler_pub.publish(OrientationEuler(
            vector=Vector3(x=roll, y=pitch, z=yaw), yaw=Float64(data=yaw),
            pitch=Float64(data=pitch), roll=Float64(data=roll)))
        now = self.now_s()
        self._start_s = now if self._start_s is None else self._start_s
        for pub in self.battery_pubs.values():
            pub.publish(Int32(data=battery_level(now - self._start_s)))

    # -- camera -----------------------------------------------------------------------------
    def _on_image(self, msg: Image) -> None:
        now = self.now_s()
        if now - self._last_frame_s < 1.0 / self.params['camera_rate'] - 1e-9:
            return
        self._last_frame_s = now
        self.image_pub.publish(msg)
        self.info_pub.publish(camera_info(msg, self.params['camera_hfov']))
        if self.jpeg_pub.get_subscription_count():
            self.jpeg_pub.publish(jpeg(msg, self.params['jpeg_quality']))
        if self.blob_pub.get_subscription_count():
            self._publish_blobs(msg)

    def _publish_blobs(self, img: Image) -> None:
        """Colour blobs of this frame as the app reports them (color_blobs): centre in percent
        of the image (x right, y down), size in pixels; size 0 = lost."""
        import numpy as np
        rgb = np.frombuffer(bytes(img.data), dtype=np.uint8).reshape(img.height, img.width, 3)
        for b in self.blobs.update(rgb):
            self.blob_pub.publish(Blob(header=img.header, color=String(data=b.color),
                                       size=Int32(data=b.size), center=Point2D(x=b.x, y=b.y)))

    def _on_set_blob(self, msg: SetBlobCommand) -> None:
        self.blobs.set_colors([c for c in ('red', 'green', 'blue', 'custom') if getattr(msg, c)])


def camera_info(img: Image, hfov: float) -> CameraInfo:
    """Pinhole intrinsics of the simulated camera (no distortion)."""
    f = img.width / (2 * math.tan(hfov / 2))
    cx, cy = (img.width - 1) / 2, (img.height - 1) / 2
    return CameraInfo(header=img.header, height=img.height, width=img.width,
                      distortion_model='plumb_bob', d=[0.0] * 5,
                      k=[f, 0.0, cx, 0.0, f, cy, 0.0, 0.0, 1.0],
                      r=[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                      p=[f, 0.0, cx, 0.0, 0.0, f, cy, 0.0, 0.0, 0.0, 1.0, 0.0])


def jpeg(img: Image, quality: int) -> CompressedImage:
    import numpy as np
    from PIL import Image as PilImage
    rgb = np.frombuffer(bytes(img.data), dtype=np.uint8).reshape(img.height, img.width, 3)
    buf = io.BytesIO()
    PilImage.fromarray(rgb).save(buf, format='JPEG', quality=int(quality))
    return CompressedImage(header=img.header, format='jpeg', data=buf.getvalue())


def main(args=None) -> None:
    spin_node(RoboboApi, args)
