"""Sensor noise from the description (Gazebo <noise> on the IMU) and the meaning of the seed: the
same seed gives the same IMU stream bitwise, another seed another one; a reset restarts it."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import urdf_text
from zoo_sim import SimConfigError
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec

AXIS = ('<{a}><noise type="gaussian"><mean>0</mean><stddev>{s}</stddev><bias_mean>{b}</bias_mean>'
        '<bias_stddev>0.0001</bias_stddev></noise></{a}>')
IMU = ('<gazebo reference="base_link"><sensor name="imu" type="imu"><imu>'
       '<angular_velocity>{gyro}</angular_velocity><linear_acceleration>{acc}'
       '</linear_acceleration></imu></sensor></gazebo></robot>')


def noisy_walker(gyro_stddev=0.01, acc_stddev=0.1, bias=0.002) -> str:
    axes = lambda s: ''.join(AXIS.format(a=a, s=s, b=bias) for a in 'xyz')  # noqa: E731
    return urdf_text('walker.urdf', **{'</robot>': IMU.format(gyro=axes(gyro_stddev),
                                                              acc=axes(acc_stddev))})


def imu_stream(urdf: str, seed: int, steps: int = 200) -> np.ndarray:
    ph = MujocoPhysics.create('empty', [RobotSpec('w', urdf=urdf, pose=[0, 0, 0.12, 0, 0, 0])],
                              seed=seed)
    out = []
    for _ in range(steps):
        ph.advance(1)
        out.append(np.concatenate(ph.imu('w')[1:]))
    return np.array(out)


def test_the_seed_draws_the_imu_noise_of_the_description():
    urdf = noisy_walker()
    a, b, c = imu_stream(urdf, 1), imu_stream(urdf, 1), imu_stream(urdf, 2)
    assert a.tobytes() == b.tobytes()          # the same seed: bitwise the same stream
    assert not np.array_equal(a, c)            # another seed: another stream
    exact = imu_stream(urdf_text('walker.urdf'), 1)
    gyro_noise = (a - exact)[:, :3]
    assert gyro_noise.std(axis=0) == pytest.approx([0.01] * 3, rel=0.25)
    assert np.allclose(np.abs(gyro_noise.mean(axis=0)), 0.002, atol=0.003)  # the bias
    assert imu_stream(urdf_text('walker.urdf'), 2).tobytes() == exact.tobytes()  # no <noise>


def test_reset_restarts_the_noise_stream():
    ph = MujocoPhysics.create('empty', [RobotSpec('w', urdf=noisy_walker(),
                                                  pose=[0, 0, 0.12, 0, 0, 0])], seed=5)
    first = [ph.imu('w')[1].copy() for _ in range(3)]
    ph.reset()
    assert [ph.imu('w')[1].tobytes() for _ in range(3)] == [g.tobytes() for g in first]


def test_a_bad_noise_element_is_one_clear_error():
    urdf = noisy_walker().replace('type="gaussian"', 'type="pink"', 1)
    with pytest.raises(SimConfigError, match=r"sensor\[imu\]/imu/angular_velocity/x/noise: "
                                             r"noise type 'pink': expected gaussian or none"):
        imu_stream(urdf, 0, steps=1)
