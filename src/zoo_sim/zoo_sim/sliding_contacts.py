"""Coulomb sliding for designated contacts: no hover, no chatter (zoo_sim README, "Sliding
contacts").

Why. MuJoCo solves a contact's normal and friction rows as one soft cone. Its friction rows aim
at the reference acceleration ``aref_t = -B v_t`` (``B`` the contact's damping: 105 1/s for
MuJoCo's default contact, 731 1/s for the Robobo's; engine_core_constraint.c
``mj_makeImpedance``), and on the cone (the "middle zone" of engine_solver.c
``mj_constraintUpdate_impl``) the normal force grows with the friction residual:
``f_n = D0 (mu |a_t - aref_t| - jar_n) / (1 + mu_r^2)``. A contact sliding at ``v_t`` is pushed
off its surface by about ``mu B |v_t|``; above roughly ``(1 - d) g / (d mu B)`` (1 cm/s for the
contacts we ship) the push beats the soft contact's hold, the contact breaks, the body falls back
and chatters. Measured before this module: the 1 kg box pushed at 1.2 mu m g was without contact
42 % of the steps and rocked at up to 3 rad/s (5.6 % off Coulomb at 30 degrees); the Robobo's
slider was in the air 55-83 % of the steps while the robot drove. No parameter removes it (it is
the convex relaxation of Coulomb friction; Genesis-Embodied-AI/genesis-world PR #3126 describes
the same lift-off of a sliding cube).

What. A designated contact that slides (tangential speed above ``2 mu g h``, two steps of
Coulomb deceleration), or that sticks but will slip within the step by the predicted
acceleration, gets a friction reference equal to its predicted tangential acceleration, led by
``DELTA mu g`` against the slip. The prediction is the warm start: the last step's accelerations
plus what a changed motor target asks (mujoco_backend's hint), so a wheel spun up by a velocity
step is seen in the step that does it. The reference asks for more deceleration than friction
can give, so the solver puts the friction on the cone, ``mu N`` against the slip, but the
residual that pushes the normal is ``DELTA mu g`` instead of ``B v_t``. A contact's first sliding
step (nothing to follow yet) keeps MuJoCo's reference capped at ``ONSET mu g``: friction acts at
once, with a bounded kick. A contact that sticks keeps MuJoCo's reference: static friction
(impratio, no creep) is unchanged.

How. The adjustment runs in MuJoCo's control callback, after the constraint rows and their
references are built and before the solver, so ``mj_step(m, d, n)`` still steps in C. The
callback is a C function pointer: a model without designated geoms costs one dictionary lookup
per step. The simulator binds its data (:func:`bind`); other data of the same model step with
MuJoCo's reference. Elliptic cones only (the pyramid's rows mix normal and friction).

Which contacts. Every geom of a free (non-static) world model, and the links a robot description
lists under ``sliding_links`` in ``config/contacts.yaml`` (the Robobo's slider and wheels).
"""
from __future__ import annotations

import ctypes
import math
import weakref

import mujoco
import numpy as np

DELTA = 0.05         # lead of the friction reference, in units of mu g: the box test is exact
                     # from 0.03 to 0.15 (0.2 oscillates); the Robobo's wheels keep contact best
                     # at 0.03-0.05
SWITCH_STEPS = 2.0   # sliding above two steps of Coulomb velocity change (2 mu g h); below,
                     # MuJoCo's own reference (static friction, impratio) stays
ONSET = 2.0          # first sliding step: the reference asks for at most ONSET mu g
ELLIPTIC = mujoco.mjtCone.mjCONE_ELLIPTIC

# model address -> its designation. The control callback is a C function pointer (ctypes), not a
# Python callable: MuJoCo also calls it while compiling models, whose pointers the Python
# bindings cannot wrap (a Python callable then fails every compile in the process).
_REGISTRY: dict[int, 'SlidingContacts'] = {}


@ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
def _control(m_ptr, d_ptr) -> None:
    s = _REGISTRY.get(m_ptr)
    if s is None:
        return
    ref = s.datas.get(d_ptr)
    d = ref() if ref is not None else None
    m = s.model()
    if d is not None and m is not None:
        s.adjust(m, d)


class SlidingContacts:
    """The designated geoms of one model; :meth:`adjust` runs before each constraint solve."""

    def __init__(self, m: mujoco.MjModel, designated: np.ndarray):
        self.designated = np.asarray(designated, dtype=bool)
        self.model = weakref.ref(m)
        self.datas: dict[int, weakref.ref] = {}  # data address -> the data bound to it
        self.g = float(np.linalg.norm(m.opt.gravity))
        self.h = m.opt.timestep
        self.designated_set = set(np.flatnonzero(self.designated).tolist())
        self._sliding: set[tuple[int, int]] = set()  # geom pairs that slid at the last solve
        self.adjusted = 0        # contacts given the Coulomb reference (tests, reports)

    def adjust(self, m: mujoco.MjModel, d: mujoco.MjData) -> None:
        # plain Python over the few contacts: numpy's per-call overhead was 3x the step
        n = d.ncon
        prev, self._sliding = self._sliding, set()
        if n == 0 or m.opt.cone != ELLIPTIC:
            return
        con = d.contact
        des, g, h = self.designated_set, self.g, self.h
        vel, ref = d.efc_vel, d.efc_aref
        jacc = None
        for (g1, g2), k, dim, mu in zip(con.geom.tolist(), con.efc_address.tolist(),
                                        con.dim.tolist(), con.friction[:, 0].tolist()):
            if (g1 not in des and g2 not in des) or dim < 3 or k < 0:
                continue
            if jacc is None:
                # the predicted accelerations of these rows: the warm start is the last step's
                # accelerations plus what a changed motor target asks (mujoco_backend hints)
                jacc = np.empty(d.nefc)
                mujoco.mj_mulJacVec(m, d, jacc, d.qacc_warmstart)
            v1, v2 = float(vel[k + 1]), float(vel[k + 2])
            a1, a2 = float(jacc[k + 1]), float(jacc[k + 2])
            mug = mu * g
            switch = SWITCH_STEPS * mug * h
            key = (g1, g2)
            speed = math.hypot(v1, v2)
            if speed > switch:
                self._sliding.add(key)
                if key not in prev:
                    # nothing to follow yet: MuJoCo's reference -B v_t, capped at ONSET mu g
                    # (more than friction alone can decelerate: on the cone at once, without
                    # the kick of B v_t that launched contacts re-forming at speed)
                    r1, r2 = float(ref[k + 1]), float(ref[k + 2])
                    scale = min(1.0, ONSET * mug / max(math.hypot(r1, r2), 1e-12))
                    ref[k + 1], ref[k + 2] = r1 * scale, r2 * scale
                    continue
                s1, s2, size = v1, v2, speed
            else:
                # sticking now: slipping within this step only if the prediction says so (a
                # wheel spun up or locked by a velocity step)
                s1, s2 = v1 + h * a1, v2 + h * a2
                size = math.hypot(s1, s2)
                if size <= switch:
                    continue  # MuJoCo's reference: static friction, impratio
                self._sliding.add(key)  # the next step follows it
            lead = DELTA * mug / size
            ref[k + 1] = a1 - lead * s1
            ref[k + 2] = a2 - lead * s2
            self.adjusted += 1


def attach(m: mujoco.MjModel, designated: np.ndarray) -> SlidingContacts | None:
    """Designate geoms of ``m`` (a boolean mask over its geoms); None if there are none. The
    model's entry goes when the model does."""
    if not np.any(designated):
        return None
    s = SlidingContacts(m, designated)
    key = m._address
    _REGISTRY[key] = s
    weakref.finalize(m, _forget, key)
    if mujoco.get_mjcb_control() is not _control:
        mujoco.set_mjcb_control(_control)
    return s


def _forget(key: int) -> None:
    """The model is gone; with the last designated model the callback goes too."""
    _REGISTRY.pop(key, None)
    if not _REGISTRY and mujoco.get_mjcb_control() is _control:
        mujoco.set_mjcb_control(None)


def bind(m: mujoco.MjModel, d: mujoco.MjData) -> None:
    """Adjust the steps of ``d`` (the simulator's data of ``m``); nothing if ``m`` has no
    designated geoms."""
    s = _REGISTRY.get(m._address)
    if s is not None:
        key = d._address
        s.datas[key] = weakref.ref(d, lambda _, k=key, t=s.datas: t.pop(k, None))


def of(m: mujoco.MjModel) -> SlidingContacts | None:
    """The designation of ``m``, if any."""
    return _REGISTRY.get(m._address)
