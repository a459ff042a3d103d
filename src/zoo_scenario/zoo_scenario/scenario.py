"""Scenario files: what a run contains, independent of the world (embedded or ROS 2) that runs it.

A scenario is ``config/scenarios/<name>.yaml``::

    description: one line shown by `robozoo list`
    duration: 10.0               # sim seconds (CLI --duration overrides)
    seed: 0                      # CLI --seed overrides
    world: empty                 # SDF world name (worlds/<name>.sdf) or path; omit for no simulator
    gravity: [0, 0, -3.72111]    # optional override of the world's gravity
    physics: {step: 0.001, real_time_factor: 0.0}
    robots:                      # spawned by the simulator node
      - {name: nao, package: nao_description, args: {}, pose: [0, 0, 0.33, 0, 0, 0]}
        # optional: model, fixed_base, initial_positions {joint: rad}, contact_links [...],
        # imu_link, fall_height; pose defaults to the description's config/initial_pose.yaml
    simulator: {joint_states_rate: 100.0}   # extra simulator parameters
    nodes:                       # in creation order
      - name: talker
        package: zoo_bringup
        executable: talker
        namespace: /demo
        parameters: {rate: 10.0}            # or a list of dicts and ros__parameters files
        remappings: {chatter: /demo/chat}
    record: [/demo/chatter]      # topics `--record` writes (empty: the defaults below)

``extends: <scenario name or .yaml path>`` starts from that scenario's fields (a relative path is
the extending file's): mappings merge key by key (deep), ``robots`` and ``nodes`` entries merge
with the base's entry of the same name (new names are appended), any other list or value replaces
the base's. Nothing of the base can be removed. A base may extend another; a cycle or a missing
base is an error naming the file and ``extends``.

Pure functions only: this module imports no ROS and no simulator, so the launch file uses it too.
"""
from __future__ import annotations

import copy
import dataclasses
import difflib
import math
import os
import re
from pathlib import Path
from typing import Any

import yaml
from zoo_runtime.resources import package_share as installed_share  # also ros_launch's
from zoo_runtime.resources import workspace_root

SIM_NODE_NAME = 'sim'
TOP_KEYS = {'extends', 'description', 'duration', 'seed', 'world', 'gravity', 'physics', 'robots',
            'simulator', 'nodes', 'record', 'report'}
NODE_KEYS = {'name', 'package', 'executable', 'namespace', 'parameters', 'remappings'}
ROBOT_KEYS = {'name', 'package', 'args', 'pose', 'model', 'fixed_base', 'initial_positions',
              'contact_links', 'imu_link', 'fall_height'}
# |g| per axis, m/s^2: 100 g. The worlds span 0 (space) to 9.80665; far beyond, a 1 ms step's
# contacts are no longer a simulation of anything
GRAVITY_LIMIT = 1000.0
# a ROS package name (REP 144, uppercase tolerated): never a path, which would resolve
# outside the install prefix
PACKAGE_NAME = re.compile(r'[A-Za-z][A-Za-z0-9_]*')


class ScenarioError(ValueError):
    """A scenario that cannot be used; the message is one line naming the file and the field."""


@dataclasses.dataclass
class NodeSpec:
    """One node to start: the same fields a launch_ros ``Node`` action takes."""
    name: str
    package: str
    executable: str
    namespace: str = '/'
    parameters: dict[str, Any] = dataclasses.field(default_factory=dict)
    params_files: list[str] = dataclasses.field(default_factory=list)
    remappings: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    # where each of ``parameters`` came from ("file.yaml: nodes[0].parameters", "--set a.b=1"):
    # errors about a parameter name it
    origins: dict[str, str] = dataclasses.field(default_factory=dict)

    def ros_args(self) -> list[str]:
        """`--ros-args` for this node: name, namespace, remappings and parameter files."""
        args = ['--ros-args', '-r', f'__node:={self.name}']
        if self.namespace not in ('', '/'):
            args += ['-r', f'__ns:={self.namespace}']
        for src, dst in self.remappings:
            args += ['-r', f'{src}:={dst}']
        for f in self.params_files:
            args += ['--params-file', f]
        return args


@dataclasses.dataclass
class RobotSpec:
    """A robot for the simulator. ``pose`` None: the description's nominal pose; ``extra``: the
    optional simulator fields (model, fixed_base, initial_positions, contact_links, imu_link,
    fall_height)."""
    name: str
    package: str
    args: dict[str, Any] = dataclasses.field(default_factory=dict)
    pose: list[float] | None = None
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Scenario:
    name: str
    path: Path
    description: str = ''
    duration: float = 10.0
    seed: int = 0
    world: str | None = None
    gravity: list[float] | None = None
    physics: dict[str, Any] = dataclasses.field(default_factory=dict)
    robots: list[RobotSpec] = dataclasses.field(default_factory=list)
    simulator: dict[str, Any] = dataclasses.field(default_factory=dict)
    nodes: list[NodeSpec] = dataclasses.field(default_factory=list)
    record: list[str] = dataclasses.field(default_factory=list)
    report: dict[str, Any] = dataclasses.field(default_factory=dict)
    # "node.param" -> "--set node.param=value" for the overrides applied to this copy
    set_origins: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def has_simulator(self) -> bool:
        return self.world is not None or bool(self.robots)

    def node_names(self) -> list[str]:
        return ([SIM_NODE_NAME] if self.has_simulator else []) + [n.name for n in self.nodes]


def scenario_dirs() -> list[Path]:
    """Where scenarios are looked up: ``ROBOZOO_SCENARIO_PATH`` (os.pathsep separated), then the
    workspace's ``config/scenarios``."""
    dirs = [Path(p) for p in os.environ.get('ROBOZOO_SCENARIO_PATH', '').split(os.pathsep) if p]
    ws = workspace_root()
    if ws is not None:
        dirs.append(ws / 'config' / 'scenarios')
    share = installed_share('zoo_bringup')  # `ros2 launch zoo_bringup ...` without a checkout
    if share is not None:
        dirs.append(share / 'config' / 'scenarios')
    return dirs


def list_scenarios() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for d in scenario_dirs():
        for f in sorted(d.glob('*.yaml')):
            found.setdefault(f.stem, f)
    return found


def find_scenario(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix in ('.yaml', '.yml'):
        if not p.is_file():
            raise ScenarioError(f'scenario file {p} does not exist')
        return p
    known = list_scenarios()
    if name_or_path in known:
        return known[name_or_path]
    close = difflib.get_close_matches(name_or_path, known, n=3)
    hint = f'; did you mean {", ".join(close)}?' if close else f' (known: {", ".join(known) or "none"})'
    raise ScenarioError(f"unknown scenario '{name_or_path}'{hint}")


def load_scenario(name_or_path: str) -> Scenario:
    path = find_scenario(name_or_path)
    return parse_scenario(extended(load_yaml(path), path), path)


def extended(data: Any, path: Path, chain: tuple[Path, ...] = ()) -> Any:
    """``data`` with its ``extends:`` chain merged in (module docstring); the data unchanged
    without one."""
    if not isinstance(data, dict) or 'extends' not in data:
        return data
    chain += (path.resolve(),)
    ref = data['extends']
    _expect(isinstance(ref, str) and ref != '', path, 'extends', f'a scenario name or .yaml path, '
            f'got {ref!r}')
    try:
        base_path = find_scenario(ref if not ref.endswith(('.yaml', '.yml')) or os.path.isabs(ref)
                                  else str(path.parent / ref))
    except ScenarioError as exc:
        raise ScenarioError(f'{path}: field \'extends\': {exc}') from None
    if base_path.resolve() in chain:
        raise ScenarioError(f"{path}: field 'extends': {ref!r} closes a cycle ("
                            + ' -> '.join(p.name for p in chain + (base_path,)) + ')')
    base = extended(load_yaml(base_path), base_path, chain)
    _expect(isinstance(base, dict), base_path, '<top>', 'a mapping of scenario fields')

    def merge(a: Any, b: Any) -> Any:
        if isinstance(a, dict) and isinstance(b, dict):
            return {**a, **{k: merge(a[k], v) if k in a else v for k, v in b.items()}}
        return b

    def by_name(a: Any, b: Any) -> Any:
        if not (isinstance(a, list) and isinstance(b, list)):
            return b
        named = {e['name']: e for e in b if isinstance(e, dict) and 'name' in e}
        out = [merge(e, named[e['name']]) if isinstance(e, dict) and e.get('name') in named
               else e for e in a]
        taken = {e['name'] for e in a if isinstance(e, dict) and 'name' in e}
        return out + [e for e in b if not (isinstance(e, dict) and e.get('name') in taken)]

    data = {k: v for k, v in data.items() if k != 'extends'}
    return {**merge(base, data), **{k: by_name(base.get(k), data[k])
                                    for k in ('robots', 'nodes') if k in data}}


class DuplicateKey(yaml.YAMLError):
    def __init__(self, key, line: int, first: int):
        super().__init__(f'key {key!r} is given twice (first on line {first})')
        self.key, self.line, self.first = key, line, first


class StrictLoader(yaml.SafeLoader):
    """yaml.safe_load's loader, refusing a key given twice in one mapping (YAML keeps the last
    silently: the first value would be lost)."""

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == 'tag:yaml.org,2002:merge':
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node.start_mark.line + 1)
            except TypeError:
                continue  # an unhashable key: SafeLoader refuses it itself
            if first != key_node.start_mark.line + 1:
                raise DuplicateKey(key, key_node.start_mark.line + 1, first)
        return super().construct_mapping(node, deep)


def load_yaml(path: Path):
    """A YAML file's data; a binary file, malformed YAML or a key given twice is a
    ScenarioError naming the file (and line)."""
    raw = path.read_bytes()
    try:
        text = raw.decode('utf-8')
    except UnicodeDecodeError as exc:
        raise ScenarioError(f'{path}: not a text file (byte 0x{raw[exc.start]:02x} at offset '
                            f'{exc.start} is not UTF-8); expected a YAML scenario') from None
    if '\x00' in text:
        raise ScenarioError(f"{path}: not a text file (a NUL byte at offset {text.index(chr(0))}"
                            '); expected a YAML scenario')
    try:
        return yaml.load(text, Loader=StrictLoader)  # noqa: S506 - a SafeLoader
    except DuplicateKey as exc:
        raise ScenarioError(f'{path}:{exc.line}: {exc}; YAML would keep the last value '
                            'silently: remove one') from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, 'problem_mark', None)
        where = f':{mark.line + 1}' if mark is not None else ''
        raise ScenarioError(f'{path}{where}: malformed YAML: '
                            f'{getattr(exc, "problem", None) or exc}') from None


def _expect(cond: bool, path: Path, field: str, what: str) -> None:
    if not cond:
        raise ScenarioError(f'{path}: field {field!r}: expected {what}')


def _claim_name(names: set, name: str, path: Path, field: str, kind: str) -> None:
    """Add a robot's or node's name to those taken; one line if it is taken already."""
    if name in names:
        raise ScenarioError(f"{path}: field '{field}.name': {kind} name {name!r} is used twice")
    names.add(name)


def _unknown_keys(d: dict, allowed: set, path: Path, where: str) -> None:
    extra = sorted(set(d) - allowed)
    if extra:
        raise ScenarioError(f"{path}: unknown field '{where}{extra[0]}' "
                            f'(allowed: {", ".join(sorted(allowed))})')


def _params_and_files(raw: Any, path: Path, field: str) -> tuple[dict, list[str]]:
    """`parameters:` is a dict, or a list of dicts and parameter-file paths (relative to the
    workspace root, else to the scenario file)."""
    items = raw if isinstance(raw, list) else [raw]
    params: dict[str, Any] = {}
    files: list[str] = []
    for item in items:
        if isinstance(item, dict):
            flat = flatten_parameters(item)
            for name, value in flat.items():
                problem = parameter_value_problem(value)
                if problem:
                    raise ScenarioError(f'{path}: field {field!r}: parameter {name!r}: {problem}')
            params.update(flat)
        elif isinstance(item, str):
            files.append(str(_resolve_file(item, path, field)))
        else:
            raise ScenarioError(f'{path}: field {field!r}: expected a mapping or a parameter '
                                f'file path, got {type(item).__name__}')
    return params, files


def _resolve_file(rel: str, path: Path, field: str) -> Path:
    ws = workspace_root()
    for base in ([ws] if ws else []) + [path.parent]:
        cand = (base / rel) if not os.path.isabs(rel) else Path(rel)
        if cand.is_file():
            return cand
    # installed: src/<pkg>/<file> is share/<pkg>/<file>; config/<file> is zoo_bringup's
    parts = Path(rel).parts
    pkg, rest = (parts[1], parts[2:]) if parts[:1] == ('src',) and len(parts) > 2 else \
        ('zoo_bringup', parts)
    share = installed_share(pkg)
    if share is not None and (share.joinpath(*rest)).is_file():
        return share.joinpath(*rest)
    raise ScenarioError(f'{path}: field {field!r}: parameter file {rel} not found')


def flatten_parameters(d: dict, prefix: str = '') -> dict[str, Any]:
    """Nested parameter dicts -> ROS 2 dotted names, as rcl does for ros__parameters."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f'{prefix}{k}'
        if isinstance(v, dict):
            out.update(flatten_parameters(v, key + '.'))
        else:
            out[key] = v
    return out


def parse_scenario(data: Any, path: Path) -> Scenario:
    path = Path(path)
    if data is None or data == {}:
        raise ScenarioError(f'{path}: the scenario is empty: expected at least one of world, '
                            'robots or nodes')
    _expect(isinstance(data, dict), path, '<top>', 'a mapping of scenario fields')
    _unknown_keys(data, TOP_KEYS, path, '')
    for key in ('robots', 'nodes'):
        _expect(isinstance(data.get(key) or [], list), path, key,
                f'a list (one "- name: ..." entry per {key[:-1]}), got a '
                f'{_kind(data.get(key))}')
    for key in ('physics', 'simulator', 'report'):
        _expect(isinstance(data.get(key) or {}, dict), path, key,
                f'a mapping, got a {_kind(data.get(key))}')
    sc = Scenario(name=path.stem, path=path)
    sc.description = str(data.get('description', ''))
    duration = data.get('duration', 10.0)
    _expect(is_positive_number(duration), path, 'duration',
            f'a positive, finite number of seconds, got {duration!r}')
    sc.duration = float(duration)
    seed = data.get('seed', 0)
    _expect(isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0, path, 'seed',
            f"a non-negative integer (it seeds numpy's generators), got {seed!r}")
    sc.seed = seed
    sc.world = data.get('world')
    _expect(sc.world is None or isinstance(sc.world, str), path, 'world', 'a world name or path')
    sc.gravity = data.get('gravity')
    if sc.gravity is not None:
        _expect(isinstance(sc.gravity, list) and len(sc.gravity) == 3, path, 'gravity',
                f'a list of 3 numbers [x, y, z] in m/s^2, got {sc.gravity!r}')
        for i, g in enumerate(sc.gravity):
            _expect(_is_real(g) and abs(g) <= GRAVITY_LIMIT, path, f'gravity[{i}]',
                    f'a finite number of m/s^2 within [-{GRAVITY_LIMIT:g}, {GRAVITY_LIMIT:g}], '
                    f'got {g!r}{_text_number_hint(g)}')
    sc.physics = dict(data.get('physics') or {})
    _unknown_keys(sc.physics, {'step', 'real_time_factor'}, path, 'physics.')
    if 'step' in sc.physics:
        _expect(is_positive_number(sc.physics['step']), path, 'physics.step',
                f"a positive, finite number of seconds, got {sc.physics['step']!r}")
    if 'real_time_factor' in sc.physics:
        rtf = sc.physics['real_time_factor']
        _expect(is_positive_number(rtf) or rtf == 0, path, 'physics.real_time_factor',
                f'0 (as fast as possible) or a positive factor, got {rtf!r}')
    sc.simulator = dict(data.get('simulator') or {})

    names: set[str] = set()
    for i, raw in enumerate(data.get('robots') or []):
        field = f'robots[{i}]'
        _expect(isinstance(raw, dict) and 'name' in raw and 'package' in raw, path, field,
                'a mapping with name and package')
        _unknown_keys(raw, ROBOT_KEYS, path, field + '.')
        _claim_name(names, raw['name'], path, field, 'robot')
        _check_package(raw['package'], path, field + '.package')
        _expect(not isinstance(raw.get('model'), str) or PACKAGE_NAME.fullmatch(raw['model']),
                path, field + '.model', f"a model name (urdf/<model>.urdf.xacro of the package), "
                f"got {raw.get('model')!r}")
        pose = raw.get('pose')
        _expect(pose is None or (isinstance(pose, list) and len(pose) == 6 and all(
            _is_real(x) for x in pose)), path, field + '.pose',
            f'[x, y, z, roll, pitch, yaw] of finite numbers (m, rad), got {pose!r}')
        extra = {k: raw[k] for k in ROBOT_KEYS - {'name', 'package', 'args', 'pose'} if k in raw}
        initial = extra.get('initial_positions', {})
        _expect(isinstance(initial, dict), path, field + '.initial_positions',
                'a mapping joint: radians')
        for joint, q in initial.items():  # the limits are the simulator's to check
            _expect(_is_real(q), path, f'{field}.initial_positions.{joint}',
                    f'a finite number (radians, metres for a prismatic joint), got {q!r}'
                    f'{_text_number_hint(q)}')
        sc.robots.append(RobotSpec(raw['name'], raw['package'], dict(raw.get('args') or {}),
                                   None if pose is None else [float(x) for x in pose], extra))

    node_names = {SIM_NODE_NAME} if sc.has_simulator else set()
    for i, raw in enumerate(data.get('nodes') or []):
        field = f'nodes[{i}]'
        _expect(isinstance(raw, dict) and {'name', 'package', 'executable'} <= set(raw), path, field,
                'a mapping with name, package and executable')
        _unknown_keys(raw, NODE_KEYS, path, field + '.')
        _claim_name(node_names, raw['name'], path, field, 'node')
        _check_package(raw['package'], path, field + '.package')
        params, files = _params_and_files(raw.get('parameters') or {}, path, field + '.parameters')
        remaps = raw.get('remappings') or {}
        _expect(isinstance(remaps, dict), path, field + '.remappings', 'a mapping from: to')
        sc.nodes.append(NodeSpec(raw['name'], raw['package'], raw['executable'],
                                 raw.get('namespace', '/'), params, files,
                                 [(str(k), str(v)) for k, v in remaps.items()]))
    rec = data.get('record') or []
    _expect(isinstance(rec, list) and all(isinstance(t, str) for t in rec), path, 'record',
            'a list of topic names')
    for i, topic in enumerate(rec):  # as --record on the command line
        _expect(topic.startswith('/'), path, f'record[{i}]',
                f'an absolute topic name (/{topic}), got {topic!r}')
    sc.record = rec
    sc.report = dict(data.get('report') or {})
    if not sc.has_simulator and not sc.nodes:
        raise ScenarioError(f'{path}: nothing to run: expected a world, robots or nodes')
    return sc


def parameter_value_problem(value: Any) -> str | None:
    """Why ``value`` cannot be a ROS 2 parameter value (None when it can): one of bool, int,
    float, str, or a list of one of those."""
    scalar = (bool, int, float, str)
    if isinstance(value, scalar):
        return None
    if isinstance(value, list) and all(isinstance(v, scalar) for v in value):
        kinds = {bool if isinstance(v, bool) else type(v) for v in value}
        if len(kinds) <= 1 or kinds == {int, float}:
            return None
        return 'expected a list of one type (bools, integers, doubles or strings)'
    if value is None:
        return 'expected a value, got null (ROS 2 parameters cannot be empty)'
    return (f'expected a bool, number, string or a list of one of those, got a '
            f'{_kind(value)}')


def _is_real(x: Any) -> bool:
    """A real, finite number (not a bool, NaN or infinity)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _text_number_hint(x: Any) -> str:
    """YAML 1.1 reads 1e9 (no dot, no exponent sign) as text: say so."""
    if not isinstance(x, str):
        return ''
    try:
        float(x)
    except ValueError:
        return ''
    return (' (YAML reads it as a string: write a number with a dot and a signed exponent, '
            'e.g. -1.0e+9)')


def _check_package(pkg: Any, path: Path, field: str) -> None:
    _expect(isinstance(pkg, str) and PACKAGE_NAME.fullmatch(pkg) is not None, path, field,
            f'a package name (letters, digits, underscores; not a path), got {pkg!r}')


def is_positive_number(x: Any) -> bool:
    """A real, finite, positive number (not a bool, NaN or infinity)."""
    return (isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            and x > 0)


def _kind(x: Any) -> str:
    return {dict: 'mapping', list: 'list', str: 'string'}.get(type(x), type(x).__name__)


def apply_overrides(sc: Scenario, overrides: list[str]) -> Scenario:
    """`--set node.param=value` (value parsed as YAML) on a copy of the scenario."""
    sc = copy.deepcopy(sc)
    for ov in overrides:
        key, sep, raw_value = ov.partition('=')
        node, dot, param = key.partition('.')
        if not sep or not dot or not node or not param:
            raise ScenarioError(f'--set {ov}: expected node.parameter=value')
        try:
            value = yaml.safe_load(raw_value) if raw_value.strip() else ''
        except yaml.YAMLError:
            value = raw_value
        problem = parameter_value_problem(value)
        if problem:
            raise ScenarioError(f'--set {ov}: {problem}')
        sc.set_origins[f'{node}.{param}'] = f'--set {ov}'
        if node == SIM_NODE_NAME and sc.has_simulator:
            sc.simulator[param] = value
            continue
        match = [n for n in sc.nodes if n.name == node]
        if not match:
            close = difflib.get_close_matches(node, sc.node_names(), n=1)
            hint = f"did you mean '{close[0]}'? " if close else ''
            raise ScenarioError(f"--set {ov}: no node named '{node}' in scenario '{sc.name}' "
                                f"({hint}nodes: {', '.join(sc.node_names()) or 'none'})")
        match[0].parameters[param] = value
    return sc


def simulator_parameters(sc: Scenario) -> dict[str, Any]:
    """The simulator node's parameters, flattened to ROS-legal types (no dicts or lists of dicts:
    robots become ``robot_names`` + ``robots.<name>.{package,xacro_args,pose}``)."""
    p: dict[str, Any] = {}
    if sc.world is not None:
        p['world'] = sc.world
    if sc.gravity is not None:
        p['gravity'] = [float(g) for g in sc.gravity]
    if 'step' in sc.physics:
        p['physics_step'] = float(sc.physics['step'])
    if 'real_time_factor' in sc.physics:
        p['real_time_factor'] = float(sc.physics['real_time_factor'])
    # Empty lists are left out: rclpy types `[]` as a byte array, which a declared string array
    # would reject (the declared default, an empty string array, is what is meant).
    if sc.robots:
        p['robot_names'] = [r.name for r in sc.robots]
    for r in sc.robots:
        p[f'robots.{r.name}.package'] = r.package
        if r.args:
            p[f'robots.{r.name}.xacro_args'] = [f'{k}:={v}' for k, v in r.args.items()]
        if r.pose is not None:
            p[f'robots.{r.name}.pose'] = [float(x) for x in r.pose]
        for key, value in r.extra.items():
            if key == 'initial_positions':
                value = [f'{j}:={float(q)}' for j, q in value.items()]
            if value != []:
                p[f'robots.{r.name}.{key}'] = value
    p.update(flatten_parameters(sc.simulator))
    return p


def node_specs(sc: Scenario, *, use_sim_time: bool = True) -> list[NodeSpec]:
    """Every node the scenario starts, in order (the simulator first), as launch would start them."""
    specs = []
    if sc.has_simulator:
        params = simulator_parameters(sc)
        simulator = set(flatten_parameters(sc.simulator))
        specs.append(NodeSpec(SIM_NODE_NAME, 'zoo_sim', 'simulator', '/', params, origins={
            k: f'{sc.path}: ' + (f'simulator.{k}' if k in simulator else 'world/robots/physics')
            for k in params}))
    for i, n in enumerate(sc.nodes):
        spec = copy.deepcopy(n)
        spec.origins = {k: f'{sc.path}: nodes[{i}].parameters' for k in spec.parameters}
        specs.append(spec)
    for s in specs:
        for k in s.parameters:
            s.origins[k] = sc.set_origins.get(f'{s.name}.{k}', s.origins.get(k, str(sc.path)))
        s.parameters.setdefault('use_sim_time', use_sim_time)
    return specs


def default_record_topics(sc: Scenario) -> list[str] | None:
    """What `--record` writes when the scenario names nothing: the clock, TF and each robot's state
    and metrics; None (everything) for a scenario without a simulator."""
    if sc.record:
        return list(sc.record)
    if not sc.has_simulator:
        return None
    topics = ['/clock', '/tf', '/tf_static'] if sc.has_simulator else []
    for r in sc.robots:
        topics += [f'/{r.name}/joint_states', f'/{r.name}/odometry/ground_truth', f'/{r.name}/imu',
                   f'/{r.name}/metrics']
    return topics
