"""Rigid-body kinematics and dynamics shared by the NLP (casadi) and the plan sampling (numpy).

Euler angles are TOWR's (towr/src/euler_converter.cc): θ = (roll, pitch, yaw) with
R = Rz(yaw) Ry(pitch) Rx(roll) base->world; ω_world = M(θ) θ̇ and ω̇ = Ṁ(θ, θ̇) θ̇ + M(θ) θ̈.
"""
from __future__ import annotations

import numpy as np


def euler_rotation(ca, e):
    """R base->world for Euler ZYX angles e = (roll, pitch, yaw) (towr/src/euler_converter.cc)."""
    x, y, z = e[0], e[1], e[2]
    cx, sx, cy, sy, cz, sz = ca.cos(x), ca.sin(x), ca.cos(y), ca.sin(y), ca.cos(z), ca.sin(z)
    return ca.vertcat(
        ca.horzcat(cy * cz, cz * sx * sy - cx * sz, sx * sz + cx * cz * sy),
        ca.horzcat(cy * sz, cx * cz + sx * sy * sz, cx * sy * sz - cz * sx),
        ca.horzcat(-sy, cy * sx, cx * cy))


def euler_rates_matrix(ca, e):
    """M(e) with ω_world = M(e) · ė (EulerConverter::GetM)."""
    y, z = e[1], e[2]
    return ca.vertcat(ca.horzcat(ca.cos(y) * ca.cos(z), -ca.sin(z), 0),
                      ca.horzcat(ca.cos(y) * ca.sin(z), ca.cos(z), 0),
                      ca.horzcat(-ca.sin(y), 0, 1))


def srbd_function(ca, n_feet: int, n_params: int):
    """casadi Function of one instant: the SRBD residual [angular; linear] of Eqs. 4.6a/b
    (single_rigid_body_dynamics.cc, GetDynamicViolation) from base position r, acceleration a,
    Euler angles e and their rates, feet p_i, forces f_i and the NLP parameters (gravity at 0,
    mass at 2, inertia entries Ixx Iyy Izz Ixy Ixz Iyz at 3-8, base frame)."""
    r, a, e, ed, edd = (ca.SX.sym(n, 3) for n in ('r', 'a', 'e', 'ed', 'edd'))
    ps = [ca.SX.sym(f'p{i}', 3) for i in range(n_feet)]
    fs = [ca.SX.sym(f'f{i}', 3) for i in range(n_feet)]
    prm = ca.SX.sym('prm', n_params)
    g, m = prm[0], prm[2]
    ixx, iyy, izz, ixy, ixz, iyz = (prm[k] for k in range(3, 9))
    inertia = ca.vertcat(ca.horzcat(ixx, ixy, ixz), ca.horzcat(ixy, iyy, iyz),
                         ca.horzcat(ixz, iyz, izz))
    R = euler_rotation(ca, e)
    M = euler_rates_matrix(ca, e)
    omega = M @ ed
    omega_dot = M @ edd + ca.jtimes(omega, e, ed)
    iw = R @ inertia @ R.T
    torque = sum(ca.cross(f, r - p) for f, p in zip(fs, ps))
    ang = iw @ omega_dot + ca.cross(omega, iw @ omega) - torque
    lin = m * a - sum(fs) + ca.vertcat(0, 0, m * g)
    return ca.Function('srbd', [r, a, e, ed, edd, *ps, *fs, prm], [ca.vertcat(ang, lin)])


def rom_function(ca):
    """casadi Function: a foot in the base frame, R(e)ᵀ (p − r) (range_of_motion_constraint.cc)."""
    r, e, p = ca.SX.sym('r', 3), ca.SX.sym('e', 3), ca.SX.sym('p', 3)
    return ca.Function('rom', [r, e, p], [euler_rotation(ca, e).T @ (p - r)])


def euler_to_rotation(e: np.ndarray) -> np.ndarray:
    """(N, 3, 3) rotations base->world for (N, 3) Euler ZYX angles (roll, pitch, yaw)."""
    x, y, z = e[:, 0], e[:, 1], e[:, 2]
    cx, sx, cy, sy, cz, sz = np.cos(x), np.sin(x), np.cos(y), np.sin(y), np.cos(z), np.sin(z)
    return np.stack([
        np.stack([cy * cz, cz * sx * sy - cx * sz, sx * sz + cx * cz * sy], -1),
        np.stack([cy * sz, cx * cz + sx * sy * sz, cx * sy * sz - cz * sx], -1),
        np.stack([-sy, cy * sx, cx * cy], -1)], -2)


def angular_velocity(e: np.ndarray, ed: np.ndarray) -> np.ndarray:
    y, z = e[:, 1], e[:, 2]
    return np.stack([np.cos(y) * np.cos(z) * ed[:, 0] - np.sin(z) * ed[:, 1],
                     np.cos(y) * np.sin(z) * ed[:, 0] + np.cos(z) * ed[:, 1],
                     -np.sin(y) * ed[:, 0] + ed[:, 2]], -1)


def angular_acceleration(e: np.ndarray, ed: np.ndarray, edd: np.ndarray) -> np.ndarray:
    y, z, yd, zd = e[:, 1], e[:, 2], ed[:, 1], ed[:, 2]
    mdot = np.stack([  # EulerConverter::GetMdot applied to θ̇
        (-np.cos(z) * np.sin(y) * yd - np.cos(y) * np.sin(z) * zd) * ed[:, 0]
        - np.cos(z) * zd * ed[:, 1],
        (np.cos(y) * np.cos(z) * zd - np.sin(y) * np.sin(z) * yd) * ed[:, 0]
        - np.sin(z) * zd * ed[:, 1],
        -np.cos(y) * yd * ed[:, 0]], -1)
    return mdot + angular_velocity(e, edd)
