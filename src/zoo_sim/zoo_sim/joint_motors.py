"""Joint motors: Gazebo/ODE's joint motor (the seeds' ``vel`` + ``fmax``) in MuJoCo.

ODE's motor is a constraint row: the joint's velocity is made equal to the target by a force that
the solver bounds by ``fmax``, solved together with the contacts. MuJoCo's bounded constraint is the
friction loss, a row that drives a velocity to zero with a force of at most ``frictionloss``. Each
joint gets a fixed tendon ``q_joint - c q_driver`` with ``frictionloss`` = the joint's effort limit,
where one shared driver DOF turns at exactly 1 rad/s (re-imposed every
``CORRECTION_PERIOD_STEPS``) and ``c`` is the commanded velocity: the solver turns the joint at the target using at most the limit, and
stalls it at the limit when that is not enough. No gains, no overshoot, no dependence on the step.

Four things are added to what the solver does, per robot and vectorised:

- Slip correction. MuJoCo's rows are soft (impedance ``MOTOR_IMPEDANCE``, its maximum): a loaded
  joint slips at a velocity proportional to its load (a Go1 calf at 96 % of its limit: 2.5 mrad/s).
  A force-free actuator per joint integrates the target into a reference angle (MuJoCo's
  ``integrator`` dynamics, inside the step: no Python per step, and the same result however the
  steps are split into calls). Every ``CORRECTION_PERIOD_STEPS`` the row's velocity becomes
  ``target + (reference - q) / CORRECTION_TIME``, so a held load stays at a fixed angle instead
  of creeping. The reference is kept within ``CORRECTION_BAND`` of the joint (anti-windup):
  after a stall the joint runs on by at most that much.
- Warm start. A new target changes the acceleration the solver must find by ``dv / h`` on that
  joint; MuJoCo warm-starts from the previous step's acceleration, and from that poor guess its
  Newton solver needs several iterations where ~1 would do (benchmarks/bench_sim.py on the 25-DOF
  Nao: 4.16 -> 1.06 iterations, 48.5 -> 26.1 us/step). The backend adds ``dv / h`` to the warm
  start for the step in which a target changes and takes it out after.
- Stops. Near a position limit the row's velocity is capped so that it does not drive the joint
  through the stop within a step call (``impose``).
- Velocity caps. Two limit rows per joint without a position term (``add_cap``) keep its velocity
  within ``+-c``: at each correction ``c`` is what reaches the stop at the end of the period, and
  in PD mode at most the velocity limit. MuJoCo's own limit acts only once a joint is past it,
  up to ``v h`` too late; these act before, and a PD torque cannot outrun the motor
  (``_set_caps``).

Effort commands use the same row as a speed-capped torque motor: target +-velocity limit, force
bound |effort| (clamped to the limit), so the joint feels exactly the commanded torque until it
reaches its velocity limit, as a real motor's torque falls off at its no-load speed (an effort
command otherwise spins a light joint to thousands of rad/s: the Nao hands). A joint without a
velocity limit gets a plain torque actuator instead. A joint's mode follows the type of its last
command.

PD commands (Unitree's MotorCmd, ros2_control's PD interfaces: position, velocity, kp, kd and a
feed-forward torque) are what a motor driver's own loop does: ``tau = kp (q_d - q) + kd (dq_d -
dq) + tau_ff`` at every physics step, inside MuJoCo (no Python per step). A general actuator per
joint holds ``kp`` and ``kd`` (gain ``kp`` on its control ``q_d``, bias ``-kp q - kd dq``), the
torque actuator carries ``tau_ff + kd dq_d``, and the joint's total actuator torque is clamped
to its effort limit (MuJoCo's ``actuatorfrcrange``), so the sum never beats the motor. The damping
term is explicit in the integrator: ``kd h / I`` must stay below ~2 for the lightest link (a Go1
calf with kd 15 wanted a step of 0.5 ms before its rotor inertia, joint_armature; Unitree's Gazebo
world uses 0.2 ms).
"""
from __future__ import annotations

import mujoco
import numpy as np

from . import SimConfigError

MOTOR_MODELS = ('constraint',)
DEFAULT_MOTOR = 'constraint'
REMOVED_MODELS = {'servo': 'the servo motor was removed: it overshot velocity steps, rippled and '
                           'let robots creep (see zoo_sim README, "Joint motors")'}
VELOCITY, EFFORT, PD = 0, 1, 2
UNLIMITED_EFFORT = 1e9  # force bound of a motor whose joint gives no effort limit

# The driver's armature keeps the motors' reaction on it small (~1e-6 rad/s per step; its 1 rad/s
# is re-imposed every CORRECTION_PERIOD_STEPS) without hurting the solver's conditioning. The rows use MuJoCo's smallest safe
# time constant (2 steps: the row reaches its target in one step) and its maximum impedance.
DRIVER = 'zoo_motor_driver'
DRIVER_ARMATURE = 1e4
MOTOR_TIMECONST_STEPS = 2.0
MOTOR_IMPEDANCE = 0.9999

# Slip correction (see above): at fixed steps of sim time, so that how advance(n) is split into
# calls does not change the result. 0.5 mrad of band / 50 ms = up to 10 mrad/s of slip corrected.
CORRECTION_PERIOD_STEPS = 10
CORRECTION_TIME = 0.05   # s
CORRECTION_BAND = 5e-4   # rad
REFERENCE_SUFFIX = '/reference'  # actuator '<robot>/<joint>/reference': target in, angle out
PD_SUFFIX = '/pd'                # actuator '<robot>/<joint>/pd': kp (q_d - q) - kd dq
# Velocity caps (add_cap): a limit row per side and joint, engaged by correct() where one can act
CAP_SIDES = ('up', 'down')
CAP_FAR = 1e12       # the unused bound of a cap tendon's range, far outside its margin
CAP_MARGIN = 1e10    # always within the margin: the row is instantiated whenever engaged
CAP_STIFFNESS = 1e-20  # ~0: no position term (x CAP_MARGIN: 1e-10 rad/s^2)
CAP_SLOW = 1.0      # rad/s: a joint slower than this at a stop passes it by < 1 mrad per step
CAP_ENGAGE = 100.0   # rad/s: a PD joint's cap above this is left off (the driver's coefficient)
WARM_START_MIN_CHANGE = 1e-6  # rad/s: smaller target changes are not worth a separate step call

# numpy's ufuncs called directly: correct() and impose() run on every step call, and on 25-element
# arrays numpy's per-call overhead is their cost.
# No numpy min/max (np.maximum, np.minimum, their reductions, np.max, .max(), .min()) on a
# per-step path: after numpy's float64 min/max loops (AVX-512 code on the development machine's
# Xeon) the MuJoCo steps that follow run ~5 % slower (a 4-step call 100 us instead of 95 with
# three such calls per 5 ms; benchmarks/bench_sim.py 1.34x -> 1.27x without them). clip,
# argmax/argmin, sums, counts and the other ufuncs used here do not do it. So caps are clips,
# and a largest value is the one argmax finds (the first NaN, where a max reduction gives NaN).
_clip = np._core.umath.clip if hasattr(np, '_core') else np.core.umath.clip
_argmax = np.argmax
_abs = np.abs
_add, _subtract, _multiply, _negative = np.add, np.subtract, np.multiply, np.negative
_count = np.count_nonzero
_SLIP_GAIN = 1.0 / CORRECTION_TIME  # 1/s: the correction's velocity per rad of lag


# -- model building --------------------------------------------------------------------------------
def add_driver(spec: mujoco.MjSpec) -> None:
    """The motors' shared driver: a massless hinge of large armature, no geometry."""
    body = spec.worldbody.add_body(name=DRIVER, mass=1e-6, ipos=[0, 0, 0],
                                   inertia=[1e-9, 1e-9, 1e-9])
    body.explicitinertial = True
    body.add_joint(name=DRIVER, type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 0, 1],
                   armature=DRIVER_ARMATURE)


def add_motor(spec: mujoco.MjSpec, prefix: str, joint: str, effort: float | None,
              step: float) -> None:
    """The motor of one joint (``joint`` is its URDF name, ``prefix + joint`` the MuJoCo one): a
    friction-loss tendon against the driver, a force-free integrator whose control is the target
    velocity and whose activation is the reference angle, and a torque actuator for effort
    commands. Friction and coefficients are set at run time."""
    target = prefix + joint
    tendon = spec.add_tendon(name=f'{prefix}motor/{joint}')
    tendon.wrap_joint(target, 1.0)
    tendon.wrap_joint(DRIVER, 1.0)  # coefficient: -velocity, set by JointMotors
    tendon.frictionloss = 0.0
    tendon.solref_friction = [MOTOR_TIMECONST_STEPS * step, 1.0]
    tendon.solimp_friction = [MOTOR_IMPEDANCE, MOTOR_IMPEDANCE, 0.001, 0.5, 2.0]
    ref = spec.add_actuator(name=target + REFERENCE_SUFFIX, target=target)
    ref.trntype = mujoco.mjtTrn.mjTRN_JOINT
    ref.ctrllimited = mujoco.mjtLimited.mjLIMITED_FALSE
    ref.dyntype = mujoco.mjtDyn.mjDYN_INTEGRATOR
    ref.gainprm[0] = 0.0  # no force: gain and bias 0
    act = spec.add_actuator(name=target, target=target)
    act.trntype = mujoco.mjtTrn.mjTRN_JOINT
    act.ctrllimited = mujoco.mjtLimited.mjLIMITED_FALSE
    pd = spec.add_actuator(name=target + PD_SUFFIX, target=target)
    pd.trntype = mujoco.mjtTrn.mjTRN_JOINT
    pd.ctrllimited = mujoco.mjtLimited.mjLIMITED_FALSE
    pd.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    pd.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    pd.gainprm[0] = 0.0  # kp and kd are set at run time, 0 outside PD mode
    if effort is not None and effort > 0:
        act.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
        act.forcerange = [-effort, effort]
        joint_spec = spec.joint(target)  # the sum of the joint's actuators: PD + feed-forward
        joint_spec.actfrclimited = mujoco.mjtLimited.mjLIMITED_TRUE
        joint_spec.actfrcrange = [-effort, effort]


def add_caps(spec: mujoco.MjSpec, prefix: str, joints: list[str], step: float) -> None:
    """The velocity caps of a robot's joints: every 'up' row, then every 'down' row, so that
    JointMotors reaches them (and their driver coefficients) through two slices."""
    for side in CAP_SIDES:
        for joint in joints:
            add_cap(spec, prefix, joint, side, step)


def add_cap(spec: mujoco.MjSpec, prefix: str, joint: str, side: str, step: float) -> None:
    """One side of a joint's velocity cap: the tendon ``q_joint - c q_driver`` ('up') or
    ``q_joint + c q_driver`` ('down') with a limit that is always within its margin, whose
    reference acceleration has no position term (direct solref: stiffness ~0, damping 1/h): the
    limit row only acts when the joint's next velocity would exceed ``c`` ('up') or fall below
    ``-c`` ('down'), and then holds it there, as a constraint, like a stop."""
    tendon = spec.add_tendon(name=f'{prefix}cap{side}/{joint}')
    tendon.wrap_joint(prefix + joint, 1.0)
    tendon.wrap_joint(DRIVER, 0.0)  # coefficient: -+c, set by JointMotors._set_caps
    tendon.limited = mujoco.mjtLimited.mjLIMITED_FALSE  # engaged by JointMotors._set_caps
    # up: L <= 0 (its lower bound far out of the margin); down: L >= 0
    tendon.range = [-CAP_FAR, 0.0] if side == 'up' else [0.0, CAP_FAR]
    tendon.margin = CAP_MARGIN
    tendon.solref_limit = [-CAP_STIFFNESS, -1.0 / step]
    tendon.solimp_limit = [MOTOR_IMPEDANCE, MOTOR_IMPEDANCE, 0.001, 0.5, 2.0]


# -- run time --------------------------------------------------------------------------------------
def _fast(index: np.ndarray):
    """``index`` as a basic slice when it is an arithmetic progression (a robot's joints are
    contiguous in MuJoCo's arrays): reads and writes through a slice are several times cheaper
    than through an index array, and these run on every step call."""
    index = np.asarray(index, dtype=int)
    if len(index) == 0:
        return index
    stride = int(index[1] - index[0]) if len(index) > 1 else 1
    if stride > 0 and np.array_equal(index, index[0] + stride * np.arange(len(index))):
        return slice(int(index[0]), int(index[-1]) + 1, stride)
    return index


def _rows(array: np.ndarray, index):
    """A view of ``array[index]`` when ``index`` is a slice (kept: a view of MuJoCo's arrays
    stays valid as long as the model and data, and making one costs as much as the ufunc that
    uses it), else None (an index array copies: read it each time)."""
    return array[index] if index.__class__ is slice else None


class JointMotors:
    """The motors of one robot's joints (index arrays into model and data)."""

    def __init__(self, m: mujoco.MjModel, d: mujoco.MjData, prefix: str, joints: list[str],
                 effort_limit: np.ndarray, velocity_limit: np.ndarray):
        self.m, self.d = m, d
        jid = np.array([m.joint(prefix + j).id for j in joints], dtype=int)
        self.qadr = m.jnt_qposadr[jid]
        self.dadr = m.jnt_dofadr[jid]
        self.torque = np.array([m.actuator(prefix + j).id for j in joints], dtype=int)
        self.reference = np.array([m.actuator(prefix + j + REFERENCE_SUFFIX).id for j in joints],
                                  dtype=int)
        self.actadr = m.actuator_actadr[self.reference]
        self.pd = np.array([m.actuator(prefix + j + PD_SUFFIX).id for j in joints], dtype=int)
        self.pd_mode = np.zeros(len(joints), dtype=bool)
        self.tendon = np.array([m.tendon(f'{prefix}motor/{j}').id for j in joints], dtype=int)
        self.driver_coef = m.tendon_adr[self.tendon] + 1  # wrap_prm index of the driver term
        self.force = np.minimum(np.asarray(effort_limit, dtype=float), UNLIMITED_EFFORT)
        self.velocity_limit = np.asarray(velocity_limit, dtype=float)
        self._neg_velocity_limit = -self.velocity_limit
        self._reach = self.velocity_limit * (2 * CORRECTION_PERIOD_STEPS * m.opt.timestep)
        limited = m.jnt_limited[jid].astype(bool) if len(jid) else np.zeros(0, dtype=bool)
        self.lower = np.where(limited, m.jnt_range[jid, 0] if len(jid) else 0.0, -np.inf)
        self.upper = np.where(limited, m.jnt_range[jid, 1] if len(jid) else 0.0, np.inf)
        self._lower_reach, self._upper_reach = self.lower + self._reach, self.upper - self._reach
        # effort mode: a speed-capped torque (the row, target +-velocity limit, bound |effort|)
        # where the joint has a velocity limit, else the plain torque actuator
        self.capped = np.isfinite(self.velocity_limit)
        self.speed = np.where(self.capped, self.velocity_limit, 0.0)
        n = len(joints)
        self.velocity_mode = np.ones(n, dtype=bool)
        # per-message fast path: a velocity command is the reference integrator's control
        # (a memoryview of ctrl: one element stored through it costs half a numpy store)
        ctrl = memoryview(d.ctrl)
        self.slots = {'velocity': (ctrl, self.reference.tolist(), 1.0),
                      'effort': (ctrl, self.torque.tolist(), 1.0)}
        self._friction_tendon = int(mujoco.mjtConstraint.mjCNSTR_FRICTION_TENDON)
        # the same indices for whole-robot reads and writes on the hot path
        self._q, self.dofs, self._act = _fast(self.qadr), _fast(self.dadr), _fast(self.actadr)
        self._ref, self._tau = _fast(self.reference), _fast(self.torque)
        self._coef, self._friction = _fast(self.driver_coef), _fast(self.tendon)
        # MjModel/MjData arrays, looked up once: each attribute read of the bindings makes a new
        # numpy view, and correct()/impose() run on every step call
        self._qpos, self._ctrl, self._actv = d.qpos, d.ctrl, d.act
        self._wrap = m.wrap_prm
        self._q_rows, self._act_rows = _rows(d.qpos, self._q), _rows(d.act, self._act)
        self._ref_rows, self._coef_rows = _rows(d.ctrl, self._ref), _rows(m.wrap_prm, self._coef)
        self._n = len(joints)
        self._neg_band = -CORRECTION_BAND
        # velocity caps (add_cap): rows 'up' then 'down', each with its driver coefficient
        self.cap_tendon = np.array([[m.tendon(f'{prefix}cap{side}/{j}').id for j in joints]
                                    for side in CAP_SIDES], dtype=int).reshape(2, n)
        self._cap_coef = m.tendon_adr[self.cap_tendon] + 1
        # views of the rows' flags and driver coefficients where add_caps laid them out in order
        first = int(self.cap_tendon.flat[0]) if n else 0
        in_order = n and np.array_equal(self.cap_tendon.ravel(), first + np.arange(2 * n)) and \
            np.array_equal(self._cap_coef.ravel(), self._cap_coef.flat[0] + 2 * np.arange(2 * n))
        self._cap_flags = m.tendon_limited[first:first + 2 * n].reshape(2, n) if in_order else None
        c0 = int(self._cap_coef.flat[0]) if n else 0
        self._cap_coefs = m.wrap_prm[c0:c0 + 4 * n:2].reshape(2, n) if in_order else None
        period = CORRECTION_PERIOD_STEPS * m.opt.timestep  # the caps' horizon
        sign = np.array([[1.0], [-1.0]])  # caps = ((upper, -lower) - sign q) / period
        self._cap_sign = sign / period
        self._cap_coef_sign = -sign        # up: q - c q_driver; down: q + c q_driver
        self._cap_stops = (np.stack([self.upper, -self.lower]) if n else np.zeros((2, 0))) / period
        self._caps = np.zeros((2, n))
        self._caps_coef = np.zeros((2, n))
        self._limit = np.zeros((2, n))
        self._toward2 = 2.0 * sign         # twice the speed toward each stop
        self._cap_reach = np.where(self.capped, self.velocity_limit, CAP_ENGAGE)
        # faster than CAP_SLOW toward the stop <=> 2 v + reach above this
        self._cap_fast = 2.0 * CAP_SLOW + self._cap_reach
        self._qvel = d.qvel
        self.reset()

    @property
    def all_velocity(self) -> bool:
        """Every joint in velocity mode (the modes follow the backend's ``mode``)."""
        return self._all_velocity

    @property
    def target(self) -> np.ndarray:
        """The velocity targets (those of joints in effort mode are 0)."""
        return self.d.ctrl[self.reference]

    def reset(self) -> None:
        """Every joint in velocity mode at target 0, its reference at its angle."""
        n = len(self.velocity_mode)
        d = self.d
        d.ctrl[self.reference] = 0.0
        d.ctrl[self.torque] = 0.0
        d.ctrl[self.pd] = 0.0
        d.act[self.actadr] = d.qpos[self.qadr]
        self.m.actuator_gainprm[self.pd, 0] = 0.0
        self.m.actuator_biasprm[self.pd, 1:3] = 0.0
        self.m.actuator_gainprm[self.torque, 0] = np.where(self.capped, 0.0, 1.0)
        self.velocity_mode[:] = True
        self.pd_mode[:] = False
        self._all_velocity = True
        self._fixed_bounds = True
        self._near_stop = True         # until correct() has looked
        self.correction = np.zeros(n)
        self.imposed = np.zeros(n)     # the velocities the rows impose now
        self._spare = np.zeros(n)      # impose()'s work buffer (swapped with imposed)
        # impose()'s stop caps: lower and upper stacked, so both bounds take one call each
        self._stops = np.stack([self.lower, self.upper]) if n else np.zeros((2, 0))
        # the bounds' own caps, (max(-limit, low), min(limit, high)) as one clip: the lower
        # bound has no ceiling, the upper no floor
        self._bound_floor = np.stack([self._neg_velocity_limit, np.full(n, -np.inf)])
        self._bound_ceiling = np.stack([np.full(n, np.inf), self.velocity_limit])
        self._bounds = np.zeros((2, n))
        self._low, self._high = self._bounds[0], self._bounds[1]
        self._size = np.zeros(n)       # impose()'s |change|
        self.m.wrap_prm[self.driver_coef] = 0.0
        self.m.tendon_frictionloss[self.tendon] = self.force
        self.m.tendon_limited[self.cap_tendon] = False
        self.m.wrap_prm[self._cap_coef] = 0.0
        self._caps_on = False
        self._any_pd = False
        self._cap_speed = np.full(n, np.inf)  # the velocity limit in PD mode, else none

    def set(self, kind: str, joints: np.ndarray, values: np.ndarray) -> None:
        self.d.ctrl[(self.reference if kind == 'velocity' else self.torque)[joints]] = values

    def set_pd(self, joints: np.ndarray, q: np.ndarray, dq: np.ndarray, kp: np.ndarray,
               kd: np.ndarray, tau: np.ndarray) -> None:
        """PD targets and gains of joints in PD mode (see the module docstring)."""
        m, d = self.m, self.d
        pd = self.pd[joints]
        m.actuator_gainprm[pd, 0] = kp
        m.actuator_biasprm[pd, 1] = -kp
        m.actuator_biasprm[pd, 2] = -kd
        d.ctrl[pd] = q
        d.ctrl[self.torque[joints]] = tau + kd * dq

    def commanded(self, kind: str) -> np.ndarray:
        return self.d.ctrl[self.reference if kind == 'velocity' else self.torque]

    def apply_modes(self, mode: np.ndarray, joints: np.ndarray) -> None:
        """A joint's mode after a command of the other kind: the command of the other kind is
        dropped and the reference restarts at the joint's angle."""
        d, m = self.d, self.m
        vel = mode[joints] == VELOCITY
        pd = mode[joints] == PD
        self.velocity_mode[joints] = vel
        self.pd_mode[joints] = pd
        self._any_pd = bool(self.pd_mode.any())
        self._cap_speed = np.where(self.pd_mode, self.velocity_limit, np.inf)
        if self._any_pd or self._caps_on:  # until the next correction, at most a period away
            self._set_caps(d.qpos[self.qadr])
        self._all_velocity = bool(self.velocity_mode.all())
        # Without a joint in effort mode the rows' bounds stay as set here until the next switch
        # (a velocity joint's force; none for a PD joint, whose row MuJoCo then leaves out), and a
        # PD joint's row imposes 0 (its target and correction are 0): impose() takes the
        # velocity-only path. With one, impose() sets the bounds from the effort every call.
        self._fixed_bounds = self._all_velocity or not bool(
            (~self.velocity_mode & ~self.pd_mode).any())
        if self._fixed_bounds:
            m.tendon_frictionloss[self._friction] = np.where(self.velocity_mode, self.force, 0.0)
        self._near_stop = True
        ref, acts = self.reference[joints], self.torque[joints]
        d.ctrl[ref] = np.where(vel, d.ctrl[ref], 0.0)
        d.ctrl[acts] = np.where(vel, 0.0, d.ctrl[acts])
        # the torque actuator acts itself in PD mode and for unlimited effort; a capped effort
        # command goes through the row instead; the PD actuator is silent outside PD mode
        m.actuator_gainprm[acts, 0] = np.where(pd | ~self.capped[joints], 1.0, 0.0)
        off = self.pd[joints[~pd]]
        m.actuator_gainprm[off, 0] = 0.0
        m.actuator_biasprm[off, 1:3] = 0.0
        d.ctrl[off] = 0.0
        d.act[self.actadr[joints]] = d.qpos[self.qadr[joints]]
        self.correction[joints] = 0.0

    def correct(self) -> None:
        """Slip correction and anti-windup, at fixed steps of sim time."""
        q = self._q_rows if self._q_rows is not None else self._qpos[self._q]
        act = self._act_rows
        lag = _subtract(act if act is not None else self._actv[self._act], q)
        _clip(lag, self._neg_band, CORRECTION_BAND, out=lag)
        if not self._all_velocity:
            lag[~self.velocity_mode] = 0.0
        if act is not None:
            _add(q, lag, out=act)
        else:
            self._actv[self._act] = q + lag
        _multiply(lag, _SLIP_GAIN, out=lag)
        self.correction = lag
        # can any joint reach a stop before the next correction? (else impose skips the caps)
        self._near_stop = bool(_count(q < self._lower_reach) or _count(q > self._upper_reach))
        if self._near_stop or self._caps_on or self._any_pd:
            self._set_caps(q)

    def _cap_wanted(self, q: np.ndarray) -> np.ndarray:
        """Which caps to engage, sides (up, down) x joints, the caps left in self._caps (for a
        correction period): see _set_caps."""
        caps = _subtract(self._cap_stops, _multiply(self._cap_sign, q, out=self._caps),
                         out=self._caps)  # (upper - q, q - lower) / period
        if self._any_pd:
            _clip(caps, -np.inf, self._cap_speed, out=caps)
        # twice the speed toward the stop plus the limit if faster than CAP_SLOW (which that sum
        # then exceeds), else CAP_SLOW
        limit = _multiply(self._toward2, self._qvel[self.dofs], out=self._limit)
        _add(limit, self._cap_reach, out=limit)
        on = caps < np.where(limit > self._cap_fast, limit, CAP_SLOW)
        if self._any_pd:
            on[:, self.pd_mode] = caps[:, self.pd_mode] < CAP_ENGAGE
        return on

    def impose(self, steps: int, step: float) -> np.ndarray | None:
        """Set the rows for the next ``steps`` steps; returns the change of imposed velocity
        where it is worth a warm start.

        A row never drives its joint through a stop within the call: its velocity is capped at
        what reaches the stop at the call's end (the joint then rests on it; the stop itself, a
        MuJoCo limit, holds against everything else). Discrete steps would otherwise carry a fast
        joint up to ``v h`` past it (a Go1 calf at 20 rad/s: 0.02 rad per step)."""
        ctrl = self._ctrl
        if self._fixed_bounds:
            ref = self._ref_rows
            v = _add(ref if ref is not None else ctrl[self._ref], self.correction,
                     out=self._spare)
        else:
            tau = ctrl[self._tau]
            v = np.where(self.velocity_mode, ctrl[self._ref] + self.correction,
                         np.sign(tau) * self.speed)
            self.m.tendon_frictionloss[self._friction] = np.where(
                self.velocity_mode, self.force,
                np.where(self.capped & ~self.pd_mode, _clip(np.abs(tau), -np.inf, self.force),
                         0.0))  # (min(|tau|, force) as a clip: see _argmax)
        if self._near_stop:
            # min(max(v, max(-limit, (lower - q) / T)), min(limit, (upper - q) / T)) into kept
            # buffers (v is one unless in effort mode); a clip is min(max(x, floor), ceiling)
            q = self._q_rows if self._q_rows is not None else self._qpos[self._q]
            bounds = self._bounds
            _subtract(self._stops, q, out=bounds)  # (lower - q, upper - q)
            _multiply(bounds, 1.0 / (steps * step), out=bounds)
            _clip(bounds, self._bound_floor, self._bound_ceiling, out=bounds)
            _clip(v, self._low, self._high, out=v)
        else:
            _clip(v, self._neg_velocity_limit, self.velocity_limit, out=v)
        change = _subtract(v, self.imposed)
        largest = 0.0
        if self._n:
            size = _abs(change, out=self._size)
            largest = size[_argmax(size)]  # max |change| (NaN if any; see _argmax)
        if largest == 0.0:  # (NaN is not: it is imposed, as any other change)
            return None
        if v is self._spare:  # the buffers swap: no array made per call
            self._spare = self.imposed
        self.imposed = v
        if self._coef_rows is not None:
            _negative(v, out=self._coef_rows)
        else:
            self._wrap[self._coef] = -v
        return change if largest > WARM_START_MIN_CHANGE else None

    def _set_caps(self, q: np.ndarray) -> None:
        """The velocity caps (add_cap), set at each correction for the period that follows.
        Toward each stop: what reaches it at the period's end, so no joint passes a stop,
        whatever drives it (MuJoCo's limit only acts once a joint is past it, by then a fast
        joint is up to ``v h`` through: a Go1 hip at 30 rad/s, 0.03 rad); a fast joint is braked
        up to a period before its stop, with the force that its stop would have given it. In PD
        mode also the velocity limit, the motor's no-load speed (a PD torque otherwise spins a
        light joint to hundreds of rad/s, the Robobo's wheels until MuJoCo gives up).

        A cap is a constraint row, so only those that can act are engaged: in PD mode those below
        CAP_ENGAGE; in velocity and effort modes, whose rows already aim at the stop's cap with
        the motor's force, those of joints moving toward the stop faster than CAP_SLOW with a
        cap below twice that speed plus the velocity limit (the motor cannot brake the joint in
        time, or something else drives it), and those of joints on their stop (cap below
        CAP_SLOW: another joint's impact can push them through it in one step)."""
        on = self._cap_wanted(q)
        engaged = _count(on)
        if not self._caps_on and not engaged:
            return  # all off, and they were
        coef = _multiply(self._caps, self._cap_coef_sign, out=self._caps_coef)
        coef[~on] = 0.0  # (not coef x on: an unbounded cap is inf, and inf x 0 is NaN)
        if self._cap_flags is not None:
            self._cap_flags[...] = on
            self._cap_coefs[...] = coef
        else:
            self.m.tendon_limited[self.cap_tendon] = on
            self._wrap[self._cap_coef] = coef
        self._caps_on = bool(engaged)

    def effort(self) -> np.ndarray:
        """The motors' torques: the rows' forces (effort-mode rows of zero bound are absent)
        plus the joint's actuators' (clamped to the effort limit as applied). MuJoCo stores constraint rows grouped by type in the
        order of mjtConstraint, so the tendon friction rows are one slice of efc_type."""
        d = self.d
        kinds = d.efc_type
        lo = int(kinds.searchsorted(self._friction_tendon))
        hi = int(kinds.searchsorted(self._friction_tendon + 1))
        tendon_force = np.zeros(self.m.ntendon)
        tendon_force[d.efc_id[lo:hi]] = d.efc_force[lo:hi]
        return tendon_force[self.tendon] + d.qfrc_actuator[self.dofs]


def check_model(name: str) -> str:
    if name in REMOVED_MODELS:
        raise SimConfigError(f"joint_motor: '{name}': {REMOVED_MODELS[name]}; use "
                             f"'{DEFAULT_MOTOR}'")
    if name not in MOTOR_MODELS:
        raise SimConfigError(f"joint_motor: expected one of {', '.join(MOTOR_MODELS)}, got "
                             f"'{name}'")
    return name
