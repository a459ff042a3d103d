"""LowState / HighState from the simulated robot's latest topics (plain data in, packets out)."""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from .constants import HIGHLEVEL, LOWLEVEL, N_LEG_MOTORS, SDK_LEGS
from .high_level import HighState
from .low_level import BmsState, Imu, LowState, MotorState
from .packet import Header

TEMPERATURE_C = 30    # a cool motor; the simulator has no thermal model
BMS = BmsState(version_h=1, version_l=0, bms_status=1, soc=100, current=-1000, cycle=1,
               bq_ntc=(25, 25), mcu_ntc=(25, 25), cell_vol=(4128,) * 8 + (0, 0))


@dataclasses.dataclass
class Snapshot:
    """What the robot measures, SDK motor order."""
    q: np.ndarray
    dq: np.ndarray
    tau: np.ndarray
    mode: np.ndarray
    quat: tuple = (1.0, 0.0, 0.0, 0.0)      # w x y z
    gyro: tuple = (0.0, 0.0, 0.0)
    acc: tuple = (0.0, 0.0, 0.0)
    foot_force: tuple = (0, 0, 0, 0)        # N, legs FR FL RR RL
    base_pos: tuple = (0.0, 0.0, 0.0)
    base_vel: tuple = (0.0, 0.0, 0.0)       # base frame
    yaw_speed: float = 0.0
    tick_us: int = 0


def rpy(w: float, x: float, y: float, z: float) -> tuple[float, float, float]:
    return (math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
            math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x)))),
            math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)))


def foot_forces(links: list[str], forces: list[tuple[float, float, float]]) -> tuple:
    """|contact force| per leg in SDK leg order, whole newtons (a real Go1 sends raw counts)."""
    by_leg = {ln.split('_')[0]: math.sqrt(sum(c * c for c in f)) for ln, f in zip(links, forces)}
    return tuple(max(-32768, min(32767, int(round(by_leg.get(leg, 0.0))))) for leg in SDK_LEGS)


def _motors(s: Snapshot) -> list[MotorState]:
    out = [MotorState() for _ in range(20)]
    for k in range(N_LEG_MOTORS):
        q, dq = float(s.q[k]), float(s.dq[k])
        out[k] = MotorState(mode=int(s.mode[k]), q=q, dq=dq, tau_est=_clip(s.tau[k], 127.0),
                            q_raw=q, dq_raw=dq, temperature=TEMPERATURE_C)
    return out


def _clip(v: float, lim: float) -> float:
    v = float(v)
    return max(-lim, min(lim, v)) if math.isfinite(v) else 0.0


def _imu(s: Snapshot) -> Imu:
    return Imu(tuple(s.quat), tuple(s.gyro), tuple(s.acc), rpy(*s.quat), TEMPERATURE_C)


def low_state(s: Snapshot, header: Header, stamp: int) -> LowState:
    h = dataclasses.replace(header, level_flag=LOWLEVEL)
    return LowState(header=h, imu=_imu(s), motor_state=_motors(s), bms=BMS,
                    foot_force=s.foot_force, foot_force_est=s.foot_force,
                    tick=s.tick_us & 0xFFFFFFFF, reserve=stamp)


def high_state(s: Snapshot, header: Header, mode: int, progress: float, unsupported: bool
               ) -> HighState:
    """``unsupported``: the last HighCmd asked for a mode this robot does not do; reserve = 1
    then (and the state's mode is what it does instead)."""
    h = dataclasses.replace(header, level_flag=HIGHLEVEL)
    return HighState(header=h, imu=_imu(s), motor_state=_motors(s), bms=BMS,
                     foot_force=s.foot_force, foot_force_est=s.foot_force, mode=mode,
                     progress=progress, position=tuple(s.base_pos), body_height=s.base_pos[2],
                     velocity=tuple(s.base_vel), yaw_speed=s.yaw_speed,
                     reserve=1 if unsupported else 0)
