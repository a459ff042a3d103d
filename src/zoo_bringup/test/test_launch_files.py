"""The ROS 2 launch file in CI: `launch`/`launch_ros` are replaced by recording fakes at the very
edge, so what is tested is our file -> Node(...) arguments. The same file through the upstream
Jazzy launch/launch_ros with real processes: tests/ros/test_launch_arguments.py (the ROS tier)."""
import importlib.util
import sys
import types
from pathlib import Path

import pytest

from zoo_scenario.scenario import workspace_root


class _Recorder:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class _LaunchConfiguration(_Recorder):
    def perform(self, context):
        return context[self.args[0]]


@pytest.fixture
def fake_launch(monkeypatch):
    if importlib.util.find_spec('launch') is not None:
        pytest.skip('real ROS 2 launch present: use `ros2 launch --print` there')
    mods = {
        'launch': {'LaunchDescription': lambda actions: actions},
        'launch.actions': {'DeclareLaunchArgument': _Recorder, 'OpaqueFunction': _Recorder,
                           'IncludeLaunchDescription': _Recorder,
                           'AppendEnvironmentVariable': _Recorder},
        'launch.substitutions': {'LaunchConfiguration': _LaunchConfiguration},
        'launch_ros': {}, 'launch_ros.actions': {'Node': _Recorder},
    }
    for name, attrs in mods.items():
        monkeypatch.setitem(sys.modules, name, types.SimpleNamespace(**attrs))


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem.replace('.', '_'), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.generate_launch_description()


def test_launch_file_starts_the_named_scenario_nodes(fake_launch):
    actions = _load(workspace_root() / 'launch' / 'robozoo.launch.py')
    opaque = [a for a in actions if 'function' in a.kwargs][0]
    nodes = opaque.kwargs['function']({'scenario': 'talker_listener', 'set': 'talker.rate=5.0',
                                       'backend': 'gazebo', 'gz_sensors': 'node'})
    got = {n.kwargs['name']: n.kwargs for n in nodes}
    assert list(got) == ['talker', 'listener']
    assert got['talker']['package'] == 'zoo_bringup' and got['talker']['executable'] == 'talker'
    assert got['talker']['namespace'] == '/demo'
    assert got['talker']['parameters'][-1]['rate'] == 5.0
    # no simulator in this scenario: wall-clock time, as a plain ROS 2 system would run it
    assert got['talker']['parameters'][-1]['use_sim_time'] is False


def test_the_one_launch_file_requires_a_scenario_argument(fake_launch):
    assert [f.name for f in (workspace_root() / 'launch').iterdir()] == ['robozoo.launch.py']
    actions = _load(workspace_root() / 'launch' / 'robozoo.launch.py')
    declared = {a.args[0]: a.kwargs for a in actions if 'description' in a.kwargs}
    assert 'default_value' not in declared['scenario']
    # issue 16 item 3: MuJoCo physics under real ROS by default; Gazebo on request
    assert declared['backend']['default_value'] == 'mujoco'


def test_gazebo_backend_sets_the_resource_path_and_the_bridge_on_request(monkeypatch, tmp_path):
    """Issue 16 items 3 and 7: model://ground_plane resolves in Gazebo. The simulator node
    publishes the gz IMU and contacts itself (issue 31); with gz_sensors:=ros_gz_bridge the bridge
    YAML is used instead: one parameter_bridge with the gz sensors, GZ_TO_ROS only, and the node
    publishes neither."""
    import tempfile
    import yaml
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))   # the bridge YAML goes there
    from zoo_scenario.ros_launch import launch_plan
    plan = launch_plan('nao_wave_walk', [], 'gazebo')
    paths = plan.env['GZ_SIM_RESOURCE_PATH'].split(':')
    assert any((Path(p) / 'ground_plane' / 'model.sdf').is_file() for p in paths)
    sim = next(n for n in plan.nodes if n.name == 'sim')
    assert sim.parameters[-1]['backend'] == 'gazebo' and 'imu_rate' not in sim.parameters[-1]
    assert not [n for n in plan.nodes if n.package == 'ros_gz_bridge']
    plan = launch_plan('nao_wave_walk', [], 'gazebo', 'ros_gz_bridge')
    sim = next(n for n in plan.nodes if n.name == 'sim')
    assert sim.parameters[-1]['imu_rate'] == sim.parameters[-1]['contacts_rate'] == 0.0
    (bridge,) = [n for n in plan.nodes if n.package == 'ros_gz_bridge']
    assert bridge.executable == 'parameter_bridge'
    entries = yaml.safe_load(Path(bridge.parameters[0]['config_file']).read_text())
    assert {e['ros_topic_name'] for e in entries} == \
        {'/nao/imu', '/nao/contacts/l_ankle', '/nao/contacts/r_ankle'}
    assert {e['direction'] for e in entries} == {'GZ_TO_ROS'}
    assert launch_plan('nao_wave_walk', []).env == {}  # mujoco: nothing of Gazebo


def test_gazebo_without_ros_gz_bridge_fails_before_any_node(fake_launch, monkeypatch, tmp_path):
    """Real launch (3.4.3) that fails on a missing package midway exits leaving the processes it
    had started running (tests/ros/test_launch_arguments.py): the launch glue checks every node's
    package first, and names the missing one."""
    import tempfile
    from zoo_scenario.scenario import installed_share
    if installed_share('ros_gz_bridge') is not None:
        pytest.skip('ros_gz_bridge is installed here')
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
    actions = _load(workspace_root() / 'launch' / 'robozoo.launch.py')
    opaque = [a for a in actions if 'function' in a.kwargs][0]
    with pytest.raises(RuntimeError, match='backend:=gazebo needs ros_gz_bridge, which is not '
                       'installed in AMENT_PREFIX_PATH'):
        opaque.kwargs['function']({'scenario': 'nao_wave_walk', 'set': '', 'backend': 'gazebo',
                                   'gz_sensors': 'ros_gz_bridge'})


def test_launch_files_scenarios_worlds_and_models_are_installed(monkeypatch):
    """Issue 16 item 10: from an install space alone (no checkout found), `ros2 launch
    zoo_bringup robozoo.launch.py scenario:=nao_wave_walk` finds its launch file, scenario,
    parameter files and world."""
    import zoo_scenario.scenario as scenario
    import zoo_sim.resources as resources
    share = scenario.installed_share('zoo_bringup')
    assert share is not None, 'zoo_bringup is not installed (colcon build)'
    launch_dir = workspace_root() / 'launch'
    for f in launch_dir.glob('*.launch.py'):
        assert (share / 'launch' / f.name).is_file(), f.name
    monkeypatch.setattr(scenario, 'workspace_root', lambda: None)
    monkeypatch.setattr(resources, 'workspace_root', lambda: None)
    sc = scenario.load_scenario('nao_wave_walk')
    assert sc.path.is_relative_to(share)
    files = [f for n in sc.nodes for f in n.params_files]
    assert files and all(Path(f).is_file() and '/share/' in f for f in files)
    world = resources.find_world(sc.world or 'empty')
    assert '/share/zoo_sim/worlds/' in str(world)
    ground = resources.resolve_uri('model://ground_plane', world.parent, 'test')
    assert (ground / 'model.sdf').is_file()


def test_every_scenario_node_has_an_executable_where_launch_ros_looks():
    """`ros2 launch` starts a node through launch_ros's ExecutableInPackage, which runs
    ``<prefix of package>/lib/<package>/<executable>`` (upstream ros2/launch_ros 0.26.6
    launch_ros/substitutions/executable_in_package.py): a node registered only for the embedded
    runner (entry point group robozoo.nodes) fails there (found by
    tests/ros/test_launch_arguments.py)."""
    import os
    import zoo_scenario.scenario as scenario
    from zoo_scenario.ros_launch import launch_plan
    missing = []
    for name in scenario.list_scenarios():
        for node in launch_plan(name, []).nodes:
            share = scenario.installed_share(node.package)
            exe = share and share.parent.parent / 'lib' / node.package / node.executable
            if not (exe and exe.is_file() and os.access(exe, os.X_OK)):
                missing.append(f'{name}: {node.package}/{node.executable}')
    assert missing == [], 'not installed as an executable (setup.py console_scripts): ' + \
        ', '.join(missing)
