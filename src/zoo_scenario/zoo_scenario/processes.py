"""`robozoo run <scenario> --processes`: the simulator in this process, every other node in a
process of its own (process_child.py), topics between them on Cyclone DDS under ROS 2's names,
one sim time kept in lockstep over DDS (zoo_dds.lockstep_dds).

Start-up: the children build their nodes and report their endpoints (``hello``); this process
plans which topics cross (zoo_dds.process_plan), sends the plan, each side opens its DDS readers
and writers and waits until they have discovered each other (``ready``); then the lockstep runs.
Each child appears in ``nodes`` as a RemoteNode, so metrics, outputs and "finished" reach the
runner as from an in-process node.

Scope (zoo_dds README, "Who can reach a --processes run"): Cyclone on the loopback interface only
with unicast discovery of this host's participants (zoo_dds.discovery.run_config; other hosts
only with ``dds_interfaces``/``dds_peers``), the run's own traffic in a DDS partition of its
own, control samples signed with a secret key that the children get on stdin, data between the
processes taken only from the run's own participants.

A child that dies stops the run (RunStopped, one line naming the node and its exit code); closing
the run tells the children to exit and reaps them.
"""
from __future__ import annotations

import dataclasses
import pickle
import secrets
import signal
import subprocess
import sys
from pathlib import Path

from .runner import RunStopped, ScenarioRun
from .scenario import ScenarioError, default_record_topics, node_specs

PARENT_NODES = ('sim',)
START_TIMEOUT_S = 120.0  # children import, build their nodes (a tracker plans) and discover
EXIT_TIMEOUT_S = 5.0
CLOCK_QOS = {'history': 'KEEP_LAST', 'depth': 1, 'reliability': 'RELIABLE',
             'durability': 'VOLATILE'}


class RemoteNode:
    """A node running in a child process, as the runner sees it: the runner's hooks the node
    has (robozoo_metrics, robozoo_write_outputs, robozoo_finished) are set as attributes."""

    def __init__(self, run: 'ProcessScenarioRun', name: str, proc: int, popen, hooks: list[str]):
        self.name, self.proc, self.popen, self._run = name, proc, popen, run
        if 'robozoo_metrics' in hooks:
            self.robozoo_metrics = self._metrics
        if 'robozoo_write_outputs' in hooks:
            self.robozoo_write_outputs = self._outputs
        if 'robozoo_finished' in hooks:
            self.robozoo_finished = self._finished

    def _ask(self, kind: str, payload=None):
        return self._run.coordinator.request(self.proc, kind, payload,
                                             alive=lambda: self._run._alive(self.popen))

    def _metrics(self) -> dict:
        code = self.popen.poll()
        return {'exit_code': code} if code is not None else self._ask('metrics')

    def _outputs(self, folder: Path) -> list[Path]:
        if self.popen.poll() is not None:
            return []
        return [Path(folder) / p for p in self._ask('outputs', str(folder))]

    def _finished(self) -> bool:
        return bool(self._ask('finished'))

    def destroy_node(self) -> None:
        pass  # the process is ended by ProcessScenarioRun.close


class ProcessScenarioRun(ScenarioRun):
    def __init__(self, sc, *, dds_interfaces: list[str] = (), dds_peers: list[str] = (),
                 **kwargs):
        """``dds_interfaces``/``dds_peers``: take DDS beyond this host (default: loopback)."""
        self._children: list[tuple[str, subprocess.Popen]] = []
        self._dp = self._channel = self._link = self.coordinator = self._graph = None
        self._refusals = None
        self._dds_interfaces, self._dds_peers = list(dds_interfaces), list(dds_peers)
        self._has_sim = sc.has_simulator
        super().__init__(sc, **kwargs)

    # -- the runner's hooks ---------------------------------------------------------------------
    def _builds_here(self, spec) -> bool:
        return spec.name in PARENT_NODES

    def _make_executor(self, step_ns: int, rtf: float):
        from zoo_dds.lockstep_dds import ProcessLockstepExecutor
        return ProcessLockstepExecutor(context=self.context, step_ns=step_ns,
                                       real_time_factor=rtf)

    def _nodes_started(self, record) -> None:
        specs = [s for s in node_specs(self.scenario, use_sim_time=True)
                 if not self._builds_here(s)]
        if not specs:
            return  # nothing to put elsewhere: the plain run
        # the children write their outputs only into the run's folder, which they are told now:
        # it is created once this process's nodes are built (a child's bad parameter then fails
        # after it: RunFolder.abandon keeps an earlier run and names this one's folder)
        self.open_output()
        from zoo_dds.control import ControlChannel, Refusals, partition
        from zoo_dds.discovery import run_config
        from zoo_dds.transport import domain_id_from_env, participant
        self._domain_id = domain_id_from_env()
        config = run_config(self._dds_interfaces, self._dds_peers)
        self._dp = participant(self._domain_id, config, whole=True)
        run_id = secrets.token_hex(8)
        key = secrets.token_bytes(32)  # signs the control samples; never goes over DDS
        self._refusals = Refusals('robozoo')
        self._channel = channel = ControlChannel(self._dp, run_id, parent=True, key=key,
                                                 refusals=self._refusals)
        sc = self.scenario
        # the children tick on this process's step (the simulator's, maybe the world's) and
        # never pace: this process does. The scenario (with the --set overrides), the run's key
        # and DDS configuration and its output folder go through stdin: no file to leave
        # behind, nothing in argv or the environment for other processes to read
        physics = dict(sc.physics, step=self.executor.step_ns / 1e9, real_time_factor=0.0)
        given = pickle.dumps({
            'scenario': dataclasses.replace(sc, physics=physics), 'key': key,
            'domain_id': self._domain_id, 'dds_config': config,
            'output': str(self.output) if self.output is not None else None})
        for proc, spec in enumerate(specs, start=1):
            cmd = [sys.executable, '-m', 'zoo_scenario.process_child', run_id, str(proc),
                   spec.name, str(self.seed)]
            # a session of its own: a terminal's Ctrl-C reaches this process only, which then
            # stops the children in order; they die with it if it is killed (PDEATHSIG)
            popen = subprocess.Popen(cmd, stdin=subprocess.PIPE, start_new_session=True,
                                     preexec_fn=_die_with_parent)
            self._children.append((spec.name, popen))
            popen.stdin.write(given)
            popen.stdin.close()
        channel.wait_matched(len(specs), START_TIMEOUT_S, self._alive)
        hellos = self._collect('hello')
        endpoints = [self._own_endpoints()] + [hellos[p]['endpoints']
                                               for p in range(1, len(specs) + 1)]
        plans, topics = self._plan(endpoints, record)
        # the writers whose samples the run's readers take: its own processes'
        participants = [str(self._dp.get_guid())] + [hellos[p]['participant']
                                                     for p in range(1, len(specs) + 1)]
        from zoo_dds.process_link import ProcessLink
        self._link = ProcessLink(self.context, self._dp, plans[0], topics, self.executor, 0,
                                 partition=partition(run_id), participants=participants,
                                 refused=self._refusals)
        from zoo_dds.ros_graph import GraphAnnouncer  # `ros2 node list` sees this process
        self._graph = GraphAnnouncer(self._dp, self.context, list(self.nodes.values()),
                                     self._link)
        channel.send('plan', body={'plans': plans, 'topics': topics,
                                   'participants': participants})
        self._link.wait_matched(START_TIMEOUT_S, self._alive)
        self._link.replay_latched()
        readies = self._collect('ready')
        from zoo_dds.lockstep_dds import Coordinator
        self.coordinator = Coordinator(channel, self._link, plans, topics, self._alive,
                                       self.executor.clock_at_now)
        self.coordinator.start(readies)
        self.executor.coordinator = self.coordinator
        for proc, (name, popen) in enumerate(self._children, start=1):
            self.nodes[name] = RemoteNode(self, name, proc, popen, hellos[proc]['hooks'])

    def _own_endpoints(self) -> dict:
        from zoo_dds.process_link import endpoints
        mine = endpoints(self.context, list(self.nodes))
        if self._has_sim:  # the lockstep executor's /clock, written for DDS peers
            mine['pubs'].setdefault('/clock', {'type': 'rosgraph_msgs/msg/Clock',
                                               'qos': CLOCK_QOS})
        return mine

    def _plan(self, endpoints: list[dict], record) -> tuple[list[dict], list[str]]:
        from zoo_dds.bridge_node import DEFAULT_PUBLISH, DEFAULT_SUBSCRIBE
        from zoo_dds.process_plan import PlanError, make_plan, topic_table
        visible = {t.replace('{robot}', r.name) for t in DEFAULT_PUBLISH
                   for r in self.scenario.robots} | {'/tf', '/tf_static', '/clock'}
        # what a ROS 2 node may command, as through the bridge (/<robot>/joint_commands)
        peer_inputs = {t.replace('{robot}', r.name) for t in DEFAULT_SUBSCRIBE
                       for r in self.scenario.robots}
        extra = {}
        if record:  # the recorder here sees what the children publish
            wanted = record if isinstance(record, list) else default_record_topics(self.scenario)
            for topic in wanted:
                for e in endpoints[1:]:
                    if topic in e['pubs'] and topic not in endpoints[0]['pubs']:
                        extra[topic] = {'type': e['pubs'][topic]['type'],
                                        'qos': e['pubs'][topic]['qos']}
        try:
            plans = make_plan(endpoints, visible, extra, peer_inputs)
        except PlanError as exc:
            raise ScenarioError(f'--processes: {exc}') from None
        return plans, topic_table(plans)

    def _collect(self, kind: str) -> dict[int, dict]:
        from zoo_dds.control import body
        got: dict[int, dict] = {}
        while len(got) < len(self._children):
            msg = self._channel.recv(lambda m: m.kind == kind, START_TIMEOUT_S, self._alive)
            answer = body(msg)
            if 'error' in answer:
                raise ScenarioError(answer['error'])
            got[msg.proc] = answer
        return got

    def _alive(self, only: subprocess.Popen | None = None) -> None:
        for proc, (name, popen) in enumerate(self._children, start=1):
            if only is not None and popen is not only:
                continue
            code = popen.poll()
            if code is None:
                continue
            at = f'at sim time {self.executor.now_ns / 1e9:.3f} s; the run stopped'
            why = self._last_words(proc)
            if why:  # a callback raised: the child said what
                raise RunStopped(f'{why} ({at})')
            how = (f'was killed by {signal.Signals(-code).name}' if code < 0
                   else f'exited with code {code}')
            raise RunStopped(f"node '{name}' (process {popen.pid}) {how} {at}")

    def _last_words(self, proc: int) -> str:
        from zoo_dds.control import ChannelTimeout, body
        try:
            msg = self._channel.recv(lambda m: m.kind == 'failed' and m.proc == proc, 0.2)
        except ChannelTimeout:
            return ''
        return body(msg)['error']

    # -- outputs and the end --------------------------------------------------------------------
    def summary(self, wall_time: float) -> dict:
        out = super().summary(wall_time)
        if self._children:
            out['processes'] = {
                'children': {name: popen.pid for name, popen in self._children},
                'domain_id': self._domain_id,
                'lockstep_rounds': self.coordinator.rounds if self.coordinator else 0,
                'sent': self._link.sent if self._link else 0,
                'received': self._link.received if self._link else 0,
                # DDS samples this process refused as not from the run (by topic)
                'refused': dict(self._refusals.counts) if self._refusals else {}}
        return out

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._stop_children()

    def _stop_children(self) -> None:
        if self._channel is not None:
            try:
                self._channel.send('exit')
            except Exception:  # noqa: BLE001 - stopping anyway
                pass
        for name, popen in self._children:
            try:
                popen.wait(EXIT_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                print(f"robozoo: node '{name}' (process {popen.pid}) did not exit; "
                      'terminating it', file=sys.stderr)
                popen.terminate()
                try:
                    popen.wait(EXIT_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    popen.kill()
                    popen.wait()
        if self._graph is not None:
            self._graph.close()
            self._graph = None
        if self._link is not None:
            self._link.close()
            self._link = None
        if self._refusals is not None:
            self._refusals.flush()
        if self._dp is not None:
            from zoo_dds.transport import close
            self._channel = None
            close(self._dp)
            self._dp = None


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the parent dies, even by kill -9 (Linux)."""
    try:
        import ctypes
        libc = ctypes.CDLL('libc.so.6', use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass
