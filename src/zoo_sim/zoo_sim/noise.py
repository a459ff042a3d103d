"""Sensor noise from the descriptions: Gazebo's ``<noise type="gaussian">`` (SDF sensor noise:
``mean``, ``stddev``, ``bias_mean``, ``bias_stddev``) on the IMU's angular velocity and linear
acceleration axes, drawn from the simulator's random generator, which the scenario's seed seeds.
The same seed gives the same streams bitwise; another seed, other streams.

As in Gazebo's GaussianNoiseModel, a bias is drawn once (from N(bias_mean, bias_stddev), with a
random sign) and every reading gets ``mean + bias + N(0, stddev)``; ``gaussian_quantized`` then
rounds it to a multiple of ``<precision>`` (gz-sensors GaussianNoiseModel::ApplyImpl). A
description without ``<noise>`` elements gives exact readings.

Ray bundles (``ray``/``gpu_lidar`` sensors: the Robobo's IR): SDF's ``<lidar>`` (``<ray>``)
``<noise>`` with ``<type>gaussian</type>``, ``<mean>``, ``<stddev>`` (metres), which Gazebo adds
to every ray's range; here each ray that hits gets ``mean + N(0, stddev)`` on its distance, clipped
to [0, max range], before ir_law turns distances into an intensity. Rays that hit nothing stay
missed. Drawn from the robot's generator, ``len(rays)`` normals per reading, hits or not.

Joint encoders: Gazebo has no encoder sensor, so a description declares its encoders as an SDF
1.9 custom sensor, ``<sensor name="joint_encoders" type="custom">`` with one ``<noise>`` for every
joint position in ``joint_states`` (the Nao: 12-bit encoders, ``precision`` 2 pi / 4096;
nao_description/urdf/nao_gazebo.xacro cites the source). Only a zero-mean, zero-stddev noise
draws nothing from the generator: pure quantisation leaves the IMU streams as they were.
"""
from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import numpy as np

from . import SimConfigError

AXES = ('x', 'y', 'z')


@dataclasses.dataclass(frozen=True)
class AxisNoise:
    mean: np.ndarray      # per axis
    stddev: np.ndarray
    bias_mean: np.ndarray
    bias_stddev: np.ndarray
    precision: np.ndarray | None = None  # gaussian_quantized (0: none)

    def draw_bias(self, rng: np.random.Generator) -> np.ndarray:
        sign = np.where(rng.random(3) < 0.5, -1.0, 1.0)
        return sign * rng.normal(self.bias_mean, self.bias_stddev)

    def apply(self, values: np.ndarray, bias: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        out = values + self.mean + bias + rng.normal(0.0, 1.0, 3) * self.stddev
        return out if self.precision is None else quantise(out, self.precision)


def quantise(values: np.ndarray, precision) -> np.ndarray:
    """Gazebo's quantisation: the nearest multiple of ``precision`` (0: left as is)."""
    precision = np.asarray(precision, dtype=float)
    safe = np.where(precision > 0, precision, 1.0)
    return np.where(precision > 0, np.round(values / safe) * safe, values)


@dataclasses.dataclass(frozen=True)
class EncoderNoise:
    """The noise of every joint position of a robot (a ``joint_encoders`` custom sensor)."""
    mean: float
    stddev: float
    bias_mean: float
    bias_stddev: float
    precision: float

    @property
    def random(self) -> bool:
        return bool(self.stddev or self.bias_mean or self.bias_stddev)

    def draw_bias(self, rng: np.random.Generator, n: int) -> np.ndarray:
        if not self.random:
            return np.zeros(n)
        sign = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        return sign * rng.normal(self.bias_mean, self.bias_stddev, n)

    def apply(self, q: np.ndarray, bias: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if self.random:
            q = q + self.mean + bias + rng.normal(0.0, 1.0, len(q)) * self.stddev
        elif self.mean:
            q = q + self.mean
        if self.precision > 0:
            q = np.round(q / self.precision) * self.precision
        return q


@dataclasses.dataclass(frozen=True)
class RayNoise:
    """Gaussian noise on a ray bundle's ranges (module docstring, "Ray bundles")."""
    mean: float
    stddev: float

    def apply(self, dist: np.ndarray, range_max: float, rng: np.random.Generator) -> np.ndarray:
        """``dist`` (m; < 0: no hit, MuJoCo's mj_ray) with noise on every hit."""
        draws = rng.normal(0.0, 1.0, len(dist))
        hit = (dist >= 0) & (dist <= range_max)
        out = dist.copy()
        out[hit] = np.clip(dist[hit] + self.mean + self.stddev * draws[hit], 0.0, range_max)
        return out


def ray_noise(block: ET.Element, where: str) -> RayNoise | None:
    """The ``<noise>`` of a sensor's ``<lidar>``/``<ray>`` block, or None when it declares none or
    a zero one. A ray's noise is a mean and a stddev on every range: no bias, no quantisation."""
    values = _gaussian(block.find('noise'), f'{where}/noise')
    if values is None:
        return None
    mean, stddev, bias_mean, bias_stddev, precision = values
    if bias_mean or bias_stddev or precision:
        raise SimConfigError(f'{where}/noise: a ray takes mean and stddev only (Gazebo adds them '
                             'to every range), not bias_mean, bias_stddev or precision')
    return RayNoise(mean, stddev) if stddev > 0 or mean != 0 else None


ENCODER_SENSOR = 'joint_encoders'  # <sensor name="joint_encoders" type="custom">


def encoder_noise(sensors, where: str) -> EncoderNoise | None:
    """The joint-encoder noise a description declares (``RobotDescription.sensors``), if any."""
    for link, kind, name, el in sensors:
        if kind == 'custom' and name == ENCODER_SENSOR:
            values = _gaussian(el.find('noise'), f'{where}: gazebo[{link}]/sensor[{name}]/noise')
            return None if values is None else EncoderNoise(*values)
    return None


@dataclasses.dataclass(frozen=True)
class ImuNoise:
    gyro: AxisNoise | None
    accel: AxisNoise | None


def imu_noise(sensor: ET.Element, where: str) -> ImuNoise | None:
    """The noise of a Gazebo ``<sensor type="imu">`` element, or None when it declares none."""
    imu = sensor.find('imu')
    if imu is None:
        return None
    gyro = _axes(imu.find('angular_velocity'), f'{where}/imu/angular_velocity')
    accel = _axes(imu.find('linear_acceleration'), f'{where}/imu/linear_acceleration')
    return None if gyro is None and accel is None else ImuNoise(gyro, accel)


def _axes(el: ET.Element | None, where: str) -> AxisNoise | None:
    if el is None:
        return None
    rows = [_gaussian(el.find(f'{a}/noise'), f'{where}/{a}/noise') for a in AXES]
    if all(r is None for r in rows):
        return None
    rows = [r or (0.0, 0.0, 0.0, 0.0, 0.0) for r in rows]
    mean, stddev, bias_mean, bias_stddev, precision = (np.array(c, dtype=float)
                                                       for c in zip(*rows))
    return AxisNoise(mean, stddev, bias_mean, bias_stddev,
                     precision if precision.any() else None)


def _gaussian(el: ET.Element | None, where: str
              ) -> tuple[float, float, float, float, float] | None:
    """(mean, stddev, bias_mean, bias_stddev, precision) of a ``<noise>``; precision 0 unless
    the type is ``gaussian_quantized``. The type is an attribute (IMU, custom sensors) or, as in
    SDF's ``<lidar>``, a ``<type>`` child."""
    if el is None:
        return None
    kind = (el.get('type') or el.findtext('type') or 'none').strip()
    if kind == 'none':
        return None
    if kind not in ('gaussian', 'gaussian_quantized'):
        raise SimConfigError(f"{where}: noise type '{kind}': expected gaussian or none")
    values = []
    for tag in ('mean', 'stddev', 'bias_mean', 'bias_stddev'):
        child = el.find(tag)
        try:
            values.append(float(child.text) if child is not None else 0.0)
        except (TypeError, ValueError):
            raise SimConfigError(f'{where}/{tag}: expected a number, got '
                                 f'{child.text!r}') from None
    if not np.isfinite(values).all() or values[1] < 0 or values[3] < 0:
        raise SimConfigError(f'{where}: mean, stddev, bias_mean and bias_stddev must be finite, '
                             f'the stddevs >= 0, got {", ".join(f"{v:g}" for v in values)}')
    precision = 0.0
    if kind == 'gaussian_quantized':
        child = el.find('precision')
        try:
            precision = float(child.text) if child is not None else 0.0
        except (TypeError, ValueError):
            raise SimConfigError(f'{where}/precision: expected a number, got '
                                 f'{child.text!r}') from None
        if precision < 0:
            raise SimConfigError(f'{where}/precision: must be >= 0 (0: no quantisation), got '
                                 f'{precision:g}')
    return (*values, precision)
