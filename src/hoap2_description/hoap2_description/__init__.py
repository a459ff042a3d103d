"""Fujitsu HOAP-2 description: the URDF lives in ``urdf/hoap2.urdf.xacro`` (see README.md).

Constants from specs/hoap2.md section 2 for code that needs the robot's facts without parsing
the URDF.
"""

# The 25 motors of the Webots Hoap2 PROTO, in the order of the sample controller's enum (legs
# in chain order: hip yaw 1, hip pitch 3, hip roll 2, knee 4, ankle pitch 5, ankle roll 6).
JOINTS = (
    'body_joint_1',
    'lleg_joint_1', 'lleg_joint_3', 'lleg_joint_2', 'lleg_joint_4', 'lleg_joint_5', 'lleg_joint_6',
    'rleg_joint_1', 'rleg_joint_3', 'rleg_joint_2', 'rleg_joint_4', 'rleg_joint_5', 'rleg_joint_6',
    'larm_joint_1', 'larm_joint_2', 'larm_joint_3', 'larm_joint_4', 'larm_joint_5',
    'rarm_joint_1', 'rarm_joint_2', 'rarm_joint_3', 'rarm_joint_4', 'rarm_joint_5',
    'head_joint_2', 'head_joint_1',
)

TOTAL_MASS_KG = 7.16  # sum of the PROTO masses
MOTOR_MAX_TORQUE_NM = 9.0
MOTOR_MAX_VELOCITY_RAD_S = 5.0
SOLE_SIZE_M = (0.094, 0.062)  # footprint of the sole (touch sensor) box, x by y
ANKLE_TO_SOLE_M = 0.0405
