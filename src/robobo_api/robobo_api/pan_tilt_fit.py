"""Fits the pan/tilt law theta = A(P) t + B(P) (specs/robobo.md 4.2; cubic A, B of the speed P)
to the real robot's move times (no ROS). ``python -m robobo_api.pan_tilt_fit`` prints the
coefficients that motor_laws records as the ``robot`` presets.

Method: theta = A t + B is linear in the eight coefficients, so the fit is a weighted linear
least squares on the measured (P, t, theta) triples, reweighted until each residual is divided
by A t: the residual then reads as the relative error of the move time, the figure the
acceptance judges. B(0) = 0 is imposed (h = 0): a move of 0 degrees takes no time, and every
move of >= 1 degree keeps a positive time (the Table 9 tilt fit has B(0) = +4.7 degrees, so its
moves below 4.7 degrees would take negative time).
"""
from __future__ import annotations

import numpy as np

from . import real_robot

REWEIGHTS = 20  # converged to print precision well before this


def fit_law(times: dict[int, tuple[float, float]],
            degrees: tuple[float, float] = (45, 90)) -> tuple[float, ...]:
    """(a, b, c, d, e, f, g, h), h = 0, from {speed: (seconds for each of ``degrees``)}."""
    p = np.array([s for s in times for _ in degrees], dtype=float)
    theta = np.array([d for _ in times for d in degrees], dtype=float)
    t = np.array([x for s in times for x in times[s]], dtype=float)
    x = np.stack([p**3 * t, p**2 * t, p * t, t, p**3, p**2, p], axis=1)
    weight = 1.0 / theta
    for _ in range(REWEIGHTS):
        coeffs = np.linalg.lstsq(x * weight[:, None], theta * weight, rcond=None)[0]
        weight = 1.0 / (x[:, :4] @ coeffs[:4])   # 1 / (A t)
    return (*(float(c) for c in coeffs), 0.0)


def main() -> None:
    from .motor_laws import pan_tilt_time
    for name, times in (('pan', real_robot.PAN_S), ('tilt', real_robot.TILT_S)):
        coeffs = fit_law(times)
        print(f"{name}: ({', '.join(f'{c:.6g}' for c in coeffs)})")
        for speed, real in times.items():
            fitted = [pan_tilt_time(d, speed, coeffs) for d in (45, 90)]
            print(f'  speed {speed:2d}: ' + ', '.join(
                f'{d} deg {f:.3f} s (real {r}, {100 * (f / r - 1):+.1f} %)'
                for d, f, r in zip((45, 90), fitted, real)))


if __name__ == '__main__':
    main()
