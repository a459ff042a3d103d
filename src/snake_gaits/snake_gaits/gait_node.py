"""The snake's gait player (ROS shell): a serpenoid gait through the R25 protocol, or an angle
file, as goal positions on ``joint_targets`` at 10 Hz (spec §3.4, R10, R19, R25).

Parameters: ``gait`` (linear_progression | lateral_rolling | sidewinding), the seven serpenoid
parameters (``amplitude_odd`` ... ``offset``; NaN: the preset's), ``direction`` (+1/-1),
``leg_s`` (4 s), ``legs`` (2: forward then reversed), ``angle_file`` (a path: play it instead of
a gait; the run ends with the file). Reads ``link_poses`` (the simulator's, world frame) to
measure each leg: module-centroid displacement along the initial body axis (toward link 0) and
across it, the heading change and the largest module roll about the body axis (``roll.py``);
reported in summary.json (``robozoo_metrics``).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from zoo_runtime import rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.geometry_msgs.msg import PoseArray
from zoo_runtime.interfaces.sensor_msgs.msg import JointState

from . import angle_file, state_log
from .roll import module_roll_deg
from .serpenoid import SAMPLE_INTERVAL, GaitError, Serpenoid, SerpenoidParams, preset

Node = rclpy.node.Node
PARAMS = [f.name for f in dataclasses.fields(SerpenoidParams) if f.name != 'direction']


class SnakeGait(Node):
    def __init__(self, **kwargs):
        super().__init__('snake_gait', **kwargs)
        gait = self.declare_parameter('gait', 'linear_progression').value
        overrides = {}
        for name in PARAMS:
            value = self.declare_parameter(name, math.nan).value
            if not math.isnan(value):
                overrides[name] = float(value)
        direction = int(self.declare_parameter('direction', 1).value)
        self.leg_s = float(self.declare_parameter('leg_s', 4.0).value)
        n_legs = int(self.declare_parameter('legs', 2).value)
        path = self.declare_parameter('angle_file', '').value
        if path:
            self.joints, self.table = angle_file.read(path)
            self.plan = [('file', None, len(self.table))]
            self.gait_name = f'angle file {path}'
        else:
            try:
                params = preset(gait, direction=direction, **overrides)
            except (GaitError, TypeError) as exc:
                raise GaitError(f'{self.get_name()}: {exc}') from None
            ticks = int(round(self.leg_s / SAMPLE_INTERVAL))
            self.plan = [(('forward', 'reversed')[i % 2],
                          Serpenoid(params if i % 2 == 0 else params.reversed()), ticks)
                         for i in range(n_legs)]
            self.joints = list(self.plan[0][1].joints)
            self.gait_name = gait
        published = self.declare_parameter('links', state_log.PUBLISHED_LINKS).value
        self._names, self._keep = state_log.module_index(list(published))
        self._first_axis = self.declare_parameter('first_axis', 'pitch').value
        self._max_roll = 0.0
        self.pub = self.create_publisher(JointState, 'joint_targets', 10)
        self.create_subscription(PoseArray, 'link_poses', self._on_poses, 10)
        self.positions: np.ndarray | None = None
        self.tick, self.leg, self.leg_tick = 0, 0, 0
        self.legs: list[dict] = []
        self._start: tuple[np.ndarray, np.ndarray] | None = None
        self.create_timer(SAMPLE_INTERVAL, self._tick)

    def _on_poses(self, msg: PoseArray) -> None:
        keep = [i for i in self._keep if i < len(msg.poses)]
        self.positions = np.array([[msg.poses[i].position.x, msg.poses[i].position.y]
                                   for i in keep])
        o = [msg.poses[i].orientation for i in keep]
        roll = module_roll_deg(self._names[:len(keep)], [(q.w, q.x, q.y, q.z) for q in o],
                               self._first_axis)
        if roll.size and self.leg < len(self.plan):
            self._max_roll = max(self._max_roll, float(roll.max()))
        if self._start is None and self.leg == 0:  # the first leg starts from the spawn pose
            self._start = self._measure()

    def _measure(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.positions is None:
            return None
        axis = self.positions[0] - self.positions[-1]
        return self.positions.mean(axis=0), axis / max(np.linalg.norm(axis), 1e-12)

    def _tick(self) -> None:
        if self.leg >= len(self.plan):
            return
        kind, gen, ticks = self.plan[self.leg]
        if self.leg_tick == 0 and (self.leg > 0 or self._start is None):
            self._start = self._measure()
        target = self.table[self.leg_tick] if gen is None else gen.sample_rad(self.leg_tick)
        msg = JointState(name=list(self.joints), position=[float(a) for a in target])
        msg.header.stamp = self.get_clock().now().to_msg()
        self.pub.publish(msg)
        self.tick += 1
        self.leg_tick += 1
        if self.leg_tick >= ticks:
            self._end_leg(kind)

    def _end_leg(self, kind: str) -> None:
        end = self._measure()
        record = {'leg': kind}
        if self._start is not None and end is not None:
            (c0, a0), (c1, a1) = self._start, end
            d = c1 - c0
            dh = math.degrees(math.atan2(a1[1], a1[0]) - math.atan2(a0[1], a0[0]))
            record.update(along_m=float(d @ a0), across_m=float(d @ [-a0[1], a0[0]]),
                          dx_m=float(d[0]), dy_m=float(d[1]),
                          heading_deg=(dh + 180.0) % 360.0 - 180.0)
        record['max_roll_deg'] = self._max_roll
        self._max_roll = 0.0
        self.legs.append(record)
        self.leg += 1
        self.leg_tick = 0

    def robozoo_finished(self) -> bool:
        return self.leg >= len(self.plan)

    def robozoo_metrics(self) -> dict:
        return {'gait': self.gait_name, 'goal_updates': self.tick, 'legs': self.legs,
                'finished': self.robozoo_finished()}


def main(args=None):
    spin_node(SnakeGait, args)
