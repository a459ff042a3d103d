"""The shipped launch files through the real upstream Jazzy ``launch`` (3.4.3), ``launch_ros`` and
``ros2launch`` (0.26.6) and ``ament_index_python``, run the way ``ros2 launch zoo_bringup <file>
[arg:=value ...]`` runs them (``ros2launch.api``: the installed file found in the package's share
directory, then a LaunchService) up to the OS: launch's one call that would start a process
(``osrf_pycommon``'s ``async_execute_process`` as ``launch.actions.execute_local`` imported it) is
replaced by a recorder of the final command line and environment, whose "process" exits 0 at once.
Everything before it is upstream code: launch arguments, our OpaqueFunction,
AppendEnvironmentVariable, launch_ros Node's name/namespace validation, parameter dicts written to
parameter files, remapping rules, and ExecutableInPackage finding each executable in the colcon
install space.

Skipped unless upstream ``launch`` is importable: ``tools/check_launch_upstream.sh`` installs it
(from git mirrors, into build/) and runs this module; CI cannot fetch those sources. ``rclpy`` is
the documented stand-in of tools/check_launch_upstream_shim (name validation ported from rmw).
"""
import importlib.util
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

if importlib.util.find_spec('launch') is None or importlib.util.find_spec('ros2launch') is None:
    pytest.skip('upstream launch/launch_ros/ros2launch not importable: run '
                'tools/check_launch_upstream.sh (installs them from their Jazzy sources)',
                allow_module_level=True)

import launch.actions.execute_local  # noqa: E402
import launch.logging  # noqa: E402
from ros2launch.api import get_share_file_path_from_package  # noqa: E402
from ros2launch.api import launch_a_launch_file  # noqa: E402
from ros2launch.api import print_arguments_of_launch_file  # noqa: E402

from zoo_bringup.ros_launch import launch_plan  # noqa: E402
from zoo_bringup.scenario import installed_share, load_scenario, workspace_root  # noqa: E402

LAUNCH_DIR = workspace_root() / 'launch'
SHIPPED = sorted(p.name for p in LAUNCH_DIR.glob('*.launch.py'))
SCENARIO_FILES = [f for f in SHIPPED if f != 'robozoo.launch.py']


@dataclass
class Spawned:
    """One process launch would have started: its final command line and environment."""
    cmd: list
    env: dict

    def ros_args(self, flag):
        args = self.cmd[self.cmd.index('--ros-args'):]
        return [args[i + 1] for i, a in enumerate(args) if a == flag]

    def remap(self, key):
        found = [r.split(':=', 1)[1] for r in self.ros_args('-r') if r.startswith(key + ':=')]
        return found[-1] if found else None

    @property
    def fqn(self):
        ns = self.remap('__ns') or '/'
        return ns.rstrip('/') + '/' + self.remap('__node')

    @property
    def remappings(self):
        return dict(r.split(':=', 1) for r in self.ros_args('-r') if not r.startswith('__'))

    def parameters(self):
        """What the node gets from its --params-file files, in order, the way rclpy picks them:
        entries whose node name matches its FQN, ``/*`` one token and ``/**`` any (upstream
        ros2/rclpy jazzy rclpy/src/rclpy/node.cpp _populate_node_parameters_from_rcl_params)."""
        params, unused = {}, []
        for f in self.ros_args('--params-file'):
            applied = False
            for node, body in (yaml.load(Path(f).read_text(), _RclYamlLoader) or {}).items():
                pattern = ('/' + node.lstrip('/')).replace('/*', r'(/\w+)')
                if re.fullmatch(pattern, self.fqn):
                    params.update(_flatten(body['ros__parameters']))
                    applied = True
            if not applied:
                unused.append(f)
        return params, unused


class _RclYamlLoader(yaml.SafeLoader):
    """YAML as rcl_yaml_param_parser reads a parameter file: it ignores tags other than !!str,
    so the ``!!python/tuple`` launch_ros writes for list values is a plain sequence."""


_RclYamlLoader.add_constructor('tag:yaml.org,2002:python/tuple',
                               lambda loader, node: loader.construct_sequence(node))


def _typed(value):
    if isinstance(value, (list, tuple)):
        return [_typed(v) for v in value]
    return type(value).__name__, value


def _flatten(d, prefix=''):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f'{prefix}{k}.'))
        else:
            out[f'{prefix}{k}'] = v
    return out


class _ExitedTransport:
    """A subprocess transport for a process that has already exited with 0."""
    def __init__(self, pid):
        self.pid = pid

    def get_pid(self):
        return self.pid

    def get_returncode(self):
        return 0

    def send_signal(self, sig):
        pass

    def kill(self):
        pass

    def close(self):
        pass


@pytest.fixture(autouse=True)
def _launch_logs_in_tmp(monkeypatch, tmp_path):
    """launch writes a log directory under ROS_LOG_DIR (default ~/.ros/log) as soon as it loads a
    launch file: into tmp_path, with its screen handler on this test's stderr."""
    monkeypatch.setenv('ROS_LOG_DIR', str(tmp_path / 'log'))
    launch.logging.reset()


@pytest.fixture
def ros2_launch(monkeypatch, tmp_path):
    """``ros2_launch(file, 'arg:=value', ...) -> (return code, [Spawned])``: what `ros2 launch
    zoo_bringup <file> arg:=value ...` does (ros2launch/command/launch.py main: the file from the
    package's share, then launch_a_launch_file), with no process started."""
    spawned = []

    async def record_instead_of_spawning(protocol_factory, *, cmd, cwd, env, **_):
        spawned.append(Spawned(list(cmd), dict(env if env is not None else os.environ)))
        transport = _ExitedTransport(40000 + len(spawned))
        protocol = protocol_factory(stdin=0, stdout=1, stderr=2)   # no pipes to look up
        protocol.connection_made(transport)
        protocol.process_exited()
        return transport, protocol

    monkeypatch.setattr(launch.actions.execute_local, 'async_execute_process',
                        record_instead_of_spawning)
    # launch_ros and our glue write temporary parameter files: into tmp_path. launch changes
    # os.environ (AppendEnvironmentVariable): restored after the test.
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))
    monkeypatch.delenv('GZ_SIM_RESOURCE_PATH', raising=False)
    saved_env = dict(os.environ)

    def run(file_name, *arguments):
        spawned.clear()
        launch.logging.reset()
        path = get_share_file_path_from_package(package_name='zoo_bringup', file_name=file_name)
        rc = launch_a_launch_file(launch_file_path=path, launch_file_arguments=list(arguments),
                                  noninteractive=True)
        return rc, list(spawned)

    yield run
    os.environ.clear()
    os.environ.update(saved_env)


def _by_name(spawned):
    return {p.remap('__node'): p for p in spawned}


def _install_prefix(pkg):
    share = installed_share(pkg)
    assert share is not None, f'{pkg} is not installed (colcon build)'
    return share.parent.parent


def test_installed_launch_files_are_the_checkout_ones():
    """`ros2 launch zoo_bringup <file>` finds each shipped file, once, in the installed share."""
    for name in SHIPPED:
        path = Path(get_share_file_path_from_package(package_name='zoo_bringup', file_name=name))
        assert path.read_text() == (LAUNCH_DIR / name).read_text(), name


def test_show_args_of_the_generic_launch_file(capsys):
    """`ros2 launch zoo_bringup robozoo.launch.py --show-args`."""
    path = get_share_file_path_from_package(package_name='zoo_bringup',
                                            file_name='robozoo.launch.py')
    print_arguments_of_launch_file(launch_file_path=path)
    out = capsys.readouterr().out
    args = dict(re.findall(r"'(\w+)':\n(.*?)(?=\n    '|\Z)", out, re.S))
    assert set(args) == {'scenario', 'backend', 'set'}
    assert 'default' not in args['scenario']
    assert "(default: 'mujoco')" in args['backend']


@pytest.mark.parametrize('file_name', SCENARIO_FILES)
def test_each_launch_file_starts_its_scenario_nodes(ros2_launch, file_name):
    """The default (MuJoCo) launch of every shipped file: one process per scenario node, each
    executable found in its package's lib/ of the install space, every parameter file existing
    and naming the node (rclpy would silently ignore one that does not), and nothing of Gazebo."""
    rc, spawned = ros2_launch(file_name)
    assert rc == 0
    plan = launch_plan(file_name.removesuffix('.launch.py'), [])
    assert [p.remap('__node') for p in spawned] == [n.name for n in plan.nodes]
    for proc, node in zip(spawned, plan.nodes):
        exe = Path(proc.cmd[0])
        assert exe == _install_prefix(node.package) / 'lib' / node.package / node.executable
        assert exe.stat().st_mode & stat.S_IXUSR, exe
        assert proc.fqn == (node.namespace or '').rstrip('/') + '/' + node.name
        # launch_ros drops a parameter file that does not exist with a mere warning
        assert len(proc.ros_args('--params-file')) == len(node.parameters), node.name
        params, unused = proc.parameters()
        assert unused == [], f'{node.name}: parameter files that name another node: {unused}'
        for key, value in node.parameters[-1].items():
            # the value and its type (rclpy fixes a parameter's type at declaration): what the
            # embedded runner gives the node is what the node gets under ROS
            assert _typed(params[key]) == _typed(value), (node.name, key)
        assert proc.remappings == dict(node.remappings)
        assert 'GZ_SIM_RESOURCE_PATH' not in proc.env
    assert len({p.fqn for p in spawned}) == len(spawned), 'two nodes with one name'
    sim = _by_name(spawned).get('sim')
    if sim is not None:
        assert sim.parameters()[0]['backend'] == 'mujoco'
        assert sim.parameters()[0]['use_sim_time'] is True


def test_nao_wave_walk_under_mujoco(ros2_launch):
    """`ros2 launch zoo_bringup nao_wave_walk.launch.py`: what each node gets, spelled out."""
    rc, spawned = ros2_launch('nao_wave_walk.launch.py', 'set:=walker.duration=3.0')
    assert rc == 0
    procs = _by_name(spawned)
    assert list(procs) == ['sim', 'joint_pid_controller', 'walker']
    sim, pid, walker = procs.values()
    assert Path(sim.cmd[0]).parts[-3:] == ('lib', 'zoo_sim', 'simulator')
    assert sim.fqn == '/sim'
    p = sim.parameters()[0]
    assert (p['backend'], p['world'], p['robot_names'], p['robots.nao.xacro_args']) == \
        ('mujoco', 'empty', ['nao'], ['hip_yaw_pitch:=independent'])
    assert pid.fqn == '/joint_pid_controller'
    assert pid.remappings == {'joint_targets': '/nao/joint_targets',
                              'joint_states': '/nao/joint_states',
                              'joint_commands': '/nao/joint_commands',
                              'robot_description': '/nao/robot_description'}
    p = pid.parameters()[0]
    assert p['command_interface'] == 'grouped' and p['use_sim_time'] is True
    assert any(k.startswith('gains.') for k in p), 'the Nao gains file did not reach the node'
    assert walker.fqn == '/nao/walker'
    p = walker.parameters()[0]
    assert len(p['params']) == 10 and p['direction'] == 'forward'   # /**/walker in the file
    assert (p['auto_start'], p['duration']) == (True, 3.0)
    assert p['reset_services'] == ['/sim/reset', '/joint_pid_controller/reset']
    assert not [p for p in spawned if 'GZ_SIM_RESOURCE_PATH' in p.env]
    assert not [p for p in spawned if 'ros_gz_bridge' in p.cmd[0]]


def test_nao_walk_under_mujoco(ros2_launch):
    """`ros2 launch zoo_bringup nao_walk.launch.py`: the ZMP walk, the Walker alone sending PD
    commands (no joint PID node), its generator's parameters as the Walker declares them."""
    rc, spawned = ros2_launch('nao_walk.launch.py', 'set:=walker.gait.step_length=0.06')
    assert rc == 0
    procs = _by_name(spawned)
    assert list(procs) == ['sim', 'walker']
    walker = procs['walker']
    assert walker.fqn == '/nao/walker'
    p = walker.parameters()[0]
    assert (p['generator'], p['mode'], p['continuous_rate']) == ('nao_zmp_walk', 'continuous', 250.0)
    assert p['reset_services'] == ['/sim/reset'] and p['gait.step_length'] == 0.06


def test_talker_listener_on_wall_clock_time(ros2_launch):
    """A scenario without a simulator: its defaults, a `set:=` override, and no Gazebo parts even
    with backend:=gazebo (nothing to simulate)."""
    rc, spawned = ros2_launch('talker_listener.launch.py', 'set:=talker.rate=5.0',
                              'backend:=gazebo')
    assert rc == 0
    procs = _by_name(spawned)
    assert list(procs) == ['talker', 'listener']
    talker = procs['talker']
    assert Path(talker.cmd[0]).parts[-3:] == ('lib', 'zoo_bringup', 'talker')
    assert talker.fqn == '/demo/talker' and procs['listener'].fqn == '/demo/listener'
    p = talker.parameters()[0]
    assert (p['rate'], p['message'], p['use_sim_time']) == (5.0, 'hello robozoo', False)
    assert not [p for p in spawned if 'GZ_SIM_RESOURCE_PATH' in p.env]


def test_nao_wave_walk_from_the_install_space_alone(ros2_launch, monkeypatch):
    """No checkout found (a user's `colcon build` elsewhere): scenario and parameter files come
    from the installed share directories."""
    import zoo_bringup.scenario as scenario
    import zoo_sim.resources as resources
    monkeypatch.setattr(scenario, 'workspace_root', lambda: None)
    monkeypatch.setattr(resources, 'workspace_root', lambda: None)
    rc, spawned = ros2_launch('nao_wave_walk.launch.py')
    assert rc == 0
    procs = _by_name(spawned)
    assert list(procs) == ['sim', 'joint_pid_controller', 'walker']
    files = [f for p in spawned for f in p.ros_args('--params-file')
             if not Path(f).is_relative_to(tempfile.gettempdir())]
    assert sorted(Path(f).resolve() for f in files) == sorted(
        (installed_share(pkg) / 'config' / f).resolve() for pkg, f in
        [('nao_description', 'pid_gains.yaml'), ('zoo_bringup', 'nao_walk_params.yaml')])
    assert len(procs['walker'].parameters()[0]['params']) == 10


@pytest.fixture
def ros_gz_bridge_prefix(tmp_path, monkeypatch):
    """An ament prefix with a ``ros_gz_bridge`` package holding a ``parameter_bridge`` executable:
    what launch_ros looks up for the bridge (the real one is ros-jazzy-ros-gz-bridge, C++)."""
    prefix = tmp_path / 'ros_gz_prefix'
    (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages').mkdir(parents=True)
    (prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / 'ros_gz_bridge').touch()
    exe = prefix / 'lib' / 'ros_gz_bridge' / 'parameter_bridge'
    exe.parent.mkdir(parents=True)
    exe.write_text('#!/bin/sh\nexit 0\n')
    exe.chmod(0o755)
    monkeypatch.setenv('AMENT_PREFIX_PATH',
                       f"{prefix}{os.pathsep}{os.environ.get('AMENT_PREFIX_PATH', '')}")
    return prefix


def test_nao_wave_walk_under_gazebo(ros2_launch, ros_gz_bridge_prefix):
    """`ros2 launch zoo_bringup nao_wave_walk.launch.py backend:=gazebo`: every process gets
    GZ_SIM_RESOURCE_PATH with model://ground_plane; one parameter_bridge gets the bridge YAML."""
    rc, spawned = ros2_launch('nao_wave_walk.launch.py', 'backend:=gazebo')
    assert rc == 0
    procs = _by_name(spawned)
    assert list(procs) == ['sim', 'joint_pid_controller', 'walker', 'gz_bridge']
    for proc in spawned:
        paths = proc.env['GZ_SIM_RESOURCE_PATH'].split(os.pathsep)
        assert any((Path(p) / 'ground_plane' / 'model.sdf').is_file() for p in paths)
    assert procs['sim'].parameters()[0]['backend'] == 'gazebo'
    bridge = procs['gz_bridge']
    assert Path(bridge.cmd[0]) == ros_gz_bridge_prefix / 'lib/ros_gz_bridge/parameter_bridge'
    # parameter_bridge reads its bridges from the config_file parameter when given no topic
    # arguments (upstream gazebosim/ros_gz jazzy 739cb42 ros_gz_bridge/src/ros_gz_bridge.cpp
    # RosGzBridge::spin; parameter_bridge.cpp main needs one argument: --ros-args is one)
    assert bridge.cmd[1] == '--ros-args'
    params, unused = bridge.parameters()
    assert unused == [] and params['use_sim_time'] is True
    entries = yaml.safe_load(Path(params['config_file']).read_text())
    assert {e['ros_topic_name'] for e in entries} == \
        {'/nao/imu', '/nao/contacts/l_ankle', '/nao/contacts/r_ankle'}
    assert {e['direction'] for e in entries} == {'GZ_TO_ROS'}


def test_gazebo_without_ros_gz_bridge_fails_before_starting_anything(ros2_launch, capfd):
    """Without ros_gz_bridge installed, launch fails naming it, and before any node started: once
    launch 3.4.3 has raised, it returns without stopping the processes it already started (with
    real processes here, before the fix: the simulator and the walker ran on, orphaned)."""
    rc, spawned = ros2_launch('nao_wave_walk.launch.py', 'backend:=gazebo')
    assert rc != 0
    assert spawned == []
    assert 'backend:=gazebo needs ros_gz_bridge' in "".join(capfd.readouterr())


def test_generic_launch_file_with_a_scenario_and_overrides(ros2_launch):
    """`ros2 launch zoo_bringup robozoo.launch.py scenario:=go1_stand
    set:=sim.joint_states_rate=50.0`"""
    rc, spawned = ros2_launch('robozoo.launch.py', 'scenario:=go1_stand',
                              'set:=sim.joint_states_rate=50.0')
    assert rc == 0
    procs = _by_name(spawned)
    assert list(procs) == ['sim'] + [n.name for n in load_scenario('go1_stand').nodes]
    p = procs['sim'].parameters()[0]
    assert p['robot_names'] == ['go1'] and p['joint_states_rate'] == 50.0


@pytest.mark.parametrize('arguments, expected', [
    ((), "missing required argument 'scenario'"),
    (('scenario:=talker_listener', 'backend:=ignition'),
     'backend:=ignition: expected one of mujoco, gazebo'),
    (('scenario:=no_such_scenario',), 'no_such_scenario'),
])
def test_generic_launch_file_errors_name_the_argument(ros2_launch, capfd, arguments, expected):
    rc, spawned = ros2_launch('robozoo.launch.py', *arguments)
    assert rc != 0 and spawned == []
    assert expected in "".join(capfd.readouterr())


@pytest.mark.parametrize('node, expected', [
    ('{name: talker, package: zoo_bringup, executable: talker, namespace: /9demo}',
     'Invalid namespace: namespace must not have a token that starts with a number'),
    ('{name: my-talker, package: zoo_bringup, executable: talker}',
     "Invalid node name: node name must not contain characters other than alphanumerics or '_'"),
])
def test_names_ros_rejects_are_rejected_by_launch(ros2_launch, capfd, tmp_path, node, expected):
    """A scenario (given by path) with a name ROS rejects: launch_ros's Node validates it (the
    rmw rules, here through the rclpy stand-in) and nothing starts; the embedded runner rejects
    the same names (zoo_runtime embedded/names.py)."""
    path = tmp_path / 'bad_names.yaml'
    path.write_text(f'description: names ROS rejects\nnodes:\n  - {node}\n')
    rc, spawned = ros2_launch('robozoo.launch.py', f'scenario:={path}')
    assert rc != 0 and spawned == []
    assert expected in ''.join(capfd.readouterr())
