"""ROS 2 launch glue (full world only): scenario -> launch_ros Node actions.

Thin on purpose: the scenario file decides the nodes through :func:`scenario.node_specs`, the same
pure function the embedded runner uses. With a world, the simulator node runs with
``backend:=gazebo`` (zoo_sim maps it onto gz sim + ros_gz_bridge). Imports `launch` lazily so the
rest of zoo_bringup works without ROS.
"""
from __future__ import annotations

from .scenario import apply_overrides, load_scenario, node_specs


def scenario_actions(scenario: str, overrides: list[str], backend: str) -> list:
    from launch_ros.actions import Node
    sc = apply_overrides(load_scenario(scenario), overrides)
    actions = []
    for spec in node_specs(sc, use_sim_time=sc.has_simulator):
        params = dict(spec.parameters)
        if spec.name == 'sim':
            params['backend'] = backend
        actions.append(Node(package=spec.package, executable=spec.executable, name=spec.name,
                            namespace=spec.namespace, parameters=spec.params_files + [params],
                            remappings=spec.remappings, output='screen'))
    return actions


def scenario_launch_description(default_scenario: str | None = None):
    """A LaunchDescription with arguments ``scenario``, ``backend`` and ``set`` (overrides
    ``node.param=value`` separated by ``;``)."""
    from launch import LaunchDescription
    from launch.actions import DeclareLaunchArgument, OpaqueFunction
    from launch.substitutions import LaunchConfiguration

    def _nodes(context):
        cfg = {k: LaunchConfiguration(k).perform(context) for k in ('scenario', 'set', 'backend')}
        return scenario_actions(cfg['scenario'], [s for s in cfg['set'].split(';') if s],
                                cfg['backend'])

    scenario_arg = ({'default_value': default_scenario} if default_scenario else {})
    return LaunchDescription([
        DeclareLaunchArgument('scenario', description='scenario name or .yaml path',
                              **scenario_arg),
        DeclareLaunchArgument('backend', default_value='gazebo', description='gazebo | mujoco'),
        DeclareLaunchArgument('set', default_value='', description='node.param=value;...'),
        OpaqueFunction(function=_nodes),
    ])
