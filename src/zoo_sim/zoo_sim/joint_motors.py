"""Joint motors: how a joint's velocity command (the seeds' Gazebo/ODE motor, ``vel`` + ``fmax``)
or effort command becomes MuJoCo actuation. Both models keep one contract: the joint turns at the
target velocity using at most its effort limit, holds still at target 0 under load, and stalls
at the limit when that is not enough. The model is chosen per scene (``joint_motor``):

``servo`` (default): per joint a ``general`` actuator whose activation integrates the velocity
target into a reference angle (``act' = v*``) and which pushes ``kp (act - q) - kv q'``, clamped
to the effort limit; i.e. a PI velocity loop whose integral is the angle by which the joint lags
its reference, so a load is held with no drift. Gains come from the joint's reflected inertia at
the initial pose (:func:`servo_gains`). An anti-windup clamp keeps the reference within the band
where the motor is not saturated, so a stalled joint does not catch up later.

``constraint``: MuJoCo's bounded constraint, friction loss: a fixed tendon ``q_joint - c q_driver``
with ``frictionloss`` = the effort limit, where a shared driver DOF turns at exactly 1 rad/s and
``c`` is the target. Ideal velocity up to the limit (ODE's motor exactly), but its rows cost
solver iterations and the row's softness lets a loaded joint slip slowly.

Effort commands drive a plain torque input (clamped to the effort limit) with the velocity motor
off; a joint's mode follows the type of its last command.
"""
from __future__ import annotations

import mujoco
import numpy as np

from . import SimConfigError

MOTOR_MODELS = ('servo', 'constraint')
DEFAULT_MOTOR = 'servo'
VELOCITY, EFFORT = 0, 1
UNLIMITED_EFFORT = 1e9  # force bound of a motor whose joint gives no effort limit
EFFORT_SUFFIX = '/effort'  # the torque input of a servo joint is actuator '<robot>/<joint>/effort'

# Servo gains (README "Joint motors", with the measurements behind them), from each joint's
# reflected inertia I at the initial pose: kp = I (SERVO_OMEGA_STEPS / step)^2, capped so that
# the effort limit is reached at SERVO_SATURATION_ERROR of lag; kv = 2 zeta sqrt(kp I), at least
# kp * step (the spring's change over one step, which keeps the explicit spring stable under the
# implicit damping whatever I). Stiffer or more damped servos make feet chatter under implicitfast.
SERVO_OMEGA_STEPS = 1.0
SERVO_DAMPING_RATIO = 0.35
SERVO_SATURATION_ERROR = 0.002    # rad
ANTIWINDUP_PERIOD_STEPS = 10     # reference clamped every 10 steps of sim time

# Constraint motors: the driver's armature keeps the motors' reaction on it small (its 1 rad/s is
# re-imposed before every step call) without hurting the solver's conditioning. The friction rows
# use MuJoCo's smallest safe time constant (2 steps); their impedance trades holding slip
# (proportional to 1 - impedance) against solver work, MuJoCo's maximum 0.9999 being the least slip.
DRIVER = 'zoo_motor_driver'
DRIVER_ARMATURE = 1e4
MOTOR_TIMECONST_STEPS = 2.0
MOTOR_IMPEDANCE = 0.9999


# -- model building --------------------------------------------------------------------------------
def add_driver(spec: mujoco.MjSpec) -> None:
    """The constraint motors' shared driver: a massless hinge of large armature, no geometry."""
    body = spec.worldbody.add_body(name=DRIVER, mass=1e-6, ipos=[0, 0, 0],
                                   inertia=[1e-9, 1e-9, 1e-9])
    body.explicitinertial = True
    body.add_joint(name=DRIVER, type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 0, 1],
                   armature=DRIVER_ARMATURE)


def add_motor(spec: mujoco.MjSpec, model: str, prefix: str, joint: str, effort: float | None,
              step: float) -> None:
    """The actuation of one joint (``joint`` is its URDF name, ``prefix + joint`` the MuJoCo one).
    Gains and friction are set at run time by the backend."""
    target = prefix + joint
    if model == 'servo':
        servo = _actuator(spec, target, target, effort)
        servo.dyntype = mujoco.mjtDyn.mjDYN_INTEGRATOR
        servo.actearly = True  # the force uses the reference at the end of the step
        servo.gainprm[0] = 0.0
        servo.biastype = mujoco.mjtBias.mjBIAS_AFFINE
        _actuator(spec, target + EFFORT_SUFFIX, target, effort)
        return
    tendon = spec.add_tendon(name=f'{prefix}motor/{joint}')
    tendon.wrap_joint(target, 1.0)
    tendon.wrap_joint(DRIVER, 1.0)  # coefficient: -target, set by the backend
    tendon.frictionloss = 0.0  # set per mode by the backend
    tendon.solref_friction = [MOTOR_TIMECONST_STEPS * step, 1.0]
    tendon.solimp_friction = [MOTOR_IMPEDANCE, MOTOR_IMPEDANCE, 0.001, 0.5, 2.0]
    _actuator(spec, target, target, effort)


def _actuator(spec: mujoco.MjSpec, name: str, joint: str, effort: float | None):
    act = spec.add_actuator(name=name, target=joint)
    act.trntype = mujoco.mjtTrn.mjTRN_JOINT
    act.ctrllimited = mujoco.mjtLimited.mjLIMITED_FALSE
    if effort is not None and effort > 0:
        act.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
        act.forcerange = [-effort, effort]
    return act


def servo_gains(inertia: np.ndarray, effort: np.ndarray, step: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """(kp, kv) per joint from its reflected inertia (kg m^2) and effort limit (N m, inf: none)."""
    omega = SERVO_OMEGA_STEPS / step
    kp = np.minimum(inertia * omega ** 2, effort / SERVO_SATURATION_ERROR)
    kv = np.maximum(2.0 * SERVO_DAMPING_RATIO * np.sqrt(kp * inertia), kp * step)
    return kp, kv


# -- run time --------------------------------------------------------------------------------------
class ServoMotors:
    """The servo actuators of one robot's joints (index arrays into model and data)."""

    def __init__(self, m: mujoco.MjModel, d: mujoco.MjData, prefix: str, joints: list[str],
                 effort_limit: np.ndarray):
        self.m, self.d = m, d
        jid = [m.joint(prefix + j).id for j in joints]
        self.qadr = m.jnt_qposadr[jid]
        self.dadr = m.jnt_dofadr[jid]
        self.servo = np.array([m.actuator(prefix + j).id for j in joints], dtype=int)
        self.torque = np.array([m.actuator(prefix + j + EFFORT_SUFFIX).id for j in joints],
                               dtype=int)
        self.actadr = m.actuator_actadr[self.servo]
        first = int(self.actadr[0]) if len(joints) else 0
        contiguous = np.array_equal(self.actadr, np.arange(first, first + len(joints)))
        self._act = slice(first, first + len(joints)) if contiguous else self.actadr
        self.effort_limit = np.asarray(effort_limit, dtype=float)
        self.kp = self.kv = np.zeros(len(joints))  # set by tune()
        self._lead = self._band = np.zeros(len(joints))
        # per-message fast path: (array, index of joint j in it, sign) of each command kind
        self.slots = {'velocity': (d.ctrl, self.servo.tolist(), 1.0),
                      'effort': (d.ctrl, self.torque.tolist(), 1.0)}

    def tune(self) -> None:
        """Gains from the reflected inertia 1 / (M^-1)_jj at the current (initial) pose."""
        m, d = self.m, self.d
        unit = np.zeros((len(self.dadr), m.nv))
        unit[np.arange(len(self.dadr)), self.dadr] = 1.0
        minv = np.zeros_like(unit)
        mujoco.mj_solveM(m, d, minv, unit)
        inertia = 1.0 / minv[np.arange(len(self.dadr)), self.dadr]
        self.kp, self.kv = servo_gains(inertia, self.effort_limit, m.opt.timestep)
        self._lead = self.kv / self.kp            # reference lead per rad/s at zero force
        self._band = self.effort_limit / self.kp  # reference offset at the effort limit

    def set(self, kind: str, joints: np.ndarray, values: np.ndarray) -> None:
        self.d.ctrl[(self.servo if kind == 'velocity' else self.torque)[joints]] = values

    def commanded(self, kind: str) -> np.ndarray:
        return self.d.ctrl[self.servo if kind == 'velocity' else self.torque]

    def apply_modes(self, mode: np.ndarray, joints: np.ndarray) -> None:
        """Velocity mode: servo on with its reference at the current angle, torque input off;
        effort mode: servo off (no force, no damping)."""
        m, d = self.m, self.d
        vel = mode[joints] == VELOCITY
        servo = self.servo[joints]
        kp = np.where(vel, self.kp[joints], 0.0)
        m.actuator_gainprm[servo, 0] = kp
        m.actuator_biasprm[servo, 1] = -kp
        m.actuator_biasprm[servo, 2] = -np.where(vel, self.kv[joints], 0.0)
        d.act[self.actadr[joints]] = d.qpos[self.qadr[joints]]
        d.ctrl[servo] = np.where(vel, d.ctrl[servo], 0.0)
        torque = self.torque[joints]
        d.ctrl[torque] = np.where(vel, 0.0, d.ctrl[torque])

    def before_steps(self) -> None:
        """Anti-windup: keep each reference where the unclamped force stays within the limit,
        ``|kp (act - q) - kv q'| <= effort``; within that band nothing changes (a held load)."""
        d, act = self.d, self._act
        centre = d.qpos[self.qadr] + self._lead * d.qvel[self.dadr]
        d.act[act] = np.minimum(np.maximum(d.act[act], centre - self._band), centre + self._band)

    def effort(self) -> np.ndarray:
        force = self.d.actuator_force
        return force[self.servo] + force[self.torque]


class ConstraintMotors:
    """The friction-loss motors of one robot's joints."""

    def __init__(self, m: mujoco.MjModel, d: mujoco.MjData, prefix: str, joints: list[str],
                 effort_limit: np.ndarray):
        self.m, self.d = m, d
        self.torque = np.array([m.actuator(prefix + j).id for j in joints], dtype=int)
        self.tendon = np.array([m.tendon(f'{prefix}motor/{j}').id for j in joints], dtype=int)
        self.driver_coef = m.tendon_adr[self.tendon] + 1  # wrap_prm index of the driver term
        self.force = np.minimum(np.asarray(effort_limit, dtype=float), UNLIMITED_EFFORT)
        self.slots = {'velocity': (m.wrap_prm, self.driver_coef.tolist(), -1.0),
                      'effort': (d.ctrl, self.torque.tolist(), 1.0)}
        self._friction_tendon = int(mujoco.mjtConstraint.mjCNSTR_FRICTION_TENDON)

    def tune(self) -> None:
        pass

    def set(self, kind: str, joints: np.ndarray, values: np.ndarray) -> None:
        if kind == 'velocity':
            self.m.wrap_prm[self.driver_coef[joints]] = -values
        else:
            self.d.ctrl[self.torque[joints]] = values

    def commanded(self, kind: str) -> np.ndarray:
        if kind == 'velocity':
            return -self.m.wrap_prm[self.driver_coef]
        return self.d.ctrl[self.torque]

    def apply_modes(self, mode: np.ndarray, joints: np.ndarray) -> None:
        """Velocity mode: motor friction on, torque input off; effort mode: the reverse."""
        vel = mode[joints] == VELOCITY
        self.m.tendon_frictionloss[self.tendon[joints]] = np.where(vel, self.force[joints], 0.0)
        acts = self.torque[joints]
        self.d.ctrl[acts] = np.where(vel, 0.0, self.d.ctrl[acts])

    def before_steps(self) -> None:
        pass

    def effort(self) -> np.ndarray:
        d = self.d
        rows = np.flatnonzero(d.efc_type == self._friction_tendon)
        tendon_force = np.zeros(self.m.ntendon)
        tendon_force[d.efc_id[rows]] = d.efc_force[rows]
        return tendon_force[self.tendon] + d.actuator_force[self.torque]


MOTOR_CLASSES = {'servo': ServoMotors, 'constraint': ConstraintMotors}


def check_model(name: str) -> str:
    if name not in MOTOR_MODELS:
        raise SimConfigError(f"joint_motor: expected one of {', '.join(MOTOR_MODELS)}, got "
                             f"'{name}'")
    return name
