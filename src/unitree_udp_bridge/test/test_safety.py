"""The safety layer: the SDK's position table and power protection (as measured on the PyPI
binding: sum |tauEst dq| over level x 100 W for 6 cycles -> damping), and the limits beyond."""
from __future__ import annotations

import numpy as np
import pytest

from unitree_udp_bridge.safety import GO1_EFFORT, Command, Safety, SafetyConfig


def cmd(**kw) -> Command:
    base = dict(q=np.zeros(12), dq=np.zeros(12), tau=np.zeros(12), kp=np.full(12, 20.0),
                kd=np.ones(12))
    base.update({k: np.asarray(v, float) for k, v in kw.items()})
    return Command(**base)


def test_position_limits_are_the_sdk_table_and_stopped_loops_stay_stopped():
    s = Safety(SafetyConfig())
    out = s.limit(cmd(q=[5, 5, 5, -5, -5, -5, 0.5, 0.5, -1.0, 2.146e9, 0, -1.5]))
    assert out.q[:9].tolist() == [1.047, 2.966, -0.837, -1.047, -0.663, -2.721, 0.5, 0.5, -1.0]
    assert out.q[9] == 2.146e9       # PosStopF kept (the SDK would clamp it to 1.047)
    assert s.clamped == 6


def test_torque_gains_and_velocity_are_capped():
    s = Safety(SafetyConfig(torque_scale=0.5, kp_max=100, kd_max=5))
    out = s.limit(cmd(tau=np.full(12, 100.0), kp=np.full(12, 1e4), kd=np.full(12, -1.0),
                      dq=np.full(12, 99.0)))
    assert np.allclose(out.tau, GO1_EFFORT * 0.5)
    assert (out.kp == 100).all() and (out.kd == 0).all()
    assert out.dq.max() == pytest.approx(30.1) and out.dq[2] == pytest.approx(20.06)


def test_non_finite_fields_damp_that_motor():
    s = Safety(SafetyConfig(damping_kd=2.0))
    out = s.limit(cmd(tau=[np.nan] + [0.0] * 11))
    assert (out.kp[0], out.kd[0], out.tau[0]) == (0.0, 2.0, 0.0) and out.kp[1] == 20
    assert s.rejected == 1


@pytest.mark.parametrize('level', [1, 5, 10])
def test_power_protection_trips_after_six_cycles_over_the_level(level):
    s = Safety(SafetyConfig(power_level=level))
    under = np.full(12, np.sqrt(level * 100 / 12) * 0.99)
    over = under / 0.99 * 1.01
    for _ in range(50):
        assert s.power_check(under, under)
    assert [s.power_check(over, over) for _ in range(6)] == [True] * 5 + [False]
    assert not s.power_check(under, under)       # latched
    s.rearm()
    assert s.power_check(under, under)


def test_config_is_checked():
    with pytest.raises(ValueError, match='power_level'):
        Safety(SafetyConfig(power_level=11))
    with pytest.raises(ValueError, match='Kp < 2048'):
        Safety(SafetyConfig(kp_max=5000))
