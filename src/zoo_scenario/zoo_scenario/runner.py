"""Run a scenario in the embedded world: every node in one process on the deterministic lockstep
executor, the simulator (if any) as its physics, optional rosbag2 recording, a summary.json."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from zoo_runtime import introspection
from zoo_runtime.embedded.exceptions import RunStopped  # nodes raise it too: it lives below them

from .node_registry import resolve_node_class
from .output_dir import RunFolder, strict_json, write_atomically
from .scenario import NodeSpec, Scenario, ScenarioError, default_record_topics, node_specs

DEFAULT_STEP = 0.001  # s; a scenario without a simulator still advances time in 1 ms ticks
FINISH_CHECK_NS = 100_000_000  # how often nodes with robozoo_finished() are asked (sim time)


class ScenarioRun:
    """One embedded run. Use as a context manager; ``nodes`` maps node names to live nodes."""

    def __init__(self, sc: Scenario, *, seed: int | None = None, record: bool | list[str] = False,
                 output: Path | RunFolder | None = None, real_time_factor: float | None = None,
                 record_limits: dict | None = None, live: dict | None = None):
        from zoo_runtime.embedded import parameter
        import zoo_runtime.embedded as rclpy

        self.scenario = sc
        self.seed = sc.seed if seed is None else seed
        # a RunFolder is created by open_output(), once every node is built: a bad parameter
        # leaves the user's folders as they were
        self.run_folder = output if isinstance(output, RunFolder) else None
        self.output = Path(output) if output and self.run_folder is None else None
        self._record = record
        self._record_limits = dict(record_limits or {})  # BagRecorder's max_bytes, max_duration_s
        self.wall_time = 0.0  # spent in run(), also when it was interrupted
        self.finished_early_at: float | None = None  # sim s when every finisher said done
        random.seed(self.seed)
        np.random.seed(self.seed % 2**32)

        self.context = rclpy.context.Context()
        rclpy.init(args=[], context=self.context)
        rtf = sc.physics.get('real_time_factor', 0.0) if real_time_factor is None else real_time_factor
        step_ns = int(round(float(sc.physics.get('step', DEFAULT_STEP)) * 1e9))
        self.executor = self._make_executor(step_ns, float(rtf))
        self.nodes: dict[str, Any] = {}
        # the robots' metrics as published on /<robot>/metrics (zoo_sim.metrics), kept as they
        # are published: summary.json's robots are these messages
        self.robot_metrics: dict[str, Any] = {}
        self._metric_topics = {f'/{r.name}/metrics': r.name for r in sc.robots}
        self.context.add_publish_observer(self._keep_metrics, self._metric_topics)
        self.live = None  # zoo_live.LiveServer with ``live`` (its kwargs: port, host)
        try:
            if live is not None:  # first: a taken port fails before the nodes are built
                from zoo_live import LiveServer
                self.live = LiveServer(self.context, **live)
            for spec in node_specs(sc, use_sim_time=True):
                if not self._builds_here(spec):
                    continue
                if spec.name == 'sim':
                    spec.parameters.setdefault('real_time_factor', float(rtf))
                    spec.parameters.setdefault('seed', int(self.seed))  # sensor noise
                node = self._start_node(spec, parameter)
                physics = getattr(node, 'lockstep_physics', None)
                if physics is not None:
                    self.executor.set_physics(physics)
            self.recorder = None
            self._nodes_started(record)  # (a --processes run opens its folder there)
            if record and self.recorder is None and self.run_folder is None:
                self._start_recorder(record)
            if self.live is not None:
                self.live.advertise()  # the nodes' topics, at once
        except BaseException:
            self.close()
            raise

    def open_output(self) -> Path:
        """Create the run's folder (a RunFolder given as ``output``) and start recording."""
        if self.run_folder is not None and self.output is None:
            self.output = self.run_folder.open()
            if self._record:
                self._start_recorder(self._record)
        return self.output

    # hooks of the multi-process run (processes.py): which nodes live in this process, its
    # executor, and what follows once they are built
    def _builds_here(self, spec: NodeSpec) -> bool:
        return True

    def _make_executor(self, step_ns: int, rtf: float):
        from zoo_runtime.embedded import executors
        return executors.LockstepExecutor(context=self.context, step_ns=step_ns,
                                          real_time_factor=rtf)

    def _nodes_started(self, record: bool | list[str]) -> None:
        pass

    def _start_node(self, spec: NodeSpec, parameter) -> Any:
        """Create one node; a parameter it rejects or does not declare is an error that names
        the node, the parameter, what was expected and where the value came from."""
        from zoo_runtime.embedded.exceptions import (InvalidParameterTypeException,
                                                     InvalidParameterValueException)
        cls = resolve_node_class(spec.package, spec.executable)
        node_name = f"node '{spec.name}' ({spec.package}/{spec.executable})"
        overrides = []
        for k, v in spec.parameters.items():
            try:
                overrides.append(parameter.Parameter(k, value=v))
            except TypeError as exc:  # a list mixing types: ROS 2 parameters hold one type
                mixed = isinstance(v, (list, tuple)) and {type(x) for x in v} == {int, float}
                hint = ' (a list holds one type: write 0.0, not 0, among floats)' if mixed else ''
                raise ScenarioError(f"{node_name}: parameter '{k}' = {v!r} (from "
                                    f"{spec.origins.get(k, 'a parameter file')}): {exc}{hint}"
                                    ) from None
        try:
            node = cls(context=self.context, cli_args=spec.ros_args(),
                       parameter_overrides=overrides)
        except (InvalidParameterTypeException, InvalidParameterValueException) as exc:
            name = exc.parameter_name
            origin = spec.origins.get(name, 'a parameter file')
            if isinstance(exc, InvalidParameterValueException):
                raise ScenarioError(f"{node_name}: parameter '{name}' = {exc.value!r} (from "
                                    f'{origin}): {exc.reason}') from None
            raise ScenarioError(
                f"{node_name}: parameter '{name}' = {exc.value!r} (from {origin}): expected "
                f'{_TYPE_WORDS.get(exc.expected_type, exc.expected_type)}, got '
                f'{_value_kind(exc.value, exc.expected_type)}') from None
        self.nodes[spec.name] = node  # destroyed with the run, also when the check fails
        self.executor.add_node(node)
        self._check_declared(spec, node, node_name)
        self._check_sim_time(spec, node, node_name)
        return node

    @staticmethod
    def _check_sim_time(spec: NodeSpec, node, node_name: str) -> None:
        """The lockstep executor advances simulated time only: a node on the wall clock would
        never have its timers called (it published nothing, with one WARN line)."""
        if not node.has_parameter('use_sim_time') or node.get_parameter('use_sim_time').value:
            return
        origins = {**introspection.parameter_origins(node), **spec.origins}
        raise ScenarioError(f"{node_name}: parameter 'use_sim_time' = false (from "
                            f"{origins.get('use_sim_time', 'a parameter file')}): robozoo run "
                            'runs every node on simulated time, where a wall-clock node\'s '
                            'timers never fire; expected true (the default)')

    @staticmethod
    def _check_declared(spec: NodeSpec, node, node_name: str) -> None:
        """rclpy ignores an override for a parameter the node never declares (a typo runs
        with the default): here it is an error."""
        if introspection.allows_undeclared_parameters(node):
            return
        origins = introspection.parameter_origins(node)  # parameter files included
        origins.update(spec.origins)
        for name in origins:
            if node.has_parameter(name):
                continue
            import difflib
            declared = introspection.declared_parameters(node)
            close = difflib.get_close_matches(name, declared, n=1)
            hint = f"did you mean '{close[0]}'? " if close else ''
            raise ScenarioError(f"{node_name} has no parameter '{name}' (from {origins[name]}; "
                                f"{hint}its parameters: {', '.join(declared)})")

    def _keep_metrics(self, topic: str, msg) -> None:
        robot = self._metric_topics.get(topic)
        if robot is not None:
            self.robot_metrics[robot] = msg

    def _start_recorder(self, record: bool | list[str]) -> None:
        from zoo_runtime.bag import BagRecorder
        if self.output is None:
            raise ValueError('recording needs an output directory (--output)')
        topics = record if isinstance(record, list) else default_record_topics(self.scenario)
        # the topics a user named (not the defaults): one that stays silent gets a warning
        self._named_topics = record if isinstance(record, list) else list(self.scenario.record)
        self.output.mkdir(parents=True, exist_ok=True)
        self.recorder = BagRecorder(self.context, self.output / 'bag', topics=topics,
                                    **self._record_limits)  # refuses an existing bag
        self.recorder.start()

    def warnings(self) -> list[str]:
        """What the user should know about the run: named topics nobody published, a recording
        stopped by its limit."""
        out = []
        if self.recorder is not None:
            counts = self.recorder.counts
            snap = introspection.graph_snapshot(self.context)
            for topic in getattr(self, '_named_topics', []):
                if not counts.get(topic):
                    who = ('no node publishes it' if not snap.publishers_of(topic)
                           else 'its publishers sent nothing')
                    out.append(f'--record {topic}: nothing was recorded ({who})')
            limit = getattr(self.recorder, 'limit_reached', None)
            if limit:
                out.append(f'recording stopped early: {limit}')
        return out

    @property
    def sim_time(self) -> float:
        return self.executor.now_ns * 1e-9

    def run(self, duration: float | None = None,
            on_progress: Callable[[float], None] | None = None) -> float:
        """Advance sim time by ``duration`` (default: the scenario's); returns wall seconds."""
        duration = self.scenario.duration if duration is None else duration
        t_end = self.executor.now_ns + int(round(duration * 1e9))

        def cb(ns: int) -> None:  # every 0.1 s of sim time
            failed = getattr(self.recorder, 'failed', None)
            if failed:  # the disk is full: the run stops, its summary says why
                raise RunStopped(failed)
            if on_progress is not None:
                on_progress(ns * 1e-9)
        t0 = time.perf_counter()
        finishers = [n for n in self.nodes.values() if hasattr(n, 'robozoo_finished')]
        try:
            if not finishers:
                self.executor.spin_until(t_end, on_progress=cb)
            else:  # a run whose nodes can say they are done ends then (a navigator at its goal)
                while self.executor.now_ns < t_end:
                    self.executor.spin_until(min(t_end, self.executor.now_ns + FINISH_CHECK_NS),
                                             on_progress=cb)
                    if all(n.robozoo_finished() for n in finishers):
                        self.finished_early_at = self.sim_time
                        break
        finally:
            self.wall_time += time.perf_counter() - t0
        return self.wall_time

    @property
    def physics(self):
        """The simulator's physics backend, or None for a scenario without a simulator."""
        sim = self.nodes.get('sim')
        return getattr(sim, 'physics', None)

    def snapshot(self, path: Path) -> Path | None:
        """A PNG of the current state (needs the simulator and offscreen GL); None without a
        simulator. Raises with the GL back-end's message when rendering is not possible."""
        if self.physics is None:
            return None
        from zoo_sim.render import snapshot_png
        snapshot_png(self.physics, path)
        return Path(path)

    def summary(self, wall_time: float) -> dict:
        metrics: dict[str, Any] = {}
        sim = self.nodes.get('sim')
        if sim is not None:
            sim.publish_metrics()  # the metrics of now, on their topics
        robots = {}
        if self.robot_metrics:
            from zoo_sim.metrics import from_message
            robots = {name: from_message(msg) for name, msg in self.robot_metrics.items()}
        for name, node in self.nodes.items():
            if hasattr(node, 'robozoo_metrics'):
                metrics[name] = node.robozoo_metrics()
        out = {
            'scenario': self.scenario.name,
            'seed': self.seed,
            'sim_time': self.sim_time,
            'wall_time': wall_time,
            'real_time_factor': self.sim_time / wall_time if wall_time > 0 else None,
            'robots': robots,
            'metrics': metrics,
        }
        if self.recorder is not None:
            out['bag'] = str(self.output / 'bag')
            out['recorded'] = dict(sorted(self.recorder.counts.items()))
            if getattr(self.recorder, 'failed', None):
                out['recording_failed'] = self.recorder.failed
        if self.finished_early_at is not None:
            out['finished_early_at'] = self.finished_early_at
        warnings = self.warnings()
        if warnings:
            out['warnings'] = warnings
        return out

    def write_node_outputs(self, folder: Path) -> list[str]:
        """Files the nodes write into the run folder (``robozoo_write_outputs(folder)`` ->
        paths, e.g. a tracker's plan.npz), relative to the folder."""
        folder.mkdir(parents=True, exist_ok=True)
        files: list[str] = []
        for node in self.nodes.values():
            write = getattr(node, 'robozoo_write_outputs', None)
            if write is not None:
                files += [str(Path(p).relative_to(folder)) for p in write(folder)]
        return files

    def close(self) -> None:
        rec = getattr(self, 'recorder', None)
        if rec is not None:
            rec.stop()
        if getattr(self, 'live', None) is not None:
            self.live.close()
            self.live = None
        for node in getattr(self, 'nodes', {}).values():
            node.destroy_node()
        self.nodes = {}
        self.executor.shutdown()
        if self.context.ok():
            self.context.shutdown()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_scenario(sc: Scenario, *, duration: float | None = None, seed: int | None = None,
                 record: bool | list[str] = False, output: Path | RunFolder | None = None,
                 real_time_factor: float | None = None,
                 on_progress: Callable[[float], None] | None = None, viewer: bool = False,
                 snapshot: bool = False, record_limits: dict | None = None,
                 live: dict | None = None,
                 on_live: Callable[[Any], None] | None = None, processes: bool = False,
                 dds: dict | None = None) -> dict:
    """Run, write ``output/summary.json`` (when an output directory is given), return the summary.
    ``viewer`` follows the run in MuJoCo's passive viewer (paced at real time unless a factor is
    given); ``snapshot`` renders ``output/snapshot.png`` of the final state. ``live`` (port, host)
    serves the run to Foxglove (zoo_live; real-time paced unless a factor is given) and hands the
    server to ``on_live`` before the run starts. ``processes``: every node but the simulator in a
    process of its own, topics between them on DDS (processes.py); ``dds``: its network beyond
    loopback (``dds_interfaces``, ``dds_peers``). A RunFolder ``output`` is created only once the
    nodes are built, and committed (an earlier run replaced) at the end.

    Interrupted (KeyboardInterrupt, which the CLI also raises for SIGTERM, or RunStopped): the
    bag is closed, summary.json describes the run up to there with ``interrupted`` set, and the
    interrupt is re-raised. A RunStopped run is not committed: an earlier run stays."""
    if (viewer or live is not None) and real_time_factor is None:
        real_time_factor = 1.0
    run_class, extra = ScenarioRun, {}
    if processes:
        from .processes import ProcessScenarioRun as run_class
        extra = dict(dds or {})
    run = run_class(sc, seed=seed, record=record, output=output,
                    real_time_factor=real_time_factor, record_limits=record_limits, live=live,
                    **extra)
    handle = None
    interrupt: BaseException | None = None
    try:
        _check_duration(sc, run, sc.duration if duration is None else duration)
        output = run.open_output()  # the nodes are built and checked: now the folder
        if on_live is not None and run.live is not None:
            on_live(run.live)
        if viewer:
            if run.physics is None:
                raise ValueError(f'--viewer: scenario {sc.name!r} has no simulator to show')
            from zoo_sim.render import open_viewer
            handle = open_viewer(run.physics)
        try:
            run.run(duration, on_progress)
        except (KeyboardInterrupt, RunStopped) as exc:
            interrupt = exc
        summary = run.summary(run.wall_time)  # before close: nodes report while alive
        if output is not None:
            files = run.write_node_outputs(Path(output))
            if files:
                summary['files'] = files
        if interrupt is not None:
            summary['interrupted'] = str(interrupt) or 'SIGINT'
        elif snapshot and output is not None and run.physics is not None:
            Path(output).mkdir(parents=True, exist_ok=True)
            summary['snapshot'] = str(run.snapshot(Path(output) / 'snapshot.png'))
    finally:
        if handle is not None:
            handle.close()
        run.close()
    failed = getattr(run.recorder, 'failed', None)  # also when closing the bag found no room
    if failed:
        summary['recording_failed'] = failed
        if not isinstance(interrupt, KeyboardInterrupt):
            interrupt = RunStopped(
                f"recording stopped at {summary['sim_time']:.2f} s of sim time: {failed}; "
                f"`bin/robozoo bag repair {Path(output) / 'bag'}` makes it readable (once there "
                'is room); summary.json holds the run up to there')
            summary['interrupted'] = failed
    if output is not None:
        folder = run.run_folder
        commit = folder is not None and folder.staged and not isinstance(interrupt, RunStopped)
        if commit:  # the paths it names are those after the swap
            for key in ('bag', 'snapshot'):
                if key in summary:
                    summary[key] = str(folder.final / Path(summary[key]).name)
        try:
            write_summary(Path(output) / 'summary.json', summary)
        except SummaryWriteError as exc:  # after a failed recording: both in the one line
            raise RunStopped(f'{interrupt}; {exc}' if isinstance(interrupt, RunStopped)
                             else str(exc)) from None
        if commit:
            folder.commit()
    if interrupt is not None:
        raise interrupt
    return summary


def _check_duration(sc: Scenario, run: ScenarioRun, duration: float) -> None:
    """The run advances whole physics steps: a step longer than the run would simulate more
    than was asked for."""
    step = run.executor.step_ns * 1e-9
    if duration * 1e9 < run.executor.step_ns:
        what = (f"{sc.path}: field 'physics.step' {step:g} s" if 'step' in sc.physics
                else f"the world's physics step {step:g} s")
        raise ScenarioError(f'{what} is longer than the run ({duration:g} s): expected a step '
                            'no longer than the duration (the run advances whole steps)')


def write_summary(path: Path, summary: dict) -> None:
    """summary.json as strict JSON: a NaN or infinity is written as null and said in
    ``warnings``. A full disk: the summary is printed on stdout instead (nothing lost), and
    the error names the file."""
    found: list[str] = []
    clean = strict_json(summary, '', found)
    if found:
        clean.setdefault('warnings', []).append(
            f"not finite, written as null: {', '.join(found[:5])}"
            + (f' and {len(found) - 5} more' if len(found) > 5 else ''))
    text = json.dumps(clean, indent=2, default=_jsonable, allow_nan=False)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
    except OSError as exc:
        print(text, flush=True)
        raise SummaryWriteError(f'{path}: cannot be written ({exc.strerror}); the summary is on '
                                'stdout') from None


class SummaryWriteError(RuntimeError):
    """summary.json found no room; the summary was printed instead."""


_TYPE_WORDS = {'BOOL': 'a bool (true or false)', 'INTEGER': 'an integer',
               'DOUBLE': 'a double (with a decimal point, e.g. 20.0)', 'STRING': 'a string',
               'BYTE_ARRAY': 'a list of bytes', 'BOOL_ARRAY': 'a list of bools',
               'INTEGER_ARRAY': 'a list of integers', 'DOUBLE_ARRAY': 'a list of doubles',
               'STRING_ARRAY': 'a list of strings'}


def _value_kind(value, expected: str) -> str:
    kind = {bool: 'a bool', int: 'an integer', float: 'a double', str: 'a string',
            list: 'a list'}.get(type(value), type(value).__name__)
    if type(value) is int and expected == 'DOUBLE':
        return f'{kind} (write {value}.0 for a double)'
    return kind


def _jsonable(x):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f'summary value of type {type(x).__name__} is not JSON serialisable')
