"""The pre-flight check on the robot's first answers: is it a Go1, at low level, speaking the v3.8
wire format, with firmware new enough? Each failure is one sentence saying what to do."""
from __future__ import annotations

from unitree_udp.constants import (HIGH_STATE_LENGTH, LOW_STATE_LENGTH, LOW_STATE_SIZEOF,
                                   LOWLEVEL)
from unitree_udp.low_level import LowState

# the SDK v3.8 README: Go1 firmware (H0.1.7/H0.1.9) >= v0.1.35 (spec go1.md §9.1)
MIN_FIRMWARE = (0, 1, 35)


class PreflightError(RuntimeError):
    """The robot is not ready for low-level commands; the message says why and what to do."""


def no_answer(target: tuple[str, int], timeout_s: float, received: int, foreign: int = 0
              ) -> PreflightError:
    got = (f' ({received} datagrams arrived, none a valid LowState)' if received else '')
    if foreign:
        got += (f' ({foreign} datagrams from other peers were dropped: state is taken only '
                'from robot_ip:robot_port)')
    return PreflightError(
        f'pre-flight: no LowState from {target[0]}:{target[1]} within {timeout_s:g} s{got}. '
        'Is the robot on and answering there? A real Go1 takes low-level commands at '
        '192.168.123.10:8007 (wired; this machine needs an address on 192.168.123.0/24); the '
        'simulated one: bin/robozoo run go1_udp_endpoint.')


def wrong_size(size: int) -> PreflightError:
    if size == HIGH_STATE_LENGTH:
        return PreflightError(
            f'pre-flight: the robot answered with a HighState ({size} B): that is the sport-mode '
            'controller (high level, 192.168.123.161:8082), or a robot still in sport mode. '
            'Low-level commands go to the MCU at 192.168.123.10:8007 with the robot switched to '
            'low level (lie it down, damping, then low-level mode on the remote).')
    if size == LOW_STATE_SIZEOF:
        return PreflightError(
            f'pre-flight: the robot answered with an uncompressed LowState ({size} B): another '
            'SDK generation (v3.8 sends 807 B); match the SDK version to the robot firmware.')
    return PreflightError(f'pre-flight: a {size}-byte answer is no v3.8 LowState '
                          f'({LOW_STATE_LENGTH} B): wrong port or protocol version.')


def check_state(state: LowState, min_firmware: tuple[int, int, int] = MIN_FIRMWARE
                ) -> list[str]:
    """Errors (empty: ready) and, via :func:`notes`, warnings for a decoded first LowState."""
    errors = []
    h = state.header
    if h.level_flag != LOWLEVEL:
        errors.append(f'pre-flight: LowState levelFlag 0x{h.level_flag:02x}, expected 0xff (low '
                      'level): switch the robot to low-level mode first.')
    product, _ = h.robot()
    if h.sn != (0, 0) and not product.startswith('Go1_'):
        errors.append(f'pre-flight: the robot reports {product}, not a Go1: this bridge and its '
                      'limits are for the Go1 (SDK v3.8 supports only the Go1).')
    _, software = h.versions()
    if h.version != (0, 0) and software < min_firmware:
        have, need = '.'.join(map(str, software)), '.'.join(map(str, min_firmware))
        errors.append(f'pre-flight: robot firmware v{have} is older than v{need}, the least '
                      'unitree_legged_sdk v3.8 works with: update the robot first.')
    return errors


def notes(state: LowState) -> list[str]:
    h = state.header
    out = []
    if h.sn == (0, 0) or h.version == (0, 0):
        out.append('pre-flight: the robot sends no serial number or version: not checked.')
    else:
        product, ident = h.robot()
        hw, sw = h.versions()
        out.append(f'pre-flight: {product} {ident}, hardware {".".join(map(str, hw))}, '
                   f'firmware {".".join(map(str, sw))}')
    return out
