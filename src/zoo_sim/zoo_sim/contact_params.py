"""Gazebo/ODE contact parameters -> MuJoCo ``friction``, ``solref``, ``solimp`` and ``priority``.

The derivation is in the package README ("Contact parameters"). In short:

- ODE (through Gazebo) makes every contact point a spring-damper ``F = kp x + kd x'`` integrated
  implicitly over the step ``h`` (ERP = h kp / (h kp + kd), CFM = 1 / (h kp + kd); ODE manual,
  "Soft constraint and constraint force mixing"). Evaluated at the end of the step the spring adds
  ``h kp`` to the damping, so at step ``h`` ODE's contact has stiffness ``kp`` and damping
  ``kd + h kp``.
- MuJoCo's direct ``solref = (-stiffness, -damping)`` is in acceleration units: we divide by the
  mass the contact carries, the whole robot (``m_ref``). ODE's implicit step never lets a contact
  ring; MuJoCo integrates the reference spring explicitly, so the damping is raised to at least
  critical (``2 sqrt(stiffness)``) and the stiffness capped where the critically damped time
  constant reaches two steps (MuJoCo's own ``refsafe`` bound for its standard format).
- ``minDepth`` (ODE's per-body contact surface layer, penetration allowed before correction) maps
  to the ``solimp`` width over which the impedance rises to its maximum: from MuJoCo's 0.9, or,
  for the links a description lists as ``surface_layer_links`` (``surface_layer``), from
  ``LAYER_D0``, so that the contact corrects little within the layer, as ODE's does not at all.
- Gazebo combines two surfaces with ``mu = min(mu_a, mu_b)`` (ODEPhysics::Collide); MuJoCo uses the
  element-wise maximum unless geom priorities differ. :func:`priorities` orders geoms so that the
  lower friction wins, reproducing the minimum rule.
"""
from __future__ import annotations

import dataclasses
import math

RIGID_KP = 1e10            # Gazebo's default kp is 1e12: a rigid contact; use MuJoCo's default
DEFAULT_SOLIMP = (0.9, 0.95, 0.001, 0.5, 2.0)  # MuJoCo's defaults
MIN_TIMECONST_STEPS = 2.0  # MuJoCo: timeconst >= 2 steps (refsafe), i.e. stiffness <= 1/(2h)^2
# Impedance at zero depth of a surface layer: ODE corrects nothing within minDepth, MuJoCo's
# impedance must be > 0. At 0.9 a lightly loaded Go1 foot (4 N) rested 1-5 um deep and each 2 ms
# command lifted it off for a step; from 0.1 it rests deeper in the layer and stays in contact
# (zoo_sim README, "Contact parameters").
LAYER_D0 = 0.1


@dataclasses.dataclass(frozen=True)
class ContactParams:
    """MuJoCo parameters of one geom (None: keep MuJoCo's default)."""
    mu: float = 1.0
    solref: tuple[float, float] | None = None
    solimp: tuple[float, float, float, float, float] | None = None
    notes: tuple[str, ...] = ()

    @property
    def stiffness(self) -> float:
        """Acceleration-space stiffness used to order equally slippery geoms (soft first)."""
        return -self.solref[0] if self.solref is not None else math.inf


def from_ode(mu1: float | None, mu2: float | None, kp: float | None, kd: float | None,
             min_depth: float | None, max_vel: float | None, m_ref: float | None,
             step: float, surface_layer: bool = False) -> ContactParams:
    """Map one surface. ``m_ref`` is the mass the contact carries (None: unknown, e.g. a static
    world surface, whose softness then cannot be expressed in MuJoCo's acceleration units);
    ``surface_layer``: the impedance rises over ``min_depth`` from ``LAYER_D0``."""
    notes: list[str] = []
    mu = 1.0 if mu1 is None else mu1  # ODE's default friction coefficient is 1
    if mu2 is not None and mu1 is not None and not math.isclose(mu1, mu2):
        notes.append(f'mu2={mu2} differs from mu1={mu1}: MuJoCo geoms have isotropic friction; '
                     'mu1 is used')
    if max_vel is not None:
        notes.append(f'maxVel={max_vel}: MuJoCo has no contact correction-speed cap; the '
                     'correction follows solref')
    solimp = None
    if min_depth is not None and min_depth > 0:
        solimp = (LAYER_D0 if surface_layer else DEFAULT_SOLIMP[0], DEFAULT_SOLIMP[1],
                  float(min_depth), *DEFAULT_SOLIMP[3:])
    solref = None
    if kp is not None and kp < RIGID_KP:
        if kp <= 0:
            notes.append(f'kp={kp} is not positive; MuJoCo default contact used')
        elif m_ref is None or m_ref <= 0:
            notes.append(f'kp={kp}, kd={kd}: no carried mass to express the spring in MuJoCo '
                         'units (static surface); MuJoCo default contact used')
        else:
            stiffness = kp / m_ref
            max_stiff = 1.0 / (MIN_TIMECONST_STEPS * step) ** 2
            if stiffness > max_stiff:
                notes.append(f'kp={kp:g} over {m_ref:.3g} kg is stiffer than a {step * 1e3:g} ms '
                             f'step resolves; clamped to kp={max_stiff * m_ref:.3g}')
                stiffness = max_stiff
            damping = max(((kd or 0.0) + step * kp) / m_ref, 2.0 * math.sqrt(stiffness))
            solref = (-stiffness, -damping)
    return ContactParams(mu, solref, solimp, tuple(notes))


def priorities(params: list[ContactParams]) -> list[int]:
    """Geom priorities so that of two touching geoms the lower friction wins (Gazebo's min rule);
    at equal friction the softer geom wins (ODE puts the two springs in series, so the softer one
    dominates). Geoms with identical parameters share a priority."""
    keys = sorted({(p.mu, p.stiffness, p.solref, p.solimp) for p in params},
                  key=lambda k: (-k[0], -k[1]))
    rank = {k: i for i, k in enumerate(keys)}
    return [rank[(p.mu, p.stiffness, p.solref, p.solimp)] for p in params]
