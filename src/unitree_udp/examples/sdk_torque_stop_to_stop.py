"""Torque-only low-level control with the real unitree_legged_sdk (PyPI ``unitree-legged-sdk``,
module ``robot_interface``), unmodified: the front-right leg's three motors at their full torque
(Kp = Kd = 0, q and dq at the SDK's PosStopF / VelStopF "no position / velocity loop" values),
the direction flipped every ``--half-cycle`` s, so each joint is slammed from stop to stop. Prints
the range of angles that LowState reported for the three joints, as JSON. Aimed at the simulated
Go1 (``bin/robozoo run go1_udp_endpoint_hung``): on a real one this is an abuse test.

  python src/unitree_udp/examples/sdk_torque_stop_to_stop.py --port 8007 --seconds 3
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from unitree_legged_sdk import robot_interface as sdk

LOWLEVEL = 0xFF
FR = (0, 1, 2)                      # FR hip, thigh, calf
FULL_TORQUE = (23.7, 23.7, 35.55)   # N m (specs/go1.md R1.3)
POS_STOP_F, VEL_STOP_F = 2.146e9, 16000.0  # the SDK's "no position / velocity loop" values


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--ip', default='127.0.0.1')
    p.add_argument('--port', type=int, default=8007)
    p.add_argument('--local-port', type=int, default=8080)
    p.add_argument('--seconds', type=float, default=3.0)
    p.add_argument('--half-cycle', type=float, default=0.5)
    a = p.parse_args(argv)
    udp = sdk.UDP(LOWLEVEL, a.local_port, a.ip, a.port)
    cmd, state = sdk.LowCmd(), sdk.LowState()
    udp.InitCmdData(cmd)
    dt, answered = 0.002, 0
    low, high = [float('inf')] * 3, [float('-inf')] * 3
    t_next = time.monotonic()
    for k in range(1, int(a.seconds / dt) + 1):
        t_next += dt
        time.sleep(max(0.0, t_next - time.monotonic()))
        udp.Recv()
        udp.GetRecv(state)
        if state.tick != 0:
            answered += 1
            for i, j in enumerate(FR):
                low[i] = min(low[i], state.motorState[j].q)
                high[i] = max(high[i], state.motorState[j].q)
        sign = 1.0 if int(k * dt / a.half_cycle) % 2 == 0 else -1.0
        for i, j in enumerate(FR):
            m = cmd.motorCmd[j]
            m.mode = 0x0A
            m.q, m.dq, m.Kp, m.Kd = POS_STOP_F, VEL_STOP_F, 0.0, 0.0
            m.tau = sign * FULL_TORQUE[i]
        udp.SetSend(cmd)
        udp.Send()
    print(json.dumps({'low': low, 'high': high, 'answered_cycles': answered}))
    return 0 if answered else 1


if __name__ == '__main__':
    sys.exit(main())
