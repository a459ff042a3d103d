"""A silent command stream puts the simulated Go1 in damping within its watchdog time: stream
LowCmds (hold the stand pose) to ``go1_udp_endpoint`` for 0.5 s, stop, and time the first
LowState whose motors report mode 0 (damping). The endpoint's watchdog is 0.1 s of steady clock;
the bound is 0.1 s + 0.4 s for a loaded 2-core machine (the state comes every 2 ms of a sim paced
at real time). The check is go1_udp_clients.silence_means_damping, also run with the endpoint
under real ROS (tests/ros/test_real_clients_under_ros.py)."""
from __future__ import annotations

from go1_udp_clients import WATCHDOG_S, free_port, robozoo_run, silence_means_damping


def test_silence_means_damping_within_the_watchdog(tmp_path):
    port = free_port()
    with robozoo_run('go1_udp_endpoint', tmp_path / 'run',
                     [f'go1_udp_endpoint.port={port}', f'go1_udp_endpoint.watchdog_s={WATCHDOG_S}']):
        silence_means_damping(port)
