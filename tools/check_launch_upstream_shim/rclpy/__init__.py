"""Stand-in rclpy for tools/check_launch_upstream.sh: only what launch_ros 0.26.6 needs to import
and to execute a plain ``Node`` action (see ../README.md). Everything that would need a ROS node in
the launch process raises."""


def _unavailable(name):
    def fail(*args, **kwargs):
        raise NotImplementedError(
            f'rclpy.{name}: the launch check has no ROS 2 (stand-in rclpy, '
            'tools/check_launch_upstream_shim); a launch file needing it cannot be checked here')
    fail.__name__ = name
    return fail


Context = _unavailable('Context')
init = _unavailable('init')
create_node = _unavailable('create_node')
shutdown = _unavailable('shutdown')
