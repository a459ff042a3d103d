"""Low-level packets of unitree_legged_sdk v3.8 as they travel (the "compressed" LowCmd of 614 B
and LowState of 807 B; spec go1.md §9.2-9.3). Layout read off the PyPI binding (robot_interface
3.8.20231105) with captured packets, and off free-dog-sdk ``ucl/lowCmd.py``, ``ucl/lowState.py``,
``ucl/complex.py``:

- MotorCmd, 27 B: mode u8, q f32, dq f32, tau i16 (x256), Kp u16 (x32), Kd u16 (x16), reserve
  3 x u32. The SDK truncates toward zero (and wraps outside the range; :func:`packet.fixed`
  saturates instead).
- MotorState, 32 B: mode u8, q f32, dq f32, ddq i16, tauEst i16 (/256), q_raw f32, dq_raw f32,
  ddq_raw i16, temperature i8, reserve 2 x u32.
- BmsState, 24 B: version_h, version_l, bms_status, SOC u8, current i32 (mA), cycle u16,
  BQ_NTC 2 x i8, MCU_NTC 2 x i8, cell_vol 10 x u8 (x32 mV).
- LowCmd: header, 20 MotorCmd, BmsCmd (4 B), wirelessRemote 40 B, reserve u32, crc.
- LowState: header, IMU (53 B), 20 MotorState, BmsState, footForce 4 x i16, footForceEst
  4 x i16, tick u32 (us), wirelessRemote 40 B, reserve u32, crc.
"""
from __future__ import annotations

import dataclasses
import struct

from . import crc
from .constants import (HIGHLEVEL, LOW_CMD_LENGTH, LOW_STATE_LENGTH, MODE_SERVO, N_MOTORS,
                        POS_STOP_F, VEL_STOP_F)
from .packet import HEADER, I16, U16, Header, check_datagram, fixed

_MOTOR_CMD = 'BffhHH3I'
_MOTOR_STATE = 'BffhhffhbII'
_IMU = '4f3f3f3fb'
_BMS_STATE = 'BBBBiH2b2b10B'
LOW_CMD = struct.Struct('<' + HEADER.format[1:] + _MOTOR_CMD * N_MOTORS + '4B40sII')
LOW_STATE = struct.Struct('<' + HEADER.format[1:] + _IMU + _MOTOR_STATE * N_MOTORS + _BMS_STATE
                          + '4h4hI40sII')
assert LOW_CMD.size == LOW_CMD_LENGTH and LOW_STATE.size == LOW_STATE_LENGTH


@dataclasses.dataclass
class MotorCmd:
    mode: int = MODE_SERVO
    q: float = POS_STOP_F     # the SDK's InitCmdData: no position loop
    dq: float = VEL_STOP_F    # ... and no velocity loop
    tau: float = 0.0
    kp: float = 0.0
    kd: float = 0.0
    reserve: tuple[int, int, int] = (0, 0, 0)


@dataclasses.dataclass
class LowCmd:
    header: Header = dataclasses.field(default_factory=Header)
    motor_cmd: list[MotorCmd] = dataclasses.field(
        default_factory=lambda: [MotorCmd() for _ in range(N_MOTORS)])
    bms: tuple[int, int, int, int] = (0, 0, 0, 0)   # off (0xA5 = off), reserve[3]
    wireless_remote: bytes = bytes(40)
    reserve: int = 0


@dataclasses.dataclass
class Imu:
    quaternion: tuple = (1.0, 0.0, 0.0, 0.0)        # w x y z
    gyroscope: tuple = (0.0, 0.0, 0.0)              # rad/s
    accelerometer: tuple = (0.0, 0.0, 0.0)          # m/s^2
    rpy: tuple = (0.0, 0.0, 0.0)                    # rad
    temperature: int = 0


@dataclasses.dataclass
class MotorState:
    mode: int = 0
    q: float = 0.0
    dq: float = 0.0
    ddq: float = 0.0          # whole rad/s^2 on the wire
    tau_est: float = 0.0      # 1/256 N m on the wire
    q_raw: float = 0.0
    dq_raw: float = 0.0
    ddq_raw: float = 0.0
    temperature: int = 0
    reserve: tuple[int, int] = (0, 0)


@dataclasses.dataclass
class BmsState:
    version_h: int = 0
    version_l: int = 0
    bms_status: int = 0
    soc: int = 0              # %
    current: int = 0          # mA
    cycle: int = 0
    bq_ntc: tuple[int, int] = (0, 0)
    mcu_ntc: tuple[int, int] = (0, 0)
    cell_vol: tuple = (0,) * 10   # mV, 32 mV steps on the wire


@dataclasses.dataclass
class LowState:
    header: Header = dataclasses.field(default_factory=Header)
    imu: Imu = dataclasses.field(default_factory=Imu)
    motor_state: list[MotorState] = dataclasses.field(
        default_factory=lambda: [MotorState() for _ in range(N_MOTORS)])
    bms: BmsState = dataclasses.field(default_factory=BmsState)
    foot_force: tuple = (0, 0, 0, 0)
    foot_force_est: tuple = (0, 0, 0, 0)
    tick: int = 0             # us
    wireless_remote: bytes = bytes(40)
    reserve: int = 0


def encode_low_cmd(cmd: LowCmd, encrypted: bool = False) -> bytes:
    """614 bytes; ``encrypted``: the CRC as free-dog-sdk sends it (the SDK sends it plain)."""
    if len(cmd.motor_cmd) != N_MOTORS:
        raise ValueError(f'LowCmd: {len(cmd.motor_cmd)} motor commands, expected {N_MOTORS}')
    v = list(cmd.header.values())
    for i, m in enumerate(cmd.motor_cmd):
        v += [m.mode, m.q, m.dq, fixed(m.tau, 256, *I16, f'motor {i} tau'),
              fixed(m.kp, 32, *U16, f'motor {i} Kp'), fixed(m.kd, 16, *U16, f'motor {i} Kd'),
              *m.reserve]
    v += [*cmd.bms, cmd.wireless_remote, cmd.reserve, 0]
    return bytes(crc.seal(bytearray(LOW_CMD.pack(*v)), encrypted))


def decode_low_cmd(data: bytes) -> tuple[LowCmd, str]:
    """(LowCmd, CRC kind 'plain' or 'encrypted'); raises DecodeError."""
    kind = check_datagram(data, LOW_CMD_LENGTH, 'LowCmd')
    v = LOW_CMD.unpack(data)
    motors = []
    for i in range(N_MOTORS):
        m = v[8 + 9 * i: 17 + 9 * i]
        motors.append(MotorCmd(m[0], m[1], m[2], m[3] / 256, m[4] / 32, m[5] / 16, m[6:9]))
    k = 8 + 9 * N_MOTORS
    return LowCmd(Header.from_values(v[:8]), motors, v[k:k + 4], v[k + 4], v[k + 5]), kind


def encode_low_state(state: LowState, encrypted: bool | None = None) -> bytes:
    """807 bytes; the CRC is encrypted when levelFlag is HIGHLEVEL (what the SDK's receiver
    checks, observed with the PyPI binding) unless ``encrypted`` says otherwise."""
    h = state.header
    v = list(h.values())
    u = state.imu
    v += [*u.quaternion, *u.gyroscope, *u.accelerometer, *u.rpy, u.temperature]
    for i, m in enumerate(state.motor_state):
        v += [m.mode, m.q, m.dq, fixed(m.ddq, 1, *I16, f'motor {i} ddq'),
              fixed(m.tau_est, 256, *I16, f'motor {i} tauEst'), m.q_raw, m.dq_raw,
              fixed(m.ddq_raw, 1, *I16, f'motor {i} ddq_raw'), m.temperature, *m.reserve]
    b = state.bms
    v += [b.version_h, b.version_l, b.bms_status, b.soc, b.current, b.cycle, *b.bq_ntc,
          *b.mcu_ntc, *(max(0, min(255, int(c) // 32)) for c in b.cell_vol)]
    v += [*state.foot_force, *state.foot_force_est, state.tick & 0xFFFFFFFF,
          state.wireless_remote, state.reserve, 0]
    if encrypted is None:
        encrypted = h.level_flag == HIGHLEVEL
    return bytes(crc.seal(bytearray(LOW_STATE.pack(*v)), encrypted))


def decode_low_state(data: bytes) -> tuple[LowState, str]:
    kind = check_datagram(data, LOW_STATE_LENGTH, 'LowState')
    v = LOW_STATE.unpack(data)
    imu = Imu(v[8:12], v[12:15], v[15:18], v[18:21], v[21])
    motors, k = [], 22
    for _ in range(N_MOTORS):
        m = v[k:k + 11]
        motors.append(MotorState(m[0], m[1], m[2], float(m[3]), m[4] / 256, m[5], m[6],
                                 float(m[7]), m[8], m[9:11]))
        k += 11
    b = v[k:k + 20]
    bms = BmsState(b[0], b[1], b[2], b[3], b[4], b[5], b[6:8], b[8:10],
                   tuple(c * 32 for c in b[10:20]))
    k += 20
    return LowState(Header.from_values(v[:8]), imu, motors, bms, v[k:k + 4], v[k + 4:k + 8],
                    v[k + 8], v[k + 9], v[k + 10]), kind
