"""The smartphone's sensors as the Robobo app reports them: accelerometer, orientation, battery.

The simulator has one IMU, on the base (its acceleration includes the reaction to gravity: +9.81
m/s^2 up at rest). The phone rides on pan and tilt, so its readings are the base's turned into the
phone's frame. Android's device axes (SensorManager docs): x to the right of the screen, y up
along the screen, z out of the screen. On the Robobo the screen faces forward (the front camera
looks ahead, spec 5.3) and tilt 90 holds the phone upright; tilt 5 lays it almost flat, screen up
(spec 2.1), top toward the back. So in the pan frame (x forward, y left, z up), at tilt t:
device x = left, y = (-cos t, 0, sin t), z = (sin t, 0, cos t). Pan 180 faces forward; the pan
joint turns about -z (spec 3.5, axis (0, 0, -1)).

Orientation: pitch and roll as Android's SensorManager.getOrientation gives them (pitch =
asin(-R[7]): 0 flat, -90 with the top raised upright; roll = atan2(-R[6], R[8])). Yaw stays
the base's heading: Android's azimuth is undefined with the phone upright (the Robobo's usual
pose). No ROS import here.
"""
from __future__ import annotations

import math

import numpy as np

# Battery: the spec gives the base's LiPo (5000 mAh) 8-10 h of use (spec 2.4); the app reports a
# level in percent (robobopy RobProcessor / SmartphoneProcessor: BAT-BASE, BAT-PHONE 'level').
# A full charge drains linearly over the middle figure, 9 h. The phone's endurance is not in the
# spec: the same figure is assumed.
BATTERY_HOURS = 9.0


def device_axes(pan_deg: float, tilt_deg: float) -> np.ndarray:
    """3x3 matrix whose columns are the phone's x, y, z axes in the base frame."""
    t = math.radians(tilt_deg)
    in_pan = np.array([[0.0, -math.cos(t), math.sin(t)],
                       [1.0, 0.0, 0.0],
                       [0.0, math.sin(t), math.cos(t)]])
    p = -math.radians(pan_deg - 180.0)
    c, s = math.cos(p), math.sin(p)
    pan = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    return pan @ in_pan


def quat_matrix(w: float, x: float, y: float, z: float) -> np.ndarray:
    """Rotation matrix of a unit quaternion (body -> world)."""
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def phone_acceleration(base_acc, pan_deg: float, tilt_deg: float) -> tuple[float, float, float]:
    """The phone's accelerometer (m/s^2, device axes) from the base IMU's (base frame)."""
    a = device_axes(pan_deg, tilt_deg).T @ np.asarray(base_acc, dtype=float)
    return float(a[0]), float(a[1]), float(a[2])


def phone_orientation(base_quat_wxyz, pan_deg: float, tilt_deg: float
                      ) -> tuple[float, float, float]:
    """(yaw, pitch, roll) in degrees: yaw the base's heading, pitch and roll the phone's."""
    base = quat_matrix(*base_quat_wxyz)
    r = base @ device_axes(pan_deg, tilt_deg)   # device -> world, as Android's R
    pitch = math.asin(max(-1.0, min(1.0, -r[2, 1])))
    roll = math.atan2(-r[2, 0], r[2, 2])
    yaw = math.atan2(base[1, 0], base[0, 0])
    return math.degrees(yaw), math.degrees(pitch), math.degrees(roll)


def battery_level(elapsed_s: float, hours: float = BATTERY_HOURS) -> int:
    """Percent left after ``elapsed_s`` of use from a full charge (0..100, as the app sends)."""
    return max(0, min(100, math.ceil(100.0 * (1.0 - elapsed_s / (hours * 3600.0)))))
