"""The R20 state log beside the rosbag2 (ROS shell): at ``rate`` (10 Hz) one line of link poses
(``link_poses``) and joint angle, velocity and torque (``joint_states``), written to
``<run folder>/state_log.csv`` at the end of a ``robozoo run`` (``robozoo_write_outputs``) or to
``output`` (a path) when given.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.geometry_msgs.msg import PoseArray
from zoo_runtime.interfaces.sensor_msgs.msg import JointState

from . import state_log

Node = rclpy.node.Node


class StateLogger(Node):
    def __init__(self, **kwargs):
        super().__init__('state_logger', **kwargs)
        p = parameter_schema.load('snake_gaits', 'state_logger').declare(self)
        rate, self.output, published = p['rate'], p['output'], p['links']
        self.links, self._keep = state_log.module_index(list(published))
        self.joints: list[str] | None = None
        self.rows: list[np.ndarray] = []
        self._poses: tuple[np.ndarray, np.ndarray] | None = None
        self._joints: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.create_subscription(PoseArray, 'link_poses', self._on_poses, 10)
        self.create_subscription(JointState, 'joint_states', self._on_joints, 10)
        self.create_timer(1.0 / rate, self._tick)

    def _on_poses(self, msg: PoseArray) -> None:
        p = [msg.poses[i] for i in self._keep if i < len(msg.poses)]
        self._poses = (np.array([[a.position.x, a.position.y, a.position.z] for a in p]),
                       np.array([[a.orientation.w, a.orientation.x, a.orientation.y,
                                  a.orientation.z] for a in p]))

    def _on_joints(self, msg: JointState) -> None:
        self.joints = list(msg.name)
        self._joints = (np.asarray(msg.position), np.asarray(msg.velocity),
                        np.asarray(msg.effort))

    def _tick(self) -> None:
        if self._poses is None or self._joints is None:
            return
        t = self.get_clock().now().nanoseconds * 1e-9
        self.rows.append(state_log.row(t, *self._poses, *self._joints))

    def robozoo_write_outputs(self, folder: Path) -> list[Path]:
        path = Path(self.output) if self.output else Path(folder) / 'state_log.csv'
        return [state_log.write(path, self.links, self.joints or [], self.rows)]

    def robozoo_metrics(self) -> dict:
        return {'lines': len(self.rows)}


def main(args=None):
    spin_node(StateLogger, args)
