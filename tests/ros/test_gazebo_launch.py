"""`ros2 launch zoo_bringup robozoo.launch.py scenario:=nao_stand backend:=gazebo` (issue 31): the
simulator node runs Gazebo Harmonic through the gz.sim8 Python bindings under real rclpy; the Nao
stands as on MuJoCo, its IMU and foot contacts come from gz-sim's own sensors, and Ctrl-C stops it
cleanly (gz-sim's server took SIGINT and SIGTERM from rclpy: the simulator had to be killed). The
ros_gz_bridge path (gz_sensors:=ros_gz_bridge) cannot run here: no ros_gz in ../shared."""
from __future__ import annotations

import os

import numpy as np
import pytest

from conftest import WS, ros2
from launched import LaunchedScenario


def test_nao_stand_under_ros2_launch_on_gazebo(ros_env, tmp_path):
    from zoo_sim.gazebo.gazebo_backend import import_gz_sim8
    if not import_gz_sim8():
        if os.environ.get('CI') or (WS / '.gz').is_dir():
            pytest.fail('gz.sim8 does not import in the ROS tier, yet Gazebo is expected here')
        pytest.skip('no Gazebo Harmonic (gz.sim8) here')
    run = LaunchedScenario('nao_stand', ros_env, tmp_path / 'launch.log',
                           ['sim.real_time_factor=1.0'], launch_args=['backend:=gazebo'])
    try:
        run.wait_sim_time(2.0, wall_timeout=180)
        backend = ros2(ros_env, 'param', 'get', '/sim', 'backend', '--no-daemon')
        assert 'String value is: gazebo' in backend.stdout, backend.stdout + backend.stderr
        imu = ros2(ros_env, 'topic', 'echo', '--once', '/nao/imu', 'sensor_msgs/msg/Imu',
                   timeout=60)
        assert imu.returncode == 0 and 'linear_acceleration' in imu.stdout, imu.stderr
        acc_z = float(imu.stdout.split('linear_acceleration:')[1].split('z:')[1].split()[0])
        assert acc_z == pytest.approx(9.80665, rel=0.02)
        contacts = ros2(ros_env, 'topic', 'echo', '--once', '/nao/contacts',
                        'zoo_interfaces/msg/LinkContacts', timeout=60)
        assert 'in_contact:\n- true\n- true' in contacts.stdout, contacts.stdout
        got = np.array(run.base_xy['nao'])
        assert len(got) and np.hypot(*(got[-1, 1:] - got[0, 1:])) < 2e-3, (got[0], got[-1])
        assert not run.metrics_at('nao', run.sim_time).fell
    finally:
        rc = run.stop()
    out = run.output()
    assert rc == 0, out[-3000:]
    assert 'Traceback' not in out and 'process has died' not in out, out[-3000:]
