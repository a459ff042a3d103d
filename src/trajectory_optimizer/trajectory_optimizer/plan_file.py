"""The plan file ``plan.npz`` (R3.6): sampled trajectory plus everything the checks need.

Arrays (world frame, feet in the order of ``feet``, FL FR RL RR for the Go1; forces are the
ground's force on the robot; foot points are contact points, i.e. the sole, not the foot-sphere
centre):

| key | shape | meaning |
|---|---|---|
| ``t`` | (N,) | sample times, s |
| ``base_pos``, ``base_euler`` | (N, 3) | base (CoM) position; Euler ZYX roll, pitch, yaw |
| ``base_lin_vel``, ``base_ang_vel`` | (N, 3) | linear velocity; angular velocity ω (world) |
| ``base_lin_acc``, ``base_ang_acc`` | (N, 3) | accelerations (world) |
| ``foot_pos``, ``foot_vel``, ``foot_acc``, ``foot_force`` | (N, F, 3) | per foot |
| ``contact`` | (N, F) bool | stance flags |
| ``foot_terrain_height``, ``foot_normal`` | (N, F), (N, F, 3) | terrain under each foot |

Scalars and metadata: ``status`` (IPOPT's return status or the reason for a failure),
``success``, ``gravity``, ``mass``, ``inertia`` (3x3), ``duration``, ``solve_time_s``,
``build_time_s``, ``iterations``, ``mu``, ``force_limit``, ``goal``, ``goal_yaw``, ``start``,
``start_yaw``, ``start_ground``, ``nominal_stance``, ``max_dev``, ``robot``, ``robot_file``,
``body_preset``, ``feet``, ``hip_pos``, ``hip_lateral``, ``gait``, ``phase_durations`` (F, P, NaN
padded), ``contact_at_start``, ``optimize_phases``, ``dynamic_dt``, ``rom_dt``,
``base_poly_dt``, ``hessian``, ``terrain``, ``terrain_kind``, ``format``.

A failed solve still writes a file: ``success`` false, ``status`` says why, and the arrays hold
IPOPT's last iterate (marked, not to be tracked).
"""
from __future__ import annotations

import dataclasses
import io
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .schedule import ContactSchedule
from .solve import Solution

FORMAT = 'robozoo-plan-1'
_ARRAYS = {  # key: (trailing shape, with 'F' for the foot count)
    't': (), 'base_pos': (3,), 'base_euler': (3,), 'base_lin_vel': (3,), 'base_ang_vel': (3,),
    'base_lin_acc': (3,), 'base_ang_acc': (3,), 'foot_pos': ('F', 3), 'foot_vel': ('F', 3),
    'foot_acc': ('F', 3), 'foot_force': ('F', 3), 'contact': ('F',),
    'foot_terrain_height': ('F',), 'foot_normal': ('F', 3)}
_SCALARS = ('gravity', 'mass', 'duration', 'solve_time_s', 'build_time_s', 'iterations', 'mu',
            'force_limit', 'goal_yaw', 'start_yaw', 'start_ground', 'dynamic_dt', 'rom_dt',
            'base_poly_dt')
_STRINGS = ('status', 'robot', 'robot_file', 'body_preset', 'gait', 'hessian', 'terrain',
            'terrain_kind', 'format')


class PlanFileError(ValueError):
    """A plan file that cannot be used; the message is one line naming the file."""


def plan_arrays(sol: Solution, samples: dict[str, np.ndarray], gait: str) -> dict[str, Any]:
    """Everything the plan file holds, from a solution and its samples."""
    robot, task, problem = sol.robot, sol.task, sol.problem
    sched = sol.schedule
    width = max(len(d) for d in sched.durations)
    phases = np.full((sched.n_feet, width), np.nan)
    for foot, d in enumerate(sched.durations):
        phases[foot, :len(d)] = d
    opts = problem.options
    return {
        **samples,
        'format': FORMAT, 'status': sol.status, 'success': bool(sol.success),
        'gravity': task.gravity, 'mass': robot.body.mass, 'inertia': robot.body.inertia,
        'duration': sched.duration, 'solve_time_s': sol.solve_time_s,
        'build_time_s': sol.build_time_s, 'iterations': sol.iterations, 'mu': task.mu,
        'force_limit': task.force_limit, 'goal': np.array(task.goal, float),
        'goal_yaw': task.goal_yaw, 'start': np.array(task.start, float),
        'start_yaw': task.start_yaw,
        'start_ground': float(problem.terrain.height(*task.start)),
        'nominal_stance': robot.nominal_stance, 'max_dev': robot.max_dev,
        'robot': robot.name, 'robot_file': robot.source, 'body_preset': robot.body.preset,
        'feet': np.array(robot.feet), 'hip_pos': robot.hip_pos, 'hip_lateral': robot.hip_lateral,
        'gait': gait, 'phase_durations': phases,
        'contact_at_start': np.array(sched.contact_at_start, bool),
        'optimize_phases': bool(opts.optimize_phases), 'dynamic_dt': opts.dynamic_dt,
        'rom_dt': opts.rom_dt, 'base_poly_dt': opts.base_poly_dt, 'hessian': opts.hessian,
        'terrain': problem.terrain.source, 'terrain_kind': problem.terrain.kind,
    }


def save_plan(path: str | Path, arrays: dict[str, Any]) -> Path:
    """Write ``plan.npz`` atomically (a kill leaves the old file or none)."""
    path = Path(path)
    tmp = path.with_name(f'.{path.name}.{os.getpid()}.tmp')
    buf = io.BytesIO()
    np.savez(buf, **{k: np.asarray(v) for k, v in arrays.items()})
    tmp.write_bytes(buf.getvalue())
    os.replace(tmp, path)
    return path


@dataclasses.dataclass
class PlanSample:
    """The plan at one time (linear interpolation between samples; contacts from the phases)."""
    t: float
    base_pos: np.ndarray  # (3,)
    base_euler: np.ndarray  # (3,) roll, pitch, yaw
    base_quat: np.ndarray  # (4,) w, x, y, z
    base_lin_vel: np.ndarray
    base_ang_vel: np.ndarray  # world
    base_lin_acc: np.ndarray
    base_ang_acc: np.ndarray
    foot_pos: np.ndarray  # (F, 3) contact points, world
    foot_vel: np.ndarray
    foot_force: np.ndarray  # (F, 3) ground on robot, world
    contact: np.ndarray  # (F,) bool


class Plan(dict):
    """A validated plan file: a dict of its arrays with helpers for tracking."""

    @property
    def schedule(self) -> ContactSchedule:
        durs = [tuple(float(x) for x in row[np.isfinite(row)]) for row in self['phase_durations']]
        return ContactSchedule(str(self['gait']), tuple(durs),
                               tuple(bool(b) for b in self['contact_at_start']))

    @property
    def success(self) -> bool:
        return bool(self['success'])

    def at(self, t: float) -> PlanSample:
        """The plan at time ``t`` (clamped to [0, duration])."""
        times = self['t']
        t = float(np.clip(t, times[0], times[-1]))
        i = int(np.clip(np.searchsorted(times, t) - 1, 0, len(times) - 2))
        w = (t - times[i]) / (times[i + 1] - times[i])

        def lerp(key: str) -> np.ndarray:
            a = self[key]
            return (1 - w) * a[i] + w * a[i + 1]

        euler = lerp('base_euler')
        return PlanSample(
            t=t, base_pos=lerp('base_pos'), base_euler=euler, base_quat=quat_from_euler(euler),
            base_lin_vel=lerp('base_lin_vel'), base_ang_vel=lerp('base_ang_vel'),
            base_lin_acc=lerp('base_lin_acc'), base_ang_acc=lerp('base_ang_acc'),
            foot_pos=lerp('foot_pos'), foot_vel=lerp('foot_vel'), foot_force=lerp('foot_force'),
            contact=self.schedule.contact([t])[0])


def quat_from_euler(e: np.ndarray) -> np.ndarray:
    """(w, x, y, z) of R = Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr = np.cos(e[..., 0] / 2), np.sin(e[..., 0] / 2)
    cp, sp = np.cos(e[..., 1] / 2), np.sin(e[..., 1] / 2)
    cy, sy = np.cos(e[..., 2] / 2), np.sin(e[..., 2] / 2)
    return np.stack([cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
                     cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy], -1)


def load_plan(path: str | Path) -> Plan:
    """Read and validate a plan file; any problem is one :class:`PlanFileError` line."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as npz:
            data = {k: npz[k] for k in npz.files}
    except FileNotFoundError:
        raise PlanFileError(f'{path}: no such plan file') from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise PlanFileError(f'{path}: not a plan file (.npz): '
                            f'{" ".join(str(exc).split()) or type(exc).__name__}') from None
    return Plan(validate(data, str(path)))


def validate(data: dict[str, np.ndarray], where: str = 'plan') -> dict[str, Any]:
    """Check keys, shapes and values; unwrap 0-d arrays to Python scalars."""
    def fail(msg: str):
        raise PlanFileError(f'{where}: {msg}')

    data = {k: np.asarray(v) for k, v in data.items()}

    if str(data.get('format', '')) != FORMAT:
        fail(f"not a {FORMAT} plan (format field {str(data.get('format', 'missing'))!r})")
    missing = [k for k in (*_ARRAYS, *_SCALARS, *_STRINGS, 'success', 'inertia', 'goal',
                           'start', 'nominal_stance', 'max_dev', 'feet', 'phase_durations',
                           'contact_at_start', 'hip_pos', 'hip_lateral', 'optimize_phases')
               if k not in data]
    if missing:
        fail(f"missing field '{missing[0]}'" + (f' (and {len(missing) - 1} more)'
                                                 if len(missing) > 1 else ''))
    out: dict[str, Any] = dict(data)
    for k in (*_SCALARS, *_STRINGS, 'success', 'optimize_phases'):
        if data[k].shape != ():
            fail(f"field '{k}' must be a scalar, got shape {data[k].shape}")
        out[k] = data[k].item()
    n_feet = len(data['feet'])
    t = data['t']
    if t.ndim != 1 or len(t) < 2 or not np.all(np.diff(t) > 0):
        fail("field 't' must be at least 2 increasing times")
    for key, tail in _ARRAYS.items():
        shape = (len(t), *(n_feet if s == 'F' else s for s in tail))
        if data[key].shape != shape:
            fail(f"field '{key}' has shape {data[key].shape}, expected {shape}")
        if key != 'contact' and not np.all(np.isfinite(data[key])):
            if out['success']:
                fail(f"field '{key}' holds NaN or infinite values")
    for key, shape in (('inertia', (3, 3)), ('goal', (2,)), ('start', (2,)),
                       ('nominal_stance', (n_feet, 3)), ('max_dev', (3,)),
                       ('hip_pos', (n_feet, 3)), ('hip_lateral', (n_feet,)),
                       ('contact_at_start', (n_feet,))):
        if data[key].shape != shape:
            fail(f"field '{key}' has shape {data[key].shape}, expected {shape}")
    if data['phase_durations'].ndim != 2 or data['phase_durations'].shape[0] != n_feet:
        fail(f"field 'phase_durations' must have one row per foot ({n_feet})")
    if abs(out['duration'] - t[-1]) > 1e-6:
        fail(f"the last sample ({t[-1]:g} s) is not the duration ({out['duration']:g} s)")
    if not out['gravity'] > 0 or not out['mass'] > 0:
        fail('gravity and mass must be positive')
    return out
