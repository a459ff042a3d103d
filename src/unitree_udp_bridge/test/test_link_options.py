"""The link's options (one table for the bridge node and the go1_udp backend) and the simulated
Go1's child scenario, which must be the parent's world, gravity, step and robot."""
from __future__ import annotations

from pathlib import Path

import pytest

from unitree_udp_bridge.link_options import OPTIONS, bridge_config
from unitree_udp_bridge.simulated_go1 import endpoint_scenario
from zoo_scenario.scenario import parse_scenario, simulator_parameters
from zoo_sim.backends import BackendConfig
from zoo_sim.mujoco_scene import RobotSpec

URDF = [f'{leg}_{j}_joint' for leg in ('FL', 'FR', 'RL', 'RR') for j in ('hip', 'thigh', 'calf')]
DEFAULTS = {name: default for name, (default, _) in OPTIONS.items()}


def test_defaults_are_the_sdk_robot():
    cfg = bridge_config(DEFAULTS, URDF)
    assert (cfg.robot_ip, cfg.robot_port, cfg.min_firmware) == ('192.168.123.10', 8007, (0, 1, 35))
    assert cfg.safety.power_level == 5 and not cfg.latency_stamps
    assert bridge_config({**DEFAULTS, 'robot_ip': '127.0.0.1'}, URDF).latency_stamps


@pytest.mark.parametrize('name, value, expected', [
    ('robot_port', 70000, 'robot_port = 70000: expected a UDP port, 0..65535'),
    ('local_port', True, 'local_port = True: expected a UDP port'),
    ('min_firmware', 'v1', "min_firmware 'v1': expected a.b.c"),
    ('rate', float('inf'), 'parameter rate = inf: expected a finite number > 0'),
    ('power_level', 11, 'power_level = 11: expected 0 (off) or 1..10'),
    ('watchdog_s', 0.0, 'watchdog_s = 0.0: expected a finite number of seconds > 0'),
])
def test_bad_values_one_line(name, value, expected):
    with pytest.raises(ValueError) as err:
        bridge_config({**DEFAULTS, name: value}, URDF)
    assert str(err.value).startswith(expected) and '\n' not in str(err.value)


def test_child_scenario_is_the_parents_robot():
    spec = RobotSpec(name='go1', package='go1_description', pose=(0.5, 0.0, 0.4, 0.0, 0.0, 0.1),
                     initial_positions={'FL_hip_joint': 0.1})
    config = BackendConfig(world='empty', robots=[spec], gravity=[0.0, 0.0, -3.72111],
                           step=0.0005)
    data = endpoint_scenario(config, 40123, 0.5, 0.2, 500.0)
    sc = parse_scenario(data, Path('go1_udp_robot.yaml'))  # the child's loader accepts it
    params = simulator_parameters(sc)
    assert params['world'] == 'empty' and params['gravity'] == [0.0, 0.0, -3.72111]
    assert params['physics_step'] == 0.0005 and params['real_time_factor'] == 0.5
    assert params['robots.go1.pose'] == [0.5, 0.0, 0.4, 0.0, 0.0, 0.1]
    assert params['robots.go1.initial_positions'] == ['FL_hip_joint:=0.1']
    assert params['joint_states_rate'] == 500.0
    endpoint = sc.nodes[0].parameters
    assert (endpoint['host'], endpoint['port'], endpoint['watchdog_s']) == ('127.0.0.1', 40123,
                                                                            0.2)
