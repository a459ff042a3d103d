"""Robobo description: numbers of specs/robobo.md used by the tests and by other packages."""
import math

JOINTS = ('left_motor', 'right_motor', 'pan_motor', 'tilt_motor')
IR_SENSORS = ('front_c', 'front_l', 'front_ll', 'front_r', 'front_rr', 'back_c', 'back_l', 'back_r')
WHEEL_RADIUS = 0.03225                  # m, spec 2.5
WHEEL_TRACK = 0.145556                  # m, wheel-centre distance (spec 2.5, derived)
TOTAL_MASS = 0.829                      # kg, spec 2.5 (derived)
# Table 7: IR sensor poses (x, y, z, roll, pitch, yaw) in the thesis' body link frame (front = -X).
IR_POSES = {
    'front_c': (-0.08, 0.0, 0.0012, 0.0, 0.0, 3.1415),
    'front_l': (-0.0727, -0.026, 0.0012, 0.0, 0.21, 3.526),
    'front_ll': (-0.0625, -0.0405, 0.0012, 0.0, 0.0, 3.927),
    'front_r': (-0.0727, 0.026, 0.0012, 0.0, 0.21, 2.758),
    'front_rr': (-0.0625, 0.0405, 0.0012, 0.0, 0.0, 2.356),
    'back_c': (0.12, 0.0, 0.0, 0.0, 0.21, 0.0),
    'back_l': (0.1055, -0.0308, 0.001, 0.0, 0.0, -0.524),
    'back_r': (0.1055, 0.0308, 0.001, 0.0, 0.0, 0.524),
}
# Camera pose in the thesis' tilt link frame (spec 5.3, R20).
CAMERA_POSE = (0.0695, 0.0105, 0.004, 0.0, -1.5708, 3.1415)
# Power-on pose (spec 4.2): pan 180 deg, tilt 70 deg.
PAN_START = math.pi
TILT_START = math.radians(70.0)
