"""NAO V4 (H25) description: the URDF lives in ``urdf/nao.urdf.xacro`` (see README.md).

Constants from specs/nao.md for code that needs the robot's facts without parsing the URDF.
"""

# The 25 independently actuated joints, in the LoLA order (specs/nao.md section 8.4). The URDF
# also has RHipYawPitch, a mimic of LHipYawPitch (one motor on the real robot).
H25_JOINTS = (
    'HeadYaw', 'HeadPitch',
    'LShoulderPitch', 'LShoulderRoll', 'LElbowYaw', 'LElbowRoll', 'LWristYaw',
    'LHipYawPitch', 'LHipRoll', 'LHipPitch', 'LKneePitch', 'LAnklePitch', 'LAnkleRoll',
    'RHipRoll', 'RHipPitch', 'RKneePitch', 'RAnklePitch', 'RAnkleRoll',
    'RShoulderPitch', 'RShoulderRoll', 'RElbowYaw', 'RElbowRoll', 'RWristYaw',
    'LHand', 'RHand',
)

TOTAL_MASS_KG = 5.195  # specs/nao.md section 2.7 (sum of the naoV40 link masses)
THIGH_LENGTH_M = 0.100
TIBIA_LENGTH_M = 0.1029
FOOT_HEIGHT_M = 0.04511  # ankle roll axis to the sole plane
HIP_OFFSET_Y_M = 0.050
HIP_OFFSET_Z_M = 0.085
