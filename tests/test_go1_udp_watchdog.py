"""A silent command stream puts the simulated Go1 in damping within its watchdog time: stream
LowCmds (hold the stand pose) to ``go1_udp_endpoint`` for 0.5 s, stop, and time the first
LowState whose motors report mode 0 (damping). The endpoint's watchdog is 0.1 s of steady clock;
the bound is 0.1 s + 0.4 s for a loaded 2-core machine (the state comes every 2 ms of a sim paced
at real time). The check is go1_udp_clients.silence_means_damping, also run with the endpoint
under real ROS (tests/ros/test_real_clients_under_ros.py).

A watchdog time that would never trip (0, negative, NaN, infinite: the robot would keep the
last command for ever) is refused with one line naming the node and the parameter, and so is a
bridge rate or poll period it could not run with."""
from __future__ import annotations

import subprocess

import pytest

from go1_udp_clients import WATCHDOG_S, WS, free_port, robozoo_run, silence_means_damping


def test_silence_means_damping_within_the_watchdog(tmp_path):
    port = free_port()
    with robozoo_run('go1_udp_endpoint', tmp_path / 'run',
                     [f'go1_udp_endpoint.port={port}', f'go1_udp_endpoint.watchdog_s={WATCHDOG_S}']):
        silence_means_damping(port)


@pytest.mark.parametrize('value', ['0.0', '-1.0', '.nan', '.inf'])
def test_a_watchdog_that_would_never_trip_is_refused(tmp_path, value):
    r = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', 'go1_udp_endpoint', '--quiet',
                        '--output', str(tmp_path / 'run'), '--duration', '1',
                        '--set', f'go1_udp_endpoint.port={free_port()}',
                        '--set', f'go1_udp_endpoint.watchdog_s={value}'],
                       capture_output=True, text=True, timeout=300)
    lines = [ln for ln in r.stderr.strip().splitlines()
             if not ln.startswith(('[INFO]', '[WARN]'))]          # node logs
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert lines[0].startswith("robozoo: error: node 'go1_udp_endpoint'"), lines
    assert "parameter 'watchdog_s' = " in lines[0], lines
    assert 'expected a finite number of seconds > 0' in lines[0] and 'Traceback' not in r.stderr


@pytest.mark.parametrize('param, value', [('rate', '.inf'), ('rate', '0.0'),
                                          ('poll_period', '.inf'), ('poll_period', '.nan')])
def test_a_bridge_timing_that_cannot_run_is_refused(tmp_path, param, value):
    """rate = inf made the bridge's send timer spin; poll_period = inf never read a state."""
    port = free_port()
    r = subprocess.run([str(WS / 'bin' / 'robozoo'), 'run', 'go1_trot_udp', '--quiet',
                        '--output', str(tmp_path / 'run'), '--duration', '1',
                        '--set', f'go1_udp_endpoint.port={port}',
                        '--set', f'go1_udp_bridge.robot_port={port}',
                        '--set', f'go1_udp_bridge.{param}={value}'],
                       capture_output=True, text=True, timeout=300)
    lines = [ln for ln in r.stderr.strip().splitlines()
             if not ln.startswith(('[INFO]', '[WARN]'))]
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert "node 'go1_udp_bridge'" in lines[0] and f"parameter '{param}' = " in lines[0], lines
    assert 'expected a finite number > 0' in lines[0]
