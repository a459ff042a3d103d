"""Issue 27: the published client, @foxglove/ws-protocol's FoxgloveClient (from npm, pinned in
tools/npm_foxglove.sh), connects to `robozoo run --live` with subprotocol foxglove.websocket.v1,
publishes into the run, calls a simulator service and gets and sets a node parameter; a channel
on a topic the run lacks and a value of the wrong type are refused with one line each."""
from __future__ import annotations

import base64
import json
import os
import signal
import subprocess

import pytest
from test_live_run import WS, _start

from zoo_runtime import messages

NPM_DIR = WS / '.npm-foxglove'
SCRIPT = WS / 'src' / 'zoo_live' / 'test' / 'ws_protocol_client.mjs'


@pytest.fixture(scope='module')
def npm_client():
    """Installs the pinned client once (idempotent), as CI does."""
    subprocess.run([str(WS / 'tools' / 'npm_foxglove.sh')], check=True, timeout=600)
    return NPM_DIR


def _b64(msg) -> str:
    return base64.b64encode(messages.serialize(msg)).decode()


def test_the_published_client_publishes_calls_services_and_sets_parameters(tmp_path, npm_client):
    JointState = messages.get_message('sensor_msgs/msg/JointState')
    SetBool = messages.get_service('std_srvs/srv/SetBool')
    command = JointState(name=['FL_hip_joint'], position=[0.1])
    args = {'publish': {'topic': '/go1/joint_commands', 'schemaName': 'sensor_msgs/msg/JointState',
                        'data': _b64(command)},
            'service': {'name': '/sim/pause', 'request': _b64(SetBool.Request(data=True))},
            'parameter': {'name': '/sim.metrics_rate', 'value': 20, 'bad': 'fast'}}
    proc, url, lines = _start(tmp_path)
    try:
        r = subprocess.run(['node', str(SCRIPT), json.dumps({'url': url, **args})],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, 'FOXGLOVE_NPM': str(npm_client)})
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.communicate(timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads(r.stdout)
    assert got['subprotocol'] == 'foxglove.websocket.v1'
    assert {'clientPublish', 'services', 'parameters', 'time'} <= set(got['capabilities'])
    assert {'/sim/reset', '/sim/pause', '/sim/step'} <= set(got['services'])
    # the client's message came back on the run's own channel of that topic: it is in the run
    back = messages.deserialize(base64.b64decode(got['message']), 'sensor_msgs/msg/JointState')
    assert list(back.name) == ['FL_hip_joint'] and list(back.position) == [0.1]
    response = messages.deserialize(base64.b64decode(got['response']),
                                    'std_srvs/srv/SetBool_Response')
    assert response.success, response
    assert got['got'] == [{'name': '/sim.metrics_rate', 'value': 10.0, 'type': 'float64'}]
    assert got['set'] == [{'name': '/sim.metrics_rate', 'value': 20.0, 'type': 'float64'}]
    assert got['bad'] == got['set']  # the node's own type check refused 'fast'
    refusals = [s for s in got['status'] if s.startswith('live:')]
    assert len(refusals) == 2, got['status']
    assert refusals[0].startswith("live: client channel '/no/such/topic' refused: the run has no")
    assert refusals[1].startswith("live: parameter '/sim.metrics_rate' not set to 'fast': ")
    assert sum('robozoo: live:' in x and 'refused' in x for x in lines) == 1
