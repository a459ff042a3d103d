"""The Dynamixel AX-12 servo as a simulator actuator (specs/snake.md §3.5-§3.7, R7-R11).

The thesis' law (spec §3.6): every physics step, e = goal - angle, the motor drives toward the
goal with a torque capped by the compliance curve f(e) (Fig. 4.2, spec §11 #3): zero inside the
margins [-B, C], the punch at the margin edge, a linear ramp over the slope width (scaled by k)
up to the torque limit, the limit beyond. It runs inside MuJoCo's step, no Python per step:

- f(e) is a sum of four clamped affine actuators on the joint (gain g on the goal, bias -g q,
  force range one-sided): per side a punch actuator (stiffness punch / one position unit, range
  [0, punch]) and a ramp actuator (slope k (limit - punch) / slope width, range
  [0, limit - punch]), both offset by the margin. Their sum is exactly the piecewise-linear
  curve of :func:`compliance_torque` except that the punch step is a ramp one unit wide.
- The speed cap is the DC motor's back-EMF, a joint damping b = limit / V_max (MuJoCo integrates
  joint damping implicitly: stable on the 0.065 kg links): an unloaded joint at the torque limit
  turns at exactly V_max, and a loaded one slower. The AX-12's velocity and torque are open loop
  (spec §3.5), which a velocity motor with a force cap (the thesis' ODE motor) is not; on a free
  joint both move at V_max.
- The gearbox: the joint's friction (URDF ``<dynamics friction>``, MuJoCo frictionloss) and the
  rotor's inertia x 254^2 (``armature``) come from the description (snake_description README,
  "Gearbox friction and rotor inertia"); the curve is the motor's and is scaled by
  (limit + friction) / limit, so the horn still sees the datasheet's stall torque and no-load
  speed.

Per servo, ``Ax12Servos.set_registers`` takes the RAM registers a bus writes (issue 27): Torque
Enable 0 leaves the joint limp (no actuator force, no back-EMF damping: back-drivable), Moving
Speed sets that joint's V_max, Torque Limit its curve's limit (0: limp). From ROS they come on
``/<robot>/servo_settings`` (zoo_interfaces/ServoSettings, SI units: ``registers_of``), which the
Dynamixel emulator's simulated bus publishes as a client writes the registers.

Goals are register values: 1024 steps over 300 deg (spec §11 #4), centre 512 = 0 rad, clamped to
the joint's range, consumed at ``goal_rate`` (10 Hz, R10) by the backend at fixed physics steps.
A goal computed for a consumption it reached too late (under real ROS, a command the simulator
did not wait for) is consumed on arrival: in lockstep that consumption would have taken it.
Positions read back quantised the same way (R11); effort is the motor's torque on the datasheet's
scale (the actuators' sum / gain minus the back-EMF) in place of the AX-12's load.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Mapping

import mujoco
import numpy as np

from . import SimConfigError

POSITION_STEPS = 1024
POSITION_RANGE = math.radians(300.0)
POSITION_UNIT = POSITION_RANGE / POSITION_STEPS  # rad per register step (0.293 deg)
CENTRE = 512
REGISTER_MAX = 1023
SPEED_UNIT = 0.111 * 2 * math.pi / 60  # rad/s per Moving Speed unit (Robotis e-manual, AX-12A)
HARDWARE_RATE_CEILING = 11.7  # Hz per actuator, 16 servos at 1 Mbps (spec §3.2; documented only)
SERVO_MODELS = ('ax12',)
ACTUATORS = ('ccw_punch', 'ccw_ramp', 'cw_punch', 'cw_ramp')
SUFFIX = '/ax12_'


@dataclasses.dataclass
class Ax12Params:
    """The servo settings, in register units as on the AX-12 (spec §8.2) plus the simulator's k.
    Defaults: the AX-12A factory values (margins 1, slopes 32, punch 32, torque limit 1023,
    moving speed 0 = no speed control, i.e. the no-load speed) and the thesis' k = 2."""
    k: float = 2.0                  # scale on the compliance slope (spec §11 #2, R9)
    cw_margin: int = 1              # B, position units
    ccw_margin: int = 1             # C
    cw_slope: int = 32              # A, position units of ramp width before k
    ccw_slope: int = 32             # D
    punch: int = 32                 # 0..1023 of the maximum torque
    torque_limit: int = 1023        # 0..1023 of the maximum torque
    max_torque: float = 1.5         # N m at 1023: stall torque at 12 V (spec §3.5)
    moving_speed: int = 0           # 0..1023 units of 0.111 rpm; 0: the no-load speed
    no_load_speed: float = 6.178    # rad/s, 59 rpm at 12 V (spec §3.5)
    goal_rate: float = 10.0         # Hz at which goals are consumed (R10)
    quantise: bool = True           # positions in and out on the 1024-step grid (R11)

    @classmethod
    def from_strings(cls, pairs: Mapping[str, str], where: str) -> 'Ax12Params':
        """From ``name:=value`` parameters; an unknown name or a bad value is one clear error."""
        fields = {f.name: f.type for f in dataclasses.fields(cls)}
        values = {}
        for name, text in pairs.items():
            if name not in fields:
                raise SimConfigError(f"{where}: unknown AX-12 setting '{name}' (known: "
                                     f"{', '.join(fields)})")
            kind = fields[name]
            try:
                if kind == 'bool':
                    if text.lower() not in ('true', 'false', '1', '0'):
                        raise ValueError
                    values[name] = text.lower() in ('true', '1')
                else:
                    values[name] = int(text) if kind == 'int' else float(text)
            except ValueError:
                raise SimConfigError(f"{where}: '{name}:={text}' is not a {kind}") from None
        out = cls(**values)
        out.check(where)
        return out

    def check(self, where: str = 'AX-12') -> None:
        for name in ('cw_margin', 'ccw_margin', 'punch', 'torque_limit', 'moving_speed'):
            if not 0 <= getattr(self, name) <= REGISTER_MAX:
                raise SimConfigError(f'{where}: {name} {getattr(self, name)} is outside 0..1023')
        for name in ('cw_slope', 'ccw_slope'):
            if not 1 <= getattr(self, name) <= 254:
                raise SimConfigError(f'{where}: {name} {getattr(self, name)} is outside 1..254')
        if not (self.k > 0 and self.max_torque > 0 and self.no_load_speed > 0
                and self.goal_rate > 0):
            raise SimConfigError(f'{where}: k, max_torque, no_load_speed and goal_rate must be > 0')

    # derived SI values
    @property
    def limit(self) -> float:
        return self.max_torque * self.torque_limit / REGISTER_MAX

    @property
    def punch_torque(self) -> float:
        return min(self.max_torque * self.punch / REGISTER_MAX, self.limit)

    @property
    def v_max(self) -> float:
        return self.no_load_speed if self.moving_speed == 0 else min(
            self.moving_speed * SPEED_UNIT, self.no_load_speed)


def compliance_torque(e: np.ndarray | float, p: Ax12Params) -> np.ndarray:
    """The reference curve f(e) (signed, N m) that the actuators reproduce: 0 inside [-B, C],
    punch at the edge, then a slope of k (limit - punch) / width up to the limit."""
    e = np.asarray(e, dtype=float)
    out = np.zeros_like(e)
    for sign, margin, slope in ((1.0, p.ccw_margin, p.ccw_slope), (-1.0, p.cw_margin, p.cw_slope)):
        beyond = sign * e - margin * POSITION_UNIT
        ramp = p.k * (p.limit - p.punch_torque) / (slope * POSITION_UNIT)
        value = np.minimum(p.punch_torque + ramp * beyond, p.limit)
        out = np.where(beyond > 0, sign * value, out)
    return out


def to_register(rad: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(np.asarray(rad) / POSITION_UNIT) + CENTRE, 0, REGISTER_MAX).astype(int)


def from_register(reg: np.ndarray) -> np.ndarray:
    return (np.asarray(reg, dtype=float) - CENTRE) * POSITION_UNIT


def registers_of(speed_rad_s: np.ndarray, torque_fraction: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(Moving Speed, Torque Limit) registers of settings in SI (zoo_interfaces/ServoSettings):
    a speed cap in rad/s (0: none, register 0; a cap slower than one unit is one unit) and a
    torque fraction 0..1. Anything else raises SimConfigError naming the value."""
    speed, torque = np.asarray(speed_rad_s, dtype=float), np.asarray(torque_fraction, dtype=float)
    if not (np.isfinite(speed) & (speed >= 0)).all():
        raise SimConfigError(f'speed_limit: expected rad/s >= 0 (0: none), got {speed.tolist()}')
    if not (np.isfinite(torque) & (torque >= 0) & (torque <= 1)).all():
        raise SimConfigError(f'torque_limit: expected a fraction 0..1, got {torque.tolist()}')
    moving = np.where(speed > 0, np.clip(np.round(speed / SPEED_UNIT), 1, REGISTER_MAX), 0)
    return moving.astype(int), np.round(torque * REGISTER_MAX).astype(int)


# -- model building --------------------------------------------------------------------------------
def add_servo(spec: mujoco.MjSpec, prefix: str, joint: str) -> None:
    """The four compliance actuators of one joint; gains and ranges are set at run time."""
    target = prefix + joint
    for name in ACTUATORS:
        act = spec.add_actuator(name=target + SUFFIX + name, target=target)
        act.trntype = mujoco.mjtTrn.mjTRN_JOINT
        act.ctrllimited = mujoco.mjtLimited.mjLIMITED_FALSE
        act.gaintype = mujoco.mjtGain.mjGAIN_FIXED
        act.biastype = mujoco.mjtBias.mjBIAS_AFFINE
        act.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
        act.forcerange = [-1.0, 1.0]  # placeholders (a range must be non-empty to compile)
        act.gainprm[0] = 0.0


def check_model(name: str) -> str:
    if name not in SERVO_MODELS:
        raise SimConfigError(f"servo: expected one of {', '.join(SERVO_MODELS)}, got '{name}'")
    return name


# -- run time --------------------------------------------------------------------------------------
class Ax12Servos:
    """The AX-12 servos of one robot: goal registers, the actuators' settings, readout."""

    def __init__(self, m: mujoco.MjModel, d: mujoco.MjData, prefix: str, joints: list[str],
                 params: Ax12Params, lower: np.ndarray, upper: np.ndarray):
        self.m, self.d = m, d
        self.joints = list(joints)
        self.params = params
        jid = np.array([m.joint(prefix + j).id for j in joints], dtype=int)
        self.qadr, self.dadr = m.jnt_qposadr[jid], m.jnt_dofadr[jid]
        self.friction = m.dof_frictionloss[self.dadr].copy()  # the gearbox's, from the URDF
        self.acts = np.array([[m.actuator(prefix + j + SUFFIX + a).id for a in ACTUATORS]
                              for j in joints], dtype=int)  # (joint, 4)
        # goals stay inside the joint's range (R3): the register's nearest in-range values
        self.reg_lo = np.ceil(np.where(np.isfinite(lower), lower, -1e3) / POSITION_UNIT
                              - 1e-9).astype(int) + CENTRE
        self.reg_hi = np.floor(np.where(np.isfinite(upper), upper, 1e3) / POSITION_UNIT
                               + 1e-9).astype(int) + CENTRE
        self.reg_lo = np.maximum(self.reg_lo, 0)
        self.reg_hi = np.minimum(self.reg_hi, REGISTER_MAX)
        n = len(joints)
        self.register = np.full(n, CENTRE)      # goal registers as written
        self.exact = np.zeros(n)                # rad, the goals as written (on the grid if quantised)
        self.goal = np.zeros(n)                 # rad, the goal the actuators hold now
        self.latches = 0
        self.configure(params)

    def configure(self, p: Ax12Params) -> None:
        """Write a settings set into the actuators (between steps; RAM registers on the AX-12):
        every servo's Torque Enable on, Moving Speed and Torque Limit as ``p`` says."""
        p.check()
        self.params = p
        n = len(self.joints)
        self.torque_enable = np.ones(n, dtype=bool)
        self.moving_speed = np.full(n, p.moving_speed)
        self.torque_limit = np.full(n, p.torque_limit)
        self._apply()

    def set_registers(self, joints: np.ndarray, torque_enable=None, moving_speed=None,
                      torque_limit=None) -> None:
        """Per-servo RAM registers, as a bus writes them (spec §8.2): Torque Enable 0 = limp (no
        motor torque and no back-EMF: back-drivable), Moving Speed caps V_max (0: the no-load
        speed), Torque Limit scales the curve (0: no torque). None leaves a register as it is."""
        for value in (moving_speed, torque_limit):
            if value is not None and not ((0 <= np.asarray(value))
                                          & (np.asarray(value) <= REGISTER_MAX)).all():
                raise SimConfigError(f'AX-12: moving_speed and torque_limit must be within '
                                     f'0..1023, got {value}')
        for name, value in (('torque_enable', torque_enable), ('moving_speed', moving_speed),
                            ('torque_limit', torque_limit)):
            if value is not None:
                getattr(self, name)[joints] = value
        self._apply()

    def _apply(self) -> None:
        p, m = self.params, self.m
        limit = np.where(self.torque_enable, p.max_torque * self.torque_limit / REGISTER_MAX, 0.0)
        # The curve is the motor's torque (its PWM share); the gearbox friction takes its part
        # before the horn, so the motor's curve reaches limit + friction and the horn sees the
        # datasheet's stall torque and no-load speed (limp: no motor, the friction stays).
        self.gain = np.divide(limit + self.friction, limit, out=np.ones_like(limit),
                              where=limit > 0)
        punch = np.minimum(p.max_torque * p.punch / REGISTER_MAX, limit) * self.gain
        v_max = np.where(self.moving_speed == 0, p.no_load_speed,
                         np.minimum(self.moving_speed * SPEED_UNIT, p.no_load_speed))
        self.damping = limit / v_max  # back-EMF: an unloaded joint at the limit turns at V_max
        width = lambda s: s * POSITION_UNIT / p.k  # noqa: E731 - ramp width, rad
        ramp_range = limit * self.gain - punch
        k_punch = punch / POSITION_UNIT
        zero = np.zeros(len(limit))
        rows = (  # (gain, offset, lo, hi) per ACTUATORS entry
            (k_punch, p.ccw_margin * POSITION_UNIT, zero, punch),
            (ramp_range / width(p.ccw_slope), p.ccw_margin * POSITION_UNIT, zero, ramp_range),
            (k_punch, -p.cw_margin * POSITION_UNIT, -punch, zero),
            (ramp_range / width(p.cw_slope), -p.cw_margin * POSITION_UNIT, -ramp_range, zero))
        for col, (gain, offset, lo, hi) in enumerate(rows):
            a = self.acts[:, col]
            m.actuator_gainprm[a, 0] = gain
            m.actuator_biasprm[a, 0] = -gain * offset
            m.actuator_biasprm[a, 1] = -gain
            m.actuator_biasprm[a, 2] = 0.0
            m.actuator_forcerange[a, 0] = lo
            m.actuator_forcerange[a, 1] = hi
        m.dof_damping[self.dadr] = self.damping
        self._write_goal()

    def reset(self) -> None:
        """Goals at the joints' current angles (as a powered-up servo holds its pose)."""
        q = self.d.qpos[self.qadr]
        self.set_goals(np.arange(len(q)), q)
        self.latch()
        self.latches = 0

    def set_goals(self, joints: np.ndarray, rad: np.ndarray, late: bool = False) -> None:
        """Write goal registers (consumed at the next latch), clamped to the joint's range.
        ``late``: goals meant for the latch that has just passed (computed at or before it),
        consumed at once in its place; left for the next latch, the goals written before it
        would overwrite them and the servos would never see them."""
        lo, hi = from_register(self.reg_lo[joints]), from_register(self.reg_hi[joints])
        exact = np.clip(np.asarray(rad, dtype=float), lo, hi)
        if self.params.quantise:
            exact = from_register(to_register(exact))
        self.exact[joints] = exact
        self.register[joints] = to_register(exact)
        if late:
            self.goal[joints] = exact
            self._write_goal()

    def latch(self) -> None:
        """The servos consume their goal registers (at ``goal_rate``)."""
        self.goal = self.exact.copy()
        self.latches += 1
        self._write_goal()

    def _write_goal(self) -> None:
        self.d.ctrl[self.acts] = self.goal[:, None]

    def position(self) -> np.ndarray:
        q = self.d.qpos[self.qadr]
        return from_register(to_register(q)) if self.params.quantise else q.copy()

    def effort(self) -> np.ndarray:
        """The motor torque on the datasheet's scale (the curve's share of it, so a stall reads
        the 1.5 N m limit, not limit + friction): compliance actuators / gain minus the back-EMF
        (the joint damping)."""
        d = self.d
        return d.actuator_force[self.acts].sum(axis=1) / self.gain \
            - self.damping * d.qvel[self.dadr]
