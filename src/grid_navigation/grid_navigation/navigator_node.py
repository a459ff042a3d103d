"""The navigator node: plans on the grid of the scenario's world, walks the plan with the three
keyframe strides and reports. Heading and position come from ground truth (the thesis' GPS and
compass): ``odometry_topic`` (nav_msgs/Odometry, default ``odometry/ground_truth`` in the robot's
namespace). Publishes ``joint_targets`` (to the joint PID controller), ``plan`` (nav_msgs/Path,
latched) and ``map`` (nav_msgs/OccupancyGrid, latched).

Parameters: params/navigator.yaml (PARAMETERS.md). summary.json: status, goal_reached,
final_distance_to_goal_m, path lengths, time, min_clearance_m (ground-truth base position to the nearest obstacle footprint), falls,
primitive counts; the run folder gets navigation.png (grid, plan,
walked path) and navigation_log.csv (per primitive: pose, waypoint, cross-track error,
correction, command; R27).
"""
from __future__ import annotations

import csv
import math
from pathlib import Path

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.nav_msgs.msg import OccupancyGrid, Odometry, Path as PathMsg
from zoo_runtime.interfaces.sensor_msgs.msg import JointState

from . import ros_conversions as rc
from . import stride_player
from .navigator import NAVIGATING, REACHED, NavParams, Navigator
from .planner import path_length, plan_xy

Node = rclpy.node.Node
LATCHED = rclpy.qos.QoSProfile(depth=1, durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)
FALL_TILT = math.radians(45.0)  # as zoo_sim.metrics
FELL = 'fell'
FINISHED_AFTER = 3.0  # s standing after the last stride before the run may end


class GridNavigator(Node):
    def __init__(self, **kwargs):
        super().__init__('navigator', **kwargs)
        p = parameter_schema.load('grid_navigation', 'navigator').declare(self)
        self.grid = rc.grid_from_parameters(self, p)
        self.goal = (float(p['goal'][0]), float(p['goal'][1]))
        odom, rate = p['odometry_topic'], p['rate']
        self.start_delay, self.settle_time = p['start_delay'], p['settle_time']
        self.fall_height = p['fall_height']
        pivot = list(p['turn_pivot'])
        params = NavParams(arrival_tolerance=p['arrival_tolerance'],
                           cross_track_max=p['cross_track_max'], max_turn=p['max_turn'],
                           replan_distance=p['replan_distance'], turn_pivot=(pivot[0], pivot[1]))
        self.nav = Navigator(self._plan, params)
        self.plans: list[list[tuple[float, float]]] = []
        self.stand = stride_player.forward()  # its first frame is the standing pose
        self.joints = list(self.stand.joints)
        self.pose: tuple[float, float, float] | None = None
        self.walked: list[tuple[float, float]] = []
        self.walked_length = 0.0
        self.min_clearance = math.inf
        self.falls = 0
        self._fallen = False
        self.max_turn_issued = 0.0
        self.t_first_cmd: float | None = None
        self.t_stop: float | None = None
        self.rows: list[dict] = []
        self._playing = None  # (keyframes, start time)
        self._t0: float | None = None
        self._targets = self.create_publisher(JointState, 'joint_targets', 10)
        self._plan_pub = self.create_publisher(PathMsg, 'plan', LATCHED)
        self._map_pub = self.create_publisher(OccupancyGrid, 'map', LATCHED)
        self._map_pub.publish(rc.grid_message(self.grid, self.get_clock().now().to_msg()))
        self.create_subscription(Odometry, odom, self._on_odometry, 10)
        self.create_timer(1.0 / rate, self._tick)

    # -- planning ---------------------------------------------------------------------------
    def _plan(self, start):
        plan = plan_xy(self.grid, start, self.goal, corner_cutting=self.grid.corner_cutting)
        if not plan.ok:
            self.get_logger().error(f'no path from ({start[0]:.3f}, {start[1]:.3f}) to '
                                    f'{self.goal}: {plan.reason}')
            return plan.reason
        points = [self.grid.cell_to_world(*c) for c in plan.cells]
        self.plans.append(points)
        self._plan_pub.publish(rc.path_message(points, self.get_clock().now().to_msg()))
        self.get_logger().info(f'plan {len(self.plans)}: {len(points)} nodes, cost '
                               f'{plan.cost:.5f} m')
        return points

    # -- ground truth -----------------------------------------------------------------------
    def _on_odometry(self, msg: Odometry) -> None:
        p, q = msg.pose.pose.position, msg.pose.pose.orientation
        pose = (p.x, p.y, rc.yaw_of(q))
        if self.pose is not None:
            self.walked_length += math.dist(self.pose[:2], pose[:2])
        self.pose = pose
        self.walked.append((p.x, p.y))
        self.min_clearance = min(self.min_clearance, self.grid.clearance(p.x, p.y))
        tilt = math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (q.x * q.x + q.y * q.y))))
        fallen = p.z < self.fall_height or tilt > FALL_TILT
        if fallen and not self._fallen:
            self.falls += 1
            self.get_logger().error(f'fell at ({p.x:.3f}, {p.y:.3f}), height {p.z:.3f} m')
            if self.nav.status == NAVIGATING:
                self.nav.status, self.nav.reason = FELL, 'the robot fell'
        self._fallen = fallen

    # -- the loop ---------------------------------------------------------------------------
    def _tick(self) -> None:
        now = self.get_clock().now()
        t = now.nanoseconds * 1e-9
        if self._t0 is None:
            self._t0 = t
        frames, t_start = self._playing or (self.stand, t)
        elapsed = t - t_start
        if self._playing is not None and elapsed >= frames.duration + self.settle_time:
            self._playing = None
        if self._playing is None and self.pose is not None and \
                t - self._t0 >= self.start_delay and self.t_stop is None:
            self._next(t)
        self._publish(frames.sample(min(elapsed, frames.duration)), now)

    def _next(self, t: float) -> None:
        nav = self.nav
        cmd = nav.step(self.pose) if nav.status == NAVIGATING else None
        log = nav.log[-1] if nav.log else {}
        self.rows.append({'time': round(t, 3), 'x': self.pose[0], 'y': self.pose[1],
                          'yaw': self.pose[2], 'waypoint': log.get('waypoint', ''),
                          'cross_track': log.get('cross_track', ''),
                          'correction': log.get('correction', ''),
                          'command': cmd.kind if cmd else nav.status,
                          'angle': cmd.angle if cmd else ''})
        if cmd is None:
            self.t_stop = t
            self.get_logger().info(f'stopped: {nav.status} {nav.reason}'.strip())
            return
        if self.t_first_cmd is None:
            self.t_first_cmd = t
        self.max_turn_issued = max(self.max_turn_issued, abs(cmd.angle))
        self._playing = (stride_player.primitive(cmd), t)

    def _publish(self, positions, now) -> None:
        msg = JointState(name=self.joints, position=positions.tolist())
        msg.header.stamp = now.to_msg()
        self._targets.publish(msg)

    # -- reports ----------------------------------------------------------------------------
    def robozoo_finished(self) -> bool:
        """Done (robozoo run ends the scenario): stopped for good and then standing still for
        FINISHED_AFTER seconds, so a fall after the last stride is still seen."""
        if self.t_stop is None:
            return False
        return self.get_clock().now().nanoseconds * 1e-9 - self.t_stop >= FINISHED_AFTER

    def robozoo_metrics(self) -> dict:
        nav = self.nav
        final = math.dist(self.pose[:2], self.goal) if self.pose else None
        t_end = self.t_stop if self.t_stop is not None else self.get_clock().now().nanoseconds \
            * 1e-9
        return {
            'status': nav.status, 'reason': nav.reason,
            'goal': list(self.goal),
            'goal_reached': nav.status == REACHED and final is not None and
            final <= nav.p.arrival_tolerance,
            'final_distance_to_goal_m': final,
            'planned_path_length_m': path_length(self.plans[0]) if self.plans else None,
            # between the poses at which primitives started (the side-to-side sway of the
            # weight shifts, about 0.07 m per stride, is in body_travel_m)
            'walked_path_length_m': path_length([(r['x'], r['y']) for r in self.rows] +
                                                ([self.pose[:2]] if self.pose else [])),
            'body_travel_m': self.walked_length,
            'time_s': (t_end - self.t_first_cmd) if self.t_first_cmd is not None else 0.0,
            'min_clearance_m': self.min_clearance if self.walked else None,
            'falls': self.falls,
            'forward_steps': nav.forward_steps,
            'turn_primitives': nav.primitives - nav.forward_steps,
            'max_turn_rad': self.max_turn_issued,
            'corrections': nav.corrections,
            'replans': nav.replans,
        }

    def robozoo_write_outputs(self, folder: Path) -> list[Path]:
        from .plot import plot_navigation
        folder = Path(folder)
        png = plot_navigation(folder / 'navigation.png', self.grid,
                              self.plans[-1] if self.plans else [], self.walked, self.goal,
                              f'{Path(self.grid.source).stem}: {self.nav.status}')
        log = folder / 'navigation_log.csv'
        with log.open('w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=['time', 'x', 'y', 'yaw', 'waypoint',
                                              'cross_track', 'correction', 'command', 'angle'])
            w.writeheader()
            w.writerows(self.rows)
        return [png, log]


def main(args=None):
    spin_node(GridNavigator, args)
