"""Parameters: declaration, type enforcement, callbacks, descriptors, overrides and YAML files."""
from __future__ import annotations

import textwrap

import pytest


def _P(rt):
    return rt.rclpy.parameter.Parameter


def _descriptor(rt, **kw):
    return rt.msg('rcl_interfaces/msg/ParameterDescriptor')(**kw)


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_declare_get_and_infer_types(rt):
    P = _P(rt)
    node = rt.node('declare')
    assert node.declare_parameter('gain', 2.5).value == 2.5
    node.declare_parameter('joints', ['a', 'b'])
    node.declare_parameter('rate', 100)
    node.declare_parameter('enabled', True)
    assert node.get_parameter('gain').type_ == P.Type.DOUBLE
    assert node.get_parameter('joints').type_ == P.Type.STRING_ARRAY
    assert node.get_parameter('rate').type_ == P.Type.INTEGER
    assert node.get_parameter('enabled').type_ == P.Type.BOOL
    assert node.has_parameter('gain') and not node.has_parameter('nope')
    assert node.get_parameter_or('nope', P('nope', value=7)).value == 7
    with pytest.raises(rt.rclpy.exceptions.ParameterAlreadyDeclaredException):
        node.declare_parameter('gain', 1.0)
    with pytest.raises(rt.rclpy.exceptions.ParameterNotDeclaredException):
        node.get_parameter('nope')


def test_every_node_declares_use_sim_time_false(rt):
    node = rt.node('sim_flag')
    p = node.get_parameter('use_sim_time')
    assert p.type_ == _P(rt).Type.BOOL and p.value is False


def test_set_parameters_enforces_the_declared_type(rt):
    P = _P(rt)
    node = rt.node('typed')
    node.declare_parameter('gain', 1.0)
    [bad] = node.set_parameters([P('gain', value=3)])  # int for a double: rejected, as in rclpy
    assert not bad.successful and 'Wrong parameter type' in bad.reason
    assert node.get_parameter('gain').value == 1.0
    [good] = node.set_parameters([P('gain', value=3.0)])
    assert good.successful and node.get_parameter('gain').value == 3.0


def test_dynamic_typing_allows_type_changes(rt):
    P = _P(rt)
    node = rt.node('dynamic')
    node.declare_parameter('anything', 1, _descriptor(rt, dynamic_typing=True))
    [r] = node.set_parameters([P('anything', value='now a string')])
    assert r.successful and node.get_parameter('anything').value == 'now a string'


def test_on_set_callback_rejection_keeps_old_value(rt):
    P = _P(rt)
    SetParametersResult = rt.msg('rcl_interfaces/msg/SetParametersResult')
    node = rt.node('guarded')
    node.declare_parameter('speed', 1.0)
    seen = []

    def limit(params):
        seen.append([p.name for p in params])
        ok = all(p.value <= 2.0 for p in params if p.name == 'speed')
        return SetParametersResult(successful=ok, reason='' if ok else 'speed above 2.0')

    node.add_on_set_parameters_callback(limit)
    [r] = node.set_parameters([P('speed', value=5.0)])
    assert not r.successful and r.reason == 'speed above 2.0'
    assert node.get_parameter('speed').value == 1.0
    [r] = node.set_parameters([P('speed', value=1.5)])
    assert r.successful and node.get_parameter('speed').value == 1.5
    node.remove_on_set_parameters_callback(limit)
    assert node.set_parameters([P('speed', value=9.0)])[0].successful
    assert seen == [['speed'], ['speed']]


def test_atomic_set_is_all_or_nothing(rt):
    P = _P(rt)
    node = rt.node('atomic')
    node.declare_parameter('a', 1)
    node.declare_parameter('b', 'x')
    result = node.set_parameters_atomically([P('a', value=2), P('b', value=3)])
    assert not result.successful
    assert node.get_parameter('a').value == 1 and node.get_parameter('b').value == 'x'


def test_post_set_callback_sees_applied_values(rt):
    P = _P(rt)
    node = rt.node('post')
    node.declare_parameter('k', 1)
    applied = []
    node.add_post_set_parameters_callback(lambda ps: applied.extend((p.name, p.value)
                                                                    for p in ps))
    node.set_parameters([P('k', value=4)])
    assert applied[-1] == ('k', 4)


def test_read_only_and_ranges(rt):
    P = _P(rt)
    IntegerRange = rt.msg('rcl_interfaces/msg/IntegerRange')
    FloatingPointRange = rt.msg('rcl_interfaces/msg/FloatingPointRange')
    node = rt.node('described')
    node.declare_parameter('robot', 'go1', _descriptor(rt, read_only=True))
    assert not node.set_parameters([P('robot', value='nao')])[0].successful
    node.declare_parameter('steps', 4, _descriptor(
        rt, integer_range=[IntegerRange(from_value=0, to_value=10, step=2)]))
    assert node.set_parameters([P('steps', value=6)])[0].successful
    assert not node.set_parameters([P('steps', value=5)])[0].successful
    assert not node.set_parameters([P('steps', value=12)])[0].successful
    node.declare_parameter('ratio', 0.5, _descriptor(
        rt, floating_point_range=[FloatingPointRange(from_value=0.0, to_value=1.0, step=0.0)]))
    assert node.set_parameters([P('ratio', value=1.0)])[0].successful
    assert not node.set_parameters([P('ratio', value=1.5)])[0].successful
    assert node.get_parameter('ratio').value == 1.0


def test_statically_typed_uninitialized_parameter(rt):
    P = _P(rt)
    node = rt.node('uninit')
    node.declare_parameter('path', P.Type.STRING)
    with pytest.raises(rt.rclpy.exceptions.ParameterUninitializedException):
        node.get_parameter('path')
    assert node.set_parameters([P('path', value='/tmp/x')])[0].successful
    assert node.get_parameter('path').value == '/tmp/x'


def test_undeclared_parameters_allowed_on_request(rt):
    P = _P(rt)
    strict = rt.node('strict')
    with pytest.raises(rt.rclpy.exceptions.ParameterNotDeclaredException):
        strict.set_parameters([P('free', value=1)])
    loose = rt.node('loose', allow_undeclared_parameters=True)
    assert loose.set_parameters([P('free', value=1)])[0].successful
    assert loose.get_parameter('free').value == 1
    assert loose.get_parameter('unknown').type_ == P.Type.NOT_SET


def test_parameter_overrides_beat_defaults_and_may_autodeclare(rt):
    P = _P(rt)
    node = rt.node('overridden', parameter_overrides=[P('gain', value=4.0), P('extra', value=3)])
    assert node.declare_parameter('gain', 1.0).value == 4.0
    assert not node.has_parameter('extra')
    auto = rt.node('auto', parameter_overrides=[P('extra', value=3)],
                   automatically_declare_parameters_from_overrides=True)
    assert auto.get_parameter('extra').value == 3


def test_override_of_another_type_is_rejected(rt):
    P = _P(rt)
    node = rt.node('mistyped', parameter_overrides=[P('gain', value=1)])
    with pytest.raises(rt.rclpy.exceptions.InvalidParameterTypeException):
        node.declare_parameter('gain', 1.0)


def test_get_parameters_by_prefix(rt):
    node = rt.node('prefixed')
    node.declare_parameters('gains.hip', [('p', 10.0), ('d', 0.5)])
    node.declare_parameter('gains_total', 1)
    by_prefix = node.get_parameters_by_prefix('gains.hip')
    assert sorted(by_prefix) == ['d', 'p'] and by_prefix['p'].value == 10.0


PARAMS_YAML = """\
    /**:
      ros__parameters:
        rate: 50
        frame: world
    /robot/controller:
      ros__parameters:
        rate: 200
        gains:
          hip:
            p: 12.5
            d: 0.25
        joints: [hip, knee]
    /robot/*:
      ros__parameters:
        frame: base
    other_node:
      ros__parameters:
        rate: 1
    """


def test_yaml_file_exact_names_win_over_wildcards_and_nested_maps_flatten(rt, tmp_path):
    path = _write(tmp_path, 'params.yaml', PARAMS_YAML)
    node = rt.node('controller', namespace='robot', cli_args=['--ros-args', '--params-file', path])
    assert node.declare_parameter('rate', 10).value == 200
    assert node.declare_parameter('gains.hip.p', 0.0).value == 12.5
    assert node.declare_parameter('gains.hip.d', 0.0).value == 0.25
    assert node.declare_parameter('joints', ['']).value == ['hip', 'knee']
    other = rt.node('helper', cli_args=['--ros-args', '--params-file', path])
    assert other.declare_parameter('rate', 10).value == 50
    assert other.declare_parameter('frame', '').value == 'world'


def test_yaml_single_star_matches_one_namespace_level(embedded_rt, tmp_path):
    rt = embedded_rt  # rclpy itself only implements /** (rcl TODO); rclcpp matches /ns/*
    path = _write(tmp_path, 'params.yaml', PARAMS_YAML)
    inside = rt.node('camera', namespace='robot', cli_args=['--ros-args', '--params-file', path])
    deeper = rt.node('camera', namespace='robot/head',
                     cli_args=['--ros-args', '--params-file', path])
    assert inside.declare_parameter('frame', '').value == 'base'
    assert deeper.declare_parameter('frame', '').value == 'world'


def test_yaml_namespaces_may_nest_above_the_node(rt, tmp_path):
    path = _write(tmp_path, 'nested.yaml', """\
        robot:
          arm:
            ros__parameters:
              reach: 0.8
        """)
    node = rt.node('arm', namespace='robot', cli_args=['--ros-args', '--params-file', path])
    assert node.declare_parameter('reach', 0.0).value == 0.8


def test_global_params_file_and_p_arguments(rt, tmp_path):
    path = _write(tmp_path, 'g.yaml', """\
        /**:
          ros__parameters:
            use_sim_time: true
            mode: file
        """)
    context = rt.rclpy.context.Context()
    rt.rclpy.init(args=['prog', '--ros-args', '--params-file', path, '-p', 'mode:=cli',
                        '-p', 'count:=3', '-p', 'ratio:=0.5', '-p', 'names:=[a, b]'],
                  context=context)
    try:
        node = rt.rclpy.create_node('globally_set', context=context)
        assert node.get_parameter('use_sim_time').value is True
        assert node.declare_parameter('mode', '').value == 'cli'
        assert node.declare_parameter('count', 0).value == 3
        assert node.declare_parameter('ratio', 0.0).value == 0.5
        assert node.declare_parameter('names', ['']).value == ['a', 'b']
        node.destroy_node()
    finally:
        context.try_shutdown()


@pytest.mark.parametrize('text, expected', [
    ('/**:\n  ros__parameters:\n    a: [1, 2\n', ['bad.yaml:', 'YAML syntax error']),
    ('/**:\n  ros__parameters:\n    a: 1\n   b: 2\n', ['bad.yaml:4:', 'YAML syntax error']),
    ('talker:\n  rate: 10\n', ['bad.yaml:2:', "'/talker/rate'", 'no ros__parameters']),
    ('/**:\n  ros__parameters:\n    mixed: [1, 2.5]\n', ['bad.yaml:3:', "'mixed'",
                                                          'float and int']),
    ('/**:\n  ros__parameters:\n    empty:\n', ['bad.yaml:3:', "'empty'", 'no value']),
    ('- just\n- a list\n', ['bad.yaml:1:', 'no ros__parameters']),
])
def test_malformed_parameter_files_give_one_clear_line(embedded_rt, tmp_path, text, expected):
    rt = embedded_rt
    path = tmp_path / 'bad.yaml'
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        rt.node('victim', cli_args=['--ros-args', '--params-file', str(path)])
    message = str(err.value)
    assert '\n' not in message
    assert message.startswith(str(path))
    for fragment in expected:
        assert fragment in message, message


def test_missing_parameter_file_is_named(embedded_rt, tmp_path):
    with pytest.raises(ValueError, match='nowhere.yaml: cannot read parameter file'):
        embedded_rt.node('victim', cli_args=['--ros-args', '--params-file',
                                             str(tmp_path / 'nowhere.yaml')])


def test_override_type_error_names_the_file(embedded_rt, tmp_path):
    rt = embedded_rt
    path = _write(tmp_path, 'typed.yaml', '/**:\n  ros__parameters:\n    gain: 1\n')
    node = rt.node('typed', cli_args=['--ros-args', '--params-file', path])
    with pytest.raises(rt.rclpy.exceptions.InvalidParameterTypeException,
                       match=r"'gain'.*INTEGER.*DOUBLE.*typed\.yaml"):
        node.declare_parameter('gain', 1.0)


def test_unknown_ros_argument_is_an_error(embedded_rt):
    with pytest.raises(ValueError, match="unknown ROS arguments: \\['--bogus'\\]"):
        embedded_rt.node('x', cli_args=['--ros-args', '--bogus'])


def test_list_parameters_by_prefix_and_depth(rt):
    node = rt.node('lister')
    node.declare_parameters('', [('a', 1), ('b.c', 2), ('b.d.e', 3)])
    everything = node.list_parameters([], 0)
    assert {'a', 'b.c', 'b.d.e', 'use_sim_time'} <= set(everything.names)
    under_b = node.list_parameters(['b'], 1)
    assert under_b.names == ['b.c'] and under_b.prefixes == ['b']
    assert sorted(node.list_parameters(['b'], 0).names) == ['b.c', 'b.d.e']


def test_double_star_matches_a_node_name_in_any_namespace(embedded_rt, tmp_path):
    rt = embedded_rt
    path = _write(tmp_path, 'cams.yaml', '/**/cam:\n  ros__parameters:\n    fps: 30\n')
    for ns in ('/', '/robot', '/robot/head'):
        node = rt.node('cam', namespace=ns, cli_args=['--ros-args', '--params-file', path])
        assert node.declare_parameter('fps', 0).value == 30
    other = rt.node('lidar', cli_args=['--ros-args', '--params-file', path])
    assert other.declare_parameter('fps', 0).value == 0
