"""The Robobo Remote Access Protocol server (issue 12 part 4): robobopy 1.5.0 and robobosim 1.5.1
from PyPI, unmodified, drive the simulated robot over ws://127.0.0.1 while the scenario runs at
real time in a background thread; motion is checked on the simulator's ground truth."""
from __future__ import annotations

import json
import math
import time

import pytest

robobopy = pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')

from robobo_api.global_test_judge import yaw_of  # noqa: E402
from robobo_api.motor_laws import wheel_angle_deg  # noqa: E402
from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import (FACING_BALL, R, ServedTruth, connect,  # noqa: E402
                            guarded_connect, robobopy_drives_and_reads)


@pytest.fixture(scope='module')
def served():
    robot_id = free_robot_id()
    with ServedRun(robot_id, pose=FACING_BALL) as s:
        s.robot_id = robot_id
        yield s


def ground_truth(served) -> tuple[float, float, float]:
    pos, quat = served.run.physics.base_pose('robobo')
    return float(pos[0]), float(pos[1]), yaw_of(quat)


def test_robobopy_commands_and_readings(served):
    """robobo_clients.robobopy_drives_and_reads, also run with robobo_remote under real ROS
    (tests/ros/test_real_clients_under_ros.py)."""
    robobopy_drives_and_reads(served.robot_id, ServedTruth(served))


def raw_client(served):
    import websocket
    ws = websocket.create_connection(f'ws://127.0.0.1:{40404 + 10 * served.robot_id}',
                                     timeout=5)
    ws.send('PASSWORD: ')
    return ws


def wait_for(ws, name: str, timeout: float = 5.0) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        status = json.loads(ws.recv())
        if status['name'] == name:
            return status
    raise AssertionError(f'no {name} status within {timeout} s')


def command(name: str, **params) -> str:
    return json.dumps({'name': name, 'parameters': {k: str(v) for k, v in params.items()},
                       'id': '1'})


@pytest.mark.parametrize('frame, says', [
    ('not json at all', 'not JSON'),
    ('{"name": 5}', 'expected'),
    (command('FLY', height=3), "unknown command 'FLY'"),
    (command('MOVE', lspeed='fast', rspeed=10, time=1), 'lspeed must be a number'),
    (command('MOVE', lspeed=10, rspeed=10, time='nan'), 'time must be finite'),
    (command('MOVE', lspeed=10, rspeed=10, time=-1), 'time must be > 0'),
    (command('MOVEPAN', pos=400, speed=20), 'outside 11..344'),
    (command('MOVETILT', pos=2, speed=20), 'outside 5..110'),
    (command('PLAY-NOTE', index=57, time=500), 'not simulated'),
    (command('SET-EMOTION', emotion='bored'), 'refused by the robot'),
    (command('SET-LEDCOLOR', led='all'), "missing parameter 'color'"),
])
def test_bad_input_gets_a_clear_error(served, frame, says):
    ws = raw_client(served)
    try:
        ws.send(frame)
        assert says in wait_for(ws, 'ERROR')['value']['message']
    finally:
        ws.close()


def test_refused_blocking_commands_release_the_caller(served):
    ws = raw_client(served)
    try:
        ws.send(command('MOVE-BLOCKING', lspeed=10, rspeed=10, time=-2, blockid=41))
        assert wait_for(ws, 'UNLOCK-MOVE')['value']['blockid'] == '41'
        ws.send(command('MOVETILT-BLOCKING', pos=300, speed=10, blockid=42))
        assert wait_for(ws, 'UNLOCK-TILT')['value']['blockid'] == '42'
    finally:
        ws.close()


def test_server_survives_garbage_then_obeys(served):
    ws = raw_client(served)
    for frame in (b'\xff\x00\xfe', '{', '[]', '{"name": "MOVE", "parameters": 7}', 'x' * 5000):
        ws.send(frame)
    ws.shutdown()                               # and vanishes without a close handshake
    rob = connect(served.robot_id)
    x0, y0, _ = ground_truth(served)
    rob.moveWheelsByTime(500, 500, 0.5)         # speeds beyond 100: clamped, as the API does
    time.sleep(0.3)
    x1, y1, _ = ground_truth(served)
    expected = math.radians(wheel_angle_deg(100, 0.5)) * R
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(expected, rel=0.08)
    # a client that disconnects mid-move: the real app finishes the move (robobo-app-ios
    # closes only the socket), and the server takes the next client
    rob.moveWheelsByTime(-20, -20, 1.0, wait=False)
    rob.disconnect()
    time.sleep(0.4)
    x2, y2, _ = ground_truth(served)
    time.sleep(0.4)
    x3, y3, _ = ground_truth(served)
    assert math.hypot(x3 - x2, y3 - y2) > 0.02  # still backing up
    rob = connect(served.robot_id)
    rob.stopMotors()
    rob.disconnect()


def test_robobosim_locations_and_reset(served):
    if not served.sim_served:
        pytest.skip('port 50505 (robobosim has no port argument) is taken on this machine')
    from robobosim.RoboboSim import RoboboSim
    sim = RoboboSim('127.0.0.1')
    guarded_connect(sim, 'robobosim')
    try:
        time.sleep(0.5)
        x, y, yaw = ground_truth(served)
        loc = sim.getRobotLocation(0)
        assert loc['position']['x'] == pytest.approx(x * 1000, abs=1.0)   # mm, Unity axes
        assert loc['position']['z'] == pytest.approx(y * 1000, abs=1.0)
        assert (loc['rotation']['y'] + math.degrees(yaw)) % 360 == pytest.approx(0, abs=0.5) or \
            (loc['rotation']['y'] + math.degrees(yaw)) % 360 == pytest.approx(360, abs=0.5)
        ball = sim.getObjectLocation('green_ball')['position']
        assert (ball['x'], ball['z']) == pytest.approx((250, 250))
        pos = dict(loc['position'])
        pos['x'] += 50
        sim.setRobotLocation(0, pos)
        time.sleep(0.5)
        assert ground_truth(served)[0] == pytest.approx(x + 0.05, abs=0.003)
        sim.resetSimulation()
        time.sleep(1.0)
        x0, y0, yaw0 = ground_truth(served)
        assert (x0, y0, yaw0) == pytest.approx(FACING_BALL, abs=2e-3)
        assert sim.getRobotLocation(0)['position']['x'] == pytest.approx(x0 * 1000, abs=1.0)
    finally:
        sim.disconnect()

