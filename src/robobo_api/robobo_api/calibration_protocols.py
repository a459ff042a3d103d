"""The thesis' validation protocols as plain data and geometry (no ROS): specs/robobo.md 6.

Wheels (Table 11): moveWheels(P, P, t) from rest for P in {2, 10, 60, 90}, t in {1, 3} s.
Pan and tilt (Tables 12, 13): move 45 and 90 degrees at speeds {2, 6, 10, 30, 60, 80}.
IR (Tables 10, 14): front_c and front_l facing the white 0.1 x 0.23 x 0.185 m box at 5 ... 35 cm
on the sensor's axis.
"""
from __future__ import annotations

import math

WHEEL_CASES = [(p, t) for p in (2, 10, 60, 90) for t in (1, 3)]
PAN_TILT_SPEEDS = (2, 6, 10, 30, 60, 80)
PAN_TILT_DEGREES = (45, 90)
# (start, target) degrees: pan turns left from forward; tilt lifts the phone (against gravity)
PAN_MOVES = {45: (180, 135), 90: (180, 90)}
TILT_MOVES = {45: (20, 65), 90: (15, 105)}
IR_DISTANCES_CM = tuple(range(5, 40, 5))
REACHED_DEG = 0.5   # a pan/tilt move is over when the joint is within this of its target

# IR sensor frames in base_link (x, y, yaw), from the Table 7 poses on the thesis body frame
# (spec 5.2) through robobo_description's base_link (front = +X, origin on the wheel axle):
# base = (body_x - x_s, body_y - y_s), yaw = yaw_s - pi, body frame origin (-0.026644, -0.000047).
BODY_IN_BASE = (-0.026644, -0.000047)
IR_TABLE_7 = {'front_c': (-0.08, 0.0, 3.1415), 'front_l': (-0.0727, -0.026, 3.526)}
IR_HEIGHT = 0.0308 + 0.0012   # m above the floor: body link z + the sensors' z (Table 3, 7)

BOX_CENTRE = (2.0, 0.0)        # worlds/robobo_calibration.sdf ir_box
BOX_SIZE = (0.1, 0.23, 0.185)


def sensor_in_base(sensor: str) -> tuple[float, float, float]:
    x, y, yaw = IR_TABLE_7[sensor]
    return BODY_IN_BASE[0] - x, BODY_IN_BASE[1] - y, yaw - math.pi


def robot_pose_for_ir(sensor: str, distance_m: float) -> tuple[float, float, float]:
    """(x, y, yaw) of base_link that puts ``sensor`` ``distance_m`` in front of the box's face,
    its axis along world +X through the face centre."""
    sx, sy, syaw = sensor_in_base(sensor)
    yaw = -syaw
    face_x = BOX_CENTRE[0] - BOX_SIZE[0] / 2
    wx, wy = face_x - distance_m, BOX_CENTRE[1]
    c, s = math.cos(yaw), math.sin(yaw)
    return wx - (c * sx - s * sy), wy - (s * sx + c * sy), yaw


def wheel_distance_cm(p: float, t: float, coeffs, radius: float = 0.03225) -> float:
    """The formula's straight-line distance: theta(P, t) r (spec 4.1)."""
    from .motor_laws import wheel_angle_deg
    return math.radians(wheel_angle_deg(p, t, coeffs)) * radius * 100
