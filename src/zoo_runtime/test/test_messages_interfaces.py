"""The zoo_runtime.interfaces import path, .msg/.srv parsing and workspace interface packages."""
import importlib
import sys

import numpy as np
import pytest

import zoo_runtime
from zoo_runtime import messages
from zoo_runtime.messages import InterfaceDefinitionError, UnknownInterfaceError, registry
from zoo_runtime.messages.msgfile import parse_msg, parse_srv

pytestmark = pytest.mark.skipif(not zoo_runtime.EMBEDDED, reason='embedded interface classes')


def test_import_path_gives_the_embedded_classes():
    from zoo_runtime.interfaces.rcl_interfaces.msg import SetParametersResult
    from zoo_runtime.interfaces.rosgraph_msgs.msg import Clock
    from zoo_runtime.interfaces.sensor_msgs.msg import JointState
    from zoo_runtime.interfaces.std_srvs.srv import Empty, SetBool, SetBool_Request, Trigger
    from zoo_runtime.interfaces.zoo_interfaces.msg import Counter
    from zoo_runtime.interfaces.zoo_interfaces.srv import Step
    assert JointState is messages.get_message('sensor_msgs/msg/JointState')
    assert SetBool.Request is SetBool_Request
    assert Trigger.Response(success=True).success is True
    assert Empty.Request() == Empty.Request()
    assert Clock().clock.sec == 0 and SetParametersResult(successful=True).reason == ''
    assert Counter(count=3).count == 3 and Step.Request(steps=2).steps == 2
    module = importlib.import_module('zoo_runtime.interfaces.std_srvs.srv')
    assert module.__all__ == ['Empty', 'SetBool', 'Trigger']


def test_import_of_unknown_type_or_package_is_one_clear_import_error():
    with pytest.raises(ImportError, match=r"^cannot import 'JointStat' from zoo_runtime\."
                                          r"interfaces\.sensor_msgs\.msg: unknown message type "
                                          r"'sensor_msgs/msg/JointStat': did you mean "
                                          r'sensor_msgs/msg/JointState'):
        from zoo_runtime.interfaces.sensor_msgs.msg import JointStat  # noqa: F401
    with pytest.raises(ModuleNotFoundError, match=r"^no interface package 'sensor_msg'; did you "
                                                  r'mean sensor_msgs'):
        from zoo_runtime.interfaces.sensor_msg.msg import JointState  # noqa: F401
    with pytest.raises(ModuleNotFoundError, match=r'use zoo_runtime\.interfaces\.<pkg>\.msg or '
                                                  r'\.srv'):
        importlib.import_module('zoo_runtime.interfaces.std_msgs.action')
    module = importlib.import_module('zoo_runtime.interfaces.std_msgs.msg')
    assert not hasattr(module, '__wrapped__')  # lower-case probes stay AttributeError


def test_parse_msg_fields_constants_and_defaults():
    text = '\n'.join([
        '# comment line',
        'int32 ANSWER=42          # constant',
        'string GREETING="hi # not a comment"',
        'byte FLAG=255',
        'float64 gain 1.5         # default',
        'int8 level -2',
        'bool on true',
        'string<=8 label "abc"',
        'float32[3] rgb [0.1, 0.2, 0.3]',
        'uint8[<=4] ids [1, 2]',
        'Header header',
        'geometry_msgs/Point[] points',
        'Other local',
    ])
    t = parse_msg(text, 'demo_msgs/msg/Demo')
    assert t.constants == [('ANSWER', 'int32', 42), ('GREETING', 'string', 'hi # not a comment'),
                           ('FLAG', 'byte', 255)]
    assert t.defaults == {'gain': 1.5, 'level': -2, 'on': True, 'label': 'abc',
                          'rgb': [0.1, 0.2, 0.3], 'ids': [1, 2]}
    names = [f[0] for f in t.fields]
    assert names == ['gain', 'level', 'on', 'label', 'rgb', 'ids', 'header', 'points', 'local']
    fields = dict(t.fields)
    assert fields['header'][1] == 'std_msgs/msg/Header'
    assert fields['points'][1][0][1] == 'geometry_msgs/msg/Point'
    assert fields['local'][1] == 'demo_msgs/msg/Other'
    assert fields['label'][1] == ('string', 8)


def test_parse_srv_splits_request_and_response():
    req, resp = parse_srv('int64 a\nint64 b\n---\nint64 sum\n', 'demo_msgs/srv/AddTwo')
    assert req.name == 'demo_msgs/srv/AddTwo_Request' and [f[0] for f in req.fields] == ['a', 'b']
    assert resp.name == 'demo_msgs/srv/AddTwo_Response' and [f[0] for f in resp.fields] == ['sum']
    empty_req, _ = parse_srv('---\n', 'demo_msgs/srv/Ping')
    assert [f[0] for f in empty_req.fielddef()[1]] == ['structure_needs_at_least_one_member']


@pytest.mark.parametrize('text, line, fragment', [
    ('int32 a\nfloat64 Bad\n', 2, "field name 'Bad' must be lower_snake_case"),
    ('int32 a\n\nint32 a\n', 3, "duplicate name 'a'"),
    ('int32 x 3.5\n', 1, "int32 value '3.5' is not an integer"),
    ('uint8 x 256\n', 1, 'uint8 value 256 is outside [0, 255]'),
    ('wstring w\n', 1, "type 'wstring' is not supported"),
    ('float64[0] w\n', 1, 'array size must be positive'),
    ('float64[2] w [1.0]\n', 1, 'array default has 1 values, expected 2'),
    ('int32 lower=3\n', 1, "constant name 'lower' must be UPPER_CASE"),
    ('lonely\n', 1, 'expected "<type> <name> [default]"'),
])
def test_parse_errors_name_file_and_line(text, line, fragment):
    with pytest.raises(InterfaceDefinitionError) as info:
        parse_msg(text, 'demo_msgs/msg/Bad', '/ws/src/demo_msgs/msg/Bad.msg')
    assert str(info.value).startswith(f'/ws/src/demo_msgs/msg/Bad.msg:{line}: ')
    assert fragment in str(info.value)
    assert '\n' not in str(info.value)


def test_srv_without_separator_is_an_error():
    with pytest.raises(InterfaceDefinitionError, match=r"^x\.srv: a \.srv file needs exactly one "
                                                       r"'---' line"):
        parse_srv('bool a\n', 'demo_msgs/srv/X', 'x.srv')


@pytest.fixture
def tmp_package(tmp_path, monkeypatch):
    """A throw-away interface package registered like a workspace package."""
    def make(pkg, files):
        for rel, text in files.items():
            path = tmp_path / pkg / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        monkeypatch.setitem(registry.package_dirs(), pkg, [tmp_path / pkg])
        return tmp_path / pkg
    return make


def test_workspace_package_types_with_defaults_and_cross_references(tmp_package):
    tmp_package('zootest_msgs', {
        'msg/Gains.msg': 'float64 kp 2.0\nfloat64 ki\nstring<=4 name "pid"\nchar c\nbyte b 7\n'
                         'int16[3] lim [-1, 0, 1]\nstring<=3[<=2] tags\n',
        'msg/Group.msg': 'uint8 MODE_A=1\nGains[] gains\ngeometry_msgs/Vector3 axis\n'
                         'std_msgs/Header header\n',
        'srv/Tune.srv': 'Gains gains\n---\nbool ok\n',
    })
    Gains = messages.get_message('zootest_msgs/msg/Gains')
    g = Gains()
    assert (g.kp, g.ki, g.name, g.c, g.b) == (2.0, 0.0, 'pid', 0, b'\x07')
    assert g.lim.dtype == np.int16 and list(g.lim) == [-1, 0, 1]
    Group = messages.get_message('zootest_msgs/Group')
    msg = Group(gains=[Gains(kp=1.0), Gains(name='abcd')])
    assert Group.MODE_A == 1
    assert messages.deserialize(messages.serialize(msg), 'zootest_msgs/msg/Group') == msg
    Tune = messages.get_service('zootest_msgs/srv/Tune')
    assert Tune.Request().gains == Gains()
    with pytest.raises(ValueError, match=r'^zootest_msgs/msg/Gains\.name: string of length 5 '
                                         r'exceeds the bound 4$'):
        Gains(name='abcde')
    with pytest.raises(ValueError, match=r'^zootest_msgs/msg/Gains\.tags\[1\]: string of length 4 '
                                         r'exceeds the bound 3$'):
        Gains(tags=['abc', 'abcd'])
    with pytest.raises(ValueError, match=r'^zootest_msgs/msg/Gains\.tags: expected at most 2 '
                                         r'elements, got 3$'):
        g.tags = ['a', 'b', 'c']
    assert Gains.get_fields_and_field_types()['tags'] == 'sequence<string<3>, 2>'


def test_broken_workspace_file_reports_file_and_line(tmp_package):
    root = tmp_package('zoobroken_msgs', {'msg/Ok.msg': 'int32 a\n',
                                          'msg/Broken.msg': 'int32 a\nfloat64 x y z\n'})
    with pytest.raises(InterfaceDefinitionError) as info:
        messages.get_message('zoobroken_msgs/msg/Ok')
    assert str(info.value).startswith(f'{root}/msg/Broken.msg:2: ')
    # Reported again, not silently forgotten, on the next use.
    with pytest.raises(InterfaceDefinitionError):
        messages.get_message('zoobroken_msgs/msg/Ok')


def test_reference_to_unknown_type_is_reported(tmp_package):
    root = tmp_package('zoodangling_msgs', {'msg/A.msg': 'geometry_msgs/Vectr v\n'})
    with pytest.raises(InterfaceDefinitionError, match=rf"^{root}/msg/A\.msg: field 'v' refers to "
                                                       r'unknown type geometry_msgs/msg/Vectr$'):
        messages.get_message('zoodangling_msgs/msg/A')


@pytest.fixture
def real_ros_world(tmp_path, monkeypatch):
    """A stand-in for a generated ROS package (module layout of rosidl_generator_py) and
    zoo_runtime switched to real-ROS mode."""
    pkg = tmp_path / 'zoofake_msgs'
    (pkg / 'msg').mkdir(parents=True)
    (pkg / 'srv').mkdir()
    (pkg / '__init__.py').write_text('')
    (pkg / 'msg' / '__init__.py').write_text('from zoofake_msgs.msg._probe import Probe\n')
    (pkg / 'msg' / '_probe.py').write_text('class Probe:\n    pass\n')
    (pkg / 'srv' / '__init__.py').write_text('from zoofake_msgs.srv._ping import Ping\n')
    (pkg / 'srv' / '_ping.py').write_text(
        'class Ping_Request:\n    pass\n\n\nclass Ping_Response:\n    pass\n\n\n'
        'class Ping:\n    Request = Ping_Request\n    Response = Ping_Response\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(zoo_runtime, 'EMBEDDED', False)
    yield
    for name in [n for n in sys.modules if 'zoofake_msgs' in n]:
        del sys.modules[name]


def test_real_ros_mode_aliases_the_generated_modules(real_ros_world):
    from zoo_runtime.interfaces.zoofake_msgs.msg import Probe
    from zoo_runtime.interfaces.zoofake_msgs.srv import Ping
    assert Probe is sys.modules['zoofake_msgs.msg'].Probe
    assert sys.modules['zoo_runtime.interfaces.zoofake_msgs.msg'] is sys.modules['zoofake_msgs.msg']
    assert messages.get_message('zoofake_msgs/msg/Probe') is Probe
    assert messages.get_service('zoofake_msgs/Ping') is Ping
    assert messages.get_message('zoofake_msgs/srv/Ping_Request') is Ping.Request
    assert messages.type_name_of(Probe()) == 'zoofake_msgs/msg/Probe'
    assert messages.type_name_of(Ping.Response) == 'zoofake_msgs/srv/Ping_Response'
    with pytest.raises(ModuleNotFoundError, match=r"no ROS interface module 'zoofake_nothing'"):
        importlib.import_module('zoo_runtime.interfaces.zoofake_nothing.msg')
    with pytest.raises(UnknownInterfaceError, match=r'no Nope in the ROS package '
                                                    r'zoofake_msgs\.msg'):
        messages.get_message('zoofake_msgs/msg/Nope')
