"""The ZMP walk as a gait generator for the gait player (plug-in ``nao_zmp_walk``).

A :class:`~gait_player.generator.GaitGenerator` registered with the ``'pd'`` command interface:
besides the positions the protocol asks for, :meth:`NaoZmpWalk.pd_lists` gives each tick's
target velocities and feed-forward torques, and :attr:`kp`/:attr:`kd` the gains, which the
player sends as zoo_interfaces/JointPDCommand (the motor driver's loop, evaluated by the simulator
at every physics step). Position-only playback would leave the legs stiff against each other in
double support (README, "Why PD").
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import numpy as np

from .params import ZmpWalkParams
from .plan import ARM_POSTURE, WalkPlan, build_plan


def load_model(urdf_text: str):
    from zoo_description_tools.pinocchio_model import load_pinocchio
    return load_pinocchio(urdf_text, floating=True)[0]


def plan_walk(urdf_text: str, params: ZmpWalkParams) -> WalkPlan:
    """:func:`build_plan` (0.6-0.9 s for the Nao), or its result from the description cache
    (keyed by the URDF, the parameters and this package's code; JSON keeps floats exact, so a
    cached plan is the computed one bit for bit)."""
    from zoo_description_tools.cache import cached, content_key, tree_files
    key = content_key('zmp_walk plan', urdf_text, params.as_dict(),
                      files=tree_files(Path(__file__).resolve().parent))
    data = cached('zmp-walk-plan', key,
                  lambda: build_plan(load_model(urdf_text), urdf_text, params).to_json())
    return WalkPlan.from_json(data, params)


class NaoZmpWalk:
    def __init__(self, urdf_text: str, params: ZmpWalkParams | None = None):
        self.params = params or ZmpWalkParams()
        self.plan = plan_walk(urdf_text, self.params)
        self.joints: tuple[str, ...] = self.plan.joints
        self.period = self.plan.period  # two steps
        arms = np.array([j in ARM_POSTURE for j in self.joints])
        self.kp = np.where(arms, self.params.kp_arm, self.params.kp).tolist()
        self.kd = np.where(arms, self.params.kd_arm, self.params.kd).tolist()

    # -- the GaitGenerator protocol ----------------------------------------------------------
    @property
    def sample_interval(self) -> float:
        return self.plan.dt

    def sample_rad(self, k: int) -> np.ndarray:
        return self.plan.at(k * self.plan.dt)[0]

    def continuous_rad(self, elapsed: float) -> np.ndarray:
        return self.plan.at(elapsed)[0]

    def continuous_list(self, elapsed: float) -> list[float]:
        return self.plan.at(elapsed)[0].tolist()

    def pd_lists(self, elapsed: float) -> tuple[list[float], list[float], list[float]]:
        """Target positions, velocities and feed-forward torques at ``elapsed`` (fresh lists or
        the plan's own: do not modify them)."""
        return self.plan.lists_at(elapsed)

    def limit_violations(self, limits: Mapping[str, tuple[float, float]]) -> dict[str, int]:
        """Plan samples outside [lower, upper] per joint (none expected: the plan is checked)."""
        out = {}
        for k, joint in enumerate(self.joints):
            if joint in limits:
                lo, hi = limits[joint]
                n = int(np.count_nonzero((self.plan.q[:, k] < lo) | (self.plan.q[:, k] > hi)))
                if n:
                    out[joint] = n
        return out
