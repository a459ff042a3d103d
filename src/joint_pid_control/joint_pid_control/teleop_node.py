"""Keyboard teleop: keys from the terminal move joint targets (mapping in teleop_keys.py).

Parameters: ``rate`` (Hz, default 20: how often keys are read and all targets republished, which
keeps the PID watchdog fed), ``step`` (rad per key press, default 0.05), ``joint_groups_file``
(YAML ``{group: [joint, joint, joint, joint]}``, null for an unused key pair; default: the seed's
six Nao groups). Targets start from the first ``joint_states`` so nothing jumps; nothing is
published before it arrives.
"""
from __future__ import annotations

import os
import select
import sys
import termios
import tty

import yaml

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.interfaces.sensor_msgs.msg import JointState

from zoo_runtime.entry import spin_node
from .params import ParameterError
from .teleop_keys import NAO_GROUPS, Teleop

Node = rclpy.node.Node


class TerminalKeys:
    """Single key presses from a terminal, without waiting for Enter; restores it on close."""

    def __init__(self, stream=sys.stdin):
        if not stream.isatty():
            raise RuntimeError('teleop reads keys from a terminal: run it in one '
                               '(e.g. ros2 run joint_pid_control teleop)')
        self._fd = stream.fileno()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)

    def read(self) -> str:
        keys = ''
        while select.select([self._fd], [], [], 0.0)[0]:
            keys += os.read(self._fd, 32).decode(errors='ignore')
        return keys

    def close(self) -> None:
        termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)


def load_groups(path: str) -> dict:
    try:
        with open(path) as f:
            groups = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise ParameterError(f'joint_groups_file {path}: {e}') from None
    if not isinstance(groups, dict) or not all(isinstance(v, list) for v in groups.values()):
        raise ParameterError(f'joint_groups_file {path}: expected {{group: [joint, ...]}}')
    return groups


class KeyboardTeleop(Node):
    def __init__(self, keys=None, **kwargs):
        super().__init__('teleop', **kwargs)
        p = parameter_schema.load('joint_pid_control', 'teleop').declare(self)
        rate, step, groups_file = p['rate'], p['step'], p['joint_groups_file']
        self.teleop = Teleop(load_groups(groups_file) if groups_file else NAO_GROUPS, step)
        self.keys = keys if keys is not None else TerminalKeys()
        self._started = False
        self._pub = self.create_publisher(JointState, 'joint_targets', 10)
        self.create_subscription(JointState, 'joint_states', self._on_states, 10)
        self.create_timer(1.0 / rate, self._tick)
        print(self.teleop.help(), file=sys.stderr)

    def _on_states(self, msg: JointState) -> None:
        if self._started:
            return
        for name, q in zip(msg.name, msg.position):
            if name in self.teleop.targets:
                self.teleop.targets[name] = q
        self._started = True

    def _tick(self) -> None:
        for key in self.keys.read():
            said = self.teleop.press(key)
            if said:
                print(f'[{self.teleop.group}] {said}', file=sys.stderr)
        if self.teleop.quit:
            raise KeyboardInterrupt  # ends spin(); main() restores the terminal
        if self._started:
            t = self.teleop.targets
            self._pub.publish(JointState(name=list(t), position=list(t.values())))

    def destroy_node(self) -> None:
        self.keys.close()
        super().destroy_node()


def main(args=None):
    spin_node(KeyboardTeleop, args)
