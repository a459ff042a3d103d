"""The robot contract: one backend-neutral interface to simulated and real robots.

Everything the simulator node (``sim_node``), controllers and bridges need from a robot goes
through :class:`RobotBackend`; MuJoCo (``mujoco_backend.MujocoPhysics``) and Gazebo
(``gazebo.gazebo_backend.GazeboPhysics``) implement it, and so will the hardware bridges (a
Dynamixel bus, a Go1 over UDP). A backend serves one or more robots by name; what a robot *is*
(joints, limits, frames, sensors, URDF) is a :class:`RobotInfo`, built from the description
by the one URDF parser (``zoo_description_tools.parse_urdf``).

Units are SI; quaternions are w x y z; joint vectors follow ``RobotInfo.joints``. A backend may
lack a feature (``features``: ``joint_states``, ``odometry``, ``imu``, ``contacts``, ``tf``): the
node then does not publish it. ``tf`` is the links' world poses (``link_poses``: /tf and
``link_poses``). A backend that does not measure the base pose (a Dynamixel bus:
``joint_states`` only) returns NaN from ``base_pose`` (and ``penetration``): the metrics
observer then reports fall, tilt, drift, height (penetration) as not measured, null in
summary.json. Robots whose joints are servos that take goal positions (``RobotInfo.servo_goals``:
MuJoCo's simulated AX-12s, a Dynamixel bus) get them through ``servo_goals``, on
``/<robot>/joint_targets``. ``tests`` hold a pure-Python kinematic robot that implements this
contract and runs the same node shell and PID node (``test/test_robot_interface.py``).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

JOINT_KINDS = ('velocity', 'effort')
FALL_TILT_DEG = 45.0  # a base tilted further has fallen, whatever its height (per robot: RobotInfo)


@dataclasses.dataclass(frozen=True)
class TreeJoint:
    """A joint of the kinematic tree, for ``/tf``: parent and child link names."""
    name: str
    parent: str
    child: str
    fixed: bool


@dataclasses.dataclass
class RobotInfo:
    """What a robot is, independent of the backend that drives it."""
    name: str
    joints: list[str]                # commanded joints, in the order of every joint vector
    velocity_limits: np.ndarray      # rad/s or m/s per joint (inf: none)
    effort_limits: np.ndarray        # N m or N per joint (inf: none)
    base_link: str
    imu_link: str
    contact_links: list[str]
    links: list[str]                 # the order of link_poses()
    tree: list[TreeJoint]            # every URDF joint but the one to 'world'
    urdf: str                        # published latched on robot_description
    sensors: list[Any] = dataclasses.field(default_factory=list)  # plug-ins (sensors.Sensor)
    fall_height: float = -np.inf     # base height below which the robot has fallen (m)
    fall_tilt_deg: float = FALL_TILT_DEG  # base tilt beyond which it has fallen (180: never)
    servo_goals: bool = False        # joints take goal positions (servo_goals, joint_targets)


@runtime_checkable
class RobotBackend(Protocol):
    """A world of robots that time advances. Commands by joint index of ``RobotInfo.joints``;
    a rejected command (NaN, inf) returns False, an out-of-range one is clamped."""

    features: frozenset
    warnings: list[str]
    step_ns: int          # one physics step
    sim_ns: int           # time since start
    paused: bool

    def robot_names(self) -> list[str]: ...
    def robot_info(self, robot: str) -> RobotInfo: ...

    # time
    def advance(self, n_steps: int) -> None: ...          # n steps unless paused
    def step(self, n_steps: int) -> None: ...             # n steps even while paused
    def reset(self) -> None: ...
    def set_pose(self, name: str, xyz: Sequence[float], quat_wxyz: Sequence[float]) -> None: ...

    # commands
    def commander(self, robot: str, kind: str) -> Callable[[int, float], bool]: ...
    def commands(self, robot: str, joints: np.ndarray, kind: str, values: np.ndarray) -> int: ...
    # optional, for robots driven by a motor driver's PD loop (Unitree's MotorCmd):
    # pd_commands(robot, joints, position, velocity, kp, kd, effort) -> int, the law
    # tau = kp (q_d - q) + kd (dq_d - dq) + effort clamped to the effort limit at every step;
    # the node shell subscribes /<robot>/joint_pd_commands only where a backend has it
    # optional, for robots whose RobotInfo.servo_goals is true (servos in position mode):
    # servo_goals(robot, joints, positions, stamp_ns=0) -> int, goal positions (rad) taken,
    # NaN/inf dropped; stamp_ns: the sim time they were computed for (0: unstamped), so that a
    # goal that arrives after the servos' consumption it was meant for is not lost;
    # the node shell subscribes /<robot>/joint_targets only for those robots
    # optional for those: servo_settings(robot, joints, torque_enable, speed_limit, torque_limit),
    # a bus's RAM settings in SI (torque off = limp, rad/s cap with 0 = none, torque fraction);
    # the node shell subscribes /<robot>/servo_settings where a backend has it

    # state
    def joint_state(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def base_pose(self, robot: str) -> tuple[np.ndarray, np.ndarray]: ...
    def base_twist(self, robot: str) -> tuple[np.ndarray, np.ndarray]: ...
    def imu(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def contacts(self, robot: str) -> tuple[np.ndarray, np.ndarray]: ...
    def link_poses(self, robot: str) -> tuple[list[str], np.ndarray, np.ndarray]: ...
    def sensor_values(self, robot: str, sensor: Any) -> Any: ...
    # the deepest penetration now into anything, m (0: unknown; NaN: not measured)
    def penetration(self, robot: str) -> float: ...

    # optional: notes, lines the node logs once at start (a hardware link's set-up: port, servos)

    # commands the sanitiser dropped or clamped
    def command_warnings(self, now_ns: int) -> list[str]: ...  # throttled summaries
    def command_counts(self, robot: str) -> tuple[int, int]: ...  # (rejected, clamped)

    # the backend's own report for robozoo run (the robots' come from zoo_sim.metrics), asked
    # once the run is over (a hardware link stops its robot to answer)
    def metrics(self) -> Mapping[str, Any]: ...
    # optional: ``gravity``, the world's gravity vector (m/s^2) where the backend knows it; the
    # node publishes it latched on /sim/gravity (else the parameter's, else the world file's)


def robot_info_from(built, velocity_limits: np.ndarray, effort_limits: np.ndarray) -> RobotInfo:
    """The :class:`RobotInfo` of a robot built by ``mujoco_scene`` (or the Gazebo backend's
    equivalent), shared by both backends."""
    desc = built.desc
    return RobotInfo(
        name=built.spec.name, joints=list(built.joints),
        velocity_limits=np.asarray(velocity_limits, dtype=float),
        effort_limits=np.asarray(effort_limits, dtype=float),
        base_link=built.base_link, imu_link=built.imu_link,
        contact_links=list(built.contact_links),
        links=[ln for ln in desc.links if ln != 'world'],
        tree=[TreeJoint(j.name, j.parent, j.child, j.type == 'fixed')
              for j in desc.joints if j.parent != 'world'],
        urdf=desc.urdf, sensors=list(built.sensors))
