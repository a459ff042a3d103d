"""The metrics observer on a backend that does not know where the robot is (a Dynamixel bus:
base pose NaN, penetration NaN): the base fields, fall and penetration come out null in the
summary, the joint and command counts as measured; the message carries them as NaN."""
import math

import numpy as np

from zoo_runtime.interfaces.std_msgs.msg import Header
from zoo_runtime.interfaces.zoo_interfaces.msg import RobotMetrics as RobotMetricsMsg
from zoo_sim.metrics import FIELDS, RobotMetrics, from_message, to_message
from zoo_sim.robot_interface import RobotInfo


class JointsOnly:
    features = frozenset({'joint_states'})

    def robot_info(self, robot):
        return RobotInfo(name=robot, joints=['a', 'b'], velocity_limits=np.ones(2),
                         effort_limits=np.ones(2), base_link='base', imu_link='base',
                         contact_links=[], links=['base'], tree=[], urdf='')

    def base_pose(self, robot):
        return np.full(3, math.nan), np.full(4, math.nan)

    def penetration(self, robot):
        return math.nan

    def command_counts(self, robot):
        return 3, 1


def test_what_is_not_measured_is_null():
    observer = RobotMetrics(JointsOnly(), 'snake')
    for t in (0.0, 0.5, 1.0):
        observer.sample(t)
    summary = observer.summary()
    msg = to_message(summary, RobotMetricsMsg, Header(), 'snake')
    assert math.isnan(msg.drift_xy) and math.isnan(msg.base_end[0]) and msg.fell is False
    out = from_message(msg)
    assert list(out) == list(FIELDS)  # the keys of every backend's summary
    for key in ('base_start', 'base_end', 'drift_xy', 'drift_xyz', 'max_tilt_deg',
                'max_tilt_change_deg', 'yaw_change_deg', 'min_base_height', 'max_penetration',
                'fell', 'fell_at'):
        assert out[key] is None, key
    assert (out['joints'], out['commands_rejected'], out['commands_clamped']) == (2, 3, 1)
