"""Ctrl-C under real rclpy (zoo_runtime.entry.spin_node): rclpy's own signal handler shuts the
context down and the spin ends; the signal must not also raise KeyboardInterrupt wherever the
main thread happens to be. Raised inside the executor between allocating a Task and running its
__init__, it left a half-built Task whose __del__ printed "Exception ignored ... Traceback" at
shutdown (seen in CI under load, in the simulator and the Go1 bridge of launched scenarios)."""
from __future__ import annotations

import subprocess
import sys

NODE = r'''
import os, signal, sys, time
from zoo_runtime import rclpy
from zoo_runtime.entry import spin_node

class Busy(rclpy.node.Node):
    def __init__(self):
        super().__init__('busy')
        self.create_timer(0.01, self.tick)

    def tick(self):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while a callback runs
        total = sum(range(2_000_000))        # Python bytecode: where a KeyboardInterrupt lands
        print('callback finished', total > 0, flush=True)

spin_node(Busy)
print('spin_node returned', flush=True)
'''


def test_ctrl_c_ends_the_spin_without_interrupting_a_callback(ros_env):
    run = subprocess.run([sys.executable, '-c', NODE], env={**ros_env, 'ZOO_RUNTIME': 'ros'},
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr[-3000:]
    assert 'callback finished True' in run.stdout, run.stdout + run.stderr[-3000:]
    assert 'spin_node returned' in run.stdout, run.stdout + run.stderr[-3000:]
    assert 'Traceback' not in run.stderr, run.stderr[-3000:]
