"""Robobo: the real robot's ROS interface on the simulator and the thesis' calibration protocols
(issue 12; specs/robobo.md 4, 6, R6, R8-R16, R18, R23), checked on recorded ground truth."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

WS = Path(__file__).resolve().parents[1]
ROBOZOO = WS / 'bin' / 'robozoo'


@pytest.fixture(scope='module')
def calibration(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp('cal') / 'run'
    subprocess.run([str(ROBOZOO), 'run', 'robobo_calibration', '--output', str(out)],
                   check=True, capture_output=True, text=True, timeout=300)
    summary = json.loads((out / 'summary.json').read_text())
    assert (out / 'calibration.png').is_file()
    return summary['metrics']['calibration']


def laws():
    sys.path.insert(0, str(WS / 'src' / 'robobo_api'))
    from robobo_api import calibration_protocols as proto, motor_laws
    return proto, motor_laws


def test_wheel_table_matches_formula(calibration):  # R13, with issue 28's default motor
    """The default wheel motor is first-order (wheel_time_constant 0.1 s, issue 28): the wheels
    start and stop with the same lag, so they turn by the law's angle (R10 exact) without
    outrunning the traction (3.0 m/s^2 at P 90, the friction allows 3.7): every Table 11 case
    within R13's max(0.3 cm, 2 %), measured within 0.1 % below P 90, heading unchanged. At P 90
    the small margin lets a start slip (0.54 % short at 3 s), depending on the exact state the
    robot starts from (robobo_api README, "Measured"): within 1 %."""
    proto, laws_ = laws()
    assert calibration['complete']
    rows = calibration['wheels']
    assert [(r['P'], r['t_s']) for r in rows] == proto.WHEEL_CASES
    for r in rows:
        predicted = proto.wheel_distance_cm(r['P'], r['t_s'], laws_.WHEEL_PRESETS['thesis'])
        assert abs(r['distance_cm'] - predicted) <= max(0.3, 0.02 * predicted), (r, predicted)
        measured = 0.01 if r['P'] == 90 else 0.001
        assert abs(r['distance_cm'] - predicted) <= measured * predicted, (r, predicted)
        assert r['heading_change_deg'] < 0.1


def test_encoders_count_the_laws_angle_once_the_lag_has_run_on():  # R10
    _, laws_ = laws()
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario
    from zoo_runtime.interfaces.robobo_msgs.srv import MoveWheels
    from zoo_runtime.interfaces.std_msgs.msg import Int8, Int32
    with ScenarioRun(load_scenario('robobo_empty')) as run:
        api = run.nodes['robobo_api']
        run.run(0.2)
        fut = api.create_client(MoveWheels, '/robobo/moveWheels').call_async(MoveWheels.Request(
            lspeed=Int8(data=60), rspeed=Int8(data=60), time=Int32(data=3000)))
        run.run(1.5)
        assert fut.result().error.data == 0
        assert all(0 < d < 1263.8 * 0.5 for d in api.wheel_degrees())   # still under way
        run.run(2.5)
        theta = 3 * laws_.wheel_omega(60, 3.0, laws_.WHEEL_PRESETS['thesis']) * 180 / math.pi
        assert theta == pytest.approx(1263.8, abs=0.1)                    # spec 4.1 table
        assert api.wheel_degrees() == pytest.approx((theta, theta), abs=0.5)


def test_the_thesis_instant_speed_step_skids(tmp_path):
    """wheel_time_constant 0 is the thesis' speed step (R12 before issue 28): the base can only
    catch up at the friction limit while the wheels slip (1.37 cm at P 90), and it stops with
    locked wheels that skid, so (90, 1 s) falls 2.02 % short, outside R13 (README, "Straight
    line"); the other cases stay within it. The wheel protocol alone (its first 30 s)."""
    proto, laws_ = laws()
    out = tmp_path / 'run'
    subprocess.run([str(ROBOZOO), 'run', 'robobo_calibration', '--output', str(out),
                    '--duration', '30', '--set', 'robobo_api.wheel_time_constant=0.0'],
                   check=True, capture_output=True, text=True, timeout=300)
    rows = json.loads((out / 'summary.json').read_text())['metrics']['calibration']['wheels']
    assert [(r['P'], r['t_s']) for r in rows] == proto.WHEEL_CASES
    for r in rows:
        predicted = proto.wheel_distance_cm(r['P'], r['t_s'], laws_.WHEEL_PRESETS['thesis'])
        error = abs(r['distance_cm'] - predicted)
        assert r['heading_change_deg'] < 2.0
        if (r['P'], r['t_s']) == (90, 1):
            assert max(0.3, 0.02 * predicted) < error < 0.03 * predicted, r
        else:
            assert error <= max(0.3, 0.02 * predicted), (r, predicted)


@pytest.mark.parametrize('name, tol', [('pan', 0.03), ('tilt', 0.05)])
def test_pan_tilt_tables_match_formula(calibration, name, tol):  # R14, R15: the default law
    proto, laws_ = laws()
    coeffs = (laws_.PAN_PRESETS if name == 'pan' else laws_.TILT_PRESETS)['robot']
    rows = calibration[name]
    assert len(rows) == len(proto.PAN_TILT_SPEEDS) * 2
    for r in rows:
        predicted = laws_.pan_tilt_time(r['degrees'], r['speed'], coeffs)
        assert abs(r['time_s'] - predicted) <= max(0.05, tol * predicted), (r, predicted)


def test_ir_tables_are_monotonic_and_match_ray_geometry(calibration):  # R18
    """Both sensors read what their rays, worked out on paper, give: each meets the box or the
    floor first (robobo_api.ir_rays, with the description's cones)."""
    from robobo_api import ir_rays
    proto, _ = laws()
    for sensor in ('front_c', 'front_l'):
        rows = calibration[f'ir_{sensor}']
        values = [r['value'] for r in rows]
        assert [r['distance_cm'] for r in rows] == list(proto.IR_DISTANCES_CM)
        assert all(a > b for a, b in zip(values, values[1:])), (sensor, values)
        for r in rows:
            predicted = ir_rays.reading(sensor, r['distance_cm'] / 100)
            assert r['value'] == pytest.approx(predicted, rel=0.03), (sensor, r, predicted)


def test_calibration_meets_the_real_robot(calibration):  # issue 28's acceptance
    """Every calibrated cell against the real robot's (the thesis' Tables 10, 12, 13 as issue 28
    gives them): pan within 7 %, tilt within 5 % at speed >= 30 and 10 % below, front_c within
    10 % or 4 counts; the summary lists each cell with its real value."""
    sys.path.insert(0, str(WS / 'src' / 'robobo_api'))
    from robobo_api import real_robot
    listed = calibration['real_robot']
    assert [len(listed[k]) for k in ('pan', 'tilt', 'ir_front_c')] == [12, 12, 7]
    assert listed['cells_within'] == '31 of 31'
    for r in calibration['pan']:
        real = real_robot.real_time_s(real_robot.PAN_S, r['speed'], r['degrees'])
        assert abs(r['time_s'] - real) <= 0.07 * real, (r, real)
    for r in calibration['tilt']:
        real = real_robot.real_time_s(real_robot.TILT_S, r['speed'], r['degrees'])
        assert abs(r['time_s'] - real) <= (0.05 if r['speed'] >= 30 else 0.10) * real, (r, real)
    for r in calibration['ir_front_c']:
        real = real_robot.IR_FRONT_C[r['distance_cm']]
        assert abs(r['value'] - real) <= max(0.10 * real, 4.0), (r, real)
        # measured: within 4 % at every distance with the symmetric cone (robobo_description
        # README, "IR cone"); the thesis' cone read 12-19 % low at 25-35 cm
        assert abs(r['value'] - real) <= 0.04 * real, (r, real)


def test_ros_interface_semantics():  # R6, R8, R10, R16, R23
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario
    from zoo_runtime.interfaces.robobo_msgs.srv import MovePanTilt, MoveWheels
    from zoo_runtime.interfaces.std_msgs.msg import Int8, Int16, Int32
    with ScenarioRun(load_scenario('robobo_multi')) as run:
        api, other = run.nodes['api_robot'], run.nodes['api_robobo2']
        run.run(0.3)
        start_other = run.physics.base_pose('robobo2')[0].copy()
        call = lambda srv, name, req: api.create_client(srv, name).call_async(req)  # noqa: E731
        fut = call(MoveWheels, '/robot/moveWheels', MoveWheels.Request(
            lspeed=Int8(data=60), rspeed=Int8(data=0), time=Int32(data=1000)))
        bad = call(MoveWheels, '/robot/moveWheels', MoveWheels.Request(
            lspeed=Int8(data=60), rspeed=Int8(data=60), time=Int32(data=-5)))
        run.run(1.3)
        assert fut.result().error.data == 0 and bad.result().error.data != 0
        left, right = api.wheel_degrees()
        assert left == pytest.approx(math.degrees(6.671), rel=0.01) and abs(right) < 1  # R10
        assert math.dist(run.physics.base_pose('robobo2')[0], start_other) < 1e-3  # R8/R23
        assert other.wheel_degrees() == pytest.approx((0, 0), abs=0.5)
        fut = call(MovePanTilt, '/robot/movePanTilt', MovePanTilt.Request(
            panpos=Int16(data=5), panspeed=Int8(data=50), tiltpos=Int16(data=120),
            tiltspeed=Int8(data=50)))
        run.run(0.2)
        assert fut.result().error.data != 0  # R6: both refused, joints where they were
        assert api.degrees(2) == pytest.approx(180, abs=0.5)
        assert api.degrees(3) == pytest.approx(70, abs=1.0)  # R5: held under gravity
