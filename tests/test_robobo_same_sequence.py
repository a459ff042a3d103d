"""The same command sequence through robobo_api's ROS services and through robobopy (unmodified,
over the Remote Access Protocol at real time) gives the same motion and readings (issue 12
part 4), compared on the simulator's ground truth."""
from __future__ import annotations

import math
import time

import pytest

pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')
from robobopy.Robobo import Robobo  # noqa: E402
from robobopy.utils.IR import IR  # noqa: E402
from robobopy.utils.Wheels import Wheels  # noqa: E402

from robobo_api.global_test_judge import yaw_of  # noqa: E402
from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import guarded_connect  # noqa: E402


SEQUENCE_POSE = (-0.1, -0.2, 0.3)
# exact IR: the ROS run and the robobopy run read the IRs at different sim times, which the range
# noise (robobo_description README, "IR noise") would tell apart; the claim is about the commands
EXACT_IR = {'ir_noise_stddev': 0.0}


def ros_sequence() -> dict:
    """moveWheels(l 40, r 20, 2 s), pan to 150, tilt to 90 through the ROS services, as fast as
    the simulation runs; the readings after each settled."""
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario
    from zoo_runtime.interfaces.robobo_msgs.srv import MovePanTilt, MoveWheels
    from zoo_runtime.interfaces.std_msgs.msg import Int8, Int16, Int32
    sc = load_scenario('robobo_remote')
    sc.nodes = [n for n in sc.nodes if n.executable == 'robobo_api']
    x, y, yaw = SEQUENCE_POSE
    sc.robots[0].pose = [x, y, 0.03225, 0, 0, yaw]
    sc.robots[0].args.update(EXACT_IR)
    with ScenarioRun(sc, real_time_factor=0.0) as run:
        api = run.nodes['robobo_api']
        run.run(0.5)
        api.create_client(MoveWheels, '/robobo/moveWheels').call_async(MoveWheels.Request(
            lspeed=Int8(data=40), rspeed=Int8(data=20), time=Int32(data=2000)))
        run.run(2.6)
        pan_tilt = api.create_client(MovePanTilt, '/robobo/movePanTilt')
        for pan, tilt in ((150, 70), (150, 90)):
            future = pan_tilt.call_async(MovePanTilt.Request(
                panpos=Int16(data=pan), panspeed=Int8(data=40), tiltpos=Int16(data=tilt),
                tiltspeed=Int8(data=40)))
            deadline = run.sim_time + 30.0
            while not future.done() and run.sim_time < deadline:
                run.run(0.05)
            assert future.done(), 'movePanTilt did not return'
        run.run(0.6)
        return readings(run, api)


def readings(run, api) -> dict:
    pos, quat = run.physics.base_pose('robobo')
    left, right = api.wheel_degrees()
    return {'x': float(pos[0]), 'y': float(pos[1]), 'yaw': math.degrees(yaw_of(quat)),
            'wheel_l': left, 'wheel_r': right, 'pan': api.degrees(2), 'tilt': api.degrees(3),
            'front_c': api.irs['front_c'].range, 'back_c': api.irs['back_c'].range}


def test_same_sequence_through_ros_and_robobopy():
    ros = ros_sequence()
    robot_id = free_robot_id()
    with ServedRun(robot_id, pose=SEQUENCE_POSE, sim_server=False,
                   robot_args=EXACT_IR) as served:
        served.robot_id = robot_id
        rob = Robobo('127.0.0.1', robot_id)
        guarded_connect(rob, f'robobopy robot id {robot_id}')
        rob.moveWheelsByTime(20, 40, 2.0)        # robobopy: right wheel first
        rob.movePanTo(-30, 40)                   # app pan 150
        rob.moveTiltTo(90, 40)
        time.sleep(0.6)
        seen = {'wheel_l': rob.readWheelPosition(Wheels.L),
                'wheel_r': rob.readWheelPosition(Wheels.R),
                'pan': rob.readPanPosition() + 180, 'tilt': rob.readTiltPosition(),
                'front_c': rob.readIRSensor(IR.FrontC), 'back_c': rob.readIRSensor(IR.BackC)}
        rob.disconnect()
        served.stop()
        truth = readings(served.run, served.run.nodes['robobo_api'])
    # same motion on ground truth: each command starts from rest, so the wall-clock gaps between
    # robobopy's commands change nothing but when they happen
    assert math.hypot(truth['x'] - ros['x'], truth['y'] - ros['y']) < 0.003
    assert truth['yaw'] == pytest.approx(ros['yaw'], abs=1.0)
    for key in ('wheel_l', 'wheel_r'):
        assert truth[key] == pytest.approx(ros[key], abs=3)
        assert seen[key] == pytest.approx(ros[key], abs=3)     # what robobopy read
    for key in ('pan', 'tilt'):
        assert truth[key] == pytest.approx(ros[key], abs=1.0)
        assert seen[key] == pytest.approx(ros[key], abs=1.0)
    for key in ('front_c', 'back_c'):
        assert seen[key] == pytest.approx(ros[key], rel=0.03, abs=1)
