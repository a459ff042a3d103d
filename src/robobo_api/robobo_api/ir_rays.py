"""The IR calibration set-up worked out on paper (no ROS, no MuJoCo): each ray of a sensor's
4 x 4 bundle (zoo_sim.ray_grid) meets the white box (calibration_protocols) or the floor, and the
thesis law (zoo_sim.ir_law) sums them. It checks the simulator's readings (tests/test_robobo_api.py)
and weighs geometry changes without a run: ``python -m robobo_api.ir_rays`` prints front_c and
front_l for the description's cones and the candidates the robobo_api README discusses.
"""
from __future__ import annotations

import math

import numpy as np

from zoo_sim.ir_law import intensity
from zoo_sim.ray_grid import ScanGrid

from . import calibration_protocols as proto

# the description's bundles (robobo_description urdf/robobo_ir.xacro): (pitch down, vertical min)
CONES = {'front_c': (0.0, -0.16), 'front_l': (0.21, -0.085)}
H_MIN, H_MAX, V_MAX, RANGE_M = -0.2, 0.17, 0.16, 0.4


def _box_hit(origin: np.ndarray, ray: np.ndarray) -> float:
    """Distance along ``ray`` to the box (slab method), inf when it misses."""
    cx, cy = proto.BOX_CENTRE
    lo = np.array([cx - proto.BOX_SIZE[0] / 2, cy - proto.BOX_SIZE[1] / 2, 0.0])
    hi = np.array([cx + proto.BOX_SIZE[0] / 2, cy + proto.BOX_SIZE[1] / 2, proto.BOX_SIZE[2]])
    with np.errstate(divide='ignore', invalid='ignore'):
        t1, t2 = (lo - origin) / ray, (hi - origin) / ray
    near, far = np.nanmax(np.minimum(t1, t2)), np.nanmin(np.maximum(t1, t2))
    return float(near) if 0 < near <= far else math.inf


def ray_distances(sensor: str, distance_m: float, pitch: float, v_min: float,
                  height: float = proto.IR_HEIGHT) -> np.ndarray:
    """Distance of each ray to the box or the floor (m, -1 beyond the range) with the sensor
    placed as the calibration places it (``robot_pose_for_ir``), pitched down by ``pitch``."""
    x, y, yaw = proto.robot_pose_for_ir(sensor, distance_m)
    sx, sy, syaw = proto.sensor_in_base(sensor)
    c, s = math.cos(yaw), math.sin(yaw)
    origin = np.array([x + c * sx - s * sy, y + s * sx + c * sy, height])
    local = ScanGrid(4, H_MIN, H_MAX, 4, v_min, V_MAX, 0.0, RANGE_M).directions()
    cp, sp = math.cos(pitch), math.sin(pitch)
    pitched = np.stack([cp * local[:, 0] + sp * local[:, 2], local[:, 1],
                        -sp * local[:, 0] + cp * local[:, 2]], axis=1)
    cw, sw = math.cos(yaw + syaw), math.sin(yaw + syaw)
    rays = np.stack([cw * pitched[:, 0] - sw * pitched[:, 1],
                     sw * pitched[:, 0] + cw * pitched[:, 1], pitched[:, 2]], axis=1)
    out = []
    for ray in rays:
        t = min(_box_hit(origin, ray), -height / ray[2] if ray[2] < 0 else math.inf)
        out.append(t if t <= RANGE_M else -1.0)
    return np.array(out)


def reading(sensor: str, distance_m: float, pitch: float | None = None,
            v_min: float | None = None) -> float:
    """The noise-free intensity (default: the description's cone of ``sensor``)."""
    d_pitch, d_vmin = CONES[sensor]
    return intensity(ray_distances(sensor, distance_m, d_pitch if pitch is None else pitch,
                                   d_vmin if v_min is None else v_min), RANGE_M)


def main() -> None:
    rows = [('front_c, description (-0.16 lower edge)', 'front_c', None, None),
            ("front_c, the thesis' -0.12 lower edge", 'front_c', 0.0, -0.12),
            ('front_l, description (0.21 pitch, -0.085)', 'front_l', None, None),
            ('front_l, spec 2.3 real pitch 0.262', 'front_l', 0.262, -0.085),
            ('front_l, 0.262 pitch, symmetric cone', 'front_l', 0.262, -0.16)]
    cms = list(proto.IR_DISTANCES_CM) + [200]
    print('cm: ' + ', '.join(map(str, cms[:-1])) + ', open floor (box at 2 m)')
    for label, sensor, pitch, v_min in rows:
        print(f'{label}: ' + ', '.join(f'{reading(sensor, d / 100, pitch, v_min):.1f}'
                                       for d in cms))


if __name__ == '__main__':
    main()
