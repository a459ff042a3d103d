"""Grid, path and pose <-> ROS messages, and the grid of the parameters both nodes declare."""
from __future__ import annotations

import math

import numpy as np

from zoo_runtime.interfaces.geometry_msgs.msg import PoseStamped
from zoo_runtime.interfaces.nav_msgs.msg import OccupancyGrid, Path

from .occupancy import GridMap
from .world_map import grid_from_world

FRAME = 'world'


def grid_from_parameters(node, p: dict) -> GridMap:
    """The grid of the parameters both nodes declare (params/_grid.yaml), values ``p``."""
    world, resolution, inflation = p['world'], p['resolution'], p['inflation']
    rule, corner = p['inflation_rule'], p['corner_cutting']
    bounds = list(p['bounds'] or [])
    if bounds and len(bounds) != 4:
        raise ValueError(f'{node.get_name()}: parameter bounds: expected [x_min, y_min, x_max, '
                         f'y_max], got {bounds}')
    try:
        grid = grid_from_world(world, resolution, inflation, rule, bounds or None)
    except ValueError as exc:
        raise ValueError(f'{node.get_name()}: {exc}') from None
    grid.corner_cutting = bool(corner)
    return grid


def grid_message(grid: GridMap, stamp) -> OccupancyGrid:
    """Cells centred on the lattice nodes: 100 blocked, 0 free (row-major, x fastest)."""
    msg = OccupancyGrid()
    msg.header.stamp = stamp
    msg.header.frame_id = FRAME
    msg.info.resolution = float(grid.resolution)
    msg.info.width, msg.info.height = grid.nx, grid.ny
    msg.info.origin.position.x = grid.origin[0] - grid.resolution / 2
    msg.info.origin.position.y = grid.origin[1] - grid.resolution / 2
    msg.info.origin.orientation.w = 1.0
    msg.data = (np.where(grid.blocked.T, 100, 0).astype(np.int8).ravel()).tolist()
    return msg


def pose_stamped(x: float, y: float, yaw: float, stamp) -> PoseStamped:
    p = PoseStamped()
    p.header.stamp = stamp
    p.header.frame_id = FRAME
    p.pose.position.x, p.pose.position.y = float(x), float(y)
    p.pose.orientation.z, p.pose.orientation.w = math.sin(yaw / 2), math.cos(yaw / 2)
    return p


def path_poses(points, stamp) -> list[PoseStamped]:
    out = []
    for k, (x, y) in enumerate(points):
        nxt = points[min(k + 1, len(points) - 1)]
        prv = points[max(k - 1, 0)]
        yaw = math.atan2(nxt[1] - prv[1], nxt[0] - prv[0]) if len(points) > 1 else 0.0
        out.append(pose_stamped(x, y, yaw, stamp))
    return out


def path_message(points, stamp) -> Path:
    msg = Path()
    msg.header.stamp = stamp
    msg.header.frame_id = FRAME
    msg.poses = path_poses(points, stamp)
    return msg


def yaw_of(q) -> float:
    return math.atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z))
