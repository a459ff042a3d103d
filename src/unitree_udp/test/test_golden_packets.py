"""Golden packets: sizes from the spec (go1.md §9.2), the CRC, and packets captured from the real
SDK (PyPI unitree-legged-sdk 3.8.20231105, robot_interface) stored under golden/."""
from __future__ import annotations

import os
import random
import struct
from pathlib import Path

import pytest

from unitree_udp import crc
from unitree_udp.constants import (HIGH_CMD_LENGTH, HIGH_STATE_LENGTH, LOW_CMD_LENGTH,
                                   LOW_CMD_SIZEOF, LOW_STATE_LENGTH, LOW_STATE_SIZEOF, POS_STOP_F)
from unitree_udp.high_level import (HighCmd, HighState, decode_high_cmd, decode_high_state,
                                    encode_high_cmd, encode_high_state)
from unitree_udp.low_level import (LowCmd, LowState, MotorCmd, decode_low_cmd, decode_low_state,
                                   encode_low_cmd, encode_low_state)
from unitree_udp.packet import DecodeError

GOLDEN = Path(__file__).parent / 'golden'


def golden(name: str) -> bytes:
    return bytes.fromhex((GOLDEN / name).read_text().strip())


def test_sizes_match_the_spec():
    assert len(encode_low_cmd(LowCmd())) == LOW_CMD_LENGTH == 614
    assert len(encode_low_state(LowState())) == LOW_STATE_LENGTH == 807
    assert len(encode_high_cmd(HighCmd())) == HIGH_CMD_LENGTH == 129
    assert len(encode_high_state(HighState())) == HIGH_STATE_LENGTH == 1087
    # comm.h's sizeof, uncompressed: header + 20 x 33 B MotorCmd + 4 + 40 + 4 + 4, and the state
    assert struct.calcsize('<2sBB2I2IH' + 'B5f3I' * 20 + '4B40sII') == LOW_CMD_SIZEOF == 734
    assert struct.calcsize('<2sBB2I2IH4f3f3f3fb' + 'B7fb2I' * 20 + 'BBBBiH2b2b10H'
                           + '4h4hI40sII') == LOW_STATE_SIZEOF == 937


def test_fast_crc_equals_the_bitwise_loop():
    rng = random.Random(1)
    for n in [0, 1, 2, 31, 152, 200, 270]:
        data = bytes(rng.randrange(256) for _ in range(4 * n))
        assert crc.crc32_core(data) == crc.crc32_core_reference(data)


def test_crc_covers_len_over_4_minus_1_words():
    packet = golden('sdk_low_cmd.hex')
    assert crc.crc32_core(packet[:608]) == struct.unpack('<I', packet[610:])[0] == 0x18FC5EDE
    high = golden('sdk_high_cmd.hex')
    assert crc.crc32_core(high[:124]) == struct.unpack('<I', high[125:])[0]


def test_encrypted_crc_is_xor_then_rotated():
    c = 0x18FC5EDE
    x = (c ^ 0xEDCAB9DE).to_bytes(4, 'little')
    assert crc.encrypt(c) == x[1:] + x[:1]
    packet = encode_low_cmd(LowCmd(), encrypted=True)
    assert decode_low_cmd(packet)[1] == 'encrypted'


def test_sdk_low_cmd_golden_decodes_and_reencodes_byte_exact():
    # captured: motors k % 4 = 0..3 set to (mode, q, dq, tau, Kp, Kd) below, the rest default
    values = [(0x0A, 0.5, -1.25, 1.5, 20.0, 2.0), (0x0A, -0.3, 0.0, -0.65, 5.0, 1.0),
              (0x0A, 1.0, 2.0, 3.14159, 300.0, 8.0), (0x0A, 0.0, 0.0, -10.004, 0.1, 0.15)]
    packet = golden('sdk_low_cmd.hex')
    cmd, kind = decode_low_cmd(packet)
    assert kind == 'plain' and cmd.header.level_flag == 0xFF and cmd.header.head == b'\xfe\xef'
    for k, m in enumerate(cmd.motor_cmd):
        mode, q, dq, tau, kp, kd = values[k % 4]
        assert m.mode == mode and m.q == pytest.approx(q, abs=1e-7)
        assert m.dq == pytest.approx(dq) and m.tau == pytest.approx(tau, abs=1 / 256)
        # the SDK truncates: 0.1 x 32 = 3.2 -> 3, 0.15 x 16 = 2.4 -> 2, -0.65 x 256 -> -166
        assert m.kp == int(kp * 32) / 32 and m.kd == int(kd * 16) / 16
        assert m.tau == int(tau * 256) / 256
    sent = LowCmd(motor_cmd=[MotorCmd(*values[k % 4]) for k in range(20)])
    assert encode_low_cmd(sent) == packet


def test_sdk_high_cmd_golden():
    packet = golden('sdk_high_cmd.hex')
    cmd, kind = decode_high_cmd(packet)
    assert kind == 'plain' and cmd.header.level_flag == 0xEE
    assert (cmd.mode, cmd.gait_type, cmd.speed_level) == (2, 1, 1)
    assert cmd.velocity == pytest.approx((0.4, -0.1)) and cmd.yaw_speed == pytest.approx(0.7)
    assert cmd.position == (1.5, 2.5) and cmd.euler == pytest.approx((0.1, 0.2, 0.3))
    # LEDs are 3 B each (comm.h), not free-dog-sdk's 4: the remote starts at byte 81
    assert cmd.led == (1, 2, 3, 11, 12, 13, 21, 22, 23, 31, 32, 33)
    assert cmd.wireless_remote == bytes(range(40)) and cmd.reserve == 0x11223344
    assert cmd.bms[0] == 0xA5
    assert encode_high_cmd(cmd) == packet


def test_fixed_point_fields_saturate_instead_of_wrapping():
    cmd = LowCmd()
    cmd.motor_cmd[0] = MotorCmd(q=0.0, dq=0.0, tau=200.0, kp=3000.0, kd=5000.0)
    cmd.motor_cmd[1] = MotorCmd(q=0.0, dq=0.0, tau=-200.0, kp=-1.0, kd=-1.0)
    out, _ = decode_low_cmd(encode_low_cmd(cmd))
    assert (out.motor_cmd[0].tau, out.motor_cmd[0].kp, out.motor_cmd[0].kd) == (
        32767 / 256, 65535 / 32, 65535 / 16)
    assert (out.motor_cmd[1].tau, out.motor_cmd[1].kp, out.motor_cmd[1].kd) == (-128.0, 0, 0)
    cmd.motor_cmd[2] = MotorCmd(tau=float('nan'))
    with pytest.raises(ValueError, match='motor 2 tau'):
        encode_low_cmd(cmd)


def test_default_motor_command_is_the_sdks_init_cmd_data():
    m, _ = decode_low_cmd(encode_low_cmd(LowCmd()))
    assert m.motor_cmd[5].mode == 0x0A and m.motor_cmd[5].q == pytest.approx(POS_STOP_F)
    assert m.motor_cmd[5].dq == 16000.0 and m.motor_cmd[5].kp == 0 and m.motor_cmd[5].kd == 0


def test_state_round_trips_and_state_crc_rule():
    s = LowState(tick=123456, foot_force=(1, 2, 3, 4), reserve=99)
    s.motor_state[3].q, s.motor_state[3].tau_est, s.motor_state[3].ddq = 0.5, -1.5, 7.0
    s.bms.cell_vol = (4128,) * 10
    out, kind = decode_low_state(encode_low_state(s))
    assert kind == 'plain' and out == s
    h = HighState(mode=1, progress=0.5, position=(1.0, 2.0, 3.0), reserve=1)
    out_h, kind = decode_high_state(encode_high_state(h))
    assert kind == 'encrypted' and out_h == h  # levelFlag 0xee: the SDK expects it encrypted


@pytest.mark.parametrize('mutate, kind', [(lambda b: b[:-1], 'length'),
                                          (lambda b: b'\0\0' + b[2:], 'head'),
                                          (lambda b: b[:100] + bytes([b[100] ^ 1]) + b[101:],
                                           'crc')])
def test_bad_packets_raise_decode_errors(mutate, kind):
    good = encode_low_state(LowState())
    with pytest.raises(DecodeError) as err:
        decode_low_state(mutate(good))
    assert err.value.kind == kind


def test_random_commands_round_trip_within_quantisation():
    rng = random.Random(os.getpid() % 7)
    for _ in range(50):
        cmd = LowCmd(motor_cmd=[MotorCmd(10, rng.uniform(-3, 3), rng.uniform(-20, 20),
                                         rng.uniform(-30, 30), rng.uniform(0, 400),
                                         rng.uniform(0, 20)) for _ in range(20)])
        out, _ = decode_low_cmd(encode_low_cmd(cmd))
        for a, b in zip(cmd.motor_cmd, out.motor_cmd):
            assert abs(a.tau - b.tau) < 1 / 256 and abs(a.kp - b.kp) < 1 / 32
            assert abs(a.kd - b.kd) < 1 / 16 and a.q == pytest.approx(b.q, rel=1e-6)
