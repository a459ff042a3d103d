"""Plays a keyframe file (see keyframes.py) through ``joint_targets`` on sim time.

Parameters: params/keyframe_player.yaml (PARAMETERS.md). Playback starts at the node's first tick; after the last
keyframe the final pose keeps being published, so the PID watchdog keeps holding it.
"""
from __future__ import annotations

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.interfaces.sensor_msgs.msg import JointState

from . import keyframes
from zoo_runtime.entry import spin_node

Node = rclpy.node.Node


class KeyframePlayer(Node):
    def __init__(self, **kwargs):
        super().__init__('keyframe_player', **kwargs)
        p = parameter_schema.load('joint_pid_control', 'keyframe_player').declare(self)
        name, rate, self.loop = p['file'], p['rate'], p['loop']
        self.frames = keyframes.load(name)
        self._pub = self.create_publisher(JointState, 'joint_targets', 10)
        self._t0: float | None = None
        self.elapsed = 0.0
        self.create_timer(1.0 / rate, self._tick)
        self.get_logger().info(f'playing {name}: {len(self.frames.joints)} joints, '
                               f'{self.frames.duration:g} s{" (looped)" if self.loop else ""}')

    def _tick(self) -> None:
        now = self.get_clock().now()
        t = now.nanoseconds * 1e-9
        if self._t0 is None:
            self._t0 = t
        self.elapsed = t - self._t0
        msg = JointState(name=list(self.frames.joints),
                         position=self.frames.sample(self.elapsed, self.loop).tolist())
        msg.header.stamp = now.to_msg()
        self._pub.publish(msg)

    def robozoo_metrics(self) -> dict:
        return {'elapsed': self.elapsed, 'duration': self.frames.duration,
                'finished': not self.loop and self.elapsed >= self.frames.duration}


def main(args=None):
    spin_node(KeyframePlayer, args)
