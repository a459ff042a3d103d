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


ENCODERS = ('<gazebo reference="base_link"><sensor name="joint_encoders" type="custom">'
            '<noise type="gaussian_quantized"><mean>0</mean><stddev>{s}</stddev>'
            '<precision>{p}</precision></noise></sensor></gazebo></robot>')


def joint_positions(urdf: str, seed: int, steps: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """(joint_state positions, exact positions) over ``steps`` steps of the walker, its first
    joint turning."""
    ph = MujocoPhysics.create('empty', [RobotSpec('w', urdf=urdf, pose=[0, 0, 0.12, 0, 0, 0])],
                              seed=seed)
    ph.command('w', 0, 'velocity', 0.3)
    seen, exact = [], []
    for _ in range(steps):
        ph.advance(1)
        seen.append(ph.joint_state('w')[0])
        exact.append(ph.data.qpos[ph.robots['w'].qadr].copy())
    return np.array(seen), np.array(exact)


def test_joint_encoders_quantise_joint_states_and_leave_the_imu_stream_alone():
    step = 2 * np.pi / 4096  # a 12-bit encoder (the Nao's)
    urdf = urdf_text('walker.urdf', **{'</robot>': ENCODERS.format(s=0, p=step)})
    seen, exact = joint_positions(urdf, 1)
    assert np.array_equal(seen, np.round(exact / step) * step)   # Gazebo's quantisation
    assert np.abs(seen - exact).max() <= step / 2
    assert np.ptp(exact[:, 0]) > 5 * step                        # it moved across steps
    # pure quantisation draws nothing: the IMU noise stream is the same with or without it
    noisy = noisy_walker().replace('</robot>', ENCODERS.format(s=0, p=step))
    assert imu_stream(noisy, 3).tobytes() == imu_stream(noisy_walker(), 3).tobytes()
    # a random encoder noise follows the seed
    urdf = urdf_text('walker.urdf', **{'</robot>': ENCODERS.format(s=0.001, p=0)})
    a, b, c = (joint_positions(urdf, s)[0] for s in (4, 4, 5))
    assert a.tobytes() == b.tobytes() and not np.array_equal(a, c)


def test_the_nao_description_declares_its_12_bit_encoders():
    from zoo_sim.noise import encoder_noise
    from zoo_sim.urdf_robot import load_description
    desc = load_description('nao_description')
    noise = encoder_noise(desc.sensors, desc.source)
    assert noise.precision == pytest.approx(2 * np.pi / 4096, rel=1e-12)
    assert not noise.random
