"""Position control with the real unitree_legged_sdk (PyPI ``unitree-legged-sdk``, module
``robot_interface``), unmodified, in the style of the SDK's ``example_py/example_position.py``:
read the initial angles, interpolate one leg to a target, hold it; print the last LowState
angles as JSON. Aimed at the simulated Go1 (``bin/robozoo run go1_udp_endpoint_hung``), or a
real hung Go1 (``--ip 192.168.123.10``).

  python src/unitree_udp/examples/sdk_position.py --port 8007 --seconds 3
"""
from __future__ import annotations

import json
import sys

from sdk_loop import cycles, low_level, parser
from unitree_legged_sdk import robot_interface as sdk

FR_0, FR_1, FR_2 = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__)
    p.add_argument('--target', type=float, nargs=3, default=[0.0, 1.2, -2.0])  # example's
    p.add_argument('--kp', type=float, default=20.0)   # the example's stiffer choice
    p.add_argument('--kd', type=float, default=2.0)
    a = p.parse_args(argv)
    udp, cmd, state = low_level(a)
    safe = sdk.Safety(sdk.LeggedType.Go1)
    q_init, answered = [0.0, 0.0, 0.0], 0
    for motiontime in cycles(udp, cmd, state, a.seconds):
        answered += state.tick != 0
        if motiontime < 10:   # first, record the initial position
            q_init = [state.motorState[j].q for j in (FR_0, FR_1, FR_2)]
        rate = min(max((motiontime - 10) / 500.0, 0.0), 1.0)   # then 1 s to the target
        for k, j in enumerate((FR_0, FR_1, FR_2)):
            m = cmd.motorCmd[j]
            m.q = q_init[k] * (1 - rate) + a.target[k] * rate
            m.dq, m.tau = 0.0, 0.0
            m.Kp, m.Kd = (a.kp, a.kd) if motiontime >= 10 else (0.0, 0.0)
        safe.PositionLimit(cmd)
    q = [state.motorState[j].q for j in range(12)]
    print(json.dumps({'q': q, 'tick': state.tick, 'level': state.levelFlag,
                      'answered_cycles': answered, 'mode': [state.motorState[j].mode
                                                            for j in range(12)]}))
    return 0 if answered else 1


if __name__ == '__main__':
    sys.exit(main())
