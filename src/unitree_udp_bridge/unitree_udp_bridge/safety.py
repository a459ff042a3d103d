"""The bridge's safety layer, per cycle and in SDK motor order (no ROS).

Like the SDK's ``Safety`` (behaviour measured on the PyPI binding 3.8.20231105, see README):
- position limits: ``PositionLimit`` clamps q to go1_const.h's table; here too, but a stopped
  position loop (q >= 1e9, PosStopF) stays stopped (the SDK clamps PosStopF to the upper limit);
- power protection: ``PowerProtect(cmd, state, level)`` compares sum |tauEst * dq| of the 12
  motors with level x 100 W and, after 6 cycles over it, sets every motor to mode 0 (damping) and
  returns -1; here the same limit and count, then damping, latched until :meth:`rearm`.
Beyond the SDK: feed-forward torque capped at the joints' effort limits, gains and velocity
targets bounded, non-finite fields rejected (that motor damps), and what the wire format can
carry respected (tau +-128 N m, Kp < 2048, Kd < 4096: the SDK wraps beyond those).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from unitree_udp.constants import N_LEG_MOTORS, STOP_DQ_MIN, STOP_Q_MIN
from unitree_udp.joint_map import sdk_position_limits

GO1_EFFORT = np.tile([23.7, 23.7, 35.55], 4)     # N m, URDF (spec go1.md R1.3)
GO1_VELOCITY = np.tile([30.1, 30.1, 20.06], 4)   # rad/s
WATTS_PER_LEVEL = 100.0
POWER_TRIP_CYCLES = 6


@dataclasses.dataclass
class Command:
    """One cycle's motor commands, SDK order (12)."""
    q: np.ndarray
    dq: np.ndarray
    tau: np.ndarray
    kp: np.ndarray
    kd: np.ndarray

    @classmethod
    def damping(cls, kd: float) -> 'Command':
        z = np.zeros(N_LEG_MOTORS)
        return cls(np.full(N_LEG_MOTORS, 2.146e9), z.copy(), z.copy(), z.copy(),
                   np.full(N_LEG_MOTORS, kd))

    def copy(self) -> 'Command':
        return Command(*(a.copy() for a in (self.q, self.dq, self.tau, self.kp, self.kd)))


@dataclasses.dataclass
class SafetyConfig:
    torque_scale: float = 1.0      # feed-forward cap = effort limit x this
    kp_max: float = 500.0          # N m/rad
    kd_max: float = 20.0           # N m s/rad
    power_level: int = 5           # 1..10 as the SDK (x 100 W); 0: off
    damping_kd: float = 3.0

    def validate(self) -> None:
        if not 0 <= self.power_level <= 10:
            raise ValueError(f'power_level = {self.power_level}: expected 0 (off) or 1..10 '
                             '(x 100 W, as the SDK\'s PowerProtect)')
        if not 0 < self.torque_scale <= 1:
            raise ValueError(f'torque_scale = {self.torque_scale}: expected in (0, 1]')
        if not (0 <= self.kp_max < 2048 and 0 <= self.kd_max < 4096):
            raise ValueError('kp_max and kd_max: expected 0 <= Kp < 2048, Kd < 4096 (the wire '
                             'format)')


class Safety:
    def __init__(self, config: SafetyConfig):
        config.validate()
        self.config = config
        self.q_lo, self.q_hi = sdk_position_limits()
        self.tau_max = GO1_EFFORT * config.torque_scale
        self.clamped = 0          # motor fields changed by a limit
        self.rejected = 0         # motors damped for a non-finite field
        self.over_power = 0
        self.power_tripped = False
        self.last_power_w = 0.0

    def limit(self, cmd: Command) -> Command:
        """``cmd`` within the limits (a new Command); counts what changed."""
        c, cfg = cmd.copy(), self.config
        bad = ~np.isfinite(np.stack([c.q, c.dq, c.tau, c.kp, c.kd])).all(axis=0)
        if bad.any():
            self.rejected += int(bad.sum())
            d = Command.damping(cfg.damping_kd)
            for name in ('q', 'dq', 'tau', 'kp', 'kd'):
                getattr(c, name)[bad] = getattr(d, name)[bad]
        q_run = np.abs(c.q) < STOP_Q_MIN
        dq_run = np.abs(c.dq) < STOP_DQ_MIN
        new = Command(np.where(q_run, np.clip(c.q, self.q_lo, self.q_hi), c.q),
                      np.where(dq_run, np.clip(c.dq, -GO1_VELOCITY, GO1_VELOCITY), c.dq),
                      np.clip(c.tau, -self.tau_max, self.tau_max),
                      np.clip(c.kp, 0.0, cfg.kp_max), np.clip(c.kd, 0.0, cfg.kd_max))
        for a, b in zip((c.q, c.dq, c.tau, c.kp, c.kd), (new.q, new.dq, new.tau, new.kp, new.kd)):
            self.clamped += int(np.count_nonzero(a != b))
        return new

    def power_check(self, tau_est: np.ndarray, dq: np.ndarray) -> bool:
        """False once the power protection has tripped (latched)."""
        level = self.config.power_level
        self.last_power_w = float(np.abs(np.asarray(tau_est) * np.asarray(dq)).sum())
        if level and not self.power_tripped and self.last_power_w > level * WATTS_PER_LEVEL:
            self.over_power += 1
            self.power_tripped = self.over_power >= POWER_TRIP_CYCLES
        return not self.power_tripped

    def rearm(self) -> None:
        self.over_power, self.power_tripped = 0, False
