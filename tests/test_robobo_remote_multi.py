"""Multi-robot over the Remote Access Protocol (issue 12, R23: "three Robobos, independent topics
and ports"): ``robobo_remote_multi`` serves three robots, one port each (robobopy robot id i on
40404 + 10 i; robobopy has no port argument), and three unmodified robobopy 1.5.0 clients drive
them at the same time, each differently:

- robot 0 drives straight (moveWheelsByTime(30, 30, 1.5)),
- robot 1 turns in place (moveWheelsByTime(-20, 20, 1.5): right wheel back, left forward),
- robot 2 keeps its base still and pans (movePanTo(-45, 50)); it faces the east wall 8 cm
  away, so its Front-C reads far more than the others' (open floor ahead).

Judged on the simulator's ground truth (base poses, joint angles, each robot's own IR plug-ins):
each robot did what its own client asked and nothing else, and every client's readings
(readWheelPosition, readIRSensor, readPanPosition, readTiltPosition) are its own robot's. With
port 50505 free, robobosim's getRobotLocation(i) is checked against robot i too.

Timing: the scenario is paced at real time and every check waits on sim time, not wall time, so a
busy machine that cannot keep up stretches the run but changes no result. Margins are generous
(distances 4 %, turn 6 %, 'still' = < 2 mm and < 0.5 deg, encoders 2 % / 2 deg, pan/tilt 1 deg,
IR +-1 of the ROS value). The cameras are off (``camera_rate: 0``): the checks need no image, and
three 5 Hz software-rendered cameras hold the scenario at ~2x real time on a 2-core machine
(16x without). 4-6 s of wall time, also with both cores loaded by other work.
"""
from __future__ import annotations

import math
import threading
import time

import pytest

pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')
from robobopy.Robobo import Robobo  # noqa: E402
from robobopy.utils.IR import IR  # noqa: E402
from robobopy.utils.Wheels import Wheels  # noqa: E402

from robobo_api.global_test_judge import yaw_of  # noqa: E402
from robobo_api.motor_laws import wheel_angle_deg  # noqa: E402
from zoo_bringup.robobo_served_run import ServedRun, free_robot_ids  # noqa: E402
from robobo_clients import WALL_LIMIT_S, guarded_connect  # noqa: E402

R, TRACK = 0.03225, 0.1456          # wheel radius, wheel separation (spec R25)
ROBOTS = ('robobo0', 'robobo1', 'robobo2')


def pose(served, robot: str) -> tuple[float, float, float]:
    pos, quat = served.run.physics.base_pose(robot)
    return float(pos[0]), float(pos[1]), yaw_of(quat)


def wait_sim(served, seconds: float) -> None:
    """Sleep until the simulation has advanced ``seconds`` of sim time."""
    until, deadline = served.run.sim_time + seconds, time.time() + WALL_LIMIT_S
    while served.run.sim_time < until:
        assert served.error is None, served.error
        assert time.time() < deadline, f'sim time stuck at {served.run.sim_time:.2f} s'
        time.sleep(0.02)


def connect(robot_id: int) -> Robobo:
    rob = Robobo('127.0.0.1', robot_id)
    guarded_connect(rob, f'robobopy robot id {robot_id}')
    deadline = time.time() + WALL_LIMIT_S
    while not isinstance(rob.readAllIRSensor(), dict):   # the first IRS status
        assert time.time() < deadline, f'no IRS status from robot id {robot_id}'
        time.sleep(0.05)
    return rob


def all_at_once(jobs: dict[str, callable]) -> dict:
    """Run the jobs in daemon threads started together; their results (a job that raises or
    hangs fails the test instead of hanging it)."""
    barrier, results, errors = threading.Barrier(len(jobs)), {}, {}

    def run(name, job):
        try:
            barrier.wait(timeout=WALL_LIMIT_S)
            results[name] = job()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors[name] = exc

    threads = [threading.Thread(target=run, args=item, daemon=True) for item in jobs.items()]
    for t in threads:
        t.start()
    deadline = time.time() + WALL_LIMIT_S
    for t in threads:
        t.join(max(0.0, deadline - time.time()))
    assert not errors, errors
    assert len(results) == len(jobs), f'hung: {sorted(set(jobs) - set(results))}'
    return results


def angle_diff_deg(a: float, b: float) -> float:
    return (math.degrees(a - b) + 180.0) % 360.0 - 180.0


def test_three_robots_on_three_ports_are_independent():
    try:
        ids = free_robot_ids(3)
    except OSError as exc:
        pytest.skip(f'robobopy ports: {exc}')
    cameras_off = {f'api_{r}': {'camera_rate': 0.0} for r in ROBOTS}
    # exact IR: a client's last IRS status and the API's last reading are different samples,
    # which the range noise (robobo_description README, "IR noise") would tell apart
    with ServedRun(ids, scenario='robobo_remote_multi', node_parameters=cameras_off,
                   robot_args={'ir_noise_stddev': 0.0}) as served:
        assert served.robot_ids == dict(zip(ROBOTS, ids))
        apis = {r: served.run.nodes[f'api_{r}'] for r in ROBOTS}
        clients = all_at_once({r: (lambda i=i: connect(i)) for r, i in zip(ROBOTS, ids)})
        sim = None
        if served.sim_served:
            from robobosim.RoboboSim import RoboboSim
            sim = RoboboSim('127.0.0.1')
            guarded_connect(sim, 'robobosim')
        start = {r: pose(served, r) for r in ROBOTS}

        def timed(robot: str, command):
            def job():
                t0 = time.time()
                command(clients[robot])                          # blocking robobopy calls
                return t0, time.time()
            return job

        spans = all_at_once({
            'robobo0': timed('robobo0', lambda c: c.moveWheelsByTime(30, 30, 1.5)),
            'robobo1': timed('robobo1', lambda c: c.moveWheelsByTime(-20, 20, 1.5)),
            'robobo2': timed('robobo2', lambda c: c.movePanTo(-45, 50))})
        # all three commands were in flight at once
        assert max(t0 for t0, _ in spans.values()) < min(t1 for _, t1 in spans.values())
        wait_sim(served, 0.8)        # the robots at rest, a WHEELS/PAN status (0.5 s) after it

        seen = {r: {'wheel_l': c.readWheelPosition(Wheels.L),
                    'wheel_r': c.readWheelPosition(Wheels.R),
                    'pan': c.readPanPosition() + 180, 'tilt': c.readTiltPosition(),
                    'irs': {ir: c.readIRSensor(ir) for ir in (IR.FrontC, IR.FrontLL, IR.BackC)}}
                for r, c in clients.items()}
        located = {}
        if sim is not None:
            located = {r: sim.getRobotLocation(i)['position'] for i, r in enumerate(ROBOTS)}
            sim.disconnect()
        for c in clients.values():
            c.disconnect()
        served.stop()

        end = {r: pose(served, r) for r in ROBOTS}
        wheels = {r: apis[r].wheel_degrees() for r in ROBOTS}        # (left, right)
        pan_tilt = {r: (apis[r].degrees(2), apis[r].degrees(3)) for r in ROBOTS}
        irs = {r: {k: v.range for k, v in apis[r].irs.items()} for r in ROBOTS}

    moved = {r: math.hypot(end[r][0] - start[r][0], end[r][1] - start[r][1]) for r in ROBOTS}
    turned = {r: angle_diff_deg(end[r][2], start[r][2]) for r in ROBOTS}
    straight, turn = wheel_angle_deg(30, 1.5), wheel_angle_deg(20, 1.5)   # spec 4.1, degrees

    # robot 0: straight ahead, nothing else
    assert moved['robobo0'] == pytest.approx(math.radians(straight) * R, rel=0.04)
    assert abs(turned['robobo0']) < 1.0
    assert wheels['robobo0'] == pytest.approx((straight, straight), rel=0.02)
    # robot 1: in place, clockwise (R25: yaw = 2 theta r / track)
    assert moved['robobo1'] < 0.01
    assert turned['robobo1'] == pytest.approx(-math.degrees(2 * math.radians(turn) * R / TRACK),
                                              rel=0.06)
    assert wheels['robobo1'] == pytest.approx((turn, -turn), rel=0.02)
    # robot 2: base still, encoders untouched, only its pan moved
    assert moved['robobo2'] < 0.002 and abs(turned['robobo2']) < 0.5
    assert wheels['robobo2'] == pytest.approx((0, 0), abs=2.0)
    assert pan_tilt['robobo2'] == pytest.approx((135, 70), abs=1.0)
    for r in ('robobo0', 'robobo1'):
        assert pan_tilt[r] == pytest.approx((180, 70), abs=1.0), r

    # what each client read is its own robot's
    for r in ROBOTS:
        got = seen[r]
        assert (got['wheel_l'], got['wheel_r']) == pytest.approx(wheels[r], abs=2.0), r
        assert (got['pan'], got['tilt']) == pytest.approx(pan_tilt[r], abs=1.0), r
        for ir, sensor in ((IR.FrontC, 'front_c'), (IR.FrontLL, 'front_ll'),
                           (IR.BackC, 'back_c')):
            assert got['irs'][ir] == pytest.approx(irs[r][sensor], abs=1.0), (r, sensor)
    # the readings tell the robots apart: only robot 2 faces a wall
    assert irs['robobo2']['front_c'] > 3 * max(irs['robobo0']['front_c'],
                                               irs['robobo1']['front_c'])
    # robobosim: robot id i is the i-th robot (Unity axes, mm: x = x, z = y)
    for r, loc in located.items():
        assert (loc['x'], loc['z']) == pytest.approx((end[r][0] * 1000, end[r][1] * 1000),
                                                     abs=2.0), r
