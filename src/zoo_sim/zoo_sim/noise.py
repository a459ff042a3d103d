"""Sensor noise from the descriptions: Gazebo's ``<noise type="gaussian">`` (SDF sensor noise:
``mean``, ``stddev``, ``bias_mean``, ``bias_stddev``) on the IMU's angular velocity and linear
acceleration axes, drawn from the simulator's random generator, which the scenario's seed seeds.
The same seed gives the same streams bitwise; another seed, other streams.

As in Gazebo's GaussianNoiseModel, a bias is drawn once (from N(bias_mean, bias_stddev), with a
random sign) and every reading gets ``mean + bias + N(0, stddev)``. A description without
``<noise>`` elements gives exact readings (no shipped description has sourced noise figures yet).
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

    def draw_bias(self, rng: np.random.Generator) -> np.ndarray:
        sign = np.where(rng.random(3) < 0.5, -1.0, 1.0)
        return sign * rng.normal(self.bias_mean, self.bias_stddev)

    def apply(self, values: np.ndarray, bias: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return values + self.mean + bias + rng.normal(0.0, 1.0, 3) * self.stddev


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
    rows = [r or (0.0, 0.0, 0.0, 0.0) for r in rows]
    mean, stddev, bias_mean, bias_stddev = (np.array(c, dtype=float) for c in zip(*rows))
    return AxisNoise(mean, stddev, bias_mean, bias_stddev)


def _gaussian(el: ET.Element | None, where: str) -> tuple[float, float, float, float] | None:
    if el is None:
        return None
    kind = el.get('type', 'none')
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
    if values[1] < 0 or values[3] < 0:
        raise SimConfigError(f'{where}: stddev and bias_stddev must be >= 0')
    return tuple(values)
