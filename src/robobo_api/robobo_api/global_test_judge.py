"""Judging the global test (R22) on ground truth, never on the program's belief.

- :class:`WallContacts`: a step observer of the MuJoCo backend (``physics.step_observers``)
  counting, after every physics step, the contacts between any geom of the robot and the walls'
  geoms, from MuJoCo's contact list; touches = separate contact episodes per wall.
- :func:`reach`: the gap from the robot's front (the front_c IR sensor, 5.34 cm ahead of the
  wheel axle) to the ball's surface and the angle between the robot's heading and the ball,
  from the ground-truth base pose.
- :class:`GlobalTestJudge`: the scenario's node reporting :func:`reach` from
  ``/<robot>/odometry/ground_truth`` in summary.json (``robozoo_metrics``).
"""
from __future__ import annotations

import math

import numpy as np

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.nav_msgs.msg import Odometry

WALLS = ('wall_north', 'wall_south', 'wall_east', 'wall_west')  # worlds/robobo_arena.sdf
BALL_XY = (0.25, 0.25)   # worlds/robobo_arena.sdf, green_ball
BALL_RADIUS = 0.032      # spec 9.2
FRONT_OFFSET = 0.0534    # m, front_c ahead of base_link (the wheel axle), robobo_description
REACH_GAP = 0.10         # m: "stops within about 10 cm" (R22)
FACING_DEG = 15.0


def reach(x: float, y: float, yaw: float, ball=BALL_XY) -> tuple[float, float]:
    """(gap in m from the robot's front to the ball's surface, heading error in degrees)."""
    fx, fy = x + FRONT_OFFSET * math.cos(yaw), y + FRONT_OFFSET * math.sin(yaw)
    gap = math.hypot(ball[0] - fx, ball[1] - fy) - BALL_RADIUS
    bearing = math.atan2(ball[1] - y, ball[0] - x)
    error = (bearing - yaw + math.pi) % (2 * math.pi) - math.pi
    return gap, abs(math.degrees(error))


def yaw_of(q_wxyz) -> float:
    w, x, y, z = q_wxyz
    return math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))


class WallContacts:
    """Counts robot-wall contacts after every physics step (attach with :meth:`attach`)."""

    def __init__(self, physics, robot: str, walls=WALLS):
        m = physics.model
        self.physics = physics
        prefix = f'{robot}/'
        self.robot_bodies = np.array([m.body(i).name.startswith(prefix)
                                      for i in range(m.nbody)])
        self.wall_geoms = np.array([m.geom(i).name.split('/')[0] in walls
                                    for i in range(m.ngeom)])
        self.steps_in_contact = 0
        self.touches = 0          # contact episodes
        self.first_touch_s: float | None = None
        self._touching = False

    def attach(self) -> 'WallContacts':
        self.physics.step_observers.append(self)
        return self

    def detach(self) -> None:
        if self in self.physics.step_observers:
            self.physics.step_observers.remove(self)

    def __call__(self) -> None:
        d, m = self.physics.data, self.physics.model
        n = d.ncon
        touching = False
        if n:
            geoms = d.contact.geom[:n]
            a, b = geoms[:, 0], geoms[:, 1]
            body_a, body_b = m.geom_bodyid[a], m.geom_bodyid[b]
            touching = bool(np.any((self.wall_geoms[a] & self.robot_bodies[body_b]) |
                                   (self.wall_geoms[b] & self.robot_bodies[body_a])))
        if touching:
            self.steps_in_contact += 1
            if not self._touching:
                self.touches += 1
                if self.first_touch_s is None:
                    self.first_touch_s = d.time
        self._touching = touching


class GlobalTestJudge(rclpy.node.Node):
    """Ground-truth reach metrics of one robot for summary.json (wall contacts need the physics
    itself: zoo_bringup.robobo_global_test_check)."""

    def __init__(self, **kwargs):
        super().__init__('global_test_judge', **kwargs)
        p = parameter_schema.load('robobo_api', 'global_test_judge').declare(self)
        self.robot, self.ball = p['robot'], tuple(p['ball_xy'])
        self.pose: tuple[float, float, float] | None = None
        self.start: tuple[float, float, float] | None = None
        self.create_subscription(Odometry, f'/{self.robot}/odometry/ground_truth',
                                 self._on_odom, 10)

    def _on_odom(self, m: Odometry) -> None:
        p, o = m.pose.pose.position, m.pose.pose.orientation
        self.pose = (p.x, p.y, yaw_of((o.w, o.x, o.y, o.z)))
        if self.start is None:
            self.start = self.pose

    def robozoo_metrics(self) -> dict:
        if self.pose is None:
            return {'error': 'no ground truth received'}
        gap, facing = reach(*self.pose, ball=self.ball)
        return {'start': [round(v, 4) for v in self.start], 'end': [round(v, 4) for v in
                                                                    self.pose],
                'gap_cm': round(gap * 100, 2), 'facing_deg': round(facing, 2),
                'reached': gap <= REACH_GAP and facing <= FACING_DEG}


def main(args=None) -> None:
    spin_node(GlobalTestJudge, args)
