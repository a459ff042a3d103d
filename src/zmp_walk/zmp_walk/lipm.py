"""Centre of mass from a ZMP reference (linear inverted pendulum) and the ZMP of a multibody
motion (plain numpy; the multibody part takes a pinocchio model).

Linear inverted pendulum at height ``z_c``: the ZMP of a centre of mass ``x(t)`` is
``p = x - x'' z_c / g`` (Kajita et al., "Biped walking pattern generation by using preview
control of zero-moment point", ICRA 2003, eq. 3). :func:`com_from_zmp` finds the samples ``x_k``
that start at rest at ``x0`` and minimise ``sum (p_k - p_ref_k)^2 + w sum (x'''_k)^2`` over the
whole horizon: the jerk term makes the problem well posed and the solution smooth; over a horizon
the bounded solution is what preview control converges to.
"""
from __future__ import annotations

import numpy as np
from zoo_description_tools.physics import STANDARD_GRAVITY

# The pendulum's g: the simulated world's (the ZMP walk is ours, not a thesis': specs/nao.md gives
# no value; it was 9.81 until issue 26, 0.03 % off the world the walk runs in).
G = STANDARD_GRAVITY


def _difference(n: int, order: int, dt: float) -> np.ndarray:
    """(n - order) x n matrix of forward differences of the given order, divided by dt**order."""
    coeffs = {2: [1.0, -2.0, 1.0], 3: [-1.0, 3.0, -3.0, 1.0]}[order]
    d = np.zeros((n - order, n))
    for k, c in enumerate(coeffs):
        d[np.arange(n - order), np.arange(n - order) + k] = c
    return d / dt ** order


def com_from_zmp(p_ref: np.ndarray, x0: float, dt: float, z_c: float,
                 jerk_weight: float = 1e-7, g: float = G) -> np.ndarray:
    """Centre-of-mass samples (one axis) whose pendulum ZMP follows ``p_ref``, starting at rest
    at ``x0`` (the first three samples equal ``x0``)."""
    n = len(p_ref)
    if n < 8:
        raise ValueError(f'com_from_zmp: expected at least 8 samples, got {n}')
    zmp = np.eye(n)[1:-1] - _difference(n, 2, dt) * (z_c / g)  # p_k for k = 1..n-2
    rows = [zmp, np.sqrt(jerk_weight) * _difference(n, 3, dt)]
    rhs = [p_ref[1:-1], np.zeros(n - 3)]
    # the start at rest: x_0 = x_1 = x_2 = x0, imposed by elimination
    fixed = np.zeros(n, dtype=bool)
    fixed[:3] = True
    a = np.vstack(rows)
    b = np.concatenate(rhs) - a[:, fixed] @ np.full(3, x0)
    a = a[:, ~fixed]
    x = np.linalg.solve(a.T @ a, a.T @ b)
    return np.concatenate([np.full(3, x0), x])


def central_velocities(model, q: np.ndarray, dt: float) -> np.ndarray:
    """Generalised velocities (n, nv) of the sampled motion ``q`` (n, nq) by central differences
    on the configuration space (pinocchio's difference: the floating base's rotation too); the
    first and last samples 0."""
    import pinocchio as pin
    v = np.zeros((len(q), model.nv))
    for i in range(1, len(q) - 1):
        v[i] = pin.difference(model, q[i - 1], q[i + 1]) / (2.0 * dt)
    return v


def multibody_zmp(model, data, q: np.ndarray, dt: float, g: float = G
                  ) -> tuple[np.ndarray, np.ndarray]:
    """ZMP (x, y) on the ground plane z = 0 of the sampled floating-base motion ``q`` (n, nq):
    from the centre of mass's acceleration and the rate of the centroidal angular momentum
    (pinocchio), velocities by :func:`central_velocities`."""
    import pinocchio as pin
    n = len(q)
    v = central_velocities(model, q, dt)
    com = np.zeros((n, 3))
    ang = np.zeros((n, 3))
    for i in range(n):
        pin.computeCentroidalMomentum(model, data, q[i], v[i])
        com[i] = data.com[0]
        ang[i] = data.hg.angular
    acc = np.gradient(np.gradient(com, dt, axis=0), dt, axis=0)
    dang = np.gradient(ang, dt, axis=0)
    mass = pin.computeTotalMass(model)
    f = mass * (acc + np.array([0.0, 0.0, g]))
    zx = com[:, 0] - (com[:, 2] * f[:, 0] + dang[:, 1]) / f[:, 2]
    zy = com[:, 1] - (com[:, 2] * f[:, 1] - dang[:, 0]) / f[:, 2]
    return zx, zy
