"""The Robobo Remote Access Protocol server of one simulated robot: what the Robobo app serves to
robobopy, as a thin layer over the robot's ROS interface (robobo_api.api_node): commands become
``moveWheels`` / ``movePanTilt`` / ``resetWheels`` calls, statuses come from ``wheels``,
``pan``, ``tilt``, ``irs``, ``blob``, and the phone's ``orientation_euler``, ``accel``,
``battery/base``, ``battery/phone`` (robobo_api.phone_sensors). Frames are parsed by
robobo_api.rrap_codec in the socket's thread (robobo_api.ws_server): this node's loop gets parsed
commands, at most ws_server.TAKE_MAX per poll. Bad input is answered with an ERROR status each
time and logged rate-limited (zoo_runtime.rate_limited_log: one line, then counts per client).

Robot id ``robot_id`` listens on 40404 + 10 id (robobopy has no port argument). Time: commands
run on sim time like every ROS command (a 2 s move is 2 s of simulated time, its UNLOCK-MOVE
leaves when the move ends in the simulation); robobopy itself waits in wall time, so the
scenarios that serve the protocol pace the simulation at real time (README, "Time model").
"""
from __future__ import annotations

import itertools

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.robobo_msgs.msg import Blob, IRs, OrientationEuler, SetBlobCommand
from zoo_runtime.interfaces.robobo_msgs.msg import Wheels as WheelsMsg
from zoo_runtime.interfaces.robobo_msgs.srv import (MovePanTilt, MoveWheels, PlaySound,
                                                    ResetWheels, SetEmotion, SetLed,
                                                    SetSensorFrequency, Talk)
from zoo_runtime.interfaces.geometry_msgs.msg import Accel
from zoo_runtime.interfaces.std_msgs.msg import Int8, Int16, Int32, String
from zoo_runtime.interfaces.zoo_interfaces.srv import MoveWheelsByDegrees
from zoo_runtime.rate_limited_log import RateLimitedLog

from . import rrap_codec as rrap
from .status_rates import LEVELS, StatusGate
from .ws_server import WsServer, serve_events

IR_SENSOR_PERIOD_S = 0.1   # the IR plug-ins' 10 Hz (robobo_description): IRS no faster
IDLE_PAN, IDLE_TILT = 180, 70  # valid targets sent with speed 0 for the axis not commanded
FLUSH_WAIT_S = 0.2     # an UNLOCK waits at most this long for the next state message


class RoboboRemote(rclpy.node.Node):
    def __init__(self, **kwargs):
        super().__init__('robobo_remote', **kwargs)
        p = parameter_schema.load('robobo_api', 'robobo_remote').declare(self)
        ns = f"/{p['robot']}"
        self.params = p
        self.gate = StatusGate()   # when each status goes out: the app's rules (status_rates)
        self.wheels_srv = self.create_client(MoveWheels, f'{ns}/moveWheels')
        self.pan_tilt_srv = self.create_client(MovePanTilt, f'{ns}/movePanTilt')
        self.degrees_srv = self.create_client(MoveWheelsByDegrees, f'{ns}/moveWheelsByDegrees')
        self.reset_srv = self.create_client(ResetWheels, f'{ns}/resetWheels')
        self.frequency_srv = self.create_client(SetSensorFrequency, f'{ns}/setSensorFrequency')
        self.effect_srvs = {name: self.create_client(srv, f'{ns}/{name}') for srv, name in (
            (SetLed, 'setLed'), (SetEmotion, 'setEmotion'), (PlaySound, 'playSound'),
            (Talk, 'talk'))}
        self.blob_cfg = self.create_publisher(SetBlobCommand, f'{ns}/setBlobCommand', 10)
        self.state: dict[str, str] = {}      # status name -> last frame
        self._sent: dict[str, str] = {}      # status name -> last frame broadcast
        self._wheel_waits: dict[int, str | None] = {}  # API unlock id -> robobopy blockid
        # UNLOCKs held until the next message of a state topic: a blocking call then returns
        # with the final position already sent (status name -> [(deadline s, conn, frame)])
        self._held: dict[str, list[tuple[float, int | None, str]]] = {}
        self._unlock_ids = itertools.cycle(range(1, 32768))
        self.create_subscription(WheelsMsg, f'{ns}/wheels', self._on_wheels, 10)
        self.create_subscription(Int16, f'{ns}/pan', lambda m: self._keep(
            'PAN', rrap.status('PAN', panPos=m.data),
            lambda now: self.gate.motor('PAN', now, (m.data,))), 10)
        self.create_subscription(Int16, f'{ns}/tilt', lambda m: self._keep(
            'TILT', rrap.status('TILT', tiltPos=m.data),
            lambda now: self.gate.motor('TILT', now, (m.data,))), 10)
        self.create_subscription(IRs, f'{ns}/irs', self._on_irs, 10)
        self.create_subscription(Blob, f'{ns}/blob', self._on_blob, 10)
        self.create_subscription(OrientationEuler, f'{ns}/orientation_euler', self._on_euler, 10)
        self.create_subscription(Accel, f'{ns}/accel', self._on_accel, 10)
        for device, name in (('base', 'BAT-BASE'), ('phone', 'BAT-PHONE')):
            self.create_subscription(Int32, f'{ns}/battery/{device}', lambda m, n=name: self._keep(
                n, rrap.status(n, level=m.data), lambda now: self.gate.battery(n, now)), 10)
        self.create_subscription(Int16, f'{ns}/unlock/move', self._on_unlock, 10)
        self.peers: dict[int, str] = {}     # connection -> "client 3 (127.0.0.1:53412)"
        self.warnings = RateLimitedLog(full=rrap.refused_line, count=rrap.refused_count_line)
        self.server = WsServer(p['host'], rrap.robot_port(p['robot_id']), 'robobo_remote',
                               parse=rrap.parse_frame)
        self.server.start(hint=f'another server for robobopy robot id {p["robot_id"]}? choose '
                               'another id: --set robobo_remote.robot_id=N')
        self.get_logger().info(f"robot '{p['robot']}' (robobopy robot_id {p['robot_id']}) on "
                               f'ws://{p["host"]}:{self.server.port}')
        self.create_timer(1.0 / p['poll_rate'], self._poll)
        self._irs_timer = self.create_timer(self._irs_period(), self._on_irs_period)
        self.create_timer(FLUSH_WAIT_S / 2, self._flush_held)

    def destroy_node(self):
        self.server.stop()
        return super().destroy_node()

    # -- statuses -----------------------------------------------------------------------------
    def _keep(self, name: str, frame: str, due=None) -> None:
        """A new reading: sent when the app would send it (``due(now)``, a StatusGate rule), and
        at once when an UNLOCK waits for it (ours: a blocking call returns with the final
        position sent)."""
        self.state[name] = frame
        if self._held.get(name):
            self._send_changed((name,))
            for _deadline, conn, held in self._held.pop(name):
                self.server.send(conn, held)
        elif due is not None and due(self._now_s()):
            self._sent[name] = frame
            self.server.send(None, frame)

    def _irs_period(self) -> float:
        """IRS leave with the base's statuses, no faster than the IR plug-ins update."""
        return max(self.gate.rates.base, IR_SENSOR_PERIOD_S)

    def _after_next(self, name: str, conn: int | None, frame: str) -> None:
        """Send ``frame`` right after the next ``name`` status (at most FLUSH_WAIT_S later)."""
        self._held.setdefault(name, []).append((self._now_s() + FLUSH_WAIT_S, conn, frame))

    def _on_irs_period(self) -> None:
        self._send_changed(('IRS',))

    def _flush_held(self) -> None:
        now = self._now_s()
        for name, held in list(self._held.items()):
            due = [h for h in held if h[0] <= now]
            if due:  # no state message came (state_rate 0?): send what waited too long
                self._held[name] = [h for h in held if h[0] > now]
                for _deadline, conn, frame in due:
                    self.server.send(conn, frame)

    def _now_s(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    def _on_wheels(self, m: WheelsMsg) -> None:
        self._keep('WHEELS', rrap.status(
            'WHEELS', wheelPosR=m.wheelposr.data, wheelPosL=m.wheelposl.data,
            wheelSpeedR=m.wheelspeedr.data, wheelSpeedL=m.wheelspeedl.data),
            lambda now: self.gate.motor('WHEELS', now, (m.wheelposr.data, m.wheelposl.data)))

    def _on_accel(self, m: Accel) -> None:
        xyz = (m.linear.x, m.linear.y, m.linear.z)
        self._keep('ACCELERATION', rrap.status('ACCELERATION', xaccel=xyz[0], yaccel=xyz[1],
                                               zaccel=xyz[2]),
                   lambda now: self.gate.acceleration(now, xyz))

    def _on_irs(self, m: IRs) -> None:
        self._keep('IRS', rrap.irs_status({key: getattr(m, field).range
                                           for field, key in rrap.IRS_KEYS.items()}))

    def _on_euler(self, m: OrientationEuler) -> None:
        ypr = (m.yaw.data, m.pitch.data, m.roll.data)
        self._keep('ORIENTATION', rrap.status('ORIENTATION', yaw=ypr[0], pitch=ypr[1],
                                              roll=ypr[2]),
                   lambda now: self.gate.orientation(now, ypr))

    def _on_blob(self, m: Blob) -> None:  # every blob report goes out (robobopy's callback)
        self.server.send(None, rrap.status(
            'BLOB', color=m.color.data, posx=int(round(m.center.x)),
            posy=int(round(m.center.y)), size=m.size.data,
            frame_timestamp=_ms(m.header.stamp), timestamp=_ms(m.header.stamp)))

    def _send_changed(self, names: tuple[str, ...]) -> None:
        """Each of ``names`` whose last reading differs from what was last sent."""
        for name in names:
            frame = self.state.get(name)
            if frame is not None and self._sent.get(name) != frame:
                self._sent[name] = frame
                self.server.send(None, frame)

    # -- commands -----------------------------------------------------------------------------
    def _poll(self) -> None:
        """Drain the websocket inbox (parsed frames) at ``poll_rate`` of sim time."""
        serve_events(self.server, self.peers, self.warnings, self._send_state, self._on_frame,
                     self._on_disconnect)

    def _send_state(self, conn: int) -> None:
        """A new client gets the whole current state at once."""
        for frame in self.state.values():
            self.server.send(conn, frame)

    def _peer(self, conn: int) -> str:
        return self.peers.get(conn, f'client {conn}')

    def _on_frame(self, conn: int, msg: rrap.Password | rrap.Command | Exception) -> None:
        if isinstance(msg, Exception):  # refused by the parser in the socket's thread
            self._refuse(conn, getattr(msg, 'command', '?'), str(msg))
            return
        if isinstance(msg, rrap.Password):
            return  # the app checks no password (robobo-app-ios remote-control module)
        try:
            self._dispatch(conn, msg)
        except rrap.ProtocolError as exc:
            self._refuse(conn, msg.name, str(exc))
            self._release(conn, msg, None)
        except Exception as exc:  # noqa: BLE001 - the server never dies of one frame
            self.warnings.event((self._peer(conn), f'{rrap.known(msg.name)} internal error'),
                                f'{msg.name} failed: {exc!r}', self.get_logger().error)
            self.server.send(conn, rrap.error(msg.name, f'internal error: {exc!r}'))
            self._release(conn, msg, None)

    def _refuse(self, conn: int, name: str, why: str) -> None:
        """One ERROR status per refused frame; the log line is rate-limited per client."""
        self.warnings.event((self._peer(conn), rrap.known(name)), why, self.get_logger().warning)
        self.server.send(conn, rrap.error(name, why))

    def _release(self, conn: int, cmd: rrap.Command, blockid: str | None) -> None:
        """Send the UNLOCK a blocking robobopy call waits for, so no refused command hangs it."""
        unlock = rrap.UNLOCKS.get(cmd.name)
        if unlock:
            self.server.send(conn, rrap.status(unlock, blockid=blockid or rrap.blockid(cmd)))

    def _dispatch(self, conn: int, cmd: rrap.Command) -> None:
        name = cmd.name
        if name in ('MOVE', 'MOVE-BLOCKING'):
            self._move(conn, cmd, rrap.wheels(cmd))
        elif name == 'MOVEBY-DEGREES':
            self._move_by_degrees(conn, cmd, *rrap.by_degrees(cmd))
        elif name in ('MOVEPAN', 'MOVEPAN-BLOCKING', 'MOVETILT', 'MOVETILT-BLOCKING'):
            self._move_axis(conn, cmd, rrap.axis(cmd))
        elif name in rrap.EFFECTS:
            self._effect(conn, cmd)
        elif name == 'RESET-WHEELS':
            self.reset_srv.call_async(ResetWheels.Request())
        elif name == 'CONFIGURE-BLOBTRACKING':
            self.blob_cfg.publish(SetBlobCommand(**rrap.blob_colors(cmd)))
        elif name == 'SET-SENSOR-FREQUENCY':
            level = rrap.status_level(cmd)
            self.gate.set_level(level)
            # the base's status period: the robot's state topics come at it (api_node)
            self.frequency_srv.call_async(SetSensorFrequency.Request(
                frequency=Int8(data=LEVELS.index(level))))
            self.destroy_timer(self._irs_timer)
            self._irs_timer = self.create_timer(self._irs_period(), self._on_irs_period)
        elif name in rrap.NOT_SIMULATED:
            self._refuse(conn, name, f'{name} is not simulated; ignored')
            self._release(conn, cmd, None)
        else:
            self._refuse(conn, name, f'unknown command {name!r}; ignored (the app logs and '
                                     'ignores commands it has no executor for)')

    def _new_wheel_move(self) -> int:
        """An unlock id for a new wheel move, which replaces a running one: its blocking caller
        is released now."""
        for old_id, old_block in list(self._wheel_waits.items()):
            self._wheel_waits.pop(old_id)
            if old_block is not None:
                self.server.send(None, rrap.status('UNLOCK-MOVE', blockid=old_block))
        return next(self._unlock_ids)

    def _move_by_degrees(self, conn: int, cmd: rrap.Command, wheel: str, degrees: int,
                         speed: int) -> None:
        """The app's MOVEBY-DEGREES through ``moveWheelsByDegrees``; its UNLOCK-MOVE (robobopy
        waits for that one: RobProcessor) follows ``unlock/move`` like a timed move's."""
        unlock_id, blockid = self._new_wheel_move(), rrap.blockid(cmd)
        future = self.degrees_srv.call_async(MoveWheelsByDegrees.Request(
            wheel=wheel, degrees=degrees, speed=speed, unlockid=unlock_id))
        self._wheel_waits[unlock_id] = blockid

        def done(f) -> None:
            if f.result().error != 0:
                self._wheel_waits.pop(unlock_id, None)
                self._refuse(conn, cmd.name, f'refused by the robot: wheel {wheel!r}, degrees '
                                             f'{degrees}, speed {speed} (wheel left/right/both, '
                                             'degrees and speed != 0)')
                self._release(conn, cmd, blockid)
        future.add_done_callback(done)

    def _move(self, conn: int, cmd: rrap.Command, w: rrap.Wheels) -> None:
        unlock_id = self._new_wheel_move()
        future = self.wheels_srv.call_async(MoveWheels.Request(
            lspeed=Int8(data=w.lspeed), rspeed=Int8(data=w.rspeed), time=Int32(data=w.time_ms),
            unlockid=Int16(data=unlock_id)))
        self._wheel_waits[unlock_id] = w.blockid

        def done(f) -> None:
            if f.result().error.data != 0:  # refused (e.g. time <= 0): say so, release now
                self._wheel_waits.pop(unlock_id, None)
                self._refuse(conn, cmd.name, f'refused by the robot (time must be > 0 s, got '
                                             f'{w.time_ms / 1000:g} s)')
                if w.blockid is not None:
                    self.server.send(conn, rrap.status('UNLOCK-MOVE', blockid=w.blockid))
        future.add_done_callback(done)

    def _on_unlock(self, m: Int16) -> None:
        if m.data in self._wheel_waits:
            blockid = self._wheel_waits.pop(m.data)
            if blockid is not None:
                self._after_next('WHEELS', None, rrap.status('UNLOCK-MOVE', blockid=blockid))

    def _move_axis(self, conn: int, cmd: rrap.Command, a: rrap.Axis) -> None:
        """Through the blocking ``movePanTilt`` service: its response is the end of the move."""
        uid = next(self._unlock_ids)
        pan = (a.pos, a.speed, uid) if a.axis == 'pan' else (IDLE_PAN, 0, uid)
        tilt = (a.pos, a.speed, uid) if a.axis == 'tilt' else (IDLE_TILT, 0, uid)
        future = self.pan_tilt_srv.call_async(MovePanTilt.Request(
            panpos=Int16(data=pan[0]), panspeed=Int8(data=pan[1]), panunlockid=Int16(data=uid),
            tiltpos=Int16(data=tilt[0]), tiltspeed=Int8(data=tilt[1]),
            tiltunlockid=Int16(data=uid)))

        def done(f) -> None:
            if f.result().error.data != 0:
                lo, hi = (11, 344) if a.axis == 'pan' else (5, 110)
                self._refuse(conn, cmd.name, f'{a.axis} target {a.pos} is outside {lo}..{hi} '
                                             '(the app convention); ignored')
            if a.blockid is not None:
                self._after_next(a.axis.upper(), conn,
                                 rrap.status(rrap.UNLOCKS[cmd.name], blockid=a.blockid))
        future.add_done_callback(done)

    def _effect(self, conn: int, cmd: rrap.Command) -> None:
        """LEDs, emotion, sound, speech through the robot's services (they publish what was
        done). TALK's UNLOCK-TALK follows the service's answer: nothing is spoken aloud."""
        service, keys = rrap.EFFECTS[cmd.name]
        client = self.effect_srvs[service]
        fields = list(client.srv_type.Request.get_fields_and_field_types())
        future = client.call_async(client.srv_type.Request(**{
            field: String(data=rrap.text(cmd, key)) for field, key in zip(fields, keys)}))

        def done(f) -> None:
            if f.result().error.data != 0:
                self._refuse(conn, cmd.name, f'refused by the robot: {cmd.params} (see its '
                                             f'{service} log line)')
            self._release(conn, cmd, None)
        future.add_done_callback(done)

    def _on_disconnect(self, conn: int) -> None:
        """The app keeps executing a running move when its client goes (robobo-app-ios closes
        only the socket); ``stop_on_disconnect`` stops the wheels instead."""
        if self.params['stop_on_disconnect'] and not self.server.connections:
            self.wheels_srv.call_async(MoveWheels.Request(
                lspeed=Int8(data=0), rspeed=Int8(data=0), time=Int32(data=1),
                unlockid=Int16(data=next(self._unlock_ids))))


def _ms(stamp) -> int:
    return stamp.sec * 1000 + stamp.nanosec // 1_000_000


def main(args=None) -> None:
    spin_node(RoboboRemote, args)
