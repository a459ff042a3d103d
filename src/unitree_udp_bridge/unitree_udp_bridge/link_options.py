"""The Go1 link's options, in one table for both shells of it: the bridge node declares them as
parameters (``go1_udp_bridge.<name>``), the robot-contract backend as ``go1_udp.<name>``
(``backend.Go1UdpBackend.PARAMETERS``). No ROS."""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from .bridge_core import BridgeConfig, check_times
from .safety import SafetyConfig

# name: (default, description); the README's "Parameters" says more
OPTIONS: dict[str, tuple[Any, str]] = {
    'robot_ip': ('192.168.123.10', "the Go1's MCU (low level)"),
    'robot_port': (8007, "the MCU's UDP port"),
    'local_ip': ('', "this machine's address ('': the one the route to robot_ip leaves from)"),
    'local_port': (0, 'UDP port to send from (0: any)'),
    'watchdog_s': (0.1, 'no command for this long (steady clock): damping'),
    'preflight_timeout_s': (1.0, 'seconds to wait for the first LowState'),
    'min_firmware': ('0.1.35', 'least robot firmware, a.b.c'),
    'power_level': (5, "SDK PowerProtect level 1..10 (x 100 W), 0: off"),
    'torque_scale': (1.0, 'feed-forward torque cap = effort limit x this, (0, 1]'),
    'kp_max': (500.0, 'largest Kp sent, N m/rad'),
    'kd_max': (20.0, 'largest Kd sent, N m s/rad'),
    'damping_kd': (3.0, 'Kd of damping (no command, watchdog, power protection)'),
    'rate': (500.0, 'LowCmds per second without a command stream (Hz)'),
}


def bridge_config(options: Mapping[str, Any], joints: Sequence[str],
                  latency_stamps: bool | None = None) -> BridgeConfig:
    """A :class:`BridgeConfig` of ``options`` (every name of :data:`OPTIONS`); ``latency_stamps``
    None: on for a robot on loopback (same-host stamps only). A bad value: ValueError, one line."""
    o = options
    safety = SafetyConfig(torque_scale=float(o['torque_scale']), kp_max=float(o['kp_max']),
                          kd_max=float(o['kd_max']), power_level=int(o['power_level']),
                          damping_kd=float(o['damping_kd']))
    safety.validate()
    ip = str(o['robot_ip'])
    check_rate('rate', float(o['rate']))
    config = BridgeConfig(
        joints=list(joints), robot_ip=ip, robot_port=check_port('robot_port', o['robot_port']),
        local_ip=str(o['local_ip']), local_port=check_port('local_port', o['local_port']),
        watchdog_s=float(o['watchdog_s']), preflight_timeout_s=float(o['preflight_timeout_s']),
        min_firmware=parse_firmware(o['min_firmware']),
        latency_stamps=ip.startswith('127.') if latency_stamps is None else latency_stamps,
        safety=safety)
    check_times(config)
    return config


def check_rate(name: str, value: float) -> None:
    if not (math.isfinite(value) and value > 0):  # inf: a busy timer, or none at all
        raise ValueError(f'parameter {name} = {value}: expected a finite number > 0')


def check_port(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 65535:
        raise ValueError(f'{name} = {value!r}: expected a UDP port, 0..65535')
    return value


def parse_firmware(text: str) -> tuple[int, int, int]:
    try:
        parts = tuple(int(p) for p in str(text).split('.'))
    except ValueError:
        parts = ()
    if len(parts) != 3:
        raise ValueError(f"min_firmware '{text}': expected a.b.c")
    return parts  # type: ignore[return-value]
