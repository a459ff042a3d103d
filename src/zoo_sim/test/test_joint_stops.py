"""Joint stops hold at every physics step under any command (issue 28): every joint of every
robot driven toward each of its stops at saturation, in each command mode, never more than
0.01 rad past the URDF limit, observed after every physics step (contract_report.stop_excess:
legged robots hang fixed in the air, the snake and the Robobo lie on the ground).

Modes: ``velocity`` and ``effort`` at the joint's limit (in one grouped command, and one command
per joint, the per-message path); PD on the stop with kd 0: ``pd_kp1`` (kp 1), ``pd_stiff`` (kp
100 x the effort limit per rad) and ``pd_feed_forward`` (kp 1 and the whole effort limit as
feed-forward toward the stop); ``effort_stop_to_stop``: the effort limit as PD feed-forward alone,
its direction flipped every 0.5 s (what the Go1's low-level UDP LowCmd with tau only becomes in
the robot contract); the snake's ``ax12_goals``: its AX-12 servos' goals at the stops (where a
Dynamixel bus's Goal Position writes land).

``EXCESS_TODAY`` holds the cases that fail, with the worst excess measured in rad: each is a
strict xfail, so the change that fixes one must remove it here."""
from __future__ import annotations

import pytest

from zoo_sim.contract_report import ROBOTS, stop_excess, stop_modes

BOUND = 0.01  # rad (m on prismatic joints): the zoo_sim README's "hard stops"
SECONDS = 2.0

# (robot, mode, sign, grouped): worst excess in rad, measured at every step on the shipped
# descriptions. Only the Nao's hands fail: their official inertia is 1.1e-9 kg m^2 and no source
# gives their motor's rotor inertia (nao_description README), and MuJoCo's constraints, whose
# impedance is at most 0.9999, let through 1e-4 of the velocity change that a torque would give
# such a link in one step (the velocity caps of joint_motors hold every other joint)
EXCESS_TODAY = {
    ('nao', 'pd_stiff', +1, True): 0.01436,
    ('nao', 'pd_stiff', -1, True): 0.0164,
    ('nao', 'pd_feed_forward', +1, True): 0.06333,
    ('nao', 'pd_feed_forward', -1, True): 0.06832,
    ('nao', 'effort_stop_to_stop', +1, True): 0.08758,
    ('nao', 'effort_stop_to_stop', -1, True): 0.08758,
}

CASES = [(robot, mode, sign, grouped) for robot in ROBOTS for mode in stop_modes(robot)
         for sign in (1, -1)
         for grouped in ((True, False) if mode in ('velocity', 'effort') else (True,))]


def _case(robot: str, mode: str, sign: int, grouped: bool):
    key = (robot, mode, sign, grouped)
    name = f'{robot}-{mode}-{"upper" if sign > 0 else "lower"}-' \
           f'{"grouped" if grouped else "per-joint"}'
    if key in EXCESS_TODAY:
        return pytest.param(*key, id=name, marks=pytest.mark.xfail(
            strict=True, reason=f'{EXCESS_TODAY[key]:g} rad past a stop (issue 28)'))
    return pytest.param(*key, id=name)


@pytest.mark.parametrize('robot,mode,sign,grouped', [_case(*c) for c in CASES])
def test_no_joint_passes_its_stop_at_any_physics_step(robot, mode, sign, grouped):
    assert stop_excess(robot, mode, sign, SECONDS, grouped) <= BOUND
