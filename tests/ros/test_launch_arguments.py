"""The launch file's arguments and errors through the real `ros2 launch` (launch, launch_ros and
rclpy of ../shared/ros2 or the user's ROS 2): what the former tools/check_launch_upstream.sh checked with a
stand-in rclpy and no process, now with real processes and a real ROS graph."""
from __future__ import annotations

import re
import subprocess

import pytest

from conftest import ros2
from launched import LaunchedScenario


def launch(env, *args, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run(['ros2', 'launch', 'zoo_bringup', *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_show_args_of_the_generic_launch_file(ros_env):
    out = launch(ros_env, 'robozoo.launch.py', '--show-args').stdout
    args = dict(re.findall(r"'(\w+)':\n(.*?)(?=\n    '|\Z)", out, re.S))
    assert set(args) == {'scenario', 'backend', 'gz_sensors', 'set'}, out
    assert 'default' not in args['scenario']
    assert "(default: 'mujoco')" in args['backend']


def test_generic_launch_file_with_a_scenario_and_overrides(ros_env, tmp_path):
    """`ros2 launch zoo_bringup robozoo.launch.py scenario:=go1_stand
    set:=sim.joint_states_rate=50.0`: the override reaches the running node."""
    run = LaunchedScenario('go1_stand', ros_env, tmp_path / 'launch.log',
                           ['sim.joint_states_rate=50.0'])
    try:
        run.wait_sim_time(0.5, wall_timeout=120)
        got = ros2(ros_env, 'param', 'get', '/sim', 'joint_states_rate', '--no-daemon')
        assert 'Double value is: 50.0' in got.stdout, got.stdout + got.stderr
        got = ros2(ros_env, 'param', 'get', '/sim', 'robot_names', '--no-daemon')
        assert "['go1']" in got.stdout, got.stdout + got.stderr
    finally:
        assert run.stop() == 0, run.output()[-3000:]


@pytest.mark.parametrize('arguments, expected', [
    (('robozoo.launch.py',), "missing required argument 'scenario'"),
    (('robozoo.launch.py', 'scenario:=talker_listener', 'backend:=ignition'),
     'backend:=ignition: expected one of dynamixel, gazebo, go1_udp, mujoco'),
    (('robozoo.launch.py', 'scenario:=no_such_scenario'), 'no_such_scenario'),
])
def test_generic_launch_file_errors_name_the_argument(ros_env, arguments, expected):
    got = launch(ros_env, *arguments)
    out = got.stdout + got.stderr
    assert got.returncode != 0 and expected in out, out
    assert 'process started' not in out, out


def test_gazebo_without_ros_gz_bridge_fails_before_starting_anything(ros_env):
    """ros_gz_bridge is not in ../shared/ros2 (nor installed here): asked for it, launch names it
    and starts no node (launch 3.4.3 that fails midway leaves the nodes it started running)."""
    got = launch(ros_env, 'robozoo.launch.py', 'scenario:=nao_wave_walk', 'backend:=gazebo',
                 'gz_sensors:=ros_gz_bridge')
    out = got.stdout + got.stderr
    assert got.returncode != 0 and 'backend:=gazebo needs ros_gz_bridge' in out, out
    assert 'process started' not in out, out


@pytest.mark.parametrize('node, expected', [
    ('{name: talker, package: zoo_bringup, executable: talker, namespace: /9demo}',
     'Invalid namespace: namespace must not have a token that starts with a number'),
    ('{name: my-talker, package: zoo_bringup, executable: talker}',
     "Invalid node name: node name must not contain characters other than alphanumerics or '_'"),
])
def test_names_ros_rejects_are_rejected_by_launch(ros_env, tmp_path, node, expected):
    """A scenario (given by path) with a name ROS rejects: real launch_ros and rclpy refuse it and
    nothing starts; the embedded runner rejects the same names (zoo_runtime embedded/names.py)."""
    path = tmp_path / 'bad_names.yaml'
    path.write_text(f'description: names ROS rejects\nnodes:\n  - {node}\n')
    got = launch(ros_env, 'robozoo.launch.py', f'scenario:={path}')
    out = got.stdout + got.stderr
    assert got.returncode != 0 and expected in out, out
    assert 'process started' not in out, out
