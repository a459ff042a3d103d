"""The snake's gaits as a gait-player plug-in, ``snake_gait`` (entry-point group
``gait_player.generators``, this package's setup.py): a serpenoid gait through the R25 protocol,
or an angle file, as goal positions on ``joint_targets`` at 10 Hz (spec §3.4, R10, R19, R25).

Parameters (declared on the player node from this package's schema part
``params/_snake_gait.yaml``, as the snake's own gait node did): ``gait``
(linear_progression | lateral_rolling | sidewinding), the seven serpenoid parameters
(``amplitude_odd`` ... ``offset``; NaN: the preset's), ``direction`` (+1/-1), ``leg_s`` (4 s),
``legs`` (2: forward then reversed), ``angle_file`` (a path: play it instead of a gait; the run
ends with the file), ``links`` and ``first_axis`` (the measurement below). :class:`LegMeter`
reads ``link_poses`` (the simulator's, world frame) to measure each leg: module-centroid
displacement along the initial body axis (toward link 0) and across it, the heading change and
the largest module roll about the body axis (``roll.py``); reported in summary.json, null
(NaN here) when nothing was measured (a Dynamixel bus publishes no link poses).
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from gait_player.legs import Leg, LegPlan, LegProtocol
from zoo_runtime.interfaces.geometry_msgs.msg import PoseArray

from . import angle_file, state_log
from .roll import module_roll_deg
from .serpenoid import SAMPLE_INTERVAL, GaitError, Serpenoid, SerpenoidParams, preset

PARAMS = [f.name for f in dataclasses.fields(SerpenoidParams) if f.name != 'direction']


class LegMeter:
    """Each leg's displacement of the module centroid (along and across the body axis at the
    leg's start), heading change and largest module roll, from ``link_poses``. The snake's own
    measures, not the observer's base drift and tilt: a snake has no single base to judge."""
    topic = 'link_poses'
    msg_type = PoseArray

    def __init__(self, published: list[str], first_axis: str):
        self._names, self._keep = state_log.module_index(list(published))
        self._first_axis = first_axis
        self._max_roll = math.nan  # nothing measured yet
        self.positions: np.ndarray | None = None
        self._start: tuple[np.ndarray, np.ndarray] | None = None

    def on_message(self, msg: PoseArray, leg: int, n_legs: int) -> None:
        keep = [i for i in self._keep if i < len(msg.poses)]
        self.positions = np.array([[msg.poses[i].position.x, msg.poses[i].position.y]
                                   for i in keep])
        o = [msg.poses[i].orientation for i in keep]
        roll = module_roll_deg(self._names[:len(keep)], [(q.w, q.x, q.y, q.z) for q in o],
                               self._first_axis)
        if roll.size and leg < n_legs:
            self._max_roll = float(np.fmax(self._max_roll, roll.max()))
        if self._start is None and leg == 0:  # the first leg starts from the spawn pose
            self._start = self._measure()

    def _measure(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.positions is None:
            return None
        axis = self.positions[0] - self.positions[-1]
        return self.positions.mean(axis=0), axis / max(np.linalg.norm(axis), 1e-12)

    def begin_leg(self, leg: int) -> None:
        if leg > 0 or self._start is None:
            self._start = self._measure()

    def end_leg(self, kind: str) -> dict:
        end = self._measure()
        record = {'leg': kind}
        if self._start is not None and end is not None:
            (c0, a0), (c1, a1) = self._start, end
            d = c1 - c0
            dh = math.degrees(math.atan2(a1[1], a1[0]) - math.atan2(a0[1], a0[0]))
            record.update(along_m=float(d @ a0), across_m=float(d @ [-a0[1], a0[0]]),
                          dx_m=float(d[0]), dy_m=float(d[1]),
                          heading_deg=(dh + 180.0) % 360.0 - 180.0)
        record['max_roll_deg'] = self._max_roll
        self._max_roll = math.nan
        return record


def plan(values: dict, node: str) -> LegPlan:
    """The legs the parameters ``values`` (of ``params/_snake_gait.yaml``) ask for."""
    gait = values['gait']
    overrides = {name: float(values[name]) for name in PARAMS if not math.isnan(values[name])}
    direction = int(values['direction'])
    leg_s = float(values['leg_s'])
    n_legs = int(values['legs'])
    path = values['angle_file']
    if path:
        joints, table = angle_file.read(path)
        legs = [Leg('file', angle_file.AngleFileGait(joints, table), len(table))]
        name = f'angle file {path}'
    else:
        try:
            params = preset(gait, direction=direction, **overrides)
        except (GaitError, TypeError) as exc:
            raise GaitError(f'{node}: {exc}') from None
        ticks = int(round(leg_s / SAMPLE_INTERVAL))
        legs = [Leg(('forward', 'reversed')[i % 2],
                    Serpenoid(params if i % 2 == 0 else params.reversed()), ticks)
                for i in range(n_legs)]
        joints, name = list(legs[0].generator.joints), gait
    meter = LegMeter(values['links'], values['first_axis'])
    return LegPlan(name, joints, legs, SAMPLE_INTERVAL, meter)


def snake_gait() -> LegProtocol:
    return LegProtocol(plan, ('snake_gaits', '_snake_gait'))
