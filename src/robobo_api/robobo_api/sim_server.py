"""The RoboboSim extras that robobosim speaks (port 50505): RESET-SIM, robot locations
(SIM-LOCATION, streamed; SIM-LOCATION-SET) and object locations (SIM-OBJECT-LOCATION;
SIM-OBJECT-LOCATION-SET), as a thin layer over the simulator's ROS interface: ``/sim/reset``,
``/sim/set_pose``, ``/<robot>/odometry/ground_truth`` (the simulator's ground truth) and each
robot's ``api_reset``. Locations are in RoboboSim's Unity frame (robobo_api.sim_frames).

Robot ids are positions in the ``robots`` list (robobosim: "Incremental, starting by 0"), the
same ids robobopy uses for the ports. Objects are world models named in ``objects``; static ones
(the green ball) are reported at their pose in the world file, which cannot change.

Frames are parsed (locations included) by robobo_api.rrap_codec in the socket's thread; bad input
is answered with an ERROR status each time and logged rate-limited per client, as in
robobo_api.remote_server.
"""
from __future__ import annotations


from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.geometry_msgs.msg import Point, Pose, Quaternion
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.std_srvs.srv import Empty
from zoo_runtime.interfaces.zoo_interfaces.srv import SetModelPose
from zoo_runtime.rate_limited_log import RateLimitedLog

from . import rrap_codec as rrap
from .sim_frames import from_unity, to_unity
from .ws_server import WsServer, serve_events


class RoboboSimRemote(rclpy.node.Node):
    def __init__(self, **kwargs):
        super().__init__('robobo_sim_remote', **kwargs)
        p = parameter_schema.load('robobo_api', 'robobo_sim_remote').declare(self)
        self.robots: list[str] = list(p['robots'])
        self.poses: dict[str, tuple] = {}
        for robot in self.robots:
            self.create_subscription(Odometry, f'/{robot}/odometry/ground_truth',
                                     lambda m, r=robot: self._on_odom(r, m), 10)
        self.objects = static_poses(p['world'], list(p['objects']))
        self.reset_srv = self.create_client(Empty, '/sim/reset')
        self.api_resets = [self.create_client(Empty, f'/{r}/api_reset') for r in self.robots]
        self.set_pose = self.create_client(SetModelPose, '/sim/set_pose')
        self.peers: dict[int, str] = {}     # connection -> "client 3 (127.0.0.1:53412)"
        self.warnings = RateLimitedLog(full=rrap.refused_line, count=rrap.refused_count_line)
        self.server = WsServer(p['host'], p['port'], 'robobo_sim_remote', parse=rrap.parse_frame)
        self.server.start(hint='RoboboSim or another robozoo run holds it (robobosim has no '
                               'port argument)')
        self.get_logger().info(f'RoboboSim extras on ws://{p["host"]}:{self.server.port} '
                               f"(robots {', '.join(self.robots)})")
        self.create_timer(1.0 / p['poll_rate'], self._poll)
        self.create_timer(1.0 / p['location_rate'], self._send_locations)

    def destroy_node(self):
        self.server.stop()
        return super().destroy_node()

    def _on_odom(self, robot: str, m: Odometry) -> None:
        q, o = m.pose.pose.position, m.pose.pose.orientation
        self.poses[robot] = ((q.x, q.y, q.z), (o.w, o.x, o.y, o.z))

    def _send_locations(self, conn: int | None = None) -> None:
        if not self.server.connections:
            return
        for i, robot in enumerate(self.robots):
            if robot in self.poses:
                self.server.send(conn, rrap.location_status(i, *to_unity(*self.poses[robot])))
        for name, pose in self.objects.items():
            self.server.send(conn, rrap.object_location_status(name, *to_unity(*pose)))

    def _poll(self) -> None:
        """Drain the websocket inbox (parsed frames)."""
        serve_events(self.server, self.peers, self.warnings, self._send_locations,
                     self._on_frame)

    def _peer(self, conn: int) -> str:
        return self.peers.get(conn, f'client {conn}')

    def _on_frame(self, conn: int, msg: rrap.Password | rrap.Command | Exception) -> None:
        if isinstance(msg, Exception):  # refused by the parser in the socket's thread
            self._refuse(conn, str(msg), getattr(msg, 'command', '?'))
            return
        if isinstance(msg, rrap.Password):
            return
        try:
            self._dispatch(conn, msg)
        except rrap.ProtocolError as exc:
            self._refuse(conn, str(exc), msg.name)
        except Exception as exc:  # noqa: BLE001 - the server never dies of one frame
            self.warnings.event((self._peer(conn), f'{rrap.known(msg.name)} internal error'),
                                f'{msg.name} failed: {exc!r}', self.get_logger().error)
            self.server.send(conn, rrap.error(msg.name, f'internal error: {exc!r}'))

    def _refuse(self, conn: int, why: str, name: str = '?') -> None:
        """One ERROR status per refused frame; the log line is rate-limited per client."""
        self.warnings.event((self._peer(conn), rrap.known(name)), why, self.get_logger().warning)
        self.server.send(conn, rrap.error(name, why))

    def _dispatch(self, conn: int, cmd: rrap.Command) -> None:
        if cmd.name == 'RESET-SIM':
            future = self.reset_srv.call_async(Empty.Request())
            future.add_done_callback(lambda _f: [c.call_async(Empty.Request())
                                                 for c in self.api_resets])
        elif cmd.name in ('SIM-LOCATION-SET', 'SIM-OBJECT-LOCATION-SET'):
            self._set_location(conn, cmd, rrap.location(cmd))
        elif cmd.name in rrap.NOT_SIMULATED:
            self._refuse(conn, f'{cmd.name} is not simulated; ignored', cmd.name)
        else:
            self._refuse(conn, f'unknown command {cmd.name!r}; ignored', cmd.name)

    def _set_location(self, conn: int, cmd: rrap.Command, loc: rrap.Location) -> None:
        if isinstance(loc.target, int):
            if not loc.target < len(self.robots):
                raise rrap.ProtocolError(f'{cmd.name}: no robot {loc.target} (robots 0..'
                                         f'{len(self.robots) - 1})')
            name = self.robots[loc.target]
            current = self.poses.get(name)
        else:
            name, current = loc.target, self.objects.get(loc.target)
        if current is None:
            raise rrap.ProtocolError(f'{cmd.name}: {name!r} has no known location yet')
        xyz, q = from_unity(loc.position, loc.rotation, current)
        future = self.set_pose.call_async(SetModelPose.Request(name=name, pose=Pose(
            position=Point(x=xyz[0], y=xyz[1], z=xyz[2]),
            orientation=Quaternion(w=q[0], x=q[1], y=q[2], z=q[3]))))

        def done(f) -> None:
            if not f.result().success:
                self._refuse(conn, f'{cmd.name}: {f.result().message}', cmd.name)
        future.add_done_callback(done)


def static_poses(world: str, names: list[str]) -> dict[str, tuple]:
    """World-file poses ((x, y, z), (w, x, y, z)) of the named models."""
    from zoo_sim.resources import find_world
    from zoo_sim.sdf_world import load_world
    if not names:
        return {}
    w = load_world(find_world(world), validate=False)
    out = {}
    for name in names:
        try:
            model = w.model(name)
        except KeyError:
            raise ValueError(f"parameter objects: world '{world}' has no model '{name}' "
                             f"(models: {', '.join(m.name for m in w.models)})") from None
        out[name] = (tuple(float(v) for v in model.pose.pos),
                     tuple(float(v) for v in model.pose.quat))
    return out


def main(args=None) -> None:
    spin_node(RoboboSimRemote, args)
