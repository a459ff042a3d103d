"""A Go1 over its low-level UDP link (SDK v3.8 LowCmd / LowState) as an implementation of the
robot contract (``zoo_sim.robot_interface.RobotBackend``): ``sim.backend: go1_udp``.

The link is the bridge's (``bridge_core.BridgeCore``: bind, accept only the robot, pre-flight,
``safety.Safety``, the steady-clock watchdog); this shell maps it onto the contract. No ROS.

- What it is: ``RobotInfo`` from the description through the simulator's own path (a MuJoCo
  model of the scenario's world and RobotSpec, kept for forward kinematics only).
- What it measures (``features``): ``joint_states`` (q, dq, tauEst), ``imu`` (quaternion, gyro,
  accelerometer), ``contacts`` (foot force per leg, a vertical force; touching above 1 N). A Go1
  over low level does not measure its base position: ``base_pose`` is (NaN, the IMU's
  orientation), ``base_twist`` (NaN, the gyro), no odometry and no /tf are published, and
  summary.json writes the position fields null. ``link_poses``: forward kinematics of the measured
  joints and IMU with the base at the origin (right relative to the base: /tf_static).
- Commands: ``pd_commands`` -> LowCmd MotorCmd (q, dq, Kp, Kd, tau) after the bridge's safety;
  ``velocity`` and ``effort`` commands are MotorCmds with the other loops stopped (Kd
  ``damping_kd`` on a velocity). Before the controller's first command: a hold, PD to the joints
  of the first LowState (``hold_kp``, ``hold_kd``; ``hold_kp`` 0: damping, as the bridge node),
  sent from a thread (the run builds its nodes and the controller prepares in wall time); from
  the first command on, ``advance`` sends.
- Time: a link runs in wall-clock time. ``advance(n)`` sends the latest command, paces sim time
  to the wall clock (``real_time_factor``, 1 when 0), takes the newest LowState, every
  ``1 / rate`` s of sim time (and at once for a new command). A silent command source trips the
  watchdog: damping, as the bridge.
- ``robot_ip: simulated`` (default): the simulated Go1 (``simulated_go1``) is started as a child
  ``robozoo run`` at a free 127.0.0.1 port, paced at the same factor, and stopped by
  :meth:`metrics` (asked once the run is over) or :meth:`close`; its summary.json (the simulated
  robot's ground truth) goes into ``metrics()['endpoint']``.
"""
from __future__ import annotations

import dataclasses
import math
import threading
import time
from typing import Sequence

import mujoco
import numpy as np

from unitree_udp.constants import POS_STOP_F, SDK_LEGS, VEL_STOP_F
from zoo_sim import SimConfigError
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.robot_interface import RobotInfo

from .bridge_core import BridgeCore
from .link_options import OPTIONS, bridge_config
from .simulated_go1 import SimulatedGo1, endpoint_scenario, free_udp_port

SIMULATED = 'simulated'
FOOT_CONTACT_N = 1.0       # foot force (whole newtons from the simulated Go1) counted as touching
BEHIND_S = 0.1             # further behind the wall clock: the pace restarts from now (no burst)
PREFLIGHT_POLL_S = 0.002


class Go1UdpBackend:
    """One Go1 through :class:`BridgeCore`; see the module docstring."""

    features = frozenset({'joint_states', 'imu', 'contacts'})
    PARAMETERS = {**OPTIONS,
                  'robot_ip': (SIMULATED, "the Go1's MCU, e.g. 192.168.123.10; 'simulated': "
                                          'start the simulated Go1 on 127.0.0.1'),
                  'startup_timeout_s': (60.0, 'simulated: seconds for the child robot to answer'),
                  'hold_kp': (100.0, 'before the first command: PD to the pose of the first '
                                     'LowState with this Kp (0: damping, as the bridge node)'),
                  'hold_kd': (5.0, 'Kd of that hold')}

    def __init__(self, model: MujocoPhysics, info: RobotInfo, core: BridgeCore, rate: float,
                 real_time_factor: float, robot: SimulatedGo1 | None, hold: tuple[float, float]):
        self.model, self.info, self.core, self.robot = model, info, core, robot
        self.warnings = [  # logged by the node at start
            f'go1_udp: {info.name} over low-level UDP measures no base position: no '
            'odometry/ground_truth is published, so a tracker with base_feedback (plan_tracker) '
            'tracks open loop, the thesis\' way; summary.json writes the position fields null']
        self.step_ns = model.step_ns
        self.sim_ns = 0
        self.steps = 0
        self.paused = False
        self.rtf = real_time_factor
        self.period_ns = max(self.step_ns, int(round(1e9 / rate)))
        self.last_send_ns: int | None = None
        self.new_command = False
        self.command = np.full((5, len(info.joints)), np.nan)  # q dq tau kp kd, by joint
        self.rejected = 0
        self.late = 0                      # pace restarts (behind the wall clock by BEHIND_S)
        self.pace_origin: tuple[float, int] | None = None
        self.endpoint: dict | None = None
        self.state = core.last_state
        self.legs = [SDK_LEGS.index(ln.split('_')[0]) if ln.split('_')[0] in SDK_LEGS else None
                     for ln in info.contact_links]
        r = model.robot(info.name)
        self._qadr, self._free = r.qadr, r.free_qadr
        self.preflight_sent = core.stats.sent  # probes, most before the robot listened
        self._pending = list(core.messages)
        core.messages.clear()
        # until the controller's first command the link holds the pose of the first LowState
        # (Unitree's low-level examples start so), or damps (hold_kp 0), from a thread: wall time
        # passes (the robot's watchdog counts it) while the run builds its nodes, plans, ...
        q = self.core.joint_state(self.state)[0]
        n = len(q)
        self.hold = None if hold[0] <= 0 else (q, np.zeros(n), np.zeros(n), np.full(n, hold[0]),
                                               np.full(n, hold[1]))
        self.commanded = False
        self._stop_keeper = threading.Event()
        self._keeper = threading.Thread(target=self._keep_alive, name='go1_udp link', daemon=True)
        self._keeper.start()

    @classmethod
    def from_config(cls, config) -> 'Go1UdpBackend':
        if len(config.robots) != 1:
            raise SimConfigError(f'backend go1_udp: one robot per link, got {len(config.robots)}')
        options = {k: config.options.get(k, default) for k, (default, _) in
                   cls.PARAMETERS.items()}
        rtf = config.real_time_factor if config.real_time_factor > 0 else 1.0
        model = MujocoPhysics.from_config(dataclasses.replace(config, options={}))
        name = config.robots[0].name
        info = dataclasses.replace(model.robot_info(name), sensors=[])  # none over the link
        robot = core = None
        try:
            for key, least in (('hold_kp', 0.0), ('hold_kd', 0.0), ('startup_timeout_s', 1.0)):
                if not (math.isfinite(options[key]) and options[key] >= least):
                    raise ValueError(f'{key} = {options[key]}: expected a finite number >= '
                                     f'{least:g}')
            if options['robot_ip'] == SIMULATED:
                bridge_config(options, info.joints)  # bad values: said before a child starts
                port = free_udp_port()
                robot = SimulatedGo1(endpoint_scenario(
                    config, port, rtf, float(options['watchdog_s']) / rtf, options['rate']))
                options.update(robot_ip='127.0.0.1', robot_port=port,
                               preflight_timeout_s=float(options['startup_timeout_s']))
            core = BridgeCore(bridge_config(options, info.joints))
            _preflight(core, robot)
        except (ValueError, OSError) as exc:
            if core is not None:
                core.close()
            if robot is not None:
                robot.stop()
            text = str(exc).removeprefix('parameter ')
            raise SimConfigError(f'parameter go1_udp.{text}' if text.split(' ')[0] in options
                                 else f'backend go1_udp: {text}') from None
        return cls(model, info, core, float(options['rate']), rtf, robot,
                   (float(options['hold_kp']), float(options['hold_kd'])))

    # -- what the robot is ------------------------------------------------------------------------
    def robot_names(self) -> list[str]:
        return [self.info.name]

    def robot_info(self, robot: str) -> RobotInfo:
        self._check(robot)
        return self.info

    def _check(self, robot: str) -> None:
        if robot != self.info.name:
            raise SimConfigError(f"go1_udp: no robot '{robot}' (the link's robot: "
                                 f"'{self.info.name}')")

    # -- time -------------------------------------------------------------------------------------
    def advance(self, n_steps: int) -> None:
        if not self.paused and n_steps > 0:
            self.step(n_steps)

    def step(self, n_steps: int) -> None:
        end = self.sim_ns + int(n_steps) * self.step_ns
        while self.sim_ns < end:
            owned = self._keeper is None  # (else the keep-alive thread exchanges: the hold)
            if owned and (self.new_command or self.last_send_ns is None
                          or self.sim_ns - self.last_send_ns >= self.period_ns):
                self._send()
                self.last_send_ns, self.new_command = self.sim_ns, False
            last = self.sim_ns if self.last_send_ns is None else self.last_send_ns
            self.sim_ns = min(end, max(last + self.period_ns, self.sim_ns + self.step_ns))
            self._pace()
            if owned:
                self._receive()
        self.steps += int(n_steps)

    def _send(self) -> None:
        """This cycle's LowCmd: the controller's, or before its first one the hold."""
        if not self.commanded and self.hold is not None:
            self.core.set_command(self.info.joints, *self.hold)  # (fresh: not the watchdog's)
        self.core.cycle()

    def _receive(self) -> None:
        state = self.core.receive()
        if state is not None:
            self.state = state

    def _keep_alive(self) -> None:
        period = self.period_ns * 1e-9 / self.rtf
        while not self._stop_keeper.wait(period):
            self._send()
            self._receive()

    def _stop_keeping(self) -> None:
        if self._keeper is not None:
            self._stop_keeper.set()
            self._keeper.join()
            self._keeper = None

    def _pace(self) -> None:
        now = time.monotonic()
        if self.pace_origin is None:
            self.pace_origin = (now, self.sim_ns)
            return
        wall0, sim0 = self.pace_origin
        delay = wall0 + (self.sim_ns - sim0) * 1e-9 / self.rtf - now
        if delay > 0:
            time.sleep(delay)
        elif delay < -BEHIND_S:
            self.late += 1
            self.pace_origin = (now, self.sim_ns)

    def reset(self) -> None:
        self._pending.append('go1_udp: a robot over a link cannot be reset; /sim/reset ignored')

    def set_pose(self, name: str, xyz: Sequence[float], quat_wxyz: Sequence[float]) -> None:
        raise SimConfigError(f"set_pose '{name}': a robot over a link cannot be moved")

    # -- commands ---------------------------------------------------------------------------------
    def pd_commands(self, robot: str, joints: np.ndarray, position: np.ndarray,
                    velocity: np.ndarray, kp: np.ndarray, kd: np.ndarray,
                    effort: np.ndarray) -> int:
        """Unitree's MotorCmd law, evaluated by the robot's motor drivers; NaN/inf rejected. Sent
        once every joint has had a command (the link sends all 12 motors)."""
        self._check(robot)
        j = np.asarray(joints, dtype=int)
        values = np.array([position, velocity, effort, kp, kd], dtype=float)
        ok = np.isfinite(values).all(axis=0)
        self.rejected += int((~ok).sum())
        self.command[:, j[ok]] = values[:, ok]
        if ok.any() and np.isfinite(self.command).all():
            self._stop_keeping()  # (it sent the hold until now)
            self.core.set_command(self.info.joints, *self.command)
            self.new_command = self.commanded = True
        return int(ok.sum())

    def commands(self, robot: str, joints: np.ndarray, kind: str, values: np.ndarray) -> int:
        """Velocity (Kd ``damping_kd``) or effort: a MotorCmd with the other loops stopped."""
        values = np.asarray(values, dtype=float)
        stop_q, zero = np.full(values.shape, POS_STOP_F), np.zeros(values.shape)
        if kind == 'velocity':
            kd = np.full(values.shape, self.core.config.safety.damping_kd)
            return self.pd_commands(robot, joints, stop_q, values, zero, kd, zero)
        return self.pd_commands(robot, joints, stop_q, np.full(values.shape, VEL_STOP_F), zero,
                                zero, values)

    def commander(self, robot: str, kind: str):
        self._check(robot)
        return lambda index, value: self.commands(robot, np.array([index]), kind,
                                                  np.array([value])) == 1

    def command_warnings(self, now_ns: int) -> list[str]:
        out, self._pending = self._pending + self.core.messages + self.core.log.drain(), []
        self.core.messages.clear()
        if self.core.state == 'failed' and self.core.error not in out:
            out.append(self.core.error)
        return out

    def command_counts(self, robot: str) -> tuple[int, int]:
        return self.rejected + self.core.safety.rejected, self.core.safety.clamped

    # -- state ------------------------------------------------------------------------------------
    def joint_state(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._check(robot)
        return self.core.joint_state(self.state)

    def imu(self, robot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._check(robot)
        i = self.state.imu
        return (np.array(i.quaternion, dtype=float), np.array(i.gyroscope, dtype=float),
                np.array(i.accelerometer, dtype=float))

    def contacts(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        self._check(robot)
        force = np.zeros((len(self.legs), 3))
        for k, leg in enumerate(self.legs):
            if leg is not None:
                force[k, 2] = self.state.foot_force[leg]
        return force[:, 2] >= FOOT_CONTACT_N, force

    def base_pose(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        """Position not measured (NaN); orientation: the IMU's."""
        return np.full(3, np.nan), self.imu(robot)[0]

    def base_twist(self, robot: str) -> tuple[np.ndarray, np.ndarray]:
        return np.full(3, np.nan), self.imu(robot)[1]

    def link_poses(self, robot: str) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Forward kinematics of the measured joints and IMU, the base at the origin."""
        self._check(robot)
        m, d = self.model.model, self.model.data
        d.qpos[self._qadr] = np.nan_to_num(self.joint_state(robot)[0])
        if self._free is not None:
            d.qpos[self._free:self._free + 3] = 0.0
            d.qpos[self._free + 3:self._free + 7] = self.imu(robot)[0]
        mujoco.mj_kinematics(m, d)
        return self.model.link_poses(robot)

    def sensor_values(self, robot: str, sensor) -> None:
        return None

    def penetration(self, robot: str) -> float:
        return math.nan  # not measured (metrics: null)

    # -- report -----------------------------------------------------------------------------------
    def metrics(self) -> dict:
        """The link's report, asked once the run is over: a child robot is stopped first and its
        summary.json (the simulated robot's ground truth) is ``endpoint``."""
        self._stop_keeping()
        if self.robot is not None and self.endpoint is None:
            self.endpoint = self.robot.stop()
        out = {'backend': 'go1_udp', 'steps': self.steps, 'sim_time': self.sim_ns * 1e-9,
               'physics_step': self.step_ns * 1e-9, 'robots': 1, 'warnings': len(self.warnings),
               'robot': ':'.join(map(str, self.core.target)),
               'real_time_factor_target': self.rtf, 'pace_restarts': self.late,
               'base_position': 'not measured (low-level UDP has none; odometry not published)',
               'link': {**self.core.metrics(), 'preflight_sent': self.preflight_sent}}
        if self.robot is not None:
            out['endpoint'] = self.endpoint
        return out

    def close(self) -> None:
        self._stop_keeping()
        if self.robot is not None and self.endpoint is None:
            self.endpoint = self.robot.stop()
        self.core.close()


def _preflight(core: BridgeCore, robot: SimulatedGo1 | None) -> None:
    """Probe until the robot answers (``preflight_timeout_s``); a failure in one line."""
    while core.state == 'preflight':
        core.cycle()
        core.receive()
        if robot is not None and not robot.running():
            raise ValueError(f'the simulated Go1 ended before it answered: {robot.last_line()}')
        time.sleep(PREFLIGHT_POLL_S)
    if core.state == 'failed':
        raise ValueError(core.error)
