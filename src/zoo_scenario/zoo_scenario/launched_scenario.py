"""A scenario started by the real `ros2 launch` and watched by a real rclpy node in this process:
sim time from /clock, each robot's /<robot>/metrics (zoo_interfaces/RobotMetrics, the same
observer that fills summary.json in the embedded world), any topic's messages, and the launch's
output. Needs a ROS 2 with this workspace's ROS build sourced (tools/ros2_env.sh); the ROS tier's
tests (tests/ros) and benchmarks/bench_ros.py use it."""
from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import QoSProfile, ReliabilityPolicy
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Clock
from zoo_interfaces.msg import RobotMetrics

from .ros_launch import fully_qualified, launch_plan
from .scenario import load_scenario


class LaunchedScenario:
    def __init__(self, scenario: str, env: dict[str, str], log: Path, sets: list[str] = (),
                 launch_args: list[str] = ()):
        """Through robozoo.launch.py scenario:=<scenario>; ``launch_args``: more ``name:=value``
        arguments (``backend:=gazebo``)."""
        self.scenario = scenario
        self.env = env
        self.log = log
        self.robots = [r.name for r in load_scenario(scenario).robots]
        plan = launch_plan(scenario, list(sets))
        self.node_names = sorted(fully_qualified(n.namespace, n.name) for n in plan.nodes)
        args = ['ros2', 'launch', 'zoo_bringup', 'robozoo.launch.py', f'scenario:={scenario}']
        if sets:
            args.append('set:=' + ';'.join(sets))
        args += list(launch_args)
        self._log_file = open(log, 'w')
        self.proc = subprocess.Popen(args, env=env, stdout=self._log_file,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.sim_time = 0.0
        self.metrics: dict[str, list[tuple[float, RobotMetrics]]] = {r: [] for r in self.robots}
        # (sim time, x, y) of each robot's base from /<robot>/odometry/ground_truth
        self.base_xy: dict[str, list[tuple[float, float, float]]] = {r: [] for r in self.robots}
        self._context = rclpy.context.Context()
        rclpy.init(context=self._context, domain_id=int(env['ROS_DOMAIN_ID']))
        self.node = rclpy.create_node('zoo_test_observer', context=self._context)
        best_effort = QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT)
        self.node.create_subscription(Clock, '/clock', self._on_clock, best_effort)
        for robot in self.robots:
            self.node.create_subscription(RobotMetrics, f'/{robot}/metrics',
                                          lambda m, r=robot: self._on_metrics(r, m), 10)
            self.node.create_subscription(Odometry, f'/{robot}/odometry/ground_truth',
                                          lambda m, r=robot: self._on_odometry(r, m), 100)
        self._executor = SingleThreadedExecutor(context=self._context)
        self._executor.add_node(self.node)
        self._spinning = True
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        while self._spinning and self._context.ok():
            self._executor.spin_once(timeout_sec=0.05)

    def _on_clock(self, msg: Clock) -> None:
        self.sim_time = max(self.sim_time, msg.clock.sec + msg.clock.nanosec * 1e-9)

    def _on_metrics(self, robot: str, msg: RobotMetrics) -> None:
        self.metrics[robot].append((msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9, msg))

    def _on_odometry(self, robot: str, msg: Odometry) -> None:
        p = msg.pose.pose.position
        self.base_xy[robot].append(
            (msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9, p.x, p.y))

    def wait_sim_time(self, t: float, wall_timeout: float) -> None:
        end = time.monotonic() + wall_timeout
        while self.sim_time < t:
            assert self.proc.poll() is None, f'ros2 launch exited early:\n{self.output()[-3000:]}'
            assert time.monotonic() < end, (
                f'sim time {self.sim_time:.2f} s < {t} s after {wall_timeout} s of wall time:\n'
                f'{self.output()[-3000:]}')
            time.sleep(0.05)

    def metrics_at(self, robot: str, t: float) -> RobotMetrics:
        """The robot's metrics stamped closest to sim time ``t``."""
        seen = self.metrics[robot]
        assert seen, f'no /{robot}/metrics received:\n{self.output()[-3000:]}'
        return min(seen, key=lambda s: abs(s[0] - t))[1]

    def output(self) -> str:
        if not self._log_file.closed:
            self._log_file.flush()
        return self.log.read_text(errors='replace')

    def stop(self, timeout: float = 30) -> int:
        """SIGINT to `ros2 launch` (as Ctrl-C would), then wait; the launch's exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._spinning = False
        self._thread.join(5)
        self._executor.shutdown()
        self.node.destroy_node()
        self._context.try_shutdown()
        self._log_file.close()
        return self.proc.returncode
