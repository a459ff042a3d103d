"""Torque-only low-level control with the real unitree_legged_sdk (PyPI ``unitree-legged-sdk``,
module ``robot_interface``), unmodified: the front-right leg's three motors at their full torque
(Kp = Kd = 0, q and dq at the SDK's PosStopF / VelStopF "no position / velocity loop" values),
the direction flipped every ``--half-cycle`` s, so each joint is slammed from stop to stop. Prints
the range of angles that LowState reported for the three joints, as JSON. Aimed at the simulated
Go1 (``bin/robozoo run go1_udp_endpoint_hung``): on a real one this is an abuse test.

  python src/unitree_udp/examples/sdk_torque_stop_to_stop.py --port 8007 --seconds 3
"""
from __future__ import annotations

import json
import sys

from sdk_loop import DT, cycles, low_level, parser

FR = (0, 1, 2)                      # FR hip, thigh, calf
FULL_TORQUE = (23.7, 23.7, 35.55)   # N m (specs/go1.md R1.3)
# the SDK's "no position / velocity loop" values (comm.h PosStopF, VelStopF; unitree_udp.constants
# has them too, but an example imports only the SDK)
POS_STOP_F, VEL_STOP_F = 2.146e9, 16000.0


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__)
    p.add_argument('--half-cycle', type=float, default=0.5)
    a = p.parse_args(argv)
    udp, cmd, state = low_level(a)
    answered = 0
    low, high = [float('inf')] * 3, [float('-inf')] * 3
    for k in cycles(udp, cmd, state, a.seconds):
        if state.tick != 0:
            answered += 1
            for i, j in enumerate(FR):
                low[i] = min(low[i], state.motorState[j].q)
                high[i] = max(high[i], state.motorState[j].q)
        sign = 1.0 if int(k * DT / a.half_cycle) % 2 == 0 else -1.0
        for i, j in enumerate(FR):
            m = cmd.motorCmd[j]
            m.mode = 0x0A
            m.q, m.dq, m.Kp, m.Kd = POS_STOP_F, VEL_STOP_F, 0.0, 0.0
            m.tau = sign * FULL_TORQUE[i]
    print(json.dumps({'low': low, 'high': high, 'answered_cycles': answered}))
    return 0 if answered else 1


if __name__ == '__main__':
    sys.exit(main())
