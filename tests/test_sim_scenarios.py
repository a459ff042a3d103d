"""Issue 3 acceptance through scenarios: default recordings and bitwise determinism."""
import numpy as np

from zoo_scenario.runner import run_scenario
from zoo_scenario.scenario import load_scenario
from zoo_runtime.bag import read_bag


def test_record_without_topic_list_has_clock_tf_and_robot_state(tmp_path):
    summary = run_scenario(load_scenario('go1_stand'), duration=0.5, record=True, output=tmp_path)
    bag = read_bag(tmp_path / 'bag')
    for topic in ['/clock', '/tf', '/go1/joint_states', '/go1/odometry/ground_truth', '/go1/imu']:
        assert len(bag[topic]) > 0, topic
        assert summary['recorded'][topic] == len(bag[topic])
    js = bag['/go1/joint_states']
    assert js['position'].shape[1] == 12
    # ground truth in the bag agrees with the simulator's own summary
    z = bag['/go1/odometry/ground_truth']['pose.pose.position.z']
    assert abs(z[-1] - summary['robots']['go1']['base_end'][2]) < 1e-3


def test_same_scenario_and_seed_give_bitwise_identical_joint_states(tmp_path):
    streams = []
    for run in ('a', 'b'):
        run_scenario(load_scenario('nao_stand'), duration=1.0, record=['/nao/joint_states'],
                     output=tmp_path / run, seed=7)
        t = read_bag(tmp_path / run / 'bag')['/nao/joint_states']
        streams.append((t.t_ns, t['position'], t['velocity'], t['effort']))
    for x, y in zip(*streams):
        assert np.array_equal(x, y)


def test_robot_metrics_in_the_bag_equal_summary_json(tmp_path):
    """summary.json's robots are the metrics the simulator published on /<robot>/metrics (zoo_sim
    .metrics, the one observer): the last message in the bag is the summary."""
    import math
    summary = run_scenario(load_scenario('go1_stand'), duration=0.5, record=True, output=tmp_path)
    metrics = read_bag(tmp_path / 'bag')['/go1/metrics']
    assert len(metrics) >= 5  # 10 Hz, and the final one
    robot = summary['robots']['go1']
    for key in ('drift_xy', 'drift_xyz', 'max_tilt_deg', 'max_tilt_change_deg',
                'yaw_change_deg', 'min_base_height', 'max_penetration'):
        assert metrics[key][-1] == robot[key], key
    assert list(metrics['base_end'][-1]) == robot['base_end']
    assert bool(metrics['fell'][-1]) is robot['fell'] is False
    assert math.isnan(metrics['fell_at'][-1]) and robot['fell_at'] is None


def test_the_scenario_seed_reaches_the_simulator():
    """The seed that draws sensor noise (zoo_sim.noise) is the scenario's, or --seed."""
    from zoo_scenario.runner import ScenarioRun
    with ScenarioRun(load_scenario('go1_stand'), seed=7) as run:
        assert run.nodes['sim'].get_parameter('seed').value == 7
        assert run.physics.seed == 7
