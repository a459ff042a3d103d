"""The simulator node: parameters, topics and services mapped onto a physics backend.

Per robot ``/<robot>/...``: ``joint_states``, ``odometry/ground_truth``, ``imu``, ``contacts``,
``robot_description`` (transient local); commands ``<joint>/cmd_vel`` and ``<joint>/cmd_force``
(std_msgs/Float64) and ``joint_commands`` (sensor_msgs/JointState: ``velocity`` and/or
``effort`` by name, the fast path). Global: ``/tf``, ``/tf_static``, the world's gravity on
``/sim/gravity`` (geometry_msgs/Vector3) and its world on ``/sim/world`` (std_msgs/String, the
``world`` parameter), both transient local; services ``/sim/reset``,
``/sim/pause``, ``/sim/step``, ``/sim/set_pose``. Publishers are timers on sim time.

In the embedded world the lockstep executor owns time (``/clock``) and drives
:attr:`Simulator.lockstep_physics`; run standalone (``ros2 launch``, ``ros2 run zoo_sim
simulator``), the node steps its physics in a thread paced on the wall clock, publishes ``/clock``
after every step and waits for the controllers' due commands (:meth:`Simulator.run_free`).
"""
from __future__ import annotations

import math
import threading
import time

import numpy as np

from zoo_runtime import EMBEDDED, parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.builtin_interfaces.msg import Time
from zoo_runtime.interfaces.geometry_msgs.msg import (Point, Pose, PoseArray, PoseWithCovariance,
                                                       Quaternion, Transform, TransformStamped,
                                                       Twist, TwistWithCovariance, Vector3)
from zoo_runtime.interfaces.nav_msgs.msg import Odometry
from zoo_runtime.interfaces.rosgraph_msgs.msg import Clock
from zoo_runtime.interfaces.sensor_msgs.msg import Imu, JointState
from zoo_runtime.interfaces.std_msgs.msg import Float64, Header, String
from zoo_runtime.interfaces.std_srvs.srv import Empty, SetBool
from zoo_runtime.interfaces.tf2_msgs.msg import TFMessage
from zoo_runtime.interfaces.zoo_interfaces.msg import LinkContacts
from zoo_runtime.interfaces.zoo_interfaces.msg import JointPDCommand, ServoSettings
from zoo_runtime.interfaces.zoo_interfaces.msg import RobotMetrics as RobotMetricsMsg
from zoo_runtime.interfaces.zoo_interfaces.srv import SetModelPose, Step

from . import WORLD_GRAVITY_TOPIC, WORLD_TOPIC, SimConfigError
from .backends import BackendConfig, backend_class, backend_parameters
from .command_sync import CommandSync
from .joint_motors import check_model
from .metrics import RobotMetrics, to_message
from .mujoco_scene import RobotSpec
from .robot_interface import RobotBackend
from .transforms import relative_poses

Node = rclpy.node.Node
Parameter = rclpy.parameter.Parameter
QoSProfile = rclpy.qos.QoSProfile
LATCHED = QoSProfile(depth=1, durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)
WORLD_FRAME = 'world'
# every parameter (publish rates, robots.<robot>.*, <backend>.<option>) with its default and check
SCHEMA = parameter_schema.load('zoo_sim', 'simulator')


class Simulator(Node):
    """The node shell of the robot contract: any :class:`~zoo_sim.robot_interface.RobotBackend`
    (``physics``; default: the one the parameters describe) onto topics and services."""

    def __init__(self, physics: RobotBackend | None = None, **kwargs):
        self._physics_lock = threading.Lock()
        self._free_thread = None
        super().__init__('sim', **kwargs)
        self.physics = self._make_physics(physics)
        for w in self.physics.warnings:
            self.get_logger().warning(w)
        for line in getattr(self.physics, 'notes', ()):  # a hardware link's set-up (optional)
            self.get_logger().info(line)
        self._robots = {}
        for name in self.physics.robot_names():
            self._robots[name] = _RobotIO(self, name)
        self._tf_pub = self.create_publisher(TFMessage, '/tf', 10)
        self._tf_static_pub = self.create_publisher(TFMessage, '/tf_static', LATCHED)
        self._publish_tf_static()
        self.create_publisher(Vector3, WORLD_GRAVITY_TOPIC, LATCHED).publish(
            Vector3(**dict(zip('xyz', map(float, self._world_gravity())))))
        self.create_publisher(String, WORLD_TOPIC, LATCHED).publish(
            String(data=self.get_parameter('world').value or ''))
        publishers = {'joint_states_rate': self._publish_joint_states,
                      'odometry_rate': self._publish_odometry, 'imu_rate': self._publish_imu,
                      'tf_rate': self._publish_tf, 'contacts_rate': self._publish_contacts}
        for param, callback in publishers.items():  # rates >= 0: params/simulator.yaml
            rate = self.get_parameter(param).value
            feature = param.removesuffix('_rate')
            if feature not in self.physics.features:
                hint = (' (Gazebo: see zoo_sim.gazebo.bridge for its topics)'
                        if self.get_parameter('backend').value == 'gazebo' else '')
                self.get_logger().info(f'{feature}: not published: the backend has no such '
                                       f'feature{hint}')
            elif rate > 0:
                self.create_timer(1.0 / rate, callback)
        for param, callback in (('metrics_sample_rate', self._sample_metrics),
                                ('metrics_rate', self.publish_metrics)):
            self.create_timer(1.0 / self.get_parameter(param).value, callback)
        # every link's pose on /<robot>/link_poses (PoseArray, world frame, RobotInfo.links
        # order): simulation-only data for state logs (the snake's R20); 0: off
        rate = self.get_parameter('link_poses_rate').value
        if rate > 0 and 'tf' not in self.physics.features:
            self.get_logger().info('link_poses: not published: the backend does not know the '
                                   "links' world poses (no tf feature)")
        elif rate > 0:
            self.create_timer(1.0 / rate, self._publish_link_poses)
        self._sample_metrics()  # the start: the spawn pose
        # the backend evaluates its sensors only for an audience of the topics that read them
        self._sensor_pubs = [pub for io in self._robots.values()
                             for pub in (io.imu, io.contacts, *io.sensor_pubs)]
        if hasattr(self.physics, 'sensors_wanted'):
            self.physics.sensors_wanted = self._sensors_wanted
        self.create_timer(1.0, self._log_unsafe_commands)  # the sanitiser's throttle period
        self.create_service(Empty, '/sim/reset', self._on_reset)
        self.create_service(SetBool, '/sim/pause', self._on_pause)
        self.create_service(Step, '/sim/step', self._on_step)
        self.create_service(SetModelPose, '/sim/set_pose', self._on_set_pose)
        self._clock_pub = None
        self._waiting_for: set[str] = set()
        self._command_sync: CommandSync | None = None  # standalone only (run_free)

    # -- parameters -----------------------------------------------------------------------------
    def _make_physics(self, given: RobotBackend | None):
        SCHEMA.declare(self)
        gravity = self._list('gravity', (int, float)) or None
        if gravity is not None and (len(gravity) != 3 or
                                    not all(math.isfinite(g) for g in gravity)):
            raise SimConfigError(f'parameter gravity: expected 3 finite numbers, got '
                                 f'{list(gravity)}')
        step = self.get_parameter('physics_step').value
        names = self._list('robot_names', str)
        for n in names:
            if names.count(n) > 1:
                raise SimConfigError(f"parameter robot_names: robot name '{n}' is used twice")
        if given is not None:
            return given
        robots = [self._robot_spec(n) for n in names]
        backend = self.get_parameter('backend').value
        cls = backend_class(backend)
        options = {key: SCHEMA.declare(self, '<backend>.<option>', backend=backend, option=key,
                                       default=default, description=text)[f'{backend}.{key}']
                   for key, (default, text) in backend_parameters(cls).items()}
        motor = self.get_parameter('joint_motor').value
        try:
            check_model(motor)
        except SimConfigError as exc:
            raise SimConfigError(f'parameter {exc}') from None
        return cls.from_config(BackendConfig(
            world=self.get_parameter('world').value or None, robots=robots,
            gravity=None if gravity is None else [float(g) for g in gravity],
            step=step if step > 0 else None, validate=self.get_parameter('validate_world').value,
            seed=self.get_parameter('seed').value,
            real_time_factor=self.get_parameter('real_time_factor').value,
            joint_motor=motor, options=options))

    def _world_gravity(self):
        """The gravity the physics runs: the backend's own figure (the optional ``gravity`` of the
        contract; never ``metrics()``, the end-of-run report, which a hardware link answers by
        stopping), else the ``gravity`` parameter's, else the world file's."""
        gravity = (getattr(self.physics, 'gravity', None)
                   or self._list('gravity', (int, float)))
        if gravity:
            return gravity
        from zoo_description_tools.physics import EARTH_GRAVITY
        from .resources import find_world
        from .sdf_world import load_world
        world = self.get_parameter('world').value
        return load_world(find_world(world), validate=False).gravity if world else EARTH_GRAVITY

    def _robot_spec(self, name: str) -> RobotSpec:
        p = f'robots.{name}.'
        SCHEMA.declare(self, 'robots.<robot>', robot=name)  # package: required by the schema
        get = lambda key: self._optional(p + key)  # noqa: E731
        pose = self._list(p + 'pose', (int, float)) or None
        if pose is not None and (len(pose) != 6 or not all(math.isfinite(x) for x in pose)):
            raise SimConfigError(f'parameter {p}pose: expected [x, y, z, roll, pitch, yaw] of '
                                 f'finite numbers, got {pose}')
        initial = {}
        for k, v in _pairs(self._list(p + 'initial_positions', str),
                           p + 'initial_positions').items():
            try:
                initial[k] = float(v)
            except ValueError:
                raise SimConfigError(f"parameter {p}initial_positions: '{k}:={v}' is not a "
                                     'number') from None
        contact = get('contact_links')
        return RobotSpec(name=name, package=get('package'), model=get('model') or None,
                         xacro_args=_pairs(self._list(p + 'xacro_args', str), p + 'xacro_args'),
                         pose=None if pose is None else [float(x) for x in pose],
                         fixed_base=get('fixed_base'),
                         contact_links=None if contact is None else
                         self._list(p + 'contact_links', str),
                         imu_link=get('imu_link') or None, initial_positions=initial,
                         fall_height=get('fall_height') if get('fall_height') >= 0 else None,
                         fall_tilt_deg=get('fall_tilt_deg') if get('fall_tilt_deg') >= 0 else None,
                         servo=get('servo') or None,
                         servo_params=_pairs(self._list(p + 'servo_params', str),
                                             p + 'servo_params'))

    def _list(self, name: str, item_type) -> list:
        value = self._optional(name)
        if value is None:
            return []
        if isinstance(value, (str, bytes)) or not all(isinstance(v, item_type) and
                                                      not isinstance(v, bool) for v in value):
            raise SimConfigError(f'parameter {name}: expected a list of '
                                 f"{getattr(item_type, '__name__', 'numbers')}, got {value!r}")
        return list(value)

    def _optional(self, name: str):
        """A statically typed parameter declared without a default: its value, or None."""
        try:
            return self.get_parameter(name).value
        except rclpy.exceptions.ParameterUninitializedException:
            return None

    @property
    def lockstep_physics(self):
        """The physics object the lockstep executor advances (``step_ns``, ``advance(n)``)."""
        return self.physics

    # -- publishers -----------------------------------------------------------------------------
    def _stamp(self) -> Time:
        return self.get_clock().now().to_msg()

    # The periodic state topics are built only for an audience (a subscriber, or a bag recorder:
    # get_subscription_count counts both): on a busy node, building messages nobody reads is
    # most of its work (/tf: 27 transforms at 25 Hz on the Nao).
    def _publish_joint_states(self) -> None:
        header = None
        for io in self._robots.values():
            if not io.joint_states.get_subscription_count():
                continue
            header = header or Header(stamp=self._stamp())
            q, dq, tau = self.physics.joint_state(io.name)
            io.joint_states.publish(JointState(header=header, name=io.joints, position=q,
                                               velocity=dq, effort=tau))

    def _publish_link_poses(self) -> None:
        header = None
        for io in self._robots.values():
            if not io.link_poses.get_subscription_count():
                continue
            header = header or Header(stamp=self._stamp(), frame_id='world')
            _, pos, quat = self.physics.link_poses(io.name)
            io.link_poses.publish(PoseArray(header=header,
                                            poses=[_pose(p, q) for p, q in zip(pos, quat)]))

    def _log_unsafe_commands(self) -> None:
        for warning in self.physics.command_warnings(self.get_clock().now().nanoseconds):
            self.get_logger().warning(warning)

    def _publish_odometry(self) -> None:
        stamp = None
        for io in self._robots.values():
            if not io.odometry.get_subscription_count():
                continue
            stamp = stamp or self._stamp()
            pos, quat = self.physics.base_pose(io.name)
            lin, ang = self.physics.base_twist(io.name)
            io.odometry.publish(Odometry(
                header=Header(stamp=stamp, frame_id=WORLD_FRAME), child_frame_id=io.base_frame,
                pose=PoseWithCovariance(pose=_pose(pos, quat)),
                twist=TwistWithCovariance(twist=Twist(linear=_vec(lin), angular=_vec(ang)))))

    def _publish_imu(self) -> None:
        if not getattr(self.physics, 'sensors_fresh', True):
            return  # an audience that appeared after the last step: the next period has it
        stamp = None
        for io in self._robots.values():
            if not io.imu.get_subscription_count():
                continue
            stamp = stamp or self._stamp()
            quat, gyro, acc = self.physics.imu(io.name)
            io.imu.publish(Imu(header=Header(stamp=stamp, frame_id=io.imu_frame),
                               orientation=_quat(quat), angular_velocity=_vec(gyro),
                               linear_acceleration=_vec(acc)))

    def _publish_contacts(self) -> None:
        if not getattr(self.physics, 'sensors_fresh', True):
            return  # (contact forces come with the sensors: see _publish_imu)
        stamp = None
        for io in self._robots.values():
            if not io.contacts.get_subscription_count():
                continue
            stamp = stamp or self._stamp()
            touching, force = self.physics.contacts(io.name)
            io.contacts.publish(LinkContacts(
                header=Header(stamp=stamp, frame_id=WORLD_FRAME), link_names=io.contact_links,
                in_contact=touching.tolist(), force=[_vec(f) for f in force]))

    def _publish_tf(self) -> None:
        if not self._tf_pub.get_subscription_count():
            return
        stamp = self._stamp()
        transforms = []
        for io in self._robots.values():
            links, pos, quat = self.physics.link_poses(io.name)
            base = io.link_index[io.base_link]
            transforms += _transforms(stamp, [(WORLD_FRAME, io.base_frame)],
                                      pos[base:base + 1], quat[base:base + 1])
            if io.moving:
                p, q = relative_poses(pos, quat, io.moving[1], io.moving[2])
                transforms += _transforms(stamp, io.moving[0], p, q)
        self._tf_pub.publish(TFMessage(transforms=transforms))

    def _publish_tf_static(self) -> None:
        if 'tf' not in self.physics.features:
            return
        stamp = self._stamp()
        transforms = []
        for io in self._robots.values():
            if io.fixed:
                links, pos, quat = self.physics.link_poses(io.name)
                p, q = relative_poses(pos, quat, io.fixed[1], io.fixed[2])
                transforms += _transforms(stamp, io.fixed[0], p, q)
        self._tf_static_pub.publish(TFMessage(transforms=transforms))

    def _sensors_wanted(self) -> bool:
        """Will the node read the backend's sensors (imu, contacts, sensor plug-ins)? Only for
        an audience: a subscriber or a bag recorder of one of their topics."""
        for pub in self._sensor_pubs:
            if pub.get_subscription_count():
                return True
        return False

    # -- services -------------------------------------------------------------------------------
    def _on_reset(self, request, response):
        self.physics.reset()
        for io in self._robots.values():
            io.metrics.reset()
        self._sample_metrics()
        self.get_logger().info('world and robots reset to their initial state')
        return response

    def _on_pause(self, request, response):
        self.physics.paused = bool(request.data)
        response.success = True
        response.message = 'paused' if self.physics.paused else 'running'
        return response

    def _on_step(self, request, response):
        if not self.physics.paused:
            response.success = False
            response.message = 'the simulation is running: pause it (/sim/pause) before stepping'
        else:
            self.physics.step(int(request.steps))
            response.success = True
            response.message = f'stepped {request.steps} steps'
        sec, nsec = divmod(self.physics.sim_ns, 1_000_000_000)
        response.sim_time = Time(sec=sec, nanosec=nsec)
        return response

    def _on_set_pose(self, request, response):
        p, o = request.pose.position, request.pose.orientation
        try:
            self.physics.set_pose(request.name, [p.x, p.y, p.z], [o.w, o.x, o.y, o.z])
        except SimConfigError as exc:
            response.success, response.message = False, str(exc)
            return response
        response.success, response.message = True, f'{request.name} moved'
        return response

    # -- metrics -------------------------------------------------------------------------------
    def _sample_metrics(self) -> None:
        now_s = self.physics.sim_ns * 1e-9
        for io in self._robots.values():
            io.metrics.sample(now_s)

    def robot_metrics(self, robot: str) -> dict:
        """The metrics observer's summary of one robot now (what /<robot>/metrics carries)."""
        return self._robots[robot].metrics.summary()

    def publish_metrics(self) -> None:
        """Sample now and publish every robot's metrics on /<robot>/metrics (to an audience)."""
        self._sample_metrics()
        header = None
        for io in self._robots.values():
            if not io.metrics_pub.get_subscription_count():
                continue
            header = header or Header(stamp=self._stamp(), frame_id=WORLD_FRAME)
            io.metrics_pub.publish(to_message(io.metrics.summary(), RobotMetricsMsg, header,
                                              io.name))

    # -- reports for robozoo run ----------------------------------------------------------------
    def robozoo_metrics(self) -> dict:
        out = dict(self.physics.metrics())
        out['commands'] = {io.name: io.commands for io in self._robots.values()}
        out['world_warnings'] = list(self.physics.warnings)
        return out

    # -- standalone -----------------------------------------------------------------------------
    def run_free(self) -> None:
        """Without a lockstep executor (ros2 run / ros2 launch): a thread of its own steps physics
        on the wall clock and publishes /clock after every physics step. One step per /clock
        message because rcl timers skip the periods they missed: behind a 10 ms /clock a 250 Hz
        controller in another process ticks at 100 Hz. The thread, not a timer of this node,
        because each wake-up of rclpy's executor costs time in proportion to the node's entities
        (~100 here: a command topic per joint, services, publishers): one per physics step kept
        the node below real time. The executor now wakes for commands, services and the state
        publishers; a lock keeps their callbacks and a physics step apart.

        ``real_time_factor`` 0 ("as fast as possible" under lockstep) means real time here. A
        step that falls behind the wall clock is not caught up in a burst (that would skip
        controllers' ticks too): the run slows down instead. Sim time stays at 0 until every
        node of ``start_after_nodes`` has said it is ready on zoo_runtime.entry's
        NODE_READY_TOPIC (at most ``start_timeout`` wall seconds), so that a launched scenario
        starts all its nodes at t = 0, as the embedded world does."""
        rtf = self.get_parameter('real_time_factor').value
        self._free_period = self.physics.step_ns * 1e-9 / (rtf if rtf > 0 else 1.0)
        self._clock_pub = self.create_publisher(Clock, '/clock', 10)
        self._own_clock = _stop_hearing_own_clock(self)
        self._waiting_for = set(self._list('start_after_nodes', str))
        if self._waiting_for:
            from zoo_runtime.entry import NODE_READY_TOPIC
            self.create_subscription(String, NODE_READY_TOPIC, self._on_node_ready, QoSProfile(
                depth=100, durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL))
            self.get_logger().info('sim time starts when these nodes are ready: '
                                   + ', '.join(sorted(self._waiting_for)))
        timeout = self.get_parameter('command_sync_timeout').value
        self._command_sync = CommandSync(timeout) if timeout > 0 else None
        self._free_running = True
        self._free_thread = threading.Thread(target=self._free_loop, name='physics', daemon=True)
        self._free_thread.start()

    def _on_node_ready(self, msg: String) -> None:
        if msg.data in self._waiting_for:
            self._waiting_for.discard(msg.data)
            if not self._waiting_for:
                self.get_logger().info('every node is ready: sim time starts')

    def _free_loop(self) -> None:
        deadline = time.monotonic() + self.get_parameter('start_timeout').value
        while self._waiting_for and self._free_running:
            if time.monotonic() > deadline:
                self.get_logger().warning(
                    'start_timeout: sim time starts without these nodes ready: '
                    + ', '.join(sorted(self._waiting_for)))
                break
            time.sleep(0.01)
        period = self._free_period
        due = time.monotonic()
        while self._free_running and self.context.ok():
            due += period
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            elif wait < -period:
                due = time.monotonic()  # behind: slow down, no burst
            if self._command_sync is not None:
                self._command_sync.wait(self.physics.sim_ns)
            try:
                with self._physics_lock:
                    self._free_tick()
            except Exception as exc:
                if not self.context.ok():  # shut down (Ctrl-C) while stepping: done
                    return
                # a failing step must not leave the node up with time stopped
                self.get_logger().error(f'physics stopped: {type(exc).__name__}: {exc}')
                rclpy.try_shutdown(context=self.context)
                return

    def _free_tick(self) -> None:
        self.physics.advance(1)
        sec, nsec = divmod(self.physics.sim_ns, 1_000_000_000)
        self._clock_pub.publish(Clock(clock=Time(sec=sec, nanosec=nsec)))
        if self._own_clock is not None:
            self._own_clock.set_ros_time_override(
                rclpy.time.Time(nanoseconds=self.physics.sim_ns,
                                clock_type=rclpy.clock_type.ClockType.ROS_TIME))

    # Under real rclpy the physics thread of run_free and this node's callbacks take turns.
    def create_subscription(self, msg_type, topic, callback, *args, **kwargs):
        return super().create_subscription(msg_type, topic, self._locked(callback), *args,
                                           **kwargs)

    def create_service(self, srv_type, name, callback, *args, **kwargs):
        return super().create_service(srv_type, name, self._locked(callback), *args, **kwargs)

    def create_timer(self, period, callback, *args, **kwargs):
        return super().create_timer(period, self._locked(callback), *args, **kwargs)

    def _locked(self, callback):
        if EMBEDDED:  # one thread: the lockstep executor; no lock on its hot path
            return callback
        lock = self._physics_lock

        def run(*args):
            with lock:
                return callback(*args)
        return run

    def destroy_node(self):
        self._free_running = False
        if self._free_thread is not None:
            self._free_thread.join(5.0)
        close = getattr(self.physics, 'close', None)
        if close is not None and (self._free_thread is None or not self._free_thread.is_alive()):
            close()  # gz-sim's server and transport threads, before the interpreter goes
        return super().destroy_node()


def _stop_hearing_own_clock(node):
    """Under real rclpy the simulator sets its own sim time instead of hearing its /clock back
    through DDS: that subscription woke the executor once more per physics step, the largest cost
    of the standalone simulator. rclpy has no public call for it: TimeSource.detach_node drops the
    /clock subscription (ros2/rclpy jazzy, rclpy/time_source.py), the clock stays on ROS time and
    takes overrides. The clock to drive, or None (embedded: the node keeps its subscription)."""
    if EMBEDDED:  # (the embedded node's _time_source is zoo_runtime's own: not read here)
        return None
    time_source = getattr(node, '_time_source', None)
    clock = node.get_clock()
    if time_source is None or not clock.ros_time_is_active:
        return None
    time_source.detach_node()
    return clock


class _RobotIO:
    """One robot's publishers, command subscriptions and TF tree."""

    def __init__(self, node: Simulator, name: str):
        physics = node.physics
        info = physics.robot_info(name)
        self.name = name
        self.joints = list(info.joints)
        self.commands = 0
        ns = f'/{name}'
        self.base_link = info.base_link
        self.base_frame = f'{name}/{info.base_link}'
        self.imu_frame = f'{name}/{info.imu_link}'
        self.contact_links = list(info.contact_links)
        self.joint_states = node.create_publisher(JointState, f'{ns}/joint_states', 10)
        self.link_poses = node.create_publisher(PoseArray, f'{ns}/link_poses', 10)
        self.odometry = node.create_publisher(Odometry, f'{ns}/odometry/ground_truth', 10)
        self.imu = node.create_publisher(Imu, f'{ns}/imu', 10)
        self.contacts = node.create_publisher(LinkContacts, f'{ns}/contacts', 10)
        self.metrics = RobotMetrics(physics, name)  # zoo_sim.metrics: the one observer
        self.metrics_pub = node.create_publisher(RobotMetricsMsg, f'{ns}/metrics', 10)
        description = node.create_publisher(String, f'{ns}/robot_description', LATCHED)
        description.publish(String(data=info.urdf))
        self._physics = physics
        self._node = node
        self._commanders = {kind: physics.commander(name, kind) for kind in ('velocity', 'effort')}
        for i, joint in enumerate(self.joints):
            node.create_subscription(Float64, f'{ns}/{joint}/cmd_vel',
                                     self._single(i, 'velocity'), 10)
            node.create_subscription(Float64, f'{ns}/{joint}/cmd_force',
                                     self._single(i, 'effort'), 10)
        node.create_subscription(JointState, f'{ns}/joint_commands', self._grouped, 10)
        if hasattr(physics, 'pd_commands'):  # a backend may lack PD commands (contract)
            node.create_subscription(JointPDCommand, f'{ns}/joint_pd_commands', self._pd, 10)
        if info.servo_goals:  # servos (AX-12: simulated, or on a Dynamixel bus) take goals
            node.create_subscription(JointState, f'{ns}/joint_targets', self._goals, 10)
            if hasattr(physics, 'servo_settings'):  # optional in the contract
                node.create_subscription(ServoSettings, f'{ns}/servo_settings',
                                         self._servo_settings, 10)
        self.sensor_pubs = []
        for sensor in info.sensors:
            if not getattr(sensor, 'publishes', True):
                continue  # (joint encoders: their noise is in joint_states)
            pub = node.create_publisher(sensor.msg_type, sensor.topic, 10)
            self.sensor_pubs.append(pub)
            node.create_timer(1.0 / sensor.spec.rate, _sensor_publisher(node, name, sensor, pub))
        self._index = {j: i for i, j in enumerate(self.joints)}
        self._index_cache: dict[tuple, np.ndarray] = {}  # see _indices
        self.link_index = {ln: i for i, ln in enumerate(info.links)}  # link_poses() order
        moving, fixed = ([], [], []), ([], [], [])
        for j in info.tree:
            tree = fixed if j.fixed else moving
            tree[0].append((f'{name}/{j.parent}', f'{name}/{j.child}'))
            tree[1].append(self.link_index[j.parent])
            tree[2].append(self.link_index[j.child])
        self.moving = moving if moving[0] else None
        self.fixed = fixed if fixed[0] else None

    def _single(self, index: int, kind: str):
        # a backend may offer the whole per-message path as one callable (commander's work and
        # the count, without a second call per message); else the commander does the work
        fused = getattr(self._physics, 'command_callback', None)
        callback = fused(self.name, kind, index, self) if fused is not None else None
        if callback is not None:
            return callback
        command = self._commanders[kind]

        def callback(msg: Float64) -> None:
            self.commands += 1
            command(index, msg.data)
        return callback

    def _indices(self, topic: str, names, fields: dict, required: bool) -> np.ndarray | None:
        """Joint indices of ``names`` when every field (``{label: values}``) has one value per
        name (``required``: or, if not, none); otherwise one throttled warning naming the topic
        and the problem, and None: a malformed message is dropped whole."""
        self.commands += 1
        # a commander sends the same names every time: their indices are kept per list of names
        # (read-only arrays, shared by the commands of those names)
        key = names if names.__class__ is tuple else tuple(names)
        found = self._index_cache.get(key)
        problem = None
        if found is None:
            idx = [self._index.get(n, -1) for n in names]
            if -1 in idx:
                problem = f"unknown joint '{names[idx.index(-1)]}'"
            else:
                found = np.asarray(idx, dtype=int)
                found.flags.writeable = False
                if len(self._index_cache) >= 16:  # many different lists: keep the latest
                    self._index_cache.clear()
                self._index_cache[key] = found
        if found is not None:
            for label, values in fields.items():
                if len(values) != len(found) and (required or len(values)):
                    problem = f'{len(found)} names but {len(values)} {label} values'
        if problem is not None:
            self._node.get_logger().warning(
                f'/{self.name}/{topic}: {problem}; message dropped', throttle_duration_sec=1.0)
            return None
        return found

    def _sync_note(self, topic: str, stamp) -> int:
        """Tell the command sync a command stamped ``stamp`` came on ``topic``; the stamp in ns."""
        stamp_ns = stamp.sec * 1_000_000_000 + stamp.nanosec
        sync = self._node._command_sync
        if sync is not None:
            sync.note((self.name, topic), stamp_ns)
        return stamp_ns

    def _grouped(self, msg: JointState) -> None:
        """Velocities and/or efforts by joint name (the effort is applied last and wins)."""
        idx = self._indices('joint_commands', msg.name,
                            {'velocity': msg.velocity, 'effort': msg.effort}, required=False)
        if idx is None:
            return
        self._sync_note('joint_commands', msg.header.stamp)
        if len(msg.velocity):
            self._physics.commands(self.name, idx, 'velocity', np.asarray(msg.velocity, float))
        if len(msg.effort):
            self._physics.commands(self.name, idx, 'effort', np.asarray(msg.effort, float))

    def _goals(self, msg: JointState) -> None:
        """Servo goal positions by joint name."""
        idx = self._indices('joint_targets', msg.name, {'position': msg.position}, required=True)
        if idx is not None:
            stamp_ns = self._sync_note('joint_targets', msg.header.stamp)
            self._physics.servo_goals(self.name, idx, np.asarray(msg.position, dtype=float),
                                      stamp_ns=stamp_ns)

    def _servo_settings(self, msg: ServoSettings) -> None:
        """Torque enable, speed and torque limits by joint name (a bus's RAM registers)."""
        fields = {'torque_enable': msg.torque_enable, 'speed_limit': msg.speed_limit,
                  'torque_limit': msg.torque_limit}
        idx = self._indices('servo_settings', msg.name, fields, required=True)
        if idx is None:
            return
        try:
            self._physics.servo_settings(self.name, idx, *(np.asarray(f) for f in fields.values()))
        except SimConfigError as e:
            self._node.get_logger().warning(f'/{self.name}/servo_settings: {e}; message dropped',
                                            throttle_duration_sec=1.0)

    def _pd(self, msg: JointPDCommand) -> None:
        """PD + feed-forward by joint name."""
        fields = {'position': msg.position, 'velocity': msg.velocity, 'effort': msg.effort,
                  'kp': msg.kp, 'kd': msg.kd}
        idx = self._indices('joint_pd_commands', msg.name, fields, required=True)
        if idx is None:
            return
        self._sync_note('joint_pd_commands', msg.header.stamp)
        q, dq, tau, kp, kd = (np.asarray(f, dtype=float) for f in fields.values())
        self._physics.pd_commands(self.name, idx, q, dq, kp, kd, tau)


def _sensor_publisher(node: Simulator, robot: str, sensor, pub):
    read = node.physics.sensor_values

    def publish() -> None:
        if pub.get_subscription_count():
            msg = sensor.message(read(robot, sensor), node._stamp())
            if msg is not None:  # None: no reading (a camera without offscreen GL)
                pub.publish(msg)
    return publish


def _pairs(items, param: str) -> dict[str, str]:
    """``['key:=value', ...]`` (the xacro/ros2 launch argument form) as a dict."""
    out = {}
    for item in items or []:
        key, sep, value = item.partition(':=')
        if not sep or not key:
            raise SimConfigError(f"parameter {param}: expected 'name:=value' items, got '{item}'")
        out[key] = value
    return out


def _vec(v) -> Vector3:
    x, y, z = v.tolist()
    return Vector3(x=x, y=y, z=z)


def _quat(q) -> Quaternion:
    w, x, y, z = q.tolist()
    return Quaternion(w=w, x=x, y=y, z=z)


def _pose(pos, quat) -> Pose:
    x, y, z = pos.tolist()
    return Pose(position=Point(x=x, y=y, z=z), orientation=_quat(quat))


def _transforms(stamp, frames: list[tuple[str, str]], pos: np.ndarray, quat: np.ndarray
                ) -> list[TransformStamped]:
    """One TransformStamped per (parent, child) frame pair; ``pos`` (n, 3), ``quat`` (n, 4)
    w x y z. Built from whole-array ``tolist()`` (the /tf rate makes this a hot path)."""
    return [TransformStamped(header=Header(stamp=stamp, frame_id=parent), child_frame_id=child,
                             transform=Transform(translation=Vector3(x=x, y=y, z=z),
                                                 rotation=Quaternion(x=qx, y=qy, z=qz, w=w)))
            for (parent, child), (x, y, z), (w, qx, qy, qz) in zip(frames, pos.tolist(),
                                                                  quat.tolist())]


def main(args=None) -> None:
    def make() -> Simulator:  # standalone: the node steps physics itself and publishes /clock
        node = Simulator(parameter_overrides=[Parameter('use_sim_time', value=True)])
        node.run_free()
        return node
    spin_node(make, args)
