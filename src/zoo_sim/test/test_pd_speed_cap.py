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
LIGHT_LINKS = {'nao': 4.19, 'hoap2': 1.111}  # worst ratio measured on the shipped descriptions


def _case(robot: str, mode: str, sign: int):
    name = f'{robot}-{mode}-{"upper" if sign > 0 else "lower"}'
    if robot in LIGHT_LINKS and (robot, mode, sign) != ('nao', 'pd_kp1', -1) and \
            (robot, mode) != ('hoap2', 'pd_kp1'):
        return pytest.param(robot, mode, sign, id=name, marks=pytest.mark.xfail(
            strict=True, reason=f'light links reach {LIGHT_LINKS[robot]}x (issue 28)'))
    return pytest.param(robot, mode, sign, id=name)


@pytest.mark.parametrize('robot,mode,sign', [_case(r, m, s) for r in ROBOTS
                                             for m in PD_STOP_MODES for s in (1, -1)])
def test_no_joint_outruns_its_motor_under_pd(robot, mode, sign):
    assert top_speed(robot, mode, sign) <= BOUND
