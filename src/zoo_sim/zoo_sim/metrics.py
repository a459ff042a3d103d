"""The metrics observer: fall, tilt, drift and penetration of a robot, computed in one place from
the robot contract (zoo_sim.robot_interface), whatever the backend. The simulator node samples
one observer per robot at ``metrics_sample_rate`` and publishes it at ``metrics_rate`` on
``/<robot>/metrics`` (zoo_interfaces/RobotMetrics); ``robozoo run`` takes summary.json's robots
from those messages. Its fall rule (:func:`has_fallen`) is the only one: the gait player's walk
evaluation and the gait quality call it.

What a backend does not measure is reported as such, never invented: a base position of NaN (a
Go1 over low-level UDP measures its orientation with the IMU, not where it is) leaves
base_start/base_end, drift and height NaN in the message and null in summary.json, and the fall
is judged on the tilt alone; an orientation of NaN too (a Dynamixel bus knows only its joints)
leaves tilt, yaw and ``fell`` so; a penetration of NaN leaves max_penetration so.
"""
from __future__ import annotations

import math

import numpy as np

from .transforms import rotation_change_deg, tilt_change_deg, tilt_deg

BASE_FIELDS = ('drift_xy', 'drift_xyz', 'max_tilt_deg', 'max_tilt_change_deg',
               'yaw_change_deg', 'min_base_height')
FIELDS = ('base_start', 'base_end', 'drift_xy', 'drift_xyz', 'max_tilt_deg',
          'max_tilt_change_deg', 'yaw_change_deg', 'min_base_height', 'max_penetration', 'fell',
          'fell_at', 'joints', 'commands_rejected', 'commands_clamped')


def has_fallen(height_m: float, fall_height_m: float, tilt_deg: float = 0.0,
               fall_tilt_deg: float = math.inf) -> bool:
    """The fall rule, the one every walk judge uses: the base (model origin) below
    ``fall_height_m``, or tilted more than ``fall_tilt_deg`` from upright (a judge that sees
    only heights, like the walk evaluation, leaves the tilt out)."""
    return height_m < fall_height_m or tilt_deg > fall_tilt_deg


class RobotMetrics:
    """Observes one robot of a :class:`~zoo_sim.robot_interface.RobotBackend`."""

    def __init__(self, backend, robot: str):
        self.backend = backend
        self.robot = robot
        info = backend.robot_info(robot)
        self.fall_height = info.fall_height
        self.fall_tilt = info.fall_tilt_deg
        self.joints = len(info.joints)
        self.reset()

    def reset(self) -> None:
        """Start over (the world was reset): the next sample is the new start."""
        self.start: np.ndarray | None = None
        self.start_quat: list[float] | None = None  # w x y z
        self.min_height = math.inf
        self.max_tilt = 0.0
        self.max_tilt_change = 0.0  # vs the start orientation: what "stands still" is judged on
        self.max_penetration = 0.0
        self.penetration_known = False  # a sample's penetration was a number (not NaN)
        self.fell_at: float | None = None

    def sample(self, now_s: float) -> None:
        pos, quat = self.backend.base_pose(self.robot)
        # a hardware link may measure the base's orientation (an IMU) but not its position, or
        # neither (a bus): each part is observed only where it is a number
        pos_known = bool(np.isfinite(pos).all())
        quat_known = bool(np.isfinite(quat).all())
        self._sample_penetration()
        if not (pos_known or quat_known):
            return
        height = tilt = None
        if pos_known:
            height = float(pos[2])
            if self.start is None:
                self.start = np.array(pos, dtype=float)
            self.min_height = min(self.min_height, height)
        if quat_known:
            # plain floats for the scalar math below (tolist: one call, the same floats)
            quat = quat.tolist() if quat.__class__ is np.ndarray else [float(q) for q in quat]
            if self.start_quat is None:
                self.start_quat = quat
            tilt = tilt_deg(quat)
            self.max_tilt_change = max(self.max_tilt_change,
                                       tilt_change_deg(self.start_quat, quat))
            self.max_tilt = max(self.max_tilt, tilt)
        if self.fell_at is None and has_fallen(
                math.inf if height is None else height, self.fall_height,
                0.0 if tilt is None else tilt, self.fall_tilt):
            self.fell_at = now_s

    def _sample_penetration(self) -> None:
        depth = self.backend.penetration(self.robot)
        if depth == depth:  # NaN: not measured
            self.penetration_known = True
            self.max_penetration = max(self.max_penetration, depth)

    def summary(self) -> dict:
        """The metrics now (the end pose is the current one); what the backend does not
        measure is NaN (null in summary.json)."""
        end, end_quat = self.backend.base_pose(self.robot)
        end = np.array(end, dtype=float)
        end_quat = np.array(end_quat, dtype=float)
        pos_known, quat_known = bool(np.isfinite(end).all()), bool(np.isfinite(end_quat).all())
        rejected, clamped = self.backend.command_counts(self.robot)
        out = dict.fromkeys(BASE_FIELDS, math.nan)
        out.update(base_start=[math.nan] * 3, base_end=[math.nan] * 3,
                   max_penetration=self.max_penetration if self.penetration_known else math.nan,
                   fell=self.fell_at is not None if (pos_known or quat_known) else None,
                   fell_at=self.fell_at, joints=self.joints, commands_rejected=int(rejected),
                   commands_clamped=int(clamped))
        if pos_known:
            start = self.start if self.start is not None else end
            out.update(base_start=[float(x) for x in start], base_end=[float(x) for x in end],
                       drift_xy=float(np.linalg.norm(end[:2] - start[:2])),
                       drift_xyz=float(np.linalg.norm(end - start)),
                       min_base_height=float(min(self.min_height, end[2])))
        if quat_known:
            end_quat = end_quat.tolist()
            tilt_change, yaw_change = rotation_change_deg(
                self.start_quat if self.start_quat is not None else end_quat, end_quat)
            out.update(max_tilt_deg=float(max(self.max_tilt, tilt_deg(end_quat))),
                       max_tilt_change_deg=float(max(self.max_tilt_change, tilt_change)),
                       yaw_change_deg=float(yaw_change))
        return out


def to_message(summary: dict, msg_cls, header, robot: str):
    """A zoo_interfaces/RobotMetrics message of a :meth:`RobotMetrics.summary`."""
    values = dict(summary)
    values['fell_at'] = math.nan if values['fell_at'] is None else float(values['fell_at'])
    values['fell'] = bool(values['fell'])  # None (not measured): false here, null again in
    # from_message, which knows it by the NaN base pose
    return msg_cls(header=header, robot=robot, **{k: values[k] for k in FIELDS})


def from_message(msg) -> dict:
    """The summary dict of a RobotMetrics message (summary.json's robot entry)."""
    out = {k: getattr(msg, k) for k in FIELDS}
    out['base_start'] = [float(x) for x in out['base_start']]
    out['base_end'] = [float(x) for x in out['base_end']]
    out['fell_at'] = None if math.isnan(out['fell_at']) else float(out['fell_at'])
    for k in ('joints', 'commands_rejected', 'commands_clamped'):
        out[k] = int(out[k])
    for k in FIELDS:
        if isinstance(out[k], float):
            out[k] = None if math.isnan(out[k]) else float(out[k])
    if any(math.isnan(x) for x in out['base_end']):  # the base position was not measured
        out.update(base_start=None, base_end=None)
        if out['max_tilt_deg'] is None:  # nor its orientation: no fall can be judged
            out['fell'] = None
    return out
