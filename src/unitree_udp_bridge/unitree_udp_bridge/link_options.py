"""The Go1 link's options, in one table for both shells of it: the bridge node declares them as
parameters (``go1_udp_bridge.<name>``), the robot-contract backend as ``go1_udp.<name>``
(``backend.Go1UdpBackend.PARAMETERS``). No ROS."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from .bridge_core import BridgeConfig, check_times
from .safety import SafetyConfig

# name: (default, description), as the bridge node's schema (params/bridge.yaml) has them: the
# backend declares the same options as go1_udp.<name>
LINK_OPTIONS = ('robot_ip', 'robot_port', 'local_ip', 'local_port', 'watchdog_s',
                'preflight_timeout_s', 'min_firmware', 'power_level', 'torque_scale', 'kp_max',
                'kd_max', 'damping_kd', 'rate')
_SCHEMA = yaml.safe_load((Path(__file__).parent / 'params' / 'bridge.yaml').read_text())['bridge']
OPTIONS: dict[str, tuple[Any, str]] = {
    name: (_SCHEMA[name]['default_value'], _SCHEMA[name]['description']) for name in LINK_OPTIONS}


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
