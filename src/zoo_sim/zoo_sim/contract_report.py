"""Measures the joint and contact contract on recorded simulator data and prints the figures the
zoo_sim README quotes (the tests assert the same quantities against the issue's bounds):

    bin/robozoo contract-report      (or python -m zoo_sim.contract_report)

- velocity steps of the Go1 calf in the air: overshoot and steady ripple;
- the Go1 calf holding 80 % of its effort limit for 10 s: creep; after a 1 s stall: run-on;
- every joint of each robot driven into its stops in each command mode (velocity, effort, PD): the
  worst excess over a stop at any physics step;
- the 1 kg mu 0.4 box pushed at 0.8 / 1.2 of its sliding force: creep, acceleration error,
  contact loss and spin; launched at 1 m/s: stopping distance; the Robobo's slider contact;
- each robot standing 10 s at its nominal pose at the shipped friction and at mu 0.3: drift, tilt.
"""
from __future__ import annotations

import math
import sys

import mujoco
import numpy as np
from zoo_description_tools.physics import STANDARD_GRAVITY

from .metrics import RobotMetrics
from .mujoco_backend import MujocoPhysics
from .mujoco_scene import RobotSpec

ROBOTS = ('nao', 'hoap2', 'robobo', 'go1', 'snake')
GROUND_ROBOTS = ('robobo', 'snake')  # lie on the ground; the others hang in the air
FRICTION_ARG = {'nao': 'foot_mu', 'hoap2': 'sole_mu', 'robobo': 'wheel_mu', 'go1': 'foot_mu',
                'snake': 'mu'}
FRICTION_WORLD = '''<?xml version="1.0"?>
<sdf version="1.9"><world name="push">
  <gravity>0 0 -%s</gravity>
  <physics name="1ms" type="ode"><max_step_size>0.001</max_step_size></physics>
  <model name="plane"><static>true</static><link name="link"><collision name="c">
    <geometry><plane><normal>0 0 1</normal><size>50 50</size></plane></geometry>
    <surface><friction><ode><mu>0.4</mu><mu2>0.4</mu2></ode></friction></surface>
  </collision></link></model>
  <model name="box"><pose>0 0 0.05 0 0 0</pose><link name="link">
    <inertial><mass>1</mass><inertia><ixx>0.001667</ixx><iyy>0.001667</iyy><izz>0.001667</izz>
    </inertia></inertial>
    <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>
  </link></model>
</world></sdf>''' % STANDARD_GRAVITY


def go1_in_the_air(step: float = 0.001) -> tuple[MujocoPhysics, int]:
    """The Go1 hanging fixed at 1 m, and the index of its FR calf."""
    ph = MujocoPhysics.create('empty', [RobotSpec('go1', package='go1_description',
                                                  pose=[0, 0, 1.0, 0, 0, 0], fixed_base=True)],
                              step=step)
    return ph, ph.robots['go1'].index['FR_calf_joint']


def velocity_step(target: float) -> tuple[float, float]:
    """(overshoot, ripple) as fractions of the target, for a step from rest (lower end first
    for positive targets, so the calf has 0.8 rad of free travel)."""
    ph, j = go1_in_the_air()
    ph.advance(100)
    if target > 0:
        ph.command('go1', j, 'velocity', -3.0)
        ph.advance(150)
        ph.command('go1', j, 'velocity', 0.0)
        ph.advance(50)
    ph.command('go1', j, 'velocity', target)
    v = []
    for _ in range(int(0.8 / abs(target) * 1000)):
        ph.advance(1)
        v.append(ph.joint_state('go1')[1][j])
    v = np.array(v)
    over = max(0.0, float(np.max(np.sign(target) * v) - abs(target))) / abs(target)
    return over, float(np.ptp(v[20:])) / abs(target)


def hold_creep(fraction: float = 0.8, seconds: float = 10.0) -> float:
    """rad the calf moves while holding ``fraction`` of its effort limit."""
    ph, j = go1_in_the_air()
    r = ph.robots['go1']
    ph.advance(100)
    ph.data.qfrc_applied[r.dadr[j]] = fraction * r.effort_limit[j]
    ph.advance(200)
    q0, worst = ph.joint_state('go1')[0][j], 0.0
    for _ in range(int(seconds * 1000)):
        ph.advance(1)
        worst = max(worst, abs(ph.joint_state('go1')[0][j] - q0))
    return worst


def stall_run_on() -> float:
    """rad the calf moves in the 1 s after a 1 s stall against 110 % of its limit ends (load
    removed, command back to 0)."""
    ph, j = go1_in_the_air()
    r = ph.robots['go1']
    ph.command('go1', j, 'velocity', 1.0)
    ph.data.qfrc_applied[r.dadr[j]] = -1.1 * r.effort_limit[j]
    ph.advance(1000)
    ph.data.qfrc_applied[r.dadr[j]] = 0.0
    ph.command('go1', j, 'velocity', 0.0)
    q0, worst = ph.joint_state('go1')[0][j], 0.0
    for _ in range(1000):
        ph.advance(1)
        worst = max(worst, abs(ph.joint_state('go1')[0][j] - q0))
    return worst


STOP_MODES = ('velocity', 'effort', 'pd_kp1', 'pd_stiff', 'pd_feed_forward',
              'effort_stop_to_stop')
PD_STOP_MODES = ('pd_kp1', 'pd_stiff', 'pd_feed_forward', 'effort_stop_to_stop')
# Modes of one robot's own actuators: the snake's AX-12 servos, where a Dynamixel bus's Goal
# Position writes land (dynamixel_bridge's emulator and the dynamixel backend both write them)
SERVO_STOP_MODES = {'snake': ('ax12_goals',)}
STIFF_KP_PER_NM = 100.0  # pd_stiff: kp = 100 x the effort limit per rad (full torque at 10 mrad)
# effort_stop_to_stop: the whole effort limit as PD feed-forward, kp = kd = 0, its direction
# flipped every HALF_CYCLE_S: what a Go1 low-level UDP client's LowCmd (tau only) becomes in
# the robot contract's pd_commands (unitree_udp endpoint_node), driven stop to stop
HALF_CYCLE_S = 0.5


def stop_modes(robot: str) -> tuple[str, ...]:
    return STOP_MODES + SERVO_STOP_MODES.get(robot, ())


def _robot_for_stops(robot: str, servo: str | None = None) -> MujocoPhysics:
    """Legged robots hang fixed in the air; the snake and the Robobo lie on the ground at their
    nominal pose (a snake hanging by its head whips its tail into the stops faster than any
    command would)."""
    ground = robot in GROUND_ROBOTS
    return MujocoPhysics.create('empty', [RobotSpec(
        robot, package=f'{robot}_description', pose=None if ground else [0, 0, 1.5, 0, 0, 0],
        fixed_base=not ground, servo=servo)])


def _command_saturated(ph: MujocoPhysics, robot: str, mode: str, sign: float,
                       grouped: bool = True) -> None:
    """Every joint of ``robot`` driven toward its ``sign`` stop at saturation: velocity or effort
    at its limit, or a PD command on the stop (kp 1; kp STIFF_KP_PER_NM x the effort limit;
    kp 1 plus the whole effort limit as feed-forward), kd 0."""
    r = ph.robots[robot]
    n = len(r.joints)
    effort = np.where(np.isfinite(r.effort_limit), r.effort_limit, 1.0)
    if mode in ('velocity', 'effort'):
        limit = r.vel_limit if mode == 'velocity' else r.effort_limit
        values = sign * np.where(np.isfinite(limit), limit, 1.0)
        if grouped:
            ph.commands(robot, np.arange(n), mode, values)
            return
        command = ph.commander(robot, mode)
        if not all(command(j, v) for j, v in enumerate(values.tolist())):
            raise AssertionError(f'{robot}: a legal {mode} command was rejected')
        return
    if mode == 'ax12_goals':  # the servos clamp goals to the joint range (specs/snake.md R3)
        ph.servo_goals(robot, np.arange(n), np.full(n, sign * 10.0))
        return
    stop = r.motors.upper if sign > 0 else r.motors.lower
    target = np.where(np.isfinite(stop), stop, sign * 10.0)
    kp = {'pd_stiff': STIFF_KP_PER_NM * effort, 'effort_stop_to_stop': np.zeros(n)}.get(
        mode, np.ones(n))
    ff = sign * effort if mode in ('pd_feed_forward', 'effort_stop_to_stop') else np.zeros(n)
    if ph.pd_commands(robot, np.arange(n), target, np.zeros(n), kp, np.zeros(n), ff) != n:
        raise AssertionError(f'{robot}: a legal PD command was rejected')


def stop_excess(robot: str, mode: str, sign: float, seconds: float = 2.0,
                grouped: bool = True) -> float:
    """Worst excess (rad or m) of any joint over its stops, observed after every physics step
    (a step observer: the same steps as unobserved), all joints driven toward their ``sign``
    stops in ``mode`` (STOP_MODES) for ``seconds``: in one grouped command, or one command per
    joint (the per-message path). inf if the state went non-finite. (Sampling every 10th step
    saw 0.0086 rad of the Go1's 0.026.)"""
    ph = _robot_for_stops(robot, 'ax12' if mode == 'ax12_goals' else None)
    m, d = ph.model, ph.data
    mine = np.array([m.jnt_limited[j] and m.joint(j).name.startswith(robot + '/')
                     for j in range(m.njnt)], dtype=bool)
    qadr, lo, hi = m.jnt_qposadr[mine], m.jnt_range[mine, 0], m.jnt_range[mine, 1]
    worst = [0.0]

    def observe() -> None:
        q = d.qpos[qadr]
        worst[0] = max(worst[0], float(np.max(np.maximum(lo - q, q - hi))))
        if not np.isfinite(q).all():
            worst[0] = math.inf

    ph.step_observers.append(observe)
    _drive_saturated(ph, robot, mode, sign, seconds, grouped)
    return worst[0] if np.isfinite(d.qpos).all() else math.inf


def _drive_saturated(ph: MujocoPhysics, robot: str, mode: str, sign: float, seconds: float,
                     grouped: bool) -> None:
    """``seconds`` of every joint driven toward its ``sign`` stop in ``mode`` (STOP_MODES)."""
    if mode == 'effort_stop_to_stop':
        half = int(round(HALF_CYCLE_S / ph.model.opt.timestep))
        for k in range(int(round(seconds / HALF_CYCLE_S))):
            _command_saturated(ph, robot, mode, sign * (-1) ** k, grouped)
            ph.advance(half)
    else:
        _command_saturated(ph, robot, mode, sign, grouped)
        ph.advance(int(round(seconds / ph.model.opt.timestep)))


def top_speed(robot: str, mode: str, sign: float, seconds: float = 2.0) -> float:
    """Worst ratio of a joint's speed to its velocity limit, observed after every physics step,
    all joints driven toward their ``sign`` stops in ``mode`` for ``seconds`` (joints without
    a velocity limit left out; inf if the state went non-finite)."""
    ph = _robot_for_stops(robot, 'ax12' if mode == 'ax12_goals' else None)
    r, d = ph.robots[robot], ph.data
    limited = np.isfinite(r.vel_limit)
    dofs, limit = r.dadr[limited], r.vel_limit[limited]
    worst = [0.0]

    def observe() -> None:
        ratio = np.abs(d.qvel[dofs]) / limit
        worst[0] = max(worst[0], float(ratio.max()) if np.isfinite(ratio).all() else math.inf)

    ph.step_observers.append(observe)
    _drive_saturated(ph, robot, mode, sign, seconds, True)
    return worst[0]


def _box_world() -> MujocoPhysics:
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / 'push.sdf'
        path.write_text(FRICTION_WORLD)
        return MujocoPhysics.create(str(path))


def push_box(fraction: float, angle_deg: float, record: dict | None = None
             ) -> tuple[float, float, float]:
    """(distance after 2 s in m, fitted acceleration in m/s^2, direction error of the motion in
    rad) of the 1 kg box (mu 0.4 on the plane) pushed horizontally at ``angle_deg`` with
    ``fraction`` of its sliding force, through its bottom face (no tipping moment). ``record``
    receives ``no_contact`` (fraction of steps without contact) and ``max_spin`` (rad/s)."""
    ph = _box_world()
    m, d = ph.model, ph.data
    box = m.body('box').id
    ph.advance(300)
    start = d.xpos[box, :2].copy()
    a = math.radians(angle_deg)
    force = fraction * 0.4 * STANDARD_GRAVITY * np.array([math.cos(a), math.sin(a), 0.0])
    d.xfrc_applied[box, :3] = force
    d.xfrc_applied[box, 3:] = np.cross([0.0, 0.0, -0.05], force)
    travel, no_contact, spin = [], 0, 0.0
    for _ in range(2000):
        ph.advance(1)
        travel.append(d.xpos[box, :2] - start)
        no_contact += d.ncon == 0
        spin = max(spin, float(np.linalg.norm(d.cvel[box, :3])))
    travel = np.array(travel)
    s = np.linalg.norm(travel, axis=1)
    t = np.arange(1, 2001) * 1e-3
    heading = math.atan2(travel[-1, 1], travel[-1, 0]) if s[-1] > 1e-6 else a
    if record is not None:
        record.update(no_contact=no_contact / 2000, max_spin=spin)
    return float(s[-1]), 2.0 * float(np.polyfit(t[200:], s[200:], 2)[0]), abs(heading - a)


def glide_box(speed: float = 1.0, angle_deg: float = 30.0) -> tuple[float, float]:
    """(distance in m, Coulomb's v^2 / (2 mu g)) of the box launched at ``speed`` along
    ``angle_deg`` with no push, until it stops."""
    ph = _box_world()
    m, d = ph.model, ph.data
    box = m.body('box').id
    dof = m.jnt_dofadr[m.body_jntadr[box]]
    ph.advance(300)
    start = d.xpos[box, :2].copy()
    a = math.radians(angle_deg)
    d.qvel[dof:dof + 2] = speed * math.cos(a), speed * math.sin(a)
    ph.advance(int(speed / (0.4 * STANDARD_GRAVITY) * 1000) + 200)
    return (float(np.linalg.norm(d.xpos[box, :2] - start)),
            speed ** 2 / (2 * 0.4 * STANDARD_GRAVITY))


def _robobo_driving(omega: float, start_s: float, seconds: float, links: tuple[str, ...],
                    contacts_per_step: int) -> float:
    """Fraction of the steps (from ``start_s`` for ``seconds`` after a velocity step from rest to
    ``omega`` rad/s on both wheels) in which ``links`` of the Robobo make ``contacts_per_step``
    floor contacts."""
    ph = MujocoPhysics.create('empty', [RobotSpec('robobo', package='robobo_description')])
    m, d = ph.model, ph.data
    bodies = [m.body(f'robobo/{ln}').id for ln in links]
    r = ph.robots['robobo']
    ph.advance(300)
    for joint in ('left_motor', 'right_motor'):
        ph.command('robobo', r.index[joint], 'velocity', omega)
    ph.advance(int(round(start_s * 1000)))
    good, n = 0, int(round(seconds * 1000))
    for _ in range(n):
        ph.advance(1)
        touching = np.isin(m.geom_bodyid[d.contact.geom[:d.ncon]], bodies).any(axis=1)
        good += int(touching.sum()) >= contacts_per_step
    return good / n


def robobo_slider_contact(omega: float) -> float:
    """Fraction of the steps in which the Robobo's teflon slider touches the floor while the
    robot drives straight with both wheels at ``omega`` rad/s (from 0.1 s to 1 s)."""
    return _robobo_driving(omega, 0.1, 0.9, ('base_link',), 1)


def robobo_wheel_contact(omega: float) -> float:
    """Fraction of the first 50 ms after a velocity step from rest to ``omega`` in which both
    Robobo wheels touch the floor (each tread meets it at two points)."""
    return _robobo_driving(omega, 0.0, 0.05, ('left_wheel', 'right_wheel'), 4)


def stand(robot: str, mu: float | None) -> tuple[float, float]:
    """(drift in m, largest tilt change in degrees) of ``robot`` standing 10 s at its nominal
    pose, joints held at target 0; ``mu``: its ground friction (None: the shipped one)."""
    args = {} if mu is None else {FRICTION_ARG[robot]: mu}
    ph = MujocoPhysics.create('empty', [RobotSpec(robot, package=f'{robot}_description',
                                                  xacro_args=args)])
    observer = RobotMetrics(ph, robot)  # sampled at 50 Hz, as the simulator node does
    observer.sample(0.0)
    for _ in range(500):
        ph.advance(20)
        observer.sample(ph.sim_ns * 1e-9)
    s = observer.summary()
    return s['drift_xyz'], s['max_tilt_change_deg']


def main(argv: list[str] | None = None) -> int:
    """Print every figure (no arguments; `robozoo contract-report`)."""
    if argv:
        print(f'robozoo contract-report: error: no arguments expected, got {argv[0]!r}',
              file=sys.stderr)
        return 2
    print('Go1 calf in the air, velocity steps (overshoot / steady ripple, % of the target):')
    for target in (-2.0, 2.0, 8.0):
        over, ripple = velocity_step(target)
        print(f'  {target:+5.1f} rad/s: {100 * over:.3f} % / {100 * ripple:.3f} %')
    print(f'Go1 calf holding 80 % of 35.55 N m for 10 s: moves {1e3 * hold_creep():.4f} mrad')
    print(f'Go1 calf after a 1 s stall at 110 % of its limit: runs on {1e3 * stall_run_on():.4f} '
          'mrad')
    print('worst excess over a joint stop at any physics step, all joints driven toward their '
          'upper / lower stops for 2 s (rad):')
    for robot in ROBOTS:
        cells = [f'{mode} {stop_excess(robot, mode, 1.0, 2.0):.4g} / '
                 f'{stop_excess(robot, mode, -1.0, 2.0):.4g}' for mode in stop_modes(robot)]
        print(f'  {robot:7s} ' + ', '.join(cells))
    print('fastest joint relative to its velocity limit under PD, same commands (x the limit):')
    for robot in ROBOTS:
        cells = [f'{mode} {top_speed(robot, mode, 1.0):.4g} / {top_speed(robot, mode, -1.0):.4g}'
                 for mode in PD_STOP_MODES]
        print(f'  {robot:7s} ' + ', '.join(cells))
    theory = 0.2 * 0.4 * STANDARD_GRAVITY
    print('1 kg box, mu 0.4, pushed at 0.8 / 1.2 of its sliding force:')
    for angle in (0, 30, 45, 60, 90):
        creep = push_box(0.8, angle)[0]
        sliding: dict = {}
        acc = push_box(1.2, angle, sliding)[1]
        print(f'  {angle:2d} deg: creeps {1e3 * creep:.4f} mm in 2 s / acceleration '
              f'{100 * (acc / theory - 1):+.2f} % from Coulomb, without contact '
              f'{100 * sliding["no_contact"]:.1f} % of the steps, spins at most '
              f'{sliding["max_spin"]:.3f} rad/s')
    dist, coulomb = glide_box()
    print(f'the box launched at 1 m/s, 30 deg: stops after {1e3 * dist:.1f} mm (Coulomb '
          f'{1e3 * coulomb:.1f} mm, {100 * (dist / coulomb - 1):+.2f} %)')
    print('Robobo driving straight, slider on the floor (% of the steps, 0.1-1 s): ' + ', '.join(
        f'{omega:g} rad/s {100 * robobo_slider_contact(omega):.1f} %' for omega in (1.0, 9.3)))
    print('Robobo wheels on the floor in the 50 ms after a step from rest to 9.3 rad/s: '
          f'{100 * robobo_wheel_contact(9.3):.1f} % of the steps')
    print('standing 10 s at the nominal pose (drift mm / tilt change deg):')
    for robot in ROBOTS:
        cells = [stand(robot, mu) for mu in (None, 0.3)]
        print(f'  {robot:7s} shipped friction {1e3 * cells[0][0]:.4f} / {cells[0][1]:.4f}   '
              f'mu 0.3 {1e3 * cells[1][0]:.4f} / {cells[1][1]:.4f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
