"""Decoder fuzzing (hypothesis): any datagram either decodes or raises DecodeError; a flipped
byte never passes; the endpoint counts and drops what does not decode."""
from __future__ import annotations

import socket

from hypothesis import given, settings, strategies as st

from unitree_udp.endpoint import UdpEndpoint
from unitree_udp.high_level import HighCmd, decode_high_cmd, decode_high_state, encode_high_cmd
from unitree_udp.low_level import LowCmd, LowState, decode_low_cmd, decode_low_state
from unitree_udp.low_level import encode_low_cmd, encode_low_state
from unitree_udp.packet import DecodeError

DECODERS = (decode_low_cmd, decode_low_state, decode_high_cmd, decode_high_state)
GOOD = {decode_low_cmd: encode_low_cmd(LowCmd()), decode_low_state: encode_low_state(LowState()),
        decode_high_cmd: encode_high_cmd(HighCmd())}


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=1200), st.sampled_from(DECODERS))
def test_random_bytes_never_crash_a_decoder(data, decode):
    try:
        decode(data)
    except DecodeError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(GOOD)), st.integers(0, 10_000), st.integers(1, 255))
def test_a_flipped_byte_is_always_caught(decode, pos, flip):
    good = bytearray(GOOD[decode])
    covered = (len(good) // 4 - 1) * 4   # the SDK's CRC skips the bytes between these words and
    pos %= len(good)                     # the CRC (reserve's tail: 608-609 of a LowCmd)
    if covered <= pos < len(good) - 4:
        pos = 0
    good[pos] ^= flip
    try:
        decode(bytes(good))
    except DecodeError as exc:
        assert exc.kind in ('head', 'crc')
    else:
        raise AssertionError('a corrupted packet decoded')


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=614, max_size=614))
def test_random_packets_of_the_right_length_decode_or_fail_cleanly(data):
    for decode in (decode_low_cmd,):
        try:
            cmd, _ = decode(data)
        except DecodeError:
            continue
        assert len(cmd.motor_cmd) == 20


def test_endpoint_counts_and_drops_bad_datagrams():
    ep = UdpEndpoint('127.0.0.1', 0)
    tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        good = bytearray(encode_low_cmd(LowCmd()))
        bad_crc = bytearray(good)
        bad_crc[30] ^= 0xFF
        for packet in (bytes(bad_crc), bytes(good[:-1]), b'\0\0' + bytes(good[2:]),
                       encode_high_cmd(HighCmd()), bytes(good)):
            tx.sendto(packet, ep.address)
        assert ep.poll() is True
        s = ep.stats
        assert (s.received, s.accepted, s.crc_errors, s.length_errors, s.head_errors) == (
            5, 1, 1, 2, 1)
        assert ep.client[1] == tx.getsockname()[1]
    finally:
        tx.close()
        ep.close()
