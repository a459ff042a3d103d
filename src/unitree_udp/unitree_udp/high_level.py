"""High-level (sport mode) packets of unitree_legged_sdk v3.8: HighCmd (129 B) and HighState
(1087 B), the packed structs of ``comm.h`` as they are (spec go1.md §9.2). free-dog-sdk puts the
LEDs at 4 B each (``ucl/highCmd.py``); the SDK's header and its PyPI binding have 3 B each (a
captured HighCmd has wirelessRemote at byte 81), which is what is used here."""
from __future__ import annotations

import dataclasses
import struct

from . import crc
from .constants import HIGH_CMD_LENGTH, HIGH_STATE_LENGTH, HIGHLEVEL, N_MOTORS
from .low_level import BmsState, Imu, MotorState
from .packet import HEADER, Header, check_datagram

_MOTOR_STATE_FULL = 'B7fb2I'          # 38 B: mode, q dq ddq tauEst q_raw dq_raw ddq_raw, temp
_BMS_STATE_FULL = 'BBBBiH2b2b10H'     # 34 B
HIGH_CMD = struct.Struct('<' + HEADER.format[1:] + '3Bff2f3f2ff4B12B40sII')
HIGH_STATE = struct.Struct('<' + HEADER.format[1:] + '4f3f3f3fb' + _MOTOR_STATE_FULL * N_MOTORS
                           + _BMS_STATE_FULL + '4h4hBfBf3ff3ff4f12f12f40sII')
assert HIGH_CMD.size == HIGH_CMD_LENGTH and HIGH_STATE.size == HIGH_STATE_LENGTH


def _high_header() -> Header:
    return Header(level_flag=HIGHLEVEL)


@dataclasses.dataclass
class HighCmd:
    header: Header = dataclasses.field(default_factory=_high_header)
    mode: int = 0
    gait_type: int = 0
    speed_level: int = 0
    foot_raise_height: float = 0.0     # m, delta
    body_height: float = 0.0           # m, delta
    position: tuple = (0.0, 0.0)
    euler: tuple = (0.0, 0.0, 0.0)
    velocity: tuple = (0.0, 0.0)       # forward, side (body frame)
    yaw_speed: float = 0.0
    bms: tuple = (0, 0, 0, 0)
    led: tuple = (0,) * 12             # 4 x (r, g, b)
    wireless_remote: bytes = bytes(40)
    reserve: int = 0


@dataclasses.dataclass
class HighState:
    header: Header = dataclasses.field(default_factory=_high_header)
    imu: Imu = dataclasses.field(default_factory=Imu)
    motor_state: list[MotorState] = dataclasses.field(
        default_factory=lambda: [MotorState() for _ in range(N_MOTORS)])
    bms: BmsState = dataclasses.field(default_factory=BmsState)
    foot_force: tuple = (0, 0, 0, 0)
    foot_force_est: tuple = (0, 0, 0, 0)
    mode: int = 0
    progress: float = 0.0
    gait_type: int = 0
    foot_raise_height: float = 0.0
    position: tuple = (0.0, 0.0, 0.0)
    body_height: float = 0.0
    velocity: tuple = (0.0, 0.0, 0.0)
    yaw_speed: float = 0.0
    range_obstacle: tuple = (0.0,) * 4
    foot_position_to_body: tuple = (0.0,) * 12   # 4 x xyz
    foot_speed_to_body: tuple = (0.0,) * 12
    wireless_remote: bytes = bytes(40)
    reserve: int = 0


def encode_high_cmd(cmd: HighCmd, encrypted: bool = False) -> bytes:
    v = [*cmd.header.values(), cmd.mode, cmd.gait_type, cmd.speed_level, cmd.foot_raise_height,
         cmd.body_height, *cmd.position, *cmd.euler, *cmd.velocity, cmd.yaw_speed, *cmd.bms,
         *cmd.led, cmd.wireless_remote, cmd.reserve, 0]
    return bytes(crc.seal(bytearray(HIGH_CMD.pack(*v)), encrypted))


def decode_high_cmd(data: bytes) -> tuple[HighCmd, str]:
    kind = check_datagram(data, HIGH_CMD_LENGTH, 'HighCmd')
    v = HIGH_CMD.unpack(data)
    return HighCmd(Header.from_values(v[:8]), v[8], v[9], v[10], v[11], v[12], v[13:15],
                   v[15:18], v[18:20], v[20], v[21:25], v[25:37], v[37], v[38]), kind


def encode_high_state(state: HighState, encrypted: bool | None = None) -> bytes:
    """1087 bytes; CRC encrypted when levelFlag is HIGHLEVEL (the SDK's receiver checks that)."""
    u, b = state.imu, state.bms
    v = [*state.header.values(), *u.quaternion, *u.gyroscope, *u.accelerometer, *u.rpy,
         u.temperature]
    for m in state.motor_state:
        v += [m.mode, m.q, m.dq, m.ddq, m.tau_est, m.q_raw, m.dq_raw, m.ddq_raw, m.temperature,
              *m.reserve]
    v += [b.version_h, b.version_l, b.bms_status, b.soc, b.current, b.cycle, *b.bq_ntc,
          *b.mcu_ntc, *b.cell_vol, *state.foot_force, *state.foot_force_est, state.mode,
          state.progress, state.gait_type, state.foot_raise_height, *state.position,
          state.body_height, *state.velocity, state.yaw_speed, *state.range_obstacle,
          *state.foot_position_to_body, *state.foot_speed_to_body, state.wireless_remote,
          state.reserve, 0]
    if encrypted is None:
        encrypted = state.header.level_flag == HIGHLEVEL
    return bytes(crc.seal(bytearray(HIGH_STATE.pack(*v)), encrypted))


def decode_high_state(data: bytes) -> tuple[HighState, str]:
    kind = check_datagram(data, HIGH_STATE_LENGTH, 'HighState')
    v = HIGH_STATE.unpack(data)
    imu = Imu(v[8:12], v[12:15], v[15:18], v[18:21], v[21])
    motors, k = [], 22
    for _ in range(N_MOTORS):
        m = v[k:k + 11]
        motors.append(MotorState(*m[:9], m[9:11]))
        k += 11
    b = v[k:k + 20]
    bms = BmsState(b[0], b[1], b[2], b[3], b[4], b[5], b[6:8], b[8:10], b[10:20])
    k += 20
    r = v[k:]
    return HighState(Header.from_values(v[:8]), imu, motors, bms, r[0:4], r[4:8], r[8], r[9],
                     r[10], r[11], r[12:15], r[15], r[16:19], r[19], r[20:24], r[24:36],
                     r[36:48], r[48], r[49]), kind
