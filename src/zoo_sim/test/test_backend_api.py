"""The backend's contract: commands (sanitised), state readout, reset, determinism, several robots,
set_pose, contacts/IMU and the robot summary."""
from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import DATA, urdf_text
from zoo_sim import SimConfigError
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec
from zoo_sim.sdf_world import load_world

WALKER = urdf_text('walker.urdf')


@pytest.fixture(scope='module')
def empty_world():
    return load_world(DATA.parent.parent.parent.parent / 'worlds' / 'empty.sdf')


def walker(empty_world, *names: str, **kw) -> MujocoPhysics:
    specs = [RobotSpec(n, urdf=WALKER, pose=(2.0 * i, 0, 0.12, 0, 0, 0), **kw)
             for i, n in enumerate(names or ('w',))]
    return MujocoPhysics.create(empty_world, specs)


def stream(ph: MujocoPhysics, robot: str, ticks: int, seed: int) -> np.ndarray:
    """Drive both arm joints with random velocity/effort commands every 5 steps; record state."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(ticks):
        if k % 7 == 3:
            ph.command(robot, 1, 'effort', float(rng.uniform(-2, 2)))
        else:
            ph.commands(robot, np.array([0, 1]), 'velocity', rng.uniform(-3, 3, 2))
        ph.advance(5)
        out.append(np.concatenate(ph.joint_state(robot) + ph.base_pose(robot)))
    return np.array(out)


def test_reset_restores_the_initial_state_bitwise(empty_world):
    ph = walker(empty_world)
    first = stream(ph, 'w', 200, seed=1)
    ph.reset()
    second = stream(ph, 'w', 200, seed=1)
    assert first.tobytes() == second.tobytes()


def test_two_runs_of_the_same_scenario_are_bitwise_identical(empty_world):
    a = stream(walker(empty_world), 'w', 150, seed=7)
    b = stream(walker(empty_world), 'w', 150, seed=7)
    assert a.tobytes() == b.tobytes()
    c = stream(walker(empty_world), 'w', 150, seed=8)
    assert a.tobytes() != c.tobytes()  # the stream does depend on the commands


def snapshot(ph: MujocoPhysics, robot: str) -> bytes:
    """State, servo references and every sensor output the node publishes, as bytes."""
    parts = [*ph.joint_state(robot), *ph.imu(robot), *ph.contacts(robot), ph.data.act]
    return b''.join(np.asarray(p, dtype=float).tobytes() for p in parts)


def test_how_steps_are_split_into_calls_does_not_change_the_result(empty_world):
    """advance(n) = n x advance(1): the motors' slip correction runs at fixed steps of sim time,
    its target integral is summed in integers, and sensors skipped inside a call are evaluated
    on its last step. (Within v n h of a joint stop the motor's stop cap depends on the call's
    length n: the joints here stay clear of their stops.)"""
    def run(chunks: list[int]) -> list[bytes]:
        ph = walker(empty_world)
        ph.command('w', 0, 'velocity', 1.5)   # the arm swings up, its weight loading both
        ph.command('w', 1, 'velocity', -1.0)  # motors, so their slip correction is at work
        out, done = [], 0
        for n in chunks:
            ph.advance(n)
            done += n
            if done % 10 == 0:
                out.append(snapshot(ph, 'w'))
        return out
    whole = run([10] * 80)
    assert whole == run([1] * 800)
    assert whole == run([3, 7] * 80)


def test_unsafe_commands_never_reach_physics(empty_world):
    ph = walker(empty_world)
    r = ph.robots['w']
    ph.command('w', 0, 'velocity', 1.5)
    assert not ph.command('w', 0, 'velocity', math.nan)
    assert not ph.command('w', 0, 'velocity', math.inf)
    assert r.target[0] == 1.5  # the last good command holds
    assert ph.command('w', 0, 'velocity', 40.0)  # limit 4 rad/s
    assert r.target[0] == 4.0
    assert ph.command('w', 1, 'effort', -10.0)  # limit 3 N m
    assert r.motors.commanded('effort')[1] == -3.0
    n = ph.commands('w', np.array([0, 1]), 'velocity', np.array([np.nan, -100.0]))
    assert n == 1 and r.target[1] == -6.0 and r.target[0] == 4.0
    ph.advance(50)
    assert np.isfinite(ph.data.qpos).all() and abs(ph.joint_state('w')[1][0]) <= 4.0 + 1e-6
    assert (r.sanitizer.rejected, r.sanitizer.clamped) == (3, 3)
    msg = r.sanitizer.warning(0)
    assert msg.startswith('w: unsafe joint commands') and 'shoulder velocity nan rejected' in msg
    ph.command('w', 0, 'velocity', math.nan)
    assert r.sanitizer.warning(500_000_000) is None  # throttled: at most one per second
    assert 'rejected' in r.sanitizer.warning(1_000_000_000)


def test_effort_command_switches_the_joint_to_a_torque_input(empty_world):
    ph = walker(empty_world)
    ph.command('w', 1, 'effort', 0.5)
    ph.advance(1)
    assert ph.joint_state('w')[2][1] == pytest.approx(0.5)
    ph.command('w', 1, 'velocity', 0.0)
    ph.advance(200)
    assert abs(ph.joint_state('w')[1][1]) < 0.01  # back to a velocity motor holding still


def test_robot_at_rest_feels_gravity_in_its_feet_and_imu(empty_world):
    ph = walker(empty_world)
    ph.advance(1500)
    touching, force = ph.contacts('w')
    assert ph.robots['w'].contact_links == ['left_foot', 'right_foot']
    assert touching.all()
    weight = 3.1 * 9.80665
    assert force[:, 2].sum() == pytest.approx(weight, rel=0.02)
    quat, gyro, acc = ph.imu('w')
    assert acc == pytest.approx([0, 0, 9.80665], abs=0.05)  # proper acceleration at rest
    assert np.abs(gyro).max() < 1e-3
    lin, ang = ph.base_twist('w')
    assert np.abs(lin).max() < 1e-3 and np.abs(ang).max() < 1e-3


def test_lifted_robot_reports_no_contact(empty_world):
    ph = walker(empty_world)
    ph.set_pose('w', [0, 0, 1.0], [1, 0, 0, 0])
    touching, force = ph.contacts('w')
    assert not touching.any() and np.abs(force).max() == 0.0
    ph.advance(100)
    lin, _ = ph.base_twist('w')
    assert lin[2] == pytest.approx(-9.80665 * 0.1, rel=0.01)  # falling freely


def test_several_robots_share_a_world_without_name_clashes(empty_world):
    ph = walker(empty_world, 'a', 'b')
    assert ph.robots['a'].joints == ph.robots['b'].joints == ['shoulder', 'elbow']
    assert ph.model.joint('a/shoulder').id != ph.model.joint('b/shoulder').id
    ph.command('a', 0, 'velocity', 1.0)
    ph.advance(300)
    assert ph.joint_state('a')[0][0] > 0.2 and abs(ph.joint_state('b')[0][0]) < 1e-3
    assert ph.base_pose('b')[0][0] == pytest.approx(2.0, abs=1e-3)


def test_a_robot_name_used_twice_is_an_error(empty_world):
    with pytest.raises(SimConfigError, match="robot name 'a' is used twice"):
        walker(empty_world, 'a', 'a')
    with pytest.raises(SimConfigError, match="robot name 'ground_plane' is used twice"):
        walker(empty_world, 'ground_plane')
    with pytest.raises(SimConfigError, match='robot name .* ROS namespace'):
        walker(empty_world, '2bad')


def test_set_pose_teleports_and_reset_undoes_it(empty_world):
    ph = walker(empty_world)
    start = ph.base_pose('w')[0]
    ph.set_pose('w', [1, 2, 0.5], [0, 0, 0, 1])
    pos, quat = ph.base_pose('w')
    assert pos == pytest.approx([1, 2, 0.5]) and abs(quat[3]) == pytest.approx(1.0)
    ph.reset()
    assert ph.base_pose('w')[0] == pytest.approx(start)
    with pytest.raises(SimConfigError, match='static'):
        ph.set_pose('ground_plane', [0, 0, 0], [1, 0, 0, 0])
    with pytest.raises(SimConfigError, match="no robot or world model 'nobody'"):
        ph.set_pose('nobody', [0, 0, 0], [1, 0, 0, 0])
    with pytest.raises(SimConfigError, match='non-zero quaternion'):
        ph.set_pose('w', [0, 0, 0], [0, 0, 0, 0])


def test_metrics_observer_reports_drift_tilt_and_falls(empty_world):
    """zoo_sim.metrics, sampled through the robot contract as the node samples it."""
    from zoo_sim.metrics import RobotMetrics
    ph = walker(empty_world)
    observer = RobotMetrics(ph, 'w')
    for _ in range(50):
        ph.advance(20)
        observer.sample(ph.sim_ns * 1e-9)
    s = observer.summary()
    assert not s['fell'] and s['drift_xy'] < 1e-3 and s['max_tilt_deg'] < 1.0
    assert 0 < s['max_penetration'] < 0.005
    ph.set_pose('w', [0, 0, 0.3], [math.cos(0.5), math.sin(0.5), 0, 0])  # rolled 57 degrees
    ph.advance(100)
    observer.sample(ph.sim_ns * 1e-9)
    s = observer.summary()
    assert s['fell'] and s['max_tilt_deg'] > 45
    assert set(s) >= {'base_start', 'base_end', 'drift_xy', 'drift_xyz', 'max_tilt_deg',
                      'min_base_height', 'max_penetration', 'fell'}



def test_a_robot_may_set_its_own_fall_tilt(empty_world):
    """A snake pitches its head and rolls by design: its scenarios set fall_tilt_deg 180 (never by
    tilt): the same 57-degree roll is then no fall; at fall_tilt_deg 30 it is one."""
    from zoo_sim.metrics import RobotMetrics
    for limit, fell in ((180.0, False), (30.0, True)):
        ph = walker(empty_world, fall_tilt_deg=limit)
        observer = RobotMetrics(ph, 'w')
        ph.set_pose('w', [0, 0, 0.3], [math.cos(0.5), math.sin(0.5), 0, 0])
        ph.advance(10)
        observer.sample(ph.sim_ns * 1e-9)
        assert observer.summary()['fell'] is fell

def test_pause_freezes_physics_and_step_runs_anyway(empty_world):
    ph = walker(empty_world)
    ph.command('w', 0, 'velocity', 1.0)
    ph.paused = True
    ph.advance(100)
    assert ph.sim_ns == 0 and ph.joint_state('w')[0][0] == 0.0
    ph.step(100)
    assert ph.sim_ns == 100 * ph.step_ns and ph.joint_state('w')[0][0] > 0.05


def test_initial_positions_must_name_joints(empty_world):
    with pytest.raises(SimConfigError, match="unknown joint 'knee'"):
        walker(empty_world, initial_positions={'knee': 1.0})
    ph = walker(empty_world, initial_positions={'elbow': 0.5})
    assert ph.joint_state('w')[0][1] == 0.5
