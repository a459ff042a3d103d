"""HighCmd on the simulated Go1: what a joint-level robot can honestly do of Unitree's sport mode.
Stand (modes 0 idle, 1 force stand, 6 stand up, 8 recovery stand) and stand down (5) are joint
ramps to a pose held by PD; in 1 the trunk follows the HighCmd's euler and bodyHeight
(body_pose.py), moved there at BODY_RATE (ours: Unitree publishes no rate); 7 is damping.
Walking (2, 3, 4) and the tricks (9-13) need Unitree's locomotion controller, which this
workspace does not have: the robot keeps standing, the HighState says so (mode = what it does,
reserve = 1) and the endpoint logs it (rate-limited)."""
from __future__ import annotations

import numpy as np

from .body_pose import clamp_request, force_stand_q
from .constants import MODE_SERVO, N_LEG_MOTORS
from .endpoint import MotorTargets, damping
from .high_level import HighCmd

STAND = (0.0, 0.67, -1.3)       # spec go1.md §2.2: the upstream stand pose (hip, thigh, calf)
LIE = (0.0, 1.1, -2.7)          # folded legs, within go1_const.h's calf limit
KP = (100.0, 300.0, 300.0)      # robot_control.yaml (spec §2.4)
KD = (5.0, 8.0, 8.0)
STAND_MODES = {0, 1, 6, 8}
FORCE_STAND = 1
BODY_RATE = np.array([0.2, 1.0, 1.0, 1.0])   # m/s, rad/s: height, roll, pitch, yaw


def _per_motor(v: tuple[float, float, float]) -> np.ndarray:
    return np.tile(np.asarray(v, dtype=float), 4)


class SportMode:
    def __init__(self, ramp_s: float = 1.0, damping_kd: float = 3.0):
        self.ramp_s = ramp_s
        self.damping_kd = damping_kd
        self.pose_name: str | None = None
        self.start_q: np.ndarray | None = None
        self.start_t = 0.0
        self.mode = 0
        self.progress = 0.0
        self.unsupported = False
        self.body = np.zeros(4)       # height delta (m), roll, pitch, yaw (rad) held now
        self.body_t: float | None = None

    def targets(self, cmd: HighCmd, q_now: np.ndarray, t: float) -> MotorTargets:
        """Targets at sim time ``t`` (s) for the latest HighCmd; q_now in SDK order."""
        requested = int(cmd.mode)
        self.unsupported = requested not in STAND_MODES | {5, 7}
        if requested == 7:
            self.mode, self.pose_name, self.progress = 7, None, 1.0
            return damping(self.damping_kd, q_now)
        name = 'lie' if requested == 5 else 'stand'
        self.mode = 5 if requested == 5 else (requested if requested in STAND_MODES else 1)
        if name != self.pose_name:
            self.pose_name, self.start_q, self.start_t = name, np.array(q_now, float), t
        goal = _per_motor(LIE) if name == 'lie' else self._stand_goal(cmd, t)
        self.progress = 1.0 if self.ramp_s <= 0 else min(1.0, (t - self.start_t) / self.ramp_s)
        q = self.start_q + (goal - self.start_q) * self.progress
        z = np.zeros(N_LEG_MOTORS)
        return MotorTargets(q, z.copy(), _per_motor(KP), _per_motor(KD), z.copy(),
                            np.full(N_LEG_MOTORS, MODE_SERVO, dtype=int))

    def _stand_goal(self, cmd: HighCmd, t: float) -> np.ndarray:
        """The stand pose with the trunk where mode 1 asks (back to level in the other stand
        modes), the body pose moving at most BODY_RATE."""
        want = np.zeros(4)
        if self.mode == FORCE_STAND:
            h, euler = clamp_request(cmd.body_height, cmd.euler)
            want = np.array([h, *euler])
        dt = 0.0 if self.body_t is None else max(0.0, t - self.body_t)
        self.body_t = t
        self.body += np.clip(want - self.body, -BODY_RATE * dt, BODY_RATE * dt)
        if not self.body.any():
            return _per_motor(STAND)
        return force_stand_q(STAND, self.body[0], self.body[1:])
