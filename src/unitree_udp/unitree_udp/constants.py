"""unitree_legged_sdk v3.8 (Go1) constants. Sources: unitreerobotics/unitree_legged_sdk tag v3.8.0
``include/unitree_legged_sdk/{comm.h,udp.h,quadruped.h,go1_const.h}`` (spec go1.md §9.1)."""
from __future__ import annotations

# levelFlag (comm.h)
HIGHLEVEL = 0xEE
LOWLEVEL = 0xFF
TRIGERLEVEL = 0xF0
HEAD = b'\xfe\xef'

# a motor command field at these values turns that loop off (comm.h PosStopF, VelStopF); the
# SDK's Python example uses 1e9 for PosStopF, so anything at or beyond STOP_Q_MIN counts
POS_STOP_F = 2.146e9
VEL_STOP_F = 16000.0
STOP_Q_MIN = 1e9
STOP_DQ_MIN = 16000.0

# motor modes (comm.h comments of v3.8.6)
MODE_DAMPING = 0x00
MODE_OVERHEAT = 0x08
MODE_SERVO = 0x0A

# HighCmd.mode (comm.h)
HIGH_MODES = {0: 'idle (default stand)', 1: 'force stand', 2: 'velocity walking',
              3: 'position walking', 4: 'path walking', 5: 'stand down', 6: 'stand up',
              7: 'damping', 8: 'recovery stand', 9: 'backflip', 10: 'jumpYaw',
              11: 'straightHand', 12: 'dance1', 13: 'dance2'}

# addresses and ports (udp.h and the SDK examples)
ROBOT_LOW_IP = '192.168.123.10'     # the MCU: low level
ROBOT_HIGH_IP = '192.168.123.161'   # the Raspberry Pi: sport mode (high level)
LOW_PORT = 8007
HIGH_PORT = 8082
LOCAL_PORT = 8080                   # the SDK client's default local port

# wire sizes (v3.8 "compressed" low level; high level is sizeof the structs)
LOW_CMD_LENGTH = 614
LOW_STATE_LENGTH = 807
HIGH_CMD_LENGTH = 129
HIGH_STATE_LENGTH = 1087
LOW_CMD_SIZEOF = 734                # sizeof(LowCmd) in comm.h: not what goes on the wire
LOW_STATE_SIZEOF = 937
N_MOTORS = 20                       # 12 used on the Go1
N_LEG_MOTORS = 12

# SDK joint order (quadruped.h): FR_0 FR_1 FR_2 FL_0 ... RL_2; legs FR FL RR RL, joints
# 0 hip, 1 thigh, 2 calf
SDK_LEGS = ('FR', 'FL', 'RR', 'RL')
SDK_JOINTS = ('hip', 'thigh', 'calf')

# go1_const.h: the SDK safety table Safety::PositionLimit clamps to (rad)
GO1_POSITION_LIMITS = {'hip': (-1.047, 1.047), 'thigh': (-0.663, 2.966), 'calf': (-2.721, -0.837)}

# SN and version bytes as free-dog-sdk decodes them (ucl/common.py decode_sn, decode_version)
SN_ROBOT_TYPES = {1: 'Laikago', 2: 'Aliengo', 3: 'A1', 4: 'Go1', 5: 'B1'}
SN_MODELS = {1: 'AIR', 2: 'PRO', 3: 'EDU', 4: 'PC', 5: 'XX'}
