"""tests/ros/: the ROS tier's integration tests (tools/test_ros.sh). They need real rclpy, the
`ros2` CLI and this workspace's ROS build (install_ros/), all on the environment that
`source tools/ros2_env.sh` gives; the embedded `make test` does not collect this folder.

Every test gets a DDS domain of its own (``ros_env``): tests, and test runs on the same machine,
never see each other's nodes. Discovery stays on localhost (tools/ros2_env.sh)."""
from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

WS = Path(__file__).resolve().parents[2]
# Cyclone DDS maps a domain to UDP ports 7400 + 250 d (+ offsets): d <= 232 on Linux. The
# conformance suite runs in tools/test_ros.sh's ROS_DOMAIN_ID (1-100); these tests take 101-230.
_DOMAINS = list(range(101, 231))
random.Random(os.getpid()).shuffle(_DOMAINS)


@pytest.fixture
def ros_env(tmp_path):
    """The environment of this shell with a DDS domain and a ROS log folder of this test's own.
    A `ros2` daemon that a CLI call started in that domain is stopped afterwards."""
    domain = _DOMAINS.pop()
    _DOMAINS.insert(0, domain)
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain), ROS_LOG_DIR=str(tmp_path / 'ros_log'),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', PYTHONUNBUFFERED='1')
    yield env
    ros2(env, 'daemon', 'stop')


def ros2(env: dict[str, str], *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """One `ros2 ...` CLI call (list verbs take ``--no-daemon``: each call then discovers the
    graph itself)."""
    return subprocess.run(['ros2', *args], env=env, capture_output=True, text=True,
                          timeout=timeout)
