"""Sample a solution's splines into the plan arrays (R3.6): base pose, twist and acceleration,
foot motion, forces and contacts, every ``dt`` seconds, in the world frame (angular velocity and
acceleration by rigid_body's Euler-rate maps)."""
from __future__ import annotations

import numpy as np

from . import splines
from .rigid_body import angular_acceleration, angular_velocity
from .solve import Solution


def sample_times(duration: float, dt: float) -> np.ndarray:
    """0, dt, 2 dt, ..., T (T always included; integer multiples, no accumulated rounding)."""
    n = int(np.floor(duration / dt + 1e-9))
    t = np.arange(n + 1) * dt
    if duration - t[-1] > 1e-9:
        t = np.append(t, duration)
    return t


def sample(sol: Solution, dt: float = 0.01) -> dict[str, np.ndarray]:
    """The plan arrays of a solution at times 0, dt, ..., T."""
    lay, sched = sol.problem.layout, sol.schedule
    t = sample_times(sched.duration, dt)
    out: dict[str, np.ndarray] = {'t': t}

    def base(which: str, deriv: int) -> np.ndarray:
        P = sol.nodes(getattr(lay, f'base_{which}_pos'))
        V = sol.nodes(getattr(lay, f'base_{which}_vel'))
        return splines.evaluate(P, V, lay.base_durations, t, deriv)

    out['base_pos'], out['base_lin_vel'], out['base_lin_acc'] = (base('lin', d) for d in range(3))
    e, ed, edd = (base('ang', d) for d in range(3))
    out['base_euler'] = e
    out['base_ang_vel'] = angular_velocity(e, ed)
    out['base_ang_acc'] = angular_acceleration(e, ed, edd)
    n = sched.n_feet
    pos, vel, acc, force = (np.zeros((len(t), n, 3)) for _ in range(4))
    for foot in range(n):
        m, f = lay.motion[foot], lay.force[foot]
        mdur = splines.poly_durations(m.polys, sched.durations[foot])
        fdur = splines.poly_durations(f.polys, sched.durations[foot])
        Pm, Vm = sol.nodes(m.pos), sol.nodes(m.vel)
        pos[:, foot] = splines.evaluate(Pm, Vm, mdur, t, 0)
        vel[:, foot] = splines.evaluate(Pm, Vm, mdur, t, 1)
        acc[:, foot] = splines.evaluate(Pm, Vm, mdur, t, 2)
        force[:, foot] = splines.evaluate(sol.nodes(f.pos), sol.nodes(f.vel), fdur, t, 0)
    out.update(foot_pos=pos, foot_vel=vel, foot_acc=acc, foot_force=force,
               contact=sched.contact(t))
    terrain = sol.problem.terrain
    out['foot_terrain_height'] = terrain.height(pos[..., 0], pos[..., 1])
    out['foot_normal'] = terrain.normal(pos[..., 0], pos[..., 1])
    return out
