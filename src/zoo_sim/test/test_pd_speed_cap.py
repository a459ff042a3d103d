"""A PD command cannot spin a joint past its motor's no-load speed (issue 28; joint_motors'
velocity caps): every joint of every robot under the PD modes of the stop test
(contract_report.PD_STOP_MODES: kp 1, stiff, full feed-forward, feed-forward alone stop to stop),
its speed observed after every physics step, at most 5 % over its velocity limit (the AX-12's
back-drive bound). Before the caps a Go1 thigh reached 171 rad/s (limit 30.1) and the Robobo's
wheels diverged.

The light links of the humanoids get through: every MuJoCo constraint lets 1e-4 of a step's
unconstrained velocity change through, and a torque at the effort limit gives the Nao's hands
(1.1e-9 kg m^2, no rotor inertia sourced) ~1e5 rad/s per step, the HOAP-2's wrists less. Strict
xfails, with the worst ratio measured."""
from __future__ import annotations

import pytest

from zoo_sim.contract_report import PD_STOP_MODES, ROBOTS, top_speed

BOUND = 1.05  # x the velocity limit
# (robot, mode, sign): worst ratio measured at every step on the shipped descriptions, the cases
# that fail (as in test_joint_stops: the change that fixes one removes it here)
SPEED_TODAY = {
    ('nao', 'pd_kp1', +1): 4.187,
    ('nao', 'pd_stiff', +1): 4.187,
    ('nao', 'pd_stiff', -1): 4.187,
    ('nao', 'pd_feed_forward', +1): 4.187,
    ('nao', 'pd_feed_forward', -1): 3.187,
    ('nao', 'effort_stop_to_stop', +1): 4.187,
    ('nao', 'effort_stop_to_stop', -1): 4.187,
    ('hoap2', 'pd_stiff', +1): 1.111,
    ('hoap2', 'pd_stiff', -1): 1.111,
    ('hoap2', 'pd_feed_forward', +1): 1.111,
    ('hoap2', 'pd_feed_forward', -1): 1.111,
    ('hoap2', 'effort_stop_to_stop', +1): 1.111,
    ('hoap2', 'effort_stop_to_stop', -1): 1.111,
}


def _case(robot: str, mode: str, sign: int):
    name = f'{robot}-{mode}-{"upper" if sign > 0 else "lower"}'
    if (robot, mode, sign) in SPEED_TODAY:
        return pytest.param(robot, mode, sign, id=name, marks=pytest.mark.xfail(
            strict=True, reason=f'light links reach {SPEED_TODAY[robot, mode, sign]}x the '
                                'velocity limit (issue 28)'))
    return pytest.param(robot, mode, sign, id=name)


@pytest.mark.parametrize('robot,mode,sign', [_case(r, m, s) for r in ROBOTS
                                             for m in PD_STOP_MODES for s in (1, -1)])
def test_no_joint_outruns_its_motor_under_pd(robot, mode, sign):
    assert top_speed(robot, mode, sign) <= BOUND
