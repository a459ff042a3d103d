"""One gravity's run folder of the gravity study as arrays (spec go1.md §6, R5.5, R7.1).

A run folder (``robozoo run go1_trot_<g> --record ... --output DIR/<g>``) holds ``plan.npz``,
``summary.json`` and ``bag/``. :func:`load_run` reads them and puts the recorded signals on the
plan's clock: the tracker's sequence times in summary.json (``sequence_s``) count from its first
tick, which is the first ``/go1/joint_pd_commands`` message, so plan time = (log time - first
command - plan_start) x playback speed.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np

from .plan_file import Plan, load_plan
from .robot_model import RobotModel, load_robot
from .tracking import LegKinematics, plan_to_joints

ROBOT = 'go1'
TOPICS = {'joints': f'/{ROBOT}/joint_states', 'odometry': f'/{ROBOT}/odometry/ground_truth',
          'imu': f'/{ROBOT}/imu', 'commands': f'/{ROBOT}/joint_pd_commands',
          'contacts': f'/{ROBOT}/contacts'}
RECORD_TOPICS = [*TOPICS.values(), '/tf']  # /tf: the run replays in Foxglove/rviz
STAND_POSE = (0.0, 0.67, -1.3)  # plan_tracker's stand_pose default: the IK's first guess
FOOT_RADIUS = 0.02  # plan_tracker's foot_radius default (the scenarios keep it)


class StudyDataError(ValueError):
    """A run folder the study cannot use; one line naming the folder."""


@dataclasses.dataclass
class Tracked:
    """Recorded signals; ``tp_*`` are plan times (negative before the plan, > T after it)."""
    tp_cmd: np.ndarray         # (K,) every 500 Hz tracker tick
    q_cmd: np.ndarray          # (K, J) commanded joint angles
    tau_cmd: np.ndarray        # (K, J) commanded torques (effort field: -J^T f, or feedback's)
    in_plan: np.ndarray        # (K,) bool: the tick tracked the plan (the tracker's 'track' phase)
    tp_joints: np.ndarray      # (M,) joint_states
    q: np.ndarray              # (M, J) measured joint angles
    effort: np.ndarray         # (M, J) joint torques the simulator applied
    prev_state: np.ndarray     # (K,) index of the last joint state before each tick
    tp_odom: np.ndarray        # (L,) ground-truth odometry
    base_pos: np.ndarray       # (L, 3)
    tp_imu: np.ndarray         # (I,) IMU
    lin_acc: np.ndarray        # (I, 3) base linear acceleration, world, gravity removed
    ang_vel: np.ndarray        # (I, 3) angular velocity, world
    ang_acc: np.ndarray        # (I, 3) its finite-difference derivative, world
    tp_contacts: np.ndarray    # (C,) /go1/contacts (the study records it at every physics step)
    in_contact: np.ndarray     # (C, F) bool, feet in the plan's order
    contact_fz: np.ndarray     # (C, F) vertical contact force on each foot (N)


@dataclasses.dataclass
class GravityRun:
    name: str                  # earth, intermediate, mars
    folder: Path
    plan: Plan
    summary: dict
    joints: list[str]          # joint order of every joint array (the simulator's)
    q_plan: np.ndarray         # (N, J) planned joint angles: IK of the plan's samples
    tau_plan: np.ndarray       # (N, J) planned feed-forward torques -J^T f
    tracked: Tracked | None    # None: the plan was not tracked (failed plan, no bag)
    robot: RobotModel          # the plan's robot file (its feet, legs and reach)

    @property
    def gravity(self) -> float:
        return float(self.plan['gravity'])

    @property
    def tracker(self) -> dict:
        return self.summary.get('metrics', {}).get('plan_tracker', {})


def _kinematics(model: RobotModel, joints: list[str]) -> LegKinematics:
    """The plan_tracker's IK set-up (tracker_node._prepare), so planned angles equal commanded."""
    from zoo_description_tools import xacro_to_urdf

    legs = [[j for j in joints if j.startswith(foot.split('_')[0] + '_')] for foot in model.feet]
    urdf = xacro_to_urdf(model.package, model.xacro_args)
    return LegKinematics(urdf, list(model.feet), legs, joints, FOOT_RADIUS)


def plan_joints(plan: Plan, model: RobotModel,
                joints: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(q, tau_ff) of every plan sample, as the tracker computes them."""
    kinds = [next(i for i, k in enumerate(('hip', 'thigh', 'calf')) if f'_{k}' in j)
             for j in joints]
    stand = np.array([STAND_POSE[k] for k in kinds])
    q, tau, _ = plan_to_joints(_kinematics(model, joints), plan['t'], plan['base_pos'],
                               plan['base_euler'], plan['foot_pos'], plan['foot_force'], stand)
    return q, tau


def _quat_matrices(w, x, y, z) -> np.ndarray:
    """(N, 3, 3) world-from-body rotations of unit quaternions."""
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], -2)


def _read_bag(bag: Path) -> dict:
    from zoo_runtime.bag import read_bag
    if not bag.is_dir():
        raise StudyDataError(f'{bag.parent}: no bag/ (run with --record)')
    try:
        return read_bag(bag, TOPICS.values())
    except KeyError as exc:
        raise StudyDataError(f'{exc.args[0]} (the study records {" ".join(TOPICS.values())})') \
            from None


def _tracked(tables: dict, tracker: dict, plan: Plan, joints: list[str]) -> Tracked:
    cmd, js, odom, imu, con = (tables[TOPICS[k]] for k in
                               ('commands', 'joints', 'odometry', 'imu', 'contacts'))
    if list(cmd['name']) != joints:
        raise StudyDataError('joint_states and joint_pd_commands name other joints')
    seq = tracker['sequence_s']
    speed = float(plan['duration']) / (seq['plan_end'] - seq['plan_start'])
    t0 = float(cmd.t[0]) + seq['plan_start']  # log time of plan time 0

    def tp(t: np.ndarray) -> np.ndarray:
        return (t - t0) * speed

    # the tracker's own test of a tick being in the plan: plan_start <= t - t_first <= plan_end
    since = cmd.t - cmd.t[0]
    in_plan = (since >= seq['plan_start'] - 1e-9) & (since <= seq['plan_end'] + 1e-9)
    quat = [imu[f'orientation.{k}'] for k in 'wxyz']
    rot = _quat_matrices(*quat)
    acc_body = np.stack([imu[f'linear_acceleration.{k}'] for k in 'xyz'], 1)
    gyro_body = np.stack([imu[f'angular_velocity.{k}'] for k in 'xyz'], 1)
    # the accelerometer reads a - g_vec (specific force); the plan's acceleration excludes g
    lin_acc = np.einsum('nij,nj->ni', rot, acc_body) - np.array([0.0, 0.0, plan['gravity']])
    ang_vel = np.einsum('nij,nj->ni', rot, gyro_body)
    return Tracked(
        tp_cmd=tp(cmd.t), q_cmd=np.asarray(cmd['position']), tau_cmd=np.asarray(cmd['effort']),
        in_plan=in_plan, tp_joints=tp(js.t), q=np.asarray(js['position']),
        effort=np.asarray(js['effort']),
        # the tracker pairs each tick with the last joint state delivered before it
        prev_state=np.searchsorted(js.t, cmd.t, side='left') - 1,
        tp_odom=tp(odom.t),
        base_pos=np.stack([odom[f'pose.pose.position.{k}'] for k in 'xyz'], 1),
        tp_imu=tp(imu.t), lin_acc=lin_acc, ang_vel=ang_vel,
        ang_acc=np.gradient(ang_vel, imu.t, axis=0), **_contacts(con, plan, tp))


def _contacts(con, plan: Plan, tp) -> dict:
    """The feet's contact flags and vertical forces in the plan's foot order (the force is a
    sequence of Vector3: a Table has no column for it, so from the messages)."""
    feet = [str(f) for f in plan['feet']]
    links = list(con['link_names'])
    missing = [f for f in feet if f not in links]
    if missing:
        raise StudyDataError(f'{TOPICS["contacts"]} has no {", ".join(missing)} (links: '
                             f'{", ".join(links)})')
    order = [links.index(f) for f in feet]
    fz = np.array([[m.force[i].z for i in order] for m in con.msgs]).reshape(len(con.t), -1)
    return {'tp_contacts': tp(con.t),
            'in_contact': np.asarray(con['in_contact'], bool).reshape(len(con.t), -1)[:, order],
            'contact_fz': fz}


def load_run(folder: str | Path, name: str) -> GravityRun:
    """The plan, summary and (when tracked) the recorded signals of one gravity's run folder."""
    folder = Path(folder)
    try:
        summary = json.loads((folder / 'summary.json').read_text())
    except (OSError, ValueError) as exc:
        raise StudyDataError(f'{folder}: no readable summary.json ({exc})') from None
    plan = load_plan(folder / 'plan.npz')
    tracker = summary.get('metrics', {}).get('plan_tracker', {})
    tables = _read_bag(folder / 'bag')
    joints = list(tables[TOPICS['joints']]['name'])
    tracked = None  # a failed plan is never tracked: the robot only stands
    if plan['success'] and 'sequence_s' in tracker and len(tables[TOPICS['commands']]):
        tracked = _tracked(tables, tracker, plan, joints)
    robot = load_robot(str(plan['robot_file']))
    q_plan, tau_plan = plan_joints(plan, robot, joints)
    return GravityRun(name, folder, plan, summary, joints, q_plan, tau_plan, tracked, robot)
