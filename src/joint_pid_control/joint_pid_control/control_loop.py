"""What the PID node does each tick, without ROS: inputs by joint name, watchdog, the controller
chosen by preset, and the one-time reports of clamped targets and silent inputs. Times are ROS
time in integer nanoseconds.

Default gains (``preset: default``): p = 20 1/s, i = 4 1/s², d = 0, conditional integration, output
clamped to the joint's velocity limit. On a velocity-driven joint the loop is an integrator under a
PI law, whose step response overshoots by about i/p² (here 1 %) however the rest is tuned, so i is
kept small against p; p = 20 gives a 50 ms time constant, fast against the gait's T/18 updates.
``preset: thesis`` runs the seed's fixed law instead (:mod:`.seed_law`) at the physics rate.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

import numpy as np

from .joint_limits import JointLimits
from .params import Gains
from .pid import JointPid
from .seed_law import SeedLaw
from .watchdog import Watchdog

PRESETS = ('default', 'thesis')
DEFAULT_GAINS = Gains(p=20.0, i=4.0, d=0.0, derivative_filter_time_constant=0.01)
DEFAULT_RATE_HZ = {'default': 100.0, 'thesis': 1000.0}


def with_velocity_clamp(g: Gains, lim: JointLimits) -> Gains:
    """Unset (infinite) output clamps default to the joint's velocity limit."""
    return replace(g, u_clamp_max=g.u_clamp_max if math.isfinite(g.u_clamp_max) else lim.velocity,
                   u_clamp_min=g.u_clamp_min if math.isfinite(g.u_clamp_min) else -lim.velocity)


class ControlLoop:
    def __init__(self, joints: Sequence[str], preset: str, gains: Sequence[Gains],
                 limits: Sequence[JointLimits], watchdog_timeout: float):
        if preset not in PRESETS:
            raise ValueError(f"preset: expected one of {', '.join(PRESETS)}, got {preset!r}")
        if len(set(joints)) != len(joints) or not joints:
            raise ValueError(f'joints: expected a non-empty list of distinct names, got {joints}')
        self.joints = tuple(joints)
        self.index = {j: k for k, j in enumerate(self.joints)}
        self.preset = preset
        n = len(self.joints)
        lower = [lim.lower for lim in limits]
        upper = [lim.upper for lim in limits]
        self.limits = list(limits)
        if preset == 'thesis':
            self.controller: JointPid | SeedLaw = SeedLaw(lower, upper)
        else:
            self.controller = JointPid(self.effective_gains(gains), lower, upper)
        self.watchdog = Watchdog(n, watchdog_timeout)
        self.target = np.zeros(n)
        self.target_velocity = np.zeros(n)
        self.measured = np.zeros(n)
        self._clamped = np.zeros(n, dtype=bool)
        self._live = np.zeros(n, dtype=bool)
        self._live_key = self._live.tobytes()  # _live as bytes: compared at every tick
        self._all_live = np.ones(n, dtype=bool).tobytes()
        self._last_tick_ns: int | None = None
        self._selections: dict = {}  # names of a message -> _select's result (see there)

    def reset(self) -> None:
        """Forget targets, states and controller memory: every joint stops until a fresh target
        and a fresh state arrive (after a simulation reset, for reproducible runs)."""
        n = len(self.joints)
        self.controller.reset()
        self.watchdog = Watchdog(n, self.watchdog.timeout)
        self.target[:] = 0.0
        self.target_velocity[:] = 0.0
        self.measured[:] = 0.0
        self._clamped[:] = False
        self._live[:] = False
        self._live_key = self._live.tobytes()
        self._last_tick_ns = None

    def effective_gains(self, gains: Sequence[Gains]) -> list[Gains]:
        """Gains with the velocity-limit clamp filled in, validated (ParameterError names the
        joint's gains)."""
        return [with_velocity_clamp(g, lim).validated(f'gains.{j}')
                for j, g, lim in zip(self.joints, gains, self.limits)]

    def set_gains(self, gains: Sequence[Gains]) -> None:
        if self.preset == 'thesis':
            raise ValueError("preset 'thesis' runs the seed's fixed law; its gains cannot be set")
        self.controller.set_gains(self.effective_gains(gains))

    def set_limits(self, limits: Sequence[JointLimits]) -> None:
        self.limits = list(limits)
        self.controller.set_limits([lim.lower for lim in limits], [lim.upper for lim in limits])

    def _select(self, names: Sequence[str], n_values: int, what: str):
        """(src, dst, mask): the message's indices of our joints, their indices here, and the
        mask of our joints named. Kept per list of names: a publisher sends the same names at
        every tick (the arrays are never written to)."""
        if n_values != len(names):
            raise ValueError(f'{what}: {len(names)} names but {n_values} values')
        key = names if names.__class__ is tuple else tuple(names)
        hit = self._selections.get(key)
        if hit is None:
            pairs = [(k, self.index[nm]) for k, nm in enumerate(names) if nm in self.index]
            src = np.array([p[0] for p in pairs], dtype=int)
            dst = np.array([p[1] for p in pairs], dtype=int)
            mask = np.zeros(len(self.joints), dtype=bool)
            mask[dst] = True
            if len(self._selections) >= 16:  # many different name lists: keep the latest
                self._selections.clear()
            hit = self._selections[key] = (src, dst, mask)
        return hit

    def on_targets(self, names: Sequence[str], positions: Sequence[float],
                   velocities: Sequence[float], now_ns: int) -> None:
        """Targets of the named joints (others ignored: another controller may own them).
        ``velocities`` empty or one per name (the feed-forward)."""
        src, dst, mask = self._select(names, len(positions), 'joint_targets position')
        pos = np.asarray(positions, dtype=float)[src]
        if not np.isfinite(pos).all():
            raise ValueError('joint_targets: non-finite position')
        vel = 0.0
        if len(velocities):
            self._select(names, len(velocities), 'joint_targets velocity')
            vel = np.asarray(velocities, dtype=float)[src]
            if not np.isfinite(vel).all():
                raise ValueError('joint_targets: non-finite velocity')
        self.target[dst] = pos
        self.target_velocity[dst] = vel
        self.watchdog.saw_targets(mask, now_ns)

    def on_states(self, names: Sequence[str], positions: Sequence[float], now_ns: int) -> None:
        src, dst, mask = self._select(names, len(positions), 'joint_states position')
        pos = np.asarray(positions, dtype=float)[src]
        ok = np.isfinite(pos)
        if ok.all():
            self.measured[dst] = pos
        else:
            self.measured[dst[ok]] = pos[ok]
            mask = np.zeros(len(self.joints), dtype=bool)
            mask[dst[ok]] = True
        self.watchdog.saw_states(mask, now_ns)

    def tick(self, now_ns: int) -> tuple[np.ndarray, list[str], list[str], list[str]]:
        """Velocity commands, and the joints whose target just got clamped, that just went
        silent (stopped) and that just came back (each reported once per episode)."""
        # dt from integer nanoseconds: the same step gives the same dt at any absolute time.
        dt = 0.0 if self._last_tick_ns is None else (now_ns - self._last_tick_ns) * 1e-9
        self._last_tick_ns = now_ns
        live = self.watchdog.live(now_ns)
        cmd, clamped = self.controller.update(self.target, self.measured, dt,
                                              self.target_velocity)
        # the usual cases skip what changes nothing: every joint live (no masking), the same
        # joints live as at the last tick (none went silent or came back)
        key = live.tobytes()
        if key != self._all_live:
            cmd = np.where(live, cmd, 0.0)
            self.controller.reset(~live)  # no integral or derivative memory across a silence
            clamped &= live
        names = lambda m: [self.joints[k] for k in np.flatnonzero(m)]  # noqa: E731
        new_clamped = names(clamped & ~self._clamped) if clamped.any() else []
        if key == self._live_key:
            went_silent, came_back = [], []
        else:
            went_silent = names(self._live & ~live)
            came_back = names(live & ~self._live)
        self._clamped, self._live, self._live_key = clamped, live, key
        return cmd, new_clamped, went_silent, came_back
