"""Example program: the thesis' global test (specs/robobo.md 6, R22) written only against the real
Robobo's API, robobopy (PyPI, unmodified): drive, avoid the walls with the IR sensors, find the
green ball with the camera's colour blob, stop in front of it. The decisions are
robobo_api.global_test_logic (standard library only; copy it next to this file for a real
robot), the same ones the ROS example (robobo_api.global_test_ros) takes.

    bin/robozoo run robobo_remote &             # the simulated robot, robot id 0
    python src/robobo_api/examples/global_test_robobopy.py --ip 127.0.0.1 --robot-id 0

Against a real Robobo: its IP and robot id 0; the IR thresholds in global_test_logic are for the
simulator's IR scale and need the real robot's values (the thesis: same shape, other numbers).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from robobopy.Robobo import Robobo
from robobopy.utils.BlobColor import BlobColor

# The decisions are robobo_api.global_test_logic, found from the package's sources next to this
# folder by this file's own path (so the program runs from any shell), or copied next to this
# file (a real robot's computer).
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))
try:
    from robobo_api.global_test_logic import GlobalTest
except ImportError:  # copied next to this file
    from global_test_logic import GlobalTest

PERIOD_S = 0.1


def run(ip: str = '127.0.0.1', robot_id: int = 0, limit_s: float = 120.0) -> bool:
    """Drive until the ball is reached (True) or ``limit_s`` seconds pass (False)."""
    rob = Robobo(ip, robot_id)
    rob.connect()
    try:
        rob.movePanTo(0, 30)      # the phone forward (robobopy's pan 0)
        rob.moveTiltTo(70, 30)    # the power-on tilt: the ball is in view near and far
        rob.setActiveBlobs(False, True, False, False)
        while not isinstance(rob.readAllIRSensor(), dict):  # until the first IRS status
            rob.wait(PERIOD_S)
        brain = GlobalTest()
        t0, last = time.time(), None
        while not brain.done and time.time() - t0 < limit_s:
            blob = rob.readColorBlob(BlobColor.GREEN)
            action = brain.step(time.time() - t0, rob.readAllIRSensor(),
                                (blob.posx, blob.posy, blob.size))
            if action.kind == 'turn':     # robobopy takes the right wheel first
                rob.moveWheelsByTime(action.rspeed, action.lspeed, action.seconds)
            elif action.kind == 'stop':
                rob.stopMotors()
            elif action != last:
                rob.moveWheels(action.rspeed, action.lspeed)
            last = action
            rob.wait(PERIOD_S)
        rob.stopMotors()
        return brain.done
    finally:
        rob.disconnect()


def main() -> int:
    ap = argparse.ArgumentParser(description='The Robobo global test with robobopy.')
    ap.add_argument('--ip', default='127.0.0.1')
    ap.add_argument('--robot-id', type=int, default=0)
    ap.add_argument('--limit', type=float, default=120.0, help='seconds')
    args = ap.parse_args()
    reached = run(args.ip, args.robot_id, args.limit)
    print('stopped in front of the ball' if reached else 'did not reach the ball in time')
    return 0 if reached else 1


if __name__ == '__main__':
    raise SystemExit(main())
