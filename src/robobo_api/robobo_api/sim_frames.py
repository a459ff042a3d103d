"""RoboboSim's location frame (no ROS): robobosim reports and sets locations as RoboboSim, a Unity
program, holds them - Unity axes (x, y up, z; left-handed), positions in millimetres (the
robobosim 1.5.1 README sample: ``pos["x"] -= 20`` "moves the robot -20 mm in the X axis"),
rotations as Euler angles in degrees, 0..360. The world here is x, y, z-up, right-handed, metres.

Mapping (a reflection that swaps y and z): unity (x, y, z) = 1000 (x, z, y); each rotation angle
changes sign under the reflection: unity rx = -roll, ry = -yaw (about up), rz = -pitch.
"""
from __future__ import annotations

import math

from zoo_sim.transforms import quat_from_rpy

MM = 1000.0


def to_unity(pos: tuple[float, float, float], quat_wxyz: tuple[float, float, float, float]
             ) -> tuple[dict, dict]:
    """(position, rotation) dicts of a world pose."""
    roll, pitch, yaw = rpy(quat_wxyz)
    position = {'x': pos[0] * MM, 'y': pos[2] * MM, 'z': pos[1] * MM}
    rotation = {'x': _deg360(-roll), 'y': _deg360(-yaw), 'z': _deg360(-pitch)}
    return position, rotation


def from_unity(position: dict | None, rotation: dict | None,
               current: tuple[tuple[float, float, float], tuple[float, float, float, float]]
               ) -> tuple[list[float], list[float]]:
    """A world (xyz, quat wxyz) from Unity dicts; a missing part keeps ``current``."""
    pos, quat = current
    xyz = [float(v) for v in pos] if position is None else \
        [position['x'] / MM, position['z'] / MM, position['y'] / MM]
    if rotation is None:
        q = [float(v) for v in quat]
    else:
        q = [float(v) for v in quat_from_rpy(-math.radians(rotation['x']),
                                             -math.radians(rotation['z']),
                                             -math.radians(rotation['y']))]
    return xyz, q


def rpy(q: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """(roll, pitch, yaw) in degrees of a unit quaternion (w, x, y, z), Z-Y-X."""
    w, x, y, z = q
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x))))
    yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return math.degrees(roll), math.degrees(pitch), math.degrees(yaw)


def _deg360(deg: float) -> float:
    return deg % 360.0
