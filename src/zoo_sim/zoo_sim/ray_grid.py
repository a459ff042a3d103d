"""Ray directions of a Gazebo ray/lidar scan grid (no ROS, no MuJoCo).

Gazebo casts ``samples`` rays evenly from ``min_angle`` to ``max_angle`` (both included) for the
horizontal (yaw, about +Z) and vertical (pitch up, about -Y) scans; a ray with angles (h, v) points
along (cos v cos h, cos v sin h, sin v) in the sensor frame (+X forward). Order: index = row *
n_horizontal + col, col increasing along +Y within a row, row increasing along +Z (the Robobo
thesis found this order experimentally, specs/robobo.md 5.2).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ScanGrid:
    h_samples: int
    h_min: float
    h_max: float
    v_samples: int
    v_min: float
    v_max: float
    range_min: float
    range_max: float

    def angles(self) -> tuple[np.ndarray, np.ndarray]:
        """(horizontal, vertical) angle of every ray, in ray order."""
        h = _spread(self.h_samples, self.h_min, self.h_max)
        v = _spread(self.v_samples, self.v_min, self.v_max)
        hh, vv = np.meshgrid(h, v)  # rows: vertical, cols: horizontal
        return hh.ravel(), vv.ravel()

    def directions(self) -> np.ndarray:
        """Unit ray directions (n, 3) in the sensor frame."""
        h, v = self.angles()
        return np.stack([np.cos(v) * np.cos(h), np.cos(v) * np.sin(h), np.sin(v)], axis=1)


def _spread(n: int, lo: float, hi: float) -> np.ndarray:
    return np.array([0.5 * (lo + hi)]) if n == 1 else np.linspace(lo, hi, n)


def scan_grid(sensor: ET.Element, where: str) -> ScanGrid:
    """The grid of a Gazebo ``<sensor>`` with a ``<lidar>`` or ``<ray>`` block; ValueError naming
    ``where`` and the field when something is missing or not a number."""
    block = sensor.find('lidar')
    if block is None:
        block = sensor.find('ray')
    if block is None:
        raise ValueError(f'{where}: no <lidar> or <ray> block')

    def num(path: str, default: float | None = None) -> float:
        text = block.findtext(path)
        if text is None:
            if default is None:
                raise ValueError(f'{where}: missing <{path}>')
            return default
        try:
            return float(text)
        except ValueError:
            raise ValueError(f'{where}: <{path}> is not a number: {text!r}') from None

    return ScanGrid(int(num('scan/horizontal/samples', 1)), num('scan/horizontal/min_angle', 0.0),
                    num('scan/horizontal/max_angle', 0.0), int(num('scan/vertical/samples', 1)),
                    num('scan/vertical/min_angle', 0.0), num('scan/vertical/max_angle', 0.0),
                    num('range/min', 0.0), num('range/max'))
