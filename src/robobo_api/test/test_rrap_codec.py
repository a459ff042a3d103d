"""The protocol codec, the RoboboSim frame, the blob detector and the global test's decisions,
no ROS and no sockets."""
import json
import math

import numpy as np
import pytest

from robobo_api import rrap_codec as rrap
from robobo_api.color_blobs import BlobTracker, detect
from robobo_api.global_test_logic import STOP_SIZE, GlobalTest
from robobo_api.sim_frames import from_unity, to_unity


def cmd(name, **params):
    return rrap.parse_frame(json.dumps({'name': name, 'parameters': params, 'id': 3}))


def test_frames_and_ports():
    assert rrap.robot_port(0) == 40404 and rrap.robot_port(3) == 40434
    assert rrap.parse_frame('PASSWORD: secret') == rrap.Password('secret')
    for bad in ('{', '[1]', '{"name": 1}', b'\xff', '{"name": "MOVE", "parameters": []}'):
        with pytest.raises(rrap.ProtocolError):
            rrap.parse_frame(bad)


def test_wheels_and_axis_commands():
    w = rrap.wheels(cmd('MOVE-BLOCKING', lspeed='150', rspeed='-20', time='1.25', blockid='9'))
    assert (w.lspeed, w.rspeed, w.time_ms, w.blockid) == (100, -20, 1250, '9')
    assert rrap.wheels(cmd('MOVE', lspeed='1', rspeed='1', time='2')).blockid is None
    for params, says in (({'lspeed': 'x', 'rspeed': 1, 'time': 1}, 'number'),
                         ({'lspeed': 1, 'rspeed': 1}, 'missing'),
                         ({'lspeed': 1, 'rspeed': 1, 'time': 'inf'}, 'finite'),
                         ({'lspeed': 1, 'rspeed': 1, 'time': 1e9}, 'at most')):
        with pytest.raises(rrap.ProtocolError, match=says):
            rrap.wheels(cmd('MOVE', **params))
    a = rrap.axis(cmd('MOVEPAN-BLOCKING', pos='200', speed='250', blockid='4'))
    assert (a.axis, a.pos, a.speed, a.blockid) == ('pan', 200, 100, '4')
    with pytest.raises(rrap.ProtocolError, match='integer'):
        rrap.axis(cmd('MOVETILT', pos='7.5', speed='10'))


def test_other_commands_and_statuses():
    assert rrap.blob_colors(cmd('CONFIGURE-BLOBTRACKING', red='False', green='True',
                                blue='False', custom='False'))['green']
    assert rrap.status_level(cmd('SET-SENSOR-FREQUENCY', frequency='MAX')) == 'MAX'
    with pytest.raises(rrap.ProtocolError, match='FAST and ignores HIGH'):   # robobopy's High
        rrap.status_level(cmd('SET-SENSOR-FREQUENCY', frequency='HIGH'))
    loc = rrap.location(cmd('SIM-LOCATION-SET', id='0', position="{'x': 1, 'y': 2, 'z': 3}",
                            rotation='{}'))
    assert loc.position == {'x': 1.0, 'y': 2.0, 'z': 3.0} and loc.rotation is None
    with pytest.raises(rrap.ProtocolError, match='dict'):
        rrap.location(cmd('SIM-LOCATION-SET', id='0', position='__import__("os")'))
    status = json.loads(rrap.irs_status({'Front-C': 56.7}))
    assert status == {'name': 'IRS', 'value': {'Front-C': '57'}}   # every value a string


def test_unity_frame_round_trip():
    pos, rot = to_unity((0.25, -0.1, 0.03), (math.cos(0.3), 0, 0, math.sin(0.3)))
    assert (pos['x'], pos['y'], pos['z']) == pytest.approx((250, 30, -100))
    assert rot['y'] == pytest.approx(360 - math.degrees(0.6))      # left-handed, clockwise
    xyz, q = from_unity(pos, rot, ((0, 0, 0), (1, 0, 0, 0)))
    assert xyz == pytest.approx([0.25, -0.1, 0.03])
    dot = np.dot(q, [math.cos(0.3), 0, 0, math.sin(0.3)])
    assert abs(dot) == pytest.approx(1.0, abs=1e-12)              # q and -q: one rotation


def disc_image(cx, cy, r, color=(0, 170, 0)):
    img = np.full((640, 480, 3), 200, dtype=np.uint8)
    yy, xx = np.mgrid[:640, :480]
    img[(xx - cx) ** 2 + (yy - cy) ** 2 <= r * r] = color
    img[10:20, 10:20] = color          # a smaller second region: not the blob
    return img


def test_blob_detection_and_loss():
    blob = detect(disc_image(120, 480, 30), ('green', 'red'))
    assert blob['red'] is None
    g = blob['green']
    assert g.x == pytest.approx(25.0, abs=0.3) and g.y == pytest.approx(75.0, abs=0.3)
    assert g.size == pytest.approx(math.pi * 30 ** 2, rel=0.03)
    tracker = BlobTracker(('green',), min_area=500, lost_frames=2)
    assert tracker.update(disc_image(240, 320, 20))[0].size > 500
    empty = np.full((640, 480, 3), 200, dtype=np.uint8)
    assert tracker.update(empty) == []
    assert tracker.update(empty)[0].size == 0      # lost after 2 frames, said once
    assert tracker.update(empty) == []


def test_global_test_decisions():
    floor = {'Front-C': 5, 'Front-L': 45, 'Front-R': 45, 'Front-LL': 5, 'Front-RR': 5}
    brain = GlobalTest()
    assert brain.step(0.0, floor, (0, 0, 0)).kind == 'wheels'          # drive straight
    turn = brain.step(0.1, dict(floor, **{'Front-C': 90, 'Front-LL': 70}), (0, 0, 0))
    assert turn.kind == 'turn' and turn.lspeed > 0 > turn.rspeed        # wall left: turn right
    spin = brain.step(0.2, floor, (0, 0, 0))
    assert spin.lspeed == -spin.rspeed                                  # looks around
    steer = brain.step(0.3, floor, (60, 50, 2000))
    assert steer.lspeed > steer.rspeed > 0                              # blob right: bear right
    assert brain.step(0.4, floor, (50, 50, STOP_SIZE)).kind == 'stop' and brain.done


def test_frames_over_the_size_cap_are_refused_unparsed_with_their_size():
    big = json.dumps({'name': 'MOVE', 'parameters': {'lspeed': '1' * rrap.MAX_COMMAND}})
    with pytest.raises(rrap.ProtocolError, match=f'{len(big)} bytes') as refused:
        rrap.parse_frame(big.encode())
    assert str(rrap.MAX_COMMAND) in str(refused.value)
    assert rrap.parse_frame(json.dumps({'name': 'MOVE', 'parameters': {}}).encode()).name == 'MOVE'


def test_robobosim_locations_are_parsed_in_the_frame_as_robobosim_writes_them():
    """robobosim's Message.encode writes ``str(dict)`` into a JSON string: parsed (no
    ast.literal_eval) when the frame is, so the node's loop gets dicts."""
    for written in ({'x': 1.5, 'y': -2, 'z': 3e-05}, {'x': 10 ** 20, 'y': 0.0, 'z': -0.0}, {}):
        frame = ('{"name":"SIM-LOCATION-SET","parameters":{"id":"0","position":"'
                 + str(written) + '","rotation":"{}"}, "id":"4"}')
        c = rrap.parse_frame(frame.encode())
        assert c.params['position'] == written and c.params['rotation'] == {}
    for bad in ("{'x': [1, 1], 'y': 0, 'z': 0}", "{'x': (1)}", "__import__('os')", "{'x': 1,}",
                "{'x': 1} junk", "{'x': 1 'y': 2}", "{'x': " + '1' * 100 + '}',
                "{'x': [" + '1, ' * 10000 + ']}'):
        frame = json.dumps({'name': 'SIM-OBJECT-LOCATION-SET',
                            'parameters': {'object-id': 'ball', 'position': bad}})
        with pytest.raises(rrap.ProtocolError, match='position must be a dict') as refused:
            rrap.parse_frame(frame)
        assert refused.value.command == 'SIM-OBJECT-LOCATION-SET'


def test_refusals_quote_at_most_80_characters_of_what_came():
    for params, says in (({'lspeed': '1' * 5000, 'rspeed': 1, 'time': 1}, 'finite'),
                         ({'lspeed': 1, 'rspeed': 1, 'time': 'x' * 5000}, 'number')):
        with pytest.raises(rrap.ProtocolError, match=says) as refused:
            rrap.wheels(cmd('MOVE', **params))
        assert len(str(refused.value)) < 150
    with pytest.raises(rrap.ProtocolError, match='integer') as refused:
        rrap.axis(cmd('MOVEPAN', pos='1.5' + '0' * 5000, speed='10'))
    assert len(str(refused.value)) < 150
