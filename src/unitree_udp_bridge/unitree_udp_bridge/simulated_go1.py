"""The simulated Go1 as a child process, for the ``go1_udp`` backend's ``robot_ip: simulated``:
``robozoo run`` of a scenario like ``go1_udp_endpoint`` (the ``unitree_udp`` endpoint node on the
simulator), written from the backend's own config so the robot it stands for has the same world,
gravity, physics step, description and pose, on 127.0.0.1 at a free port, paced at the link's
real-time factor. Stopped with SIGTERM (a clean stop: the child writes its summary.json, whose
robots are the simulated robot's ground truth). No ROS."""
from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ENDPOINT_NODE = 'go1_udp_endpoint'
STOP_TIMEOUT_S = 30.0
_PR_SET_PDEATHSIG = 1


def free_udp_port(host: str = '127.0.0.1') -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def endpoint_scenario(config, port: int, real_time_factor: float, watchdog_s: float,
                      state_rate: float) -> dict:
    """The child's scenario: ``config`` (backends.BackendConfig, one robot) with the endpoint."""
    (spec,) = config.robots
    robot = {'name': spec.name, 'package': spec.package}
    optional = {'model': spec.model, 'pose': spec.pose, 'fixed_base': spec.fixed_base or None,
                'initial_positions': dict(spec.initial_positions) or None,
                'contact_links': spec.contact_links, 'imu_link': spec.imu_link,
                'fall_height': spec.fall_height,
                'args': {k: str(v) for k, v in spec.xacro_args.items()} or None}
    robot.update({k: (list(v) if isinstance(v, tuple) else v) for k, v in optional.items()
                  if v is not None})
    physics: dict[str, Any] = {'real_time_factor': float(real_time_factor)}
    if config.step is not None:
        physics['step'] = float(config.step)
    sc = {'description': 'the simulated Go1 of a go1_udp link', 'duration': 86400.0,
          'world': config.world, 'physics': physics, 'robots': [robot],
          'simulator': {f'{topic}_rate': float(state_rate)
                        for topic in ('joint_states', 'imu', 'contacts')},
          'nodes': [{'name': ENDPOINT_NODE, 'package': 'unitree_udp',
                     'executable': 'go1_udp_endpoint',
                     'parameters': {'robot': spec.name, 'level': 'low', 'host': '127.0.0.1',
                                    'port': int(port), 'watchdog_s': float(watchdog_s)}}]}
    if config.gravity is not None:
        sc['gravity'] = [float(g) for g in config.gravity]
    return sc


class SimulatedGo1:
    """One child ``robozoo run``; :meth:`stop` ends it and returns its summary.json."""

    def __init__(self, scenario: dict):
        self.folder = Path(tempfile.mkdtemp(prefix='go1_udp_robot_'))
        self.output = self.folder / 'run'
        self.log_path = self.folder / 'log.txt'
        path = self.folder / 'go1_udp_robot.yaml'
        path.write_text(yaml.safe_dump(scenario, sort_keys=False))
        self.port = scenario['nodes'][0]['parameters']['port']
        with open(self.log_path, 'wb') as log:
            self.process = subprocess.Popen(
                [sys.executable, '-m', 'zoo_bringup.cli', 'run', str(path), '--output',
                 str(self.output), '--quiet'], stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent,
                env={**os.environ, 'ZOO_RUNTIME': 'embedded'})  # (as bin/robozoo runs it)
        self.summary: dict | None = None

    def running(self) -> bool:
        return self.process.poll() is None

    def last_line(self) -> str:
        lines = [ln for ln in self.log_path.read_text(errors='replace').splitlines() if ln.strip()]
        return lines[-1].strip() if lines else f'exit {self.process.returncode}, no output'

    def stop(self) -> dict:
        """SIGTERM, wait, and the child's summary.json (or why there is none); once."""
        if self.summary is not None:
            return self.summary
        if self.running():
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        path = self.output / 'summary.json'
        if path.exists():
            self.summary = json.loads(path.read_text())
        else:
            self.summary = {'error': f'the simulated Go1 wrote no summary (exit '
                                     f'{self.process.returncode}): {self.last_line()}'}
        shutil.rmtree(self.folder, ignore_errors=True)
        return self.summary


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the parent dies (a kill -9 leaves no robot behind)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
