"""Every node executable (entry-point group ``robozoo.nodes``) declares exactly the parameters of
its schema (``<package>/params/<executable>.yaml``, zoo_runtime.parameter_schema), and the
generated reference docs (``src/<package>/PARAMETERS.md``, tools/param_docs.py) are current.

Each node is constructed directly with the fewest parameters that let it declare everything; the
gait player once per kind of gait (a wave walk, the ZMP walk, the snake's timed protocol), each
checked against its own schema with the walk's and the gait's parts. A node that needs hardware or a free port (a serial bus, UDP, a WebSocket server) may fail after
its declarations: what it declared is read from the half-built node all the same.
"""
from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from zoo_runtime import introspection, parameter_schema, rclpy

ROOT = Path(__file__).resolve().parents[1]
GROUP = 'robozoo.nodes'
KEYFRAMES = ROOT / 'src/joint_pid_control/config/keyframes/nao_hip_sway.yaml'
# executable -> the overrides it needs to declare all its parameters
MINIMAL = {
    'zoo_sim/simulator': {'robot_names': ['robobo'],
                          'robots.robobo.package': 'robobo_description'},
    'joint_pid_control/pid': {'joints': ['j1']},
    'joint_pid_control/keyframe_player': {'file': str(KEYFRAMES)},
    'grid_navigation/navigator': {'goal': [1.0, 1.0]},
    'robobo_api/robobo_remote': {'robot_id': 61},
    'robobo_api/robobo_sim_remote': {'port': 0},
}
# executable -> its variants by name, each with its overrides (the gait player: one per kind)
VARIANTS = {
    'gait_player/player': {'wave': {}, 'zmp': {'generator': 'nao_zmp_walk', 'mode': 'continuous'},
                           'snake': {'generator': 'snake_gait'}},
}


def _executables() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=GROUP)}


def _runtime_parameters() -> set[str]:
    """What every node declares by itself (use_sim_time)."""
    node = rclpy.node.Node('bare')
    try:
        return set(introspection.declared_parameters(node))
    finally:
        node.destroy_node()


def _cases() -> list:
    """(executable, overrides) of every node to construct, a variant's id after the name."""
    cases = []
    for executable in sorted(_executables()):
        variants = VARIANTS.get(executable, {'': MINIMAL.get(executable, {})})
        cases += [pytest.param(executable, overrides, id=f'{executable}:{v}' if v else executable)
                  for v, overrides in variants.items()]
    return cases


def expected_schema(executable: str, overrides: dict) -> parameter_schema.Schema:
    """The schema ``executable`` built with ``overrides`` must declare: its own, and for the
    gait player the walk's and the chosen gait's parts (gait_player.player_node.schema_of)."""
    schema = parameter_schema.load(*executable.split('/'))
    if executable != 'gait_player/player':
        return schema
    from gait_player import player_node, registry
    generator = overrides.get('generator', schema.entries['generator'].default)
    return player_node.schema_of(registry.lookup(generator))


def schema_problems(executable: str, node, overrides: dict | None = None) -> list[str]:
    """Why ``node`` (of ``<package>/<executable>``, built with ``overrides``) does not declare
    its schema's parameters."""
    try:
        schema = expected_schema(executable, overrides or {})
    except parameter_schema.SchemaFileError as exc:
        return [str(exc)]
    declared = set(introspection.declared_parameters(node)) - _runtime_parameters()
    problems = [f'{executable}: declares {n!r}, not in {schema.path}'
                for n in sorted(declared) if schema.entry(n) is None]
    problems += [f'{executable}: never declares {n!r} of {schema.path}'
                 for n, e in schema.entries.items() if not e.pattern and n not in declared]
    return problems


def _build(cls, overrides: dict, monkeypatch):
    """The node ``cls`` makes (half-built when it fails after its declarations), and the error."""
    made = []
    original = rclpy.node.Node.__init__

    def keep(self, *args, **kwargs):
        made.append(self)
        original(self, *args, **kwargs)
    monkeypatch.setattr(rclpy.node.Node, '__init__', keep)
    params = [rclpy.parameter.Parameter(k, value=v) for k, v in overrides.items()]
    error = None
    try:
        cls(parameter_overrides=params)
    except (rclpy.exceptions.ParameterException, parameter_schema.SchemaFileError):
        raise  # a declaration gone wrong (declared twice, a bad value): never hardware
    except Exception as exc:  # noqa: BLE001 - hardware, ports: after the declarations
        error = exc
    monkeypatch.setattr(rclpy.node.Node, '__init__', original)
    return made[0], error


@pytest.fixture
def ros():
    rclpy.init()
    yield
    rclpy.shutdown()


@pytest.mark.parametrize('executable, overrides', _cases())
def test_node_declares_its_schema(executable, overrides, ros, tmp_path, monkeypatch):
    cls = _executables()[executable].load()
    overrides = dict(overrides)
    if executable == 'coupled_wave_gait/gait_search':  # its journal, not the workspace's out/
        overrides['output'] = str(tmp_path / 'search')
    node, error = _build(cls, overrides, monkeypatch)
    try:
        problems = schema_problems(executable, node, overrides)
        assert not problems, '\n'.join(problems) + (f'\n(it failed: {error})' if error else '')
    finally:
        try:
            node.destroy_node()
        except Exception:  # noqa: BLE001 - a half-built node
            pass


def test_a_parameter_outside_the_schema_fails(ros, monkeypatch):
    """The check above catches a node that declares more than its schema, or has none."""
    class Rogue(rclpy.node.Node):
        def __init__(self, **kwargs):
            super().__init__('talker', **kwargs)
            parameter_schema.load('zoo_bringup', 'talker').declare(self)
            self.declare_parameter('volume', 11)
    node, _ = _build(Rogue, {}, monkeypatch)
    assert schema_problems('zoo_bringup/talker', node) == [
        f"zoo_bringup/talker: declares 'volume', not in "
        f"{parameter_schema.load('zoo_bringup', 'talker').path}"]
    assert 'no parameter schema' in schema_problems('zoo_bringup/rogue', node)[0]
    node.destroy_node()


def test_every_schema_belongs_to_a_node_executable():
    """A schema file whose executable was renamed or removed would document a ghost."""
    schemas = {f'{p.parent.parent.name}/{p.stem}'
               for p in ROOT.glob('src/*/*/params/*.yaml') if not p.name.startswith('_')}
    assert schemas - set(_executables()) == set()


def test_parameter_docs_are_current():
    proc = subprocess.run([sys.executable, str(ROOT / 'tools/param_docs.py'), '--check'],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
