"""parameter_schema: a node's parameters declared from a YAML schema, checked in one place."""
import math
import textwrap

import pytest

from zoo_runtime import EMBEDDED, parameter_schema, rclpy
from zoo_runtime.parameter_schema import ParameterSchemaError, SchemaFileError

P = rclpy.parameter.Parameter
SCHEMA = """\
    demo:
      rate:
        type: double
        default_value: 10.0
        description: Hz of the demo.
        validation:
          gt<>: [0.0]
          finite<>: []
      gain:
        type: double
        default_value: 0.5
        description: A gain.
        validation:
          bounds<>: [0.0, 1.0]
      mode:
        type: string
        default_value: fast
        description: How.
        read_only: true
        validation:
          one_of<>: [[fast, slow]]
      joints:
        type: string_array
        description: The joints.
        validation:
          not_empty<>: []
        expected: a non-empty list of joint names
      gains:
        <joint>:
          p: {type: double, default_value: 2.0, description: P gain.}
      <backend>:
        <option>: {type: auto, description: A backend's option.}
    """


def schema(tmp_path, text=SCHEMA, name='demo'):
    path = tmp_path / f'{name}.yaml'
    path.write_text(textwrap.dedent(text))
    return parameter_schema.from_file(path, 'pkg')


@pytest.fixture
def node_of():
    ctx = rclpy.context.Context()
    rclpy.init(context=ctx)
    nodes = []

    def make(**overrides):
        nodes.append(rclpy.node.Node('demo', context=ctx, parameter_overrides=[
            P(k, value=v) for k, v in overrides.items()]))
        return nodes[-1]
    yield make
    for n in nodes:
        n.destroy_node()
    rclpy.shutdown(context=ctx)


def test_declares_defaults_and_overrides_with_descriptors(tmp_path, node_of):
    node = node_of(joints=['a', 'b'], gain=0.25)
    values = schema(tmp_path).declare(node)
    assert values == {'rate': 10.0, 'gain': 0.25, 'mode': 'fast', 'joints': ['a', 'b']}
    d = node.describe_parameter('gain')
    assert d.description == 'A gain.' and d.additional_constraints == 'in [0, 1]'
    assert (d.floating_point_range[0].from_value, d.floating_point_range[0].to_value) == (0, 1)
    assert node.describe_parameter('mode').read_only
    assert node.describe_parameter('rate').floating_point_range == []  # gt: no rcl range


@pytest.mark.parametrize('overrides, line', [
    ({'joints': ['a'], 'rate': 0.0}, "node 'demo': parameter 'rate' = 0.0 (from "
                                     "parameter_overrides): expected > 0 and finite, got 0.0"),
    ({'joints': ['a'], 'rate': math.inf}, "'rate' = inf (from parameter_overrides): expected > 0"),
    ({'joints': ['a'], 'mode': 'slowest'}, "expected one of 'fast', 'slow', got 'slowest'"),
    ({}, "parameter 'joints' = None: expected a non-empty list of joint names, got nothing"),
])
def test_a_bad_initial_value_is_one_line_naming_node_and_parameter(tmp_path, node_of,
                                                                    overrides, line):
    with pytest.raises(ParameterSchemaError) as e:
        schema(tmp_path).declare(node_of(**overrides))
    if not EMBEDDED:  # real rclpy does not say where an override came from
        line = line.replace(' (from parameter_overrides)', '')
    assert line in str(e.value) and '\n' not in str(e.value)
    assert isinstance(e.value, (ValueError, rclpy.exceptions.InvalidParameterValueException))


def test_set_parameters_is_checked_by_the_same_rules(tmp_path, node_of):
    node = node_of(joints=['a'])
    schema(tmp_path).declare(node)
    result, = node.set_parameters([P('gain', value=1.5)])
    assert not result.successful and 'gain' in result.reason
    result, = node.set_parameters([P('rate', value=-1.0)])
    assert result.reason == 'parameter rate: expected > 0 and finite, got -1.0'
    assert node.set_parameters([P('rate', value=20.0)])[0].successful


def test_placeholders_declare_names_known_at_run_time(tmp_path, node_of):
    s = schema(tmp_path)
    node = node_of(joints=['knee'], **{'gains.knee.p': 3.0})
    s.declare(node)
    assert s.declare(node, 'gains.<joint>', joint='knee') == {'p': 3.0}
    assert s.declare(node, '<backend>.<option>', backend='bus', option='port',
                     default='/dev/ttyUSB0', description='The port.') == {'bus.port': '/dev/ttyUSB0'}
    assert node.describe_parameter('bus.port').description == 'The port.'
    assert s.entry('gains.hip.p') is s.entries['gains.<joint>.p']
    assert s.entry('gains.hip.q') is None and s.problem('volume', 1).startswith('not a parameter')


def test_include_merges_a_shared_part(tmp_path):
    schema(tmp_path, "_shared:\n  world: {type: string, default_value: a, description: W.}\n",
           '_shared')
    s = schema(tmp_path, "node:\n  __include: [_shared]\n  goal: {type: double_array, "
                         "description: G.}\n", 'node')
    assert list(s.entries) == ['world', 'goal']


@pytest.mark.parametrize('text, words', [
    ('other:\n  a: {type: int, default_value: 1, description: A.}\n', "expected 'bad'"),
    ('bad:\n  a: {type: float, description: A.}\n', 'a: type: expected one of'),
    ('bad:\n  a: {type: int, default_value: 1}\n', 'a: description: expected a sentence'),
    ('bad:\n  a: {type: int, default_value: 1, description: A., min: 0}\n', "unknown field 'min'"),
    ('bad:\n  a: {type: int, default_value: -1, description: A., validation: {gt<>: [0]}}\n',
     'default_value -1 is not a legal value'),
    ('bad:\n  a: {type: int, default_value: 1, description: A., validation: {odd<>: []}}\n',
     "validation 'odd<>'"),
    ('bad: [1, 2\n', 'not a readable YAML file'),
])
def test_a_bad_schema_file_is_one_line_naming_file_and_field(tmp_path, text, words):
    with pytest.raises(SchemaFileError) as e:
        schema(tmp_path, text, 'bad')
    assert str(e.value).startswith(str(tmp_path / 'bad.yaml')) and words in str(e.value)


def test_a_package_without_the_schema_says_where_it_looked():
    with pytest.raises(SchemaFileError, match='zoo_runtime/nothing: no parameter schema'):
        parameter_schema.load('zoo_runtime', 'nothing')


def test_skip_leaves_a_parameter_to_declare_with_a_default_of_the_code(tmp_path, node_of):
    """A default that depends on another parameter: the rate of a preset."""
    s = schema(tmp_path)
    node = node_of(joints=['a'])
    assert 'rate' not in s.declare(node, skip=('rate',))
    assert s.declare(node, 'rate', default=1000.0) == {'rate': 1000.0}
