"""A protocol-serving scenario (``robobo_remote``) run in a background thread of this process,
paced at real time, for robobopy programs in the foreground - the tests and the robobopy global
test check use it because they judge on the simulator's ground truth (``run.physics``), which a
subprocess would not expose.

    with ServedRun(robot_id=3, pose=(-0.2, 0.1, 0.5)) as served:
        Robobo('127.0.0.1', 3) ...            # served.run.physics after served.stop()

Several robots (``robobo_remote_multi``): one robot id per ``robobo_remote`` node, in the
scenario's order, e.g. ``ServedRun(free_robot_ids(3), scenario='robobo_remote_multi')``.
"""
from __future__ import annotations

import socket
import threading
from collections.abc import Sequence

from robobo_api.rrap_codec import SIM_PORT, robot_port

CHUNK_S = 0.2  # sim seconds per run() call: how quickly stop() takes effect


def port_free(port: int, host: str = '127.0.0.1') -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
        return True


def free_port(host: str = '127.0.0.1') -> int:
    """A TCP port nobody listens on now (the system's pick), e.g. for robobo_sim_remote.port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def free_robot_id(first: int = 1, last: int = 60) -> int:
    """A robobopy robot id whose port (40404 + 10 id) nobody listens on."""
    for robot_id in range(first, last + 1):
        if port_free(robot_port(robot_id)):
            return robot_id
    raise OSError(f'no free robobopy port for robot ids {first}..{last}')


def free_robot_ids(n: int, preferred: tuple[int, ...] = (0, 1, 2), last: int = 60) -> list[int]:
    """``n`` robobopy robot ids whose ports are free: ``preferred`` (the scenario's own ids) when
    all of them are, else the first free ones in 0..``last``."""
    if len(preferred) == n and all(port_free(robot_port(i)) for i in preferred):
        return list(preferred)
    ids = [i for i in range(last + 1) if port_free(robot_port(i))][:n]
    if len(ids) < n:
        raise OSError(f'only {len(ids)} free robobopy ports for robot ids 0..{last}, need {n}')
    return ids


class ServedRun:
    """``robobo_remote`` with robot ``robot_id``, an optional start ``pose`` (x, y, yaw), the
    robobosim server only when ``sim_server`` and its port (50505, or ``robobo_sim_remote.port``
    in ``node_parameters``; ``sim_port``) is free (``sim_served`` says).
    ``robot_id`` may be a list: one id per ``robobo_remote`` node of ``scenario``, in order;
    ``pose`` is the first robot's. ``node_parameters`` ({node name: {param: value}}) overrides
    the scenario's node parameters; ``robot_args`` (xacro args) is given to every robot, e.g.
    ``{'ir_noise_stddev': 0.0}`` for exact IR readings."""

    def __init__(self, robot_id: int | Sequence[int],
                 pose: tuple[float, float, float] | None = None,
                 sim_server: bool = True, scenario: str = 'robobo_remote',
                 real_time_factor: float = 1.0, limit_s: float = 600.0,
                 node_parameters: dict[str, dict] | None = None,
                 robot_args: dict | None = None):
        from zoo_scenario.scenario import load_scenario
        sc = load_scenario(scenario)
        for robot in sc.robots:
            robot.args.update(robot_args or {})
        if pose is not None:
            sc.robots[0].pose = [pose[0], pose[1], 0.03225, 0.0, 0.0, pose[2]]
        remotes = [n for n in sc.nodes if n.executable == 'robobo_remote']
        ids = [int(robot_id)] * len(remotes) if isinstance(robot_id, int) else list(robot_id)
        if len(ids) != len(remotes) or len(set(ids)) != len(ids):
            raise ValueError(f'{scenario} serves {len(remotes)} robots: expected as many '
                             f'distinct robot ids, got {robot_id}')
        self.robot_ids = dict(zip((n.parameters.get('robot', 'robobo') for n in remotes), ids))
        for node, node_id in zip(remotes, ids):
            node.parameters['robot_id'] = node_id
        overrides = dict(node_parameters or {})
        for node in sc.nodes:
            node.parameters.update(overrides.pop(node.name, {}))
        if overrides:
            raise ValueError(f'no nodes {sorted(overrides)} in {scenario}')
        sims = [n for n in sc.nodes if n.executable == 'robobo_sim_remote']
        self.sim_port = int(sims[0].parameters.get('port', SIM_PORT)) if sims else SIM_PORT
        self.sim_served = sim_server and port_free(self.sim_port)
        sc.nodes = [n for n in sc.nodes
                    if n.executable != 'robobo_sim_remote' or self.sim_served]
        self.scenario, self.rtf, self.limit_s = sc, real_time_factor, limit_s
        self.run = None
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> 'ServedRun':
        from zoo_scenario.runner import ScenarioRun
        self.run = ScenarioRun(self.scenario, real_time_factor=self.rtf)
        self._thread = threading.Thread(target=self._spin, name='served_run', daemon=True)
        self._thread.start()
        return self

    def _spin(self) -> None:
        try:
            while not self._stop.is_set() and self.run.sim_time < self.limit_s:
                self.run.run(CHUNK_S)
        except BaseException as exc:  # noqa: BLE001 - re-raised by stop()
            self.error = exc

    def stop(self) -> None:
        """Stop the simulation (the nodes stay alive for inspection until exit)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        if self.error is not None:
            raise self.error

    def __exit__(self, *exc) -> None:
        try:
            self.stop()
        finally:
            self.run.close()
