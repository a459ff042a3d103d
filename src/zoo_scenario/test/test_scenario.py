"""Scenario files -> node specs: parsing, validation errors, overrides, simulator parameters."""
from pathlib import Path

import pytest

from zoo_scenario.scenario import (ScenarioError, apply_overrides, default_record_topics,
                                  list_scenarios, load_scenario, node_specs, parse_scenario)

P = Path('/tmp/x.yaml')

SIM = {
    'world': 'empty', 'physics': {'step': 0.002},
    'robots': [{'name': 'go1', 'package': 'go1_description', 'args': {'variant': 'std'},
                'pose': [0, 0, 0.3, 0, 0, 0]}],
    'simulator': {'joint_states_rate': 200.0},
    'nodes': [{'name': 'pid', 'package': 'joint_pid_control', 'executable': 'pid',
               'namespace': '/go1', 'parameters': {'gains': {'FL_hip_joint': {'p': 2.0}}},
               'remappings': {'a': '/b'}}],
}


def test_node_specs_put_simulator_first_and_flatten_parameters():
    specs = node_specs(parse_scenario(SIM, P))
    assert [s.name for s in specs] == ['sim', 'pid']
    sim, pid = specs
    assert sim.parameters['robot_names'] == ['go1']
    assert sim.parameters['robots.go1.xacro_args'] == ['variant:=std']
    assert sim.parameters['robots.go1.pose'] == [0.0, 0.0, 0.3, 0.0, 0.0, 0.0]
    assert sim.parameters['physics_step'] == 0.002
    assert sim.parameters['joint_states_rate'] == 200.0
    # ROS parameters cannot hold dicts: nested gains become dotted names, as ros__parameters does.
    assert pid.parameters['gains.FL_hip_joint.p'] == 2.0
    assert all(s.parameters['use_sim_time'] is True for s in specs)
    # rclpy types [] as a byte array, which a string-array parameter rejects: empty lists stay out
    bare = dict(SIM, robots=[{'name': 'r', 'package': 'p'}])
    params = node_specs(parse_scenario(bare, P))[0].parameters
    assert 'robots.r.xacro_args' not in params
    assert 'robots.r.pose' not in params  # the simulator uses the description's nominal pose
    full = dict(SIM, robots=[{'name': 'r', 'package': 'p', 'initial_positions': {'j1': 0.5},
                              'fixed_base': True, 'contact_links': ['foot']}])
    params = node_specs(parse_scenario(full, P))[0].parameters
    assert params['robots.r.initial_positions'] == ['j1:=0.5']
    assert params['robots.r.fixed_base'] is True
    assert params['robots.r.contact_links'] == ['foot']
    assert pid.ros_args() == ['--ros-args', '-r', '__node:=pid', '-r', '__ns:=/go1',
                              '-r', 'a:=/b']


def test_default_record_topics_cover_clock_tf_and_robot_state():
    topics = default_record_topics(parse_scenario(SIM, P))
    for t in ['/clock', '/tf', '/go1/joint_states', '/go1/odometry/ground_truth', '/go1/imu']:
        assert t in topics
    no_sim = {'nodes': [{'name': 'a', 'package': 'p', 'executable': 'e'}]}
    assert default_record_topics(parse_scenario(no_sim, P)) is None  # no sim: everything


@pytest.mark.parametrize('data, fragment', [
    ({'duration': -1}, "field 'duration'"),
    ({'bogus': 1}, "unknown field 'bogus'"),
    ({'nodes': [{'name': 'a'}]}, "field 'nodes[0]'"),
    ({'nodes': [{'name': 'a', 'package': 'p', 'executable': 'e'}] * 2}, "'a' is used twice"),
    ({'robots': [{'name': 'r', 'package': 'p'}] * 2}, "robot name 'r' is used twice"),
    ({'robots': [{'name': 'r', 'package': 'p', 'pose': [1, 2]}]}, "robots[0].pose"),
    ({'physics': {'stpe': 1}}, "unknown field 'physics.stpe'"),
    ({'gravity': [0, 0]}, "field 'gravity'"),
])
def test_invalid_scenarios_name_the_field(data, fragment):
    with pytest.raises(ScenarioError) as err:
        parse_scenario(data, P)
    msg = str(err.value)
    assert fragment in msg and str(P) in msg and '\n' not in msg


def test_malformed_yaml_names_file_and_line(tmp_path):
    f = tmp_path / 'bad.yaml'
    f.write_text('nodes:\n  - name: a\n   package: [unclosed\n')
    with pytest.raises(ScenarioError, match=r'bad\.yaml:\d+: malformed YAML'):
        load_scenario(str(f))


def test_unknown_scenario_suggests_close_names():
    assert 'talker_listener' in list_scenarios()
    with pytest.raises(ScenarioError, match="unknown scenario 'talker_listenr'; did you mean "
                                            "talker_listener"):
        load_scenario('talker_listenr')


def test_overrides_parse_yaml_values_and_reject_unknown_nodes():
    sc = apply_overrides(parse_scenario(SIM, P), ['pid.gains.FL_hip_joint.p=3.5', 'pid.on=true',
                                                  'sim.joint_states_rate=50'])
    pid = node_specs(sc)[1]
    assert pid.parameters['gains.FL_hip_joint.p'] == 3.5 and pid.parameters['on'] is True
    assert node_specs(sc)[0].parameters['joint_states_rate'] == 50
    with pytest.raises(ScenarioError, match=r"no node named 'nope'.*\(nodes: sim, pid\)"):
        apply_overrides(sc, ['nope.x=1'])
    with pytest.raises(ScenarioError, match='expected node.parameter=value'):
        apply_overrides(sc, ['pid=3'])


def test_parameter_files_resolve_and_missing_ones_are_named(tmp_path):
    (tmp_path / 'gains.yaml').write_text('pid:\n  ros__parameters:\n    k: 1.0\n')
    sc_file = tmp_path / 's.yaml'
    node = {'name': 'pid', 'package': 'p', 'executable': 'e'}
    sc = parse_scenario({'nodes': [dict(node, parameters=['gains.yaml', {'k2': 2}])]}, sc_file)
    assert sc.nodes[0].params_files == [str(tmp_path / 'gains.yaml')]
    assert sc.nodes[0].ros_args()[-2:] == ['--params-file', str(tmp_path / 'gains.yaml')]
    with pytest.raises(ScenarioError, match="parameter file missing.yaml not found"):
        parse_scenario({'nodes': [dict(node, parameters=['missing.yaml'])]}, sc_file)


def test_every_shipped_scenario_parses():
    for path in list_scenarios().values():
        load_scenario(str(path))


def test_extends_merges_mappings_deep_and_robots_and_nodes_by_name(tmp_path):
    import yaml
    (tmp_path / 'base.yaml').write_text(yaml.safe_dump(SIM))
    (tmp_path / 'child.yaml').write_text(yaml.safe_dump({
        'extends': 'base.yaml', 'physics': {'real_time_factor': 1.0},
        'robots': [{'name': 'go1', 'pose': [1, 0, 0.3, 0, 0, 0]}],
        'nodes': [{'name': 'pid', 'parameters': {'gains': {'FL_hip_joint': {'d': 0.1}}},
                   'remappings': {'c': '/d'}},
                  {'name': 'talker', 'package': 'zoo_bringup', 'executable': 'talker'}]}))
    sc = load_scenario(str(tmp_path / 'child.yaml'))
    assert sc.name == 'child' and sc.physics == {'step': 0.002, 'real_time_factor': 1.0}
    (go1,) = sc.robots
    assert go1.package == 'go1_description' and go1.pose == [1, 0, 0.3, 0, 0, 0]
    pid, talker = sc.nodes
    assert pid.parameters == {'gains.FL_hip_joint.p': 2.0, 'gains.FL_hip_joint.d': 0.1}
    assert pid.remappings == [('a', '/b'), ('c', '/d')] and pid.namespace == '/go1'
    assert talker.executable == 'talker'


def test_shipped_variants_equal_their_written_out_form():
    """go1_trot_mars is go1_trot_earth with its gravity and two tracker parameters of its own
    (issue 28's landings at Mars gravity): everything else comes from the base."""
    earth, mars = load_scenario('go1_trot_earth'), load_scenario('go1_trot_mars')
    assert mars.gravity == [0.0, 0.0, -3.72111] and mars.physics == earth.physics
    assert [n.name for n in mars.nodes] == [n.name for n in earth.nodes]
    own = {'landing_aim_depth': 0.008, 'stance_kp_scale': 0.05}
    assert mars.nodes[0].parameters == {**earth.nodes[0].parameters, **own}
    assert not own.keys() & earth.nodes[0].parameters.keys()


@pytest.mark.parametrize('files, fragment', [
    ({'a.yaml': 'extends: nowhere_like_this\n'}, "a.yaml: field 'extends': unknown scenario"),
    ({'a.yaml': 'extends: b.yaml\n', 'b.yaml': 'extends: a.yaml\n'},
     "b.yaml: field 'extends': 'a.yaml' closes a cycle (a.yaml -> b.yaml -> a.yaml)"),
    ({'a.yaml': 'extends: [x]\n'}, "a.yaml: field 'extends': expected a scenario name"),
])
def test_extends_errors_name_the_file_and_field(tmp_path, files, fragment):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(ScenarioError) as exc:
        load_scenario(str(tmp_path / 'a.yaml'))
    assert fragment in str(exc.value)
