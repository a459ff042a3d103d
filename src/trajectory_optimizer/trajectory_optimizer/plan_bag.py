"""A plan as a rosbag2 (MCAP) for rviz, Foxglove and ``ros2 bag`` (R3.6, R3.7).

Every sample at its plan time (log time = header stamp = t, from 0):

| topic | type | content |
|---|---|---|
| ``/plan/base/pose`` | geometry_msgs/PoseStamped | base position and orientation (world) |
| ``/plan/base/twist`` | geometry_msgs/TwistStamped | linear and angular velocity (world) |
| ``/plan/base/accel`` | geometry_msgs/AccelStamped | linear and angular acceleration (world) |
| ``/plan/foot/<F>/position`` | geometry_msgs/PointStamped | contact point of foot F (world) |
| ``/plan/foot/<F>/force`` | geometry_msgs/Vector3Stamped | ground force on the robot at F (world) |
| ``/plan/foot/<F>/contact`` | std_msgs/Bool | stance flag |
| ``/tf`` | tf2_msgs/TFMessage | world -> plan_base |

and every ``marker_dt`` a ``/plan/markers`` visualization_msgs/MarkerArray: base box, feet
(green in stance, grey in swing), force arrows (1 mm per N), range-of-motion boxes in the base
frame, and a gravity arrow whose length is ``GRAVITY_ARROW_M_PER_MS2`` x the plan's g (R3.7; the
thesis edited xpp's arrow by hand, spec go1.md §5.5).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .plan_file import quat_from_euler

WORLD_FRAME = 'world'
BASE_FRAME = 'plan_base'
GRAVITY_ARROW_M_PER_MS2 = 0.05  # m of arrow per m/s^2: Earth 0.49 m, Mars 0.19 m
FORCE_ARROW_M_PER_N = 0.001


def _msg(name: str):
    from zoo_runtime.messages import get_message
    return get_message(name)


def write_plan_bag(path: str | Path, plan, marker_dt: float = 0.02) -> Path:
    """Write the plan's bag to the new directory ``path``."""
    from zoo_runtime.bag import BagWriter

    M = {n.split('/')[-1]: _msg(n) for n in (
        'std_msgs/msg/Header', 'builtin_interfaces/msg/Time', 'geometry_msgs/msg/PoseStamped',
        'geometry_msgs/msg/Pose', 'geometry_msgs/msg/Point', 'geometry_msgs/msg/Quaternion',
        'geometry_msgs/msg/Vector3', 'geometry_msgs/msg/TwistStamped', 'geometry_msgs/msg/Twist',
        'geometry_msgs/msg/AccelStamped', 'geometry_msgs/msg/Accel',
        'geometry_msgs/msg/PointStamped', 'geometry_msgs/msg/Vector3Stamped', 'std_msgs/msg/Bool',
        'tf2_msgs/msg/TFMessage', 'geometry_msgs/msg/TransformStamped',
        'geometry_msgs/msg/Transform', 'visualization_msgs/msg/MarkerArray',
        'visualization_msgs/msg/Marker', 'std_msgs/msg/ColorRGBA')}
    feet = [str(f).split('_')[0] for f in plan['feet']]
    t = np.asarray(plan['t'])
    quats = quat_from_euler(np.asarray(plan['base_euler']))
    next_marker = 0.0
    path = Path(path)
    with BagWriter(path, flush_period_s=None) as bag:
        for i, ti in enumerate(t):
            t_ns = int(round(float(ti) * 1e9))
            stamp = M['Time'](sec=t_ns // 1_000_000_000, nanosec=t_ns % 1_000_000_000)

            def header(frame: str = WORLD_FRAME):
                return M['Header'](stamp=stamp, frame_id=frame)

            def vec(v) -> object:
                return M['Vector3'](x=float(v[0]), y=float(v[1]), z=float(v[2]))

            def point(v) -> object:
                return M['Point'](x=float(v[0]), y=float(v[1]), z=float(v[2]))

            q = quats[i]
            quat = M['Quaternion'](w=float(q[0]), x=float(q[1]), y=float(q[2]), z=float(q[3]))
            pos = plan['base_pos'][i]
            bag.write('/plan/base/pose', M['PoseStamped'](
                header=header(), pose=M['Pose'](position=point(pos), orientation=quat)), t_ns)
            bag.write('/plan/base/twist', M['TwistStamped'](header=header(), twist=M['Twist'](
                linear=vec(plan['base_lin_vel'][i]), angular=vec(plan['base_ang_vel'][i]))), t_ns)
            bag.write('/plan/base/accel', M['AccelStamped'](header=header(), accel=M['Accel'](
                linear=vec(plan['base_lin_acc'][i]), angular=vec(plan['base_ang_acc'][i]))), t_ns)
            for k, foot in enumerate(feet):
                bag.write(f'/plan/foot/{foot}/position', M['PointStamped'](
                    header=header(), point=point(plan['foot_pos'][i, k])), t_ns)
                bag.write(f'/plan/foot/{foot}/force', M['Vector3Stamped'](
                    header=header(), vector=vec(plan['foot_force'][i, k])), t_ns)
                bag.write(f'/plan/foot/{foot}/contact',
                          M['Bool'](data=bool(plan['contact'][i, k])), t_ns)
            bag.write('/tf', M['TFMessage'](transforms=[M['TransformStamped'](
                header=header(), child_frame_id=BASE_FRAME, transform=M['Transform'](
                    translation=vec(pos), rotation=quat))]), t_ns)
            if ti >= next_marker - 1e-9 or i == len(t) - 1:
                bag.write('/plan/markers', _markers(M, plan, i, header, quat, point), t_ns)
                next_marker += marker_dt
    return path


def _color(M, r: float, g: float, b: float, a: float = 1.0):
    return M['ColorRGBA'](r=r, g=g, b=b, a=a)


def _markers(M, plan, i: int, header, quat, point):
    Marker = M['Marker']
    out = []

    def add(ns: str, mid: int, mtype: int, **kw) -> None:
        out.append(Marker(header=header(kw.pop('frame', WORLD_FRAME)), ns=ns, id=mid,
                          type=mtype, action=Marker.ADD, **kw))

    def scale(x: float, y: float, z: float):
        return M['Vector3'](x=float(x), y=float(y), z=float(z))

    identity = M['Quaternion'](w=1.0, x=0.0, y=0.0, z=0.0)
    pose = M['Pose']
    add('base', 0, Marker.CUBE, pose=pose(position=point(plan['base_pos'][i]), orientation=quat),
        scale=scale(0.3762, 0.0935, 0.114), color=_color(M, 0.1, 0.1, 0.1, 0.8))
    for k in range(len(plan['feet'])):
        p = plan['foot_pos'][i, k]
        stance = bool(plan['contact'][i, k])
        add('feet', k, Marker.SPHERE, pose=pose(position=point(p), orientation=identity),
            scale=scale(0.04, 0.04, 0.04),
            color=_color(M, 0.1, 0.8, 0.1) if stance else _color(M, 0.6, 0.6, 0.6))
        f = plan['foot_force'][i, k]
        add('forces', k, Marker.ARROW, points=[point(p), point(p + FORCE_ARROW_M_PER_N * f)],
            scale=scale(0.01, 0.02, 0.03), color=_color(M, 0.9, 0.2, 0.1))
        add('range_of_motion', k, Marker.CUBE, frame=BASE_FRAME,
            pose=pose(position=point(plan['nominal_stance'][k]), orientation=identity),
            scale=scale(*(2 * np.asarray(plan['max_dev']))), color=_color(M, 0.2, 0.3, 0.9, 0.25))
    top = plan['base_pos'][i] + np.array([0.0, 0.0, 0.6])
    length = GRAVITY_ARROW_M_PER_MS2 * float(plan['gravity'])
    add('gravity', 0, Marker.ARROW, points=[point(top), point(top - [0.0, 0.0, length])],
        scale=scale(0.02, 0.04, 0.05), color=_color(M, 0.9, 0.8, 0.1))
    return M['MarkerArray'](markers=out)
