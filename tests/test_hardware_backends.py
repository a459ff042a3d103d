"""Issue 26: the Dynamixel bus as a backend of the robot contract. ``snake_linear_progression``
with ``--set sim.backend=dynamixel`` runs the same gait node, topics, metrics and recording
against the pty bus emulator (real dynamixel-sdk on a pseudo-terminal, in the run's process) as
its MuJoCo run; what a bus cannot measure (the base pose) is null, never invented."""
import json
import math

import numpy as np
import pytest

from dynamixel_bridge.emulator.plants import NO_LOAD_SPEED_RAD_S
from zoo_bringup.cli import main
from zoo_runtime.bag import read_bag

SCENARIO = 'snake_linear_progression'
DURATION = '3.5'
TOPICS = ['/snake/joint_targets', '/snake/joint_states']
GOAL_PERIOD_S = 0.1  # the gait's goals (10 Hz)
BUS_RATE_HZ = 50.0  # dynamixel.rate's default
BASE_FIELDS = ('base_start', 'base_end', 'drift_xy', 'drift_xyz', 'max_tilt_deg',
               'max_tilt_change_deg', 'yaw_change_deg', 'min_base_height', 'fell')


def _run(tmp_path, name: str, *sets: str):
    out = tmp_path / name
    args = ['run', SCENARIO, '--duration', DURATION, '--record', *TOPICS, '--output', str(out),
            '--quiet']
    for s in sets:
        args += ['--set', s]
    assert main(args) == 0
    return json.loads((out / 'summary.json').read_text()), read_bag(out / 'bag', TOPICS)


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('hardware_backends')
    return {'mujoco': _run(tmp, 'mujoco'),
            'dynamixel': _run(tmp, 'dynamixel', 'sim.backend=dynamixel')}


def test_snake_on_the_dynamixel_backend(runs):
    (sim, _), (bus, bag) = runs['mujoco'], runs['dynamixel']
    # the same summary, field for field
    assert bus.keys() == sim.keys()
    assert bus['robots'].keys() == sim['robots'].keys() == {'snake'}
    robot, ref = bus['robots']['snake'], sim['robots']['snake']
    assert robot.keys() == ref.keys()
    assert robot['joints'] == ref['joints'] == 16
    assert all(robot[k] is None for k in BASE_FIELDS), robot  # not measured by a bus
    assert ref['base_end'] is not None and ref['fell'] is False
    assert robot['commands_rejected'] == robot['commands_clamped'] == 0
    # the same gait node, as many goals sent
    gait, ref_gait = bus['metrics']['gait'], sim['metrics']['gait']
    assert gait.keys() == ref_gait.keys() and gait['goal_updates'] == ref_gait['goal_updates']
    # the bus: the emulator, clean
    dxl = bus['metrics']['sim']
    assert dxl['backend'] == 'dynamixel' and dxl['emulator'] and dxl['port'] == 'emulator'
    # no comm error on an idle machine; a status that a starved host takes after the SDK's
    # 34 ms timeout counts as one (seen at load 7-8 on 2 cores), and a fault must recover
    assert dxl['emulator_errors'] == 0 and dxl['comm_errors'] <= dxl['transactions'] // 200, dxl
    assert dxl['faults'] == dxl['recoveries'] and dxl['faulty_ids'] == [], dxl
    assert not dxl['watchdog_tripped']
    due = BUS_RATE_HZ * float(DURATION)  # cycles run, or skipped when late (a busy host)
    assert dxl['cycles'] + dxl['cycles_skipped'] >= 0.9 * due and dxl['cycles'] >= 0.2 * due, dxl
    # the goals are reached on the bus, as fast as an AX-12 turns
    targets, states = bag['/snake/joint_targets'], bag['/snake/joint_states']
    assert list(states['name']) == list(targets['name'])
    t, q = states.t, np.asarray(states['position'])
    goals = np.asarray(targets['position'])
    assert np.isfinite(q).mean() >= 0.99  # NaN: a servo whose status was lost (a busy host)
    speed = np.abs(np.diff(q, axis=0)) / np.diff(t)[:, None]
    assert np.nanmax(speed) <= 1.5 * NO_LOAD_SPEED_RAD_S, np.nanmax(speed)  # (10 Hz samples)
    moving = np.ptp(goals, axis=0) > 0.1
    assert moving.sum() >= 8 and (np.nanmax(q, axis=0) - np.nanmin(q, axis=0))[moving].min() > 0.5
    error = np.abs(q - ax12_positions(targets.t, goals, t))[:, moving]
    # a sample is at most a goal period older than its stamp (a late bus cycle); mostly fresh
    assert np.nanmax(error) <= 2 * GOAL_PERIOD_S * NO_LOAD_SPEED_RAD_S, np.nanmax(error)
    assert np.nanmedian(error) < 0.05 and np.nanpercentile(error, 75) < 0.15, np.nanpercentile(
        error, [50, 75, 90])


def ax12_positions(goal_t, goals, at, dt: float = 0.001) -> np.ndarray:
    """Where servos starting at 0 rad are at the times ``at``, each turning toward its goal at
    the AX-12's no-load speed, a goal taken one bus cycle after it was sent."""
    p, out, now = np.zeros(goals.shape[1]), [], 0.0
    for until in at:
        while now < until - 1e-9:
            k = np.searchsorted(goal_t, now - 1.0 / BUS_RATE_HZ, side='right') - 1
            if k >= 0:
                p = p + np.clip(goals[k] - p, -NO_LOAD_SPEED_RAD_S * dt, NO_LOAD_SPEED_RAD_S * dt)
            now += dt
        out.append(p.copy())
    return np.asarray(out)


def test_a_bad_dynamixel_option_is_one_line(tmp_path, capsys):
    code = main(['run', SCENARIO, '--duration', '1', '--output', str(tmp_path / 'out'),
                 '--set', 'sim.backend=dynamixel', '--set', 'sim.dynamixel.port=/dev/ttyNOPE9'])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert 'dynamixel.port' in err[0] and '/dev/ttyNOPE9' in err[0], err[0]
    code = main(['run', SCENARIO, '--duration', '1', '--output', str(tmp_path / 'out'),
                 '--set', 'sim.backend=dynamixel', '--set', 'sim.dynamixel.ids=1-3'])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and 'dynamixel.ids' in err[0], err


def test_what_a_bus_cannot_do_is_refused_or_held():
    """Velocity commands dropped and counted, set_pose refused with one line, reset and a
    silent command source hold the joints (the bridge's watchdog); close turns torque off."""
    from dynamixel_bridge.backend import DynamixelBackend
    from zoo_sim import SimConfigError
    from zoo_sim.backends import BackendConfig
    from zoo_sim.mujoco_scene import RobotSpec

    bus = DynamixelBackend.from_config(BackendConfig(
        world=None, robots=[RobotSpec(name='snake', package='snake_description')],
        options={'watchdog_s': 0.05}))
    try:
        assert bus.features == {'joint_states'} and bus.robot_info('snake').servo_goals
        assert not np.isfinite(bus.base_pose('snake')[0]).any()  # not measured
        joints = np.arange(16)
        assert bus.commander('snake', 'velocity')(0, 1.0) is False
        assert bus.commands('snake', joints, 'effort', np.ones(16)) == 0
        assert bus.command_counts('snake') == (17, 0)
        assert any('17' not in w and 'velocity commands dropped' in w
                   for w in bus.command_warnings(0))
        with pytest.raises(SimConfigError, match='cannot move the robot'):
            bus.set_pose('snake', [0, 0, 1], [1, 0, 0, 0])
        bus.servo_goals('snake', joints, np.full(16, 2.0))  # beyond the URDF's 60 deg: clamped
        assert bus.command_counts('snake') == (17, 16)
        bus.advance(240)                      # no goals for > watchdog_s: held where it is
        held = bus.joint_state('snake')[0]  # (NaN: a status lost to a busy host)
        assert bus.core.watchdog_tripped and np.isfinite(held).sum() >= 14, held
        assert np.nanmin(held) > 0.05, held  # it had moved
        assert np.nanmax(held) <= math.radians(60) + 0.01, held  # not beyond the URDF's limit
        bus.advance(200)
        assert np.nanmax(np.abs(bus.joint_state('snake')[0] - held)) < 0.02
        assert any('watchdog' in w for w in bus.command_warnings(0))
        bus.reset()
        assert any('hold where they are' in w for w in bus.command_warnings(0))
    finally:
        bus.close()
    assert bus.emulator is None
