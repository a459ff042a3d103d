"""The ROS 2 launch files, checked as far as this machine allows: `launch`/`launch_ros` are replaced
by recording fakes at the very edge, so what is tested is our file -> Node(...) arguments."""
import importlib.util
import sys
import types

import pytest

from zoo_bringup.scenario import workspace_root


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
                           'IncludeLaunchDescription': _Recorder},
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


def test_scenario_launch_file_starts_the_scenario_nodes(fake_launch):
    actions = _load(workspace_root() / 'launch' / 'talker_listener.launch.py')
    declared = {a.args[0]: a.kwargs for a in actions if 'description' in a.kwargs}
    assert declared['scenario']['default_value'] == 'talker_listener'
    opaque = [a for a in actions if 'function' in a.kwargs][0]
    nodes = opaque.kwargs['function']({'scenario': 'talker_listener', 'set': 'talker.rate=5.0',
                                       'backend': 'gazebo'})
    got = {n.kwargs['name']: n.kwargs for n in nodes}
    assert list(got) == ['talker', 'listener']
    assert got['talker']['package'] == 'zoo_bringup' and got['talker']['executable'] == 'talker'
    assert got['talker']['namespace'] == '/demo'
    assert got['talker']['parameters'][-1]['rate'] == 5.0
    # no simulator in this scenario: wall-clock time, as a plain ROS 2 system would run it
    assert got['talker']['parameters'][-1]['use_sim_time'] is False


def test_generic_launch_file_requires_a_scenario_argument(fake_launch):
    actions = _load(workspace_root() / 'launch' / 'robozoo.launch.py')
    declared = {a.args[0]: a.kwargs for a in actions if 'description' in a.kwargs}
    assert 'default_value' not in declared['scenario']
    assert declared['backend']['default_value'] == 'gazebo'
