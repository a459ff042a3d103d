"""The websocket server parses frames in its own thread (issue 25): the inbox holds parsed frames
or the parser's refusal, a frame over the websocket limit comes as one FrameTooBig naming its
size, and take() hands the node a bounded batch. No ROS; websocket-client (robobopy's library) as
the client."""
import threading
import time

import pytest

from robobo_api import rrap_codec as rrap
from robobo_api.ws_server import (CONNECT, DISCONNECT, MAX_FRAME, MESSAGE, FrameTooBig,
                                  WsServer)

websocket = pytest.importorskip('websocket')


@pytest.fixture
def server():
    import socket
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    parsed_in = []

    def parse(raw):
        parsed_in.append(threading.current_thread())
        return rrap.parse_frame(raw)
    srv = WsServer('127.0.0.1', port, 'test', parse=parse)
    srv.start()
    srv.parsed_in = parsed_in
    yield srv
    srv.stop()


def events(srv, n, timeout=10.0):
    out, deadline = [], time.time() + timeout
    while len(out) < n and time.time() < deadline:
        out += srv.take(limit=n - len(out))
        time.sleep(0.01)
    return out


def test_frames_arrive_parsed_from_the_server_thread(server):
    ws = websocket.create_connection(f'ws://127.0.0.1:{server.port}', timeout=5)
    ws.send('PASSWORD: ')
    ws.send('{"name":"MOVE","parameters":{"lspeed":"10","rspeed":"10","time":"1"}, "id":"3"}')
    ws.send('x' * (rrap.MAX_COMMAND + 1))
    ws.send_binary(b'\xff\xfe')
    local = '%s:%d' % ws.sock.getsockname()[:2]
    ws.close()
    got = events(server, 6)
    assert got[0] == (CONNECT, got[0][1], local)
    assert got[1][2] == rrap.Password('')
    assert got[2][2] == rrap.Command('MOVE', {'lspeed': '10', 'rspeed': '10', 'time': '1'}, '3')
    assert isinstance(got[3][2], rrap.ProtocolError)
    assert f'{rrap.MAX_COMMAND + 1} bytes' in str(got[3][2])
    assert 'not UTF-8' in str(got[4][2])
    assert got[5][0] == DISCONNECT and [e[0] for e in got[1:5]] == [MESSAGE] * 4
    assert set(server.parsed_in) == {server._thread}


def test_a_frame_over_the_websocket_limit_is_one_refusal_naming_its_size(server):
    ws = websocket.create_connection(f'ws://127.0.0.1:{server.port}', timeout=5)
    try:
        ws.send('x' * (MAX_FRAME + 10))
    except (OSError, websocket.WebSocketException):
        pass
    ws.close()            # (one that does not answer the close is dropped after close_timeout)
    got = events(server, 3)
    assert [e[0] for e in got] == [CONNECT, MESSAGE, DISCONNECT]
    assert isinstance(got[1][2], FrameTooBig)
    assert f'{MAX_FRAME + 10} bytes' in str(got[1][2]) and 'connection closed' in str(got[1][2])
    assert server.parsed_in == []


def test_take_is_bounded(server):
    ws = websocket.create_connection(f'ws://127.0.0.1:{server.port}', timeout=5)
    for i in range(30):
        ws.send('{"name": "RESET-WHEELS"}')
    ws.close()
    time.sleep(0.5)
    assert len(server.take(limit=10)) == 10
    assert len(events(server, 22)) == 22
