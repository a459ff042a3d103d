"""The map server: the occupancy grid of an SDF world (latched ``map``, nav_msgs/OccupancyGrid)
and the planning service ``plan_path`` (zoo_interfaces/PlanPath: nav_msgs/GetPlan's request;
the plan, its cost and the reason when there is none); each plan is also published on ``plan``
(nav_msgs/Path, latched). Parameters: params/map_server.yaml (PARAMETERS.md).
"""
from __future__ import annotations

from zoo_runtime import parameter_schema, rclpy
from zoo_runtime.entry import spin_node
from zoo_runtime.interfaces.nav_msgs.msg import OccupancyGrid, Path
from zoo_runtime.interfaces.zoo_interfaces.srv import PlanPath

from . import ros_conversions as rc
from .planner import plan_xy

Node = rclpy.node.Node
LATCHED = rclpy.qos.QoSProfile(depth=1, durability=rclpy.qos.DurabilityPolicy.TRANSIENT_LOCAL)


class MapServer(Node):
    def __init__(self, **kwargs):
        super().__init__('map_server', **kwargs)
        self.grid = rc.grid_from_parameters(
            self, parameter_schema.load('grid_navigation', 'map_server').declare(self))
        self.plans = 0
        self._map_pub = self.create_publisher(OccupancyGrid, 'map', LATCHED)
        self._plan_pub = self.create_publisher(Path, 'plan', LATCHED)
        self._map_pub.publish(rc.grid_message(self.grid, self.get_clock().now().to_msg()))
        self.create_service(PlanPath, 'plan_path', self._on_plan)
        g = self.grid
        self.get_logger().info(f'{g.source}: {g.nx} x {g.ny} nodes at {g.resolution} m, '
                               f'{len(g.obstacles)} obstacles, {int(g.blocked.sum())} blocked')

    def _on_plan(self, request, response):
        s, g = request.start.pose.position, request.goal.pose.position
        plan = plan_xy(self.grid, (s.x, s.y), (g.x, g.y),
                       corner_cutting=self.grid.corner_cutting)
        self.plans += 1
        stamp = self.get_clock().now().to_msg()
        response.header.stamp = stamp
        response.header.frame_id = rc.FRAME
        response.success = plan.ok
        response.message = plan.reason
        if plan.ok:
            points = [self.grid.cell_to_world(*c) for c in plan.cells]
            response.poses = rc.path_poses(points, stamp)
            response.cost = plan.cost
            self._plan_pub.publish(rc.path_message(points, stamp))
        else:
            response.cost = float('inf')
        return response

    def robozoo_metrics(self) -> dict:
        g = self.grid
        return {'nodes': [g.nx, g.ny], 'resolution': g.resolution, 'obstacles': len(g.obstacles),
                'blocked': int(g.blocked.sum()), 'plans': self.plans}


def main(args=None):
    spin_node(MapServer, args)
