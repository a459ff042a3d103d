"""One node of a `robozoo run --processes` run, in its own process (started by processes.py):
``python -m zoo_scenario.process_child RUN_ID PROC NODE SEED``; on stdin, pickled: the scenario,
the run's secret key (the control channel's), its DDS domain and configuration, its output folder.

It builds its node as the in-process runner would (same parameters, same one-line errors), then
serves the lockstep rounds and the runner's requests over the run's control channel until told
to exit. It writes its node's outputs only into the run's output folder (from stdin): a request
naming another folder is refused. Signals from a terminal go to the parent, which stops the
children in order; if the parent disappears the child exits (PDEATHSIG, and a check of its
parent pid while waiting).
"""
from __future__ import annotations

import os
import pickle
import signal
import sys
from pathlib import Path

os.environ.setdefault('ZOO_RUNTIME', 'embedded')

from .runner import ScenarioRun  # noqa: E402


class ChildRun(ScenarioRun):
    """A ScenarioRun that builds one node of the scenario."""

    def __init__(self, sc, node: str, **kwargs):
        self._node_name = node
        super().__init__(sc, **kwargs)

    def _builds_here(self, spec) -> bool:
        return spec.name == self._node_name

    def _make_executor(self, step_ns: int, rtf: float):
        from zoo_dds.lockstep_dds import ChildLockstepExecutor
        return ChildLockstepExecutor(context=self.context, step_ns=step_ns, real_time_factor=rtf)


def next_due(run: ScenarioRun):
    """The earliest sim time one of the node's sim-time timers is due (None: no timer)."""
    due = None
    for node in run.nodes.values():
        for timer in node.timers:
            until = timer.time_until_next_call()
            clock = timer.clock
            if until is None or clock.clock_type.name != 'ROS_TIME' or \
                    not clock.ros_time_is_active:
                continue
            at = clock.now().nanoseconds + until
            due = at if due is None else min(due, at)
    return due


def _run_folder(asked, output: str | None) -> Path:
    """The folder an ``outputs`` request names, if it is the run's output folder."""
    if output is None or not isinstance(asked, str) or Path(asked) != Path(output):
        raise ValueError(f'outputs: folder {str(asked)[:200]!r} is not the run\'s output '
                         f'folder ({output!r})')
    return Path(output)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    run_id, proc, name, seed = argv
    proc, seed = int(proc), int(seed)
    given = pickle.loads(sys.stdin.buffer.read())  # from the parent: trusted
    sc, output = given['scenario'], given['output']
    from zoo_dds.control import ControlChannel, Refusals, body, partition
    from zoo_dds.lockstep_dds import serve
    from zoo_dds.process_link import ProcessLink, endpoints
    from zoo_dds.ros_graph import GraphAnnouncer
    from zoo_dds.transport import close, participant
    parent = os.getppid()

    def alive() -> None:
        if os.getppid() != parent:
            raise SystemExit(f'robozoo: node {name!r}: the run process {parent} is gone')

    dp = participant(given['domain_id'], given['dds_config'], whole=True)
    refusals = Refusals(f'robozoo: node {name!r}')
    channel = ControlChannel(dp, run_id, parent=False, key=given['key'], refusals=refusals)
    run = link = graph = None
    try:
        channel.wait_matched(1, 120.0, alive)
        try:
            run = ChildRun(sc, name, seed=seed, real_time_factor=0.0)
        except Exception as exc:  # noqa: BLE001 - the parent reports it as one line
            channel.send('hello', proc, body={'error': _one_line(exc)})
            channel.recv(lambda m: m.kind == 'exit', 60.0, alive)
            return 2
        node = run.nodes[name]
        hooks = [h for h in ('robozoo_metrics', 'robozoo_write_outputs', 'robozoo_finished')
                 if hasattr(node, h)]
        channel.send('hello', proc, body={'endpoints': endpoints(run.context, [name]),
                                          'hooks': hooks, 'participant': str(dp.get_guid())})
        msg = channel.recv(lambda m: m.kind in ('plan', 'exit'), 300.0, alive)
        if msg.kind == 'exit':
            return 0
        plan = body(msg)
        plans, topics = plan['plans'], plan['topics']
        link = ProcessLink(run.context, dp, plans[proc], topics, run.executor, proc,
                           partition=partition(run_id), participants=plan['participants'],
                           refused=refusals)
        graph = GraphAnnouncer(dp, run.context, [node], link)  # `ros2 node list` sees it
        link.wait_matched(120.0, alive)
        link.replay_latched()
        ids = {t: i for i, t in enumerate(topics)}
        read_by_others = {ids[t] for p in plans for t, info in p['in'].items()
                          if proc in info['from']}
        channel.send('ready', proc, body={'order': link.take_order(read_by_others),
                                          'next_due': next_due(run)})
        handlers = {
            'metrics': lambda _b: node.robozoo_metrics(),
            'outputs': lambda folder: run.write_node_outputs(_run_folder(folder, output)),
            'finished': lambda _b: bool(node.robozoo_finished()),
        }
        try:
            serve(run.executor, channel, link, proc, handlers, alive, read_by_others,
                  lambda: next_due(run))
        except Exception as exc:  # noqa: BLE001 - a node's callback raised: one line, as in-process
            channel.send('failed', proc, body={'error': f'node {name!r}: {_one_line(exc)}'})
            if os.environ.get('ROBOZOO_DEBUG'):
                raise
            return 1
        return 0
    finally:
        if graph is not None:
            graph.close()
        if link is not None:
            link.close()
        if run is not None:
            run.close()
        refusals.flush()
        close(dp)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
