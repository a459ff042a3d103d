"""ROS 2 launch glue (full world only): scenario -> launch_ros Node actions.

Thin on purpose: the scenario file decides the nodes through :func:`scenario.node_specs`, the same
pure function the embedded runner uses. :func:`launch_plan` is the whole decision as plain data
(tested without ROS); :func:`scenario_launch_description` turns it into launch actions and imports
`launch` lazily, so the rest of zoo_bringup works without ROS.

The simulator node runs MuJoCo by default, also under real ROS (``backend:=`` any entry of
zoo_sim.backends: the hardware links too). ``backend:=gazebo`` runs Gazebo
Harmonic in the simulator node (gz.sim8 bindings) with ``GZ_SIM_RESOURCE_PATH`` set to the
workspace's models; the node publishes every topic itself, as with MuJoCo, the IMU and contacts
read from gz-sim's own sensor systems over gz-transport in its process. ``gz_sensors:=ros_gz_bridge``
instead maps those gz sensors to ROS with one ros_gz_bridge ``parameter_bridge``
(``zoo_sim.gazebo.bridge``; the node then publishes no IMU or contacts): needs ros_gz, which the
shared test build lacks, so that path is checked by reading ros_gz's sources only.
"""
from __future__ import annotations

import dataclasses
import os
import tempfile

from .scenario import apply_overrides, load_scenario, node_specs

GZ_SENSORS = ('node', 'ros_gz_bridge')


@dataclasses.dataclass
class LaunchNode:
    package: str
    executable: str
    name: str
    namespace: str | None
    parameters: list          # parameter files, then one dict
    remappings: list
    arguments: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class LaunchPlan:
    nodes: list[LaunchNode]
    env: dict[str, str]       # variables appended (os.pathsep) for every process


def launch_plan(scenario: str, overrides: list[str], backend: str = 'mujoco',
                gz_sensors: str = 'node') -> LaunchPlan:
    from zoo_sim.backends import registered  # MuJoCo, Gazebo and the hardware links
    if backend not in registered():
        raise ValueError(f"backend:={backend}: expected one of {', '.join(sorted(registered()))}")
    if gz_sensors not in GZ_SENSORS:
        raise ValueError(f"gz_sensors:={gz_sensors}: expected one of {', '.join(GZ_SENSORS)}")
    bridge = backend == 'gazebo' and gz_sensors == 'ros_gz_bridge'
    sc = apply_overrides(load_scenario(scenario), overrides)
    nodes = []
    for spec in node_specs(sc, use_sim_time=sc.has_simulator):
        params = dict(spec.parameters)
        if spec.name == 'sim':
            params['backend'] = backend
            if bridge:  # the bridge publishes them
                params.update(imu_rate=0.0, contacts_rate=0.0)
        nodes.append(LaunchNode(spec.package, spec.executable, spec.name, spec.namespace,
                                spec.params_files + [params], list(spec.remappings)))
    # the simulator holds sim time at 0 until the scenario's other nodes are built (zoo_sim)
    others = [fully_qualified(n.namespace, n.name) for n in nodes if n.name != 'sim']
    for n in nodes:
        if n.name == 'sim' and others:
            n.parameters[-1]['start_after_nodes'] = others
    env: dict[str, str] = {}
    if backend == 'gazebo' and sc.has_simulator:
        from zoo_sim.resources import model_search_paths
        env['GZ_SIM_RESOURCE_PATH'] = os.pathsep.join(str(p) for p in model_search_paths()
                                                      if p.is_dir())
        if bridge:
            nodes.append(_bridge_node(sc))
    return LaunchPlan(nodes, env)


def fully_qualified(namespace: str | None, name: str) -> str:
    """A node's ROS name from its launch namespace and name (``/nao`` + ``walker``)."""
    return f"{(namespace or '').rstrip('/')}/{name}".replace('//', '/')


def _bridge_node(sc) -> LaunchNode:
    """ros_gz_bridge for the robots' gz sensors; the YAML is written now, as the launch runs."""
    from zoo_sim.gazebo.bridge import write_bridge_yaml
    robots = [(r.name, _contact_links(r)) for r in sc.robots]
    fd, path = tempfile.mkstemp(prefix=f'zoo_bridge_{sc.name}_', suffix='.yaml')
    os.close(fd)
    write_bridge_yaml(path, robots)
    return LaunchNode('ros_gz_bridge', 'parameter_bridge', 'gz_bridge', None,
                      [{'config_file': str(path), 'use_sim_time': True}], [])


def _contact_links(robot) -> list[str]:
    """The robot's contact links as the simulator picks them (its description's defaults)."""
    from zoo_sim.mujoco_scene import RobotSpec, default_sensor_links
    from zoo_sim.urdf_robot import load_description
    args = {k: str(v) for k, v in robot.args.items()}
    desc = load_description(robot.package, args, robot.extra.get('model'))
    spec = RobotSpec(robot.name, package=robot.package, xacro_args=args,
                     contact_links=robot.extra.get('contact_links'))
    base = desc.root_link if desc.root_link != 'world' else \
        next(j.child for j in desc.joints if j.parent == 'world')
    return list(default_sensor_links(spec, desc, base)[1])


_APT = {'ros_gz_bridge': 'ros-jazzy-ros-gz-bridge'}


def _check_packages_installed(plan: LaunchPlan) -> None:
    """Every node's package is found before any node starts: launch (3.4.3) that fails on a
    missing package midway exits without stopping the processes it already started."""
    from .scenario import installed_share
    for n in plan.nodes:
        if installed_share(n.package) is None:
            need = 'backend:=gazebo needs' if n.package in _APT else f'node {n.name} needs'
            hint = f' (sudo apt install {_APT[n.package]})' if n.package in _APT else ''
            raise RuntimeError(f'{need} {n.package}, which is not installed in '
                               f'AMENT_PREFIX_PATH{hint}')


def scenario_launch_description():
    """A LaunchDescription with arguments ``scenario``, ``backend`` (zoo_sim.backends) and ``set``
    (overrides ``node.param=value`` separated by ``;``)."""
    from launch import LaunchDescription
    from launch.actions import AppendEnvironmentVariable, DeclareLaunchArgument, OpaqueFunction
    from launch.substitutions import LaunchConfiguration
    from launch_ros.actions import Node

    def _actions(context):
        cfg = {k: LaunchConfiguration(k).perform(context)
               for k in ('scenario', 'set', 'backend', 'gz_sensors')}
        plan = launch_plan(cfg['scenario'], [s for s in cfg['set'].split(';') if s],
                           cfg['backend'], cfg['gz_sensors'])
        _check_packages_installed(plan)
        env = [AppendEnvironmentVariable(k, v) for k, v in plan.env.items() if v]
        return env + [Node(package=n.package, executable=n.executable, name=n.name,
                           namespace=n.namespace, parameters=n.parameters,
                           remappings=n.remappings, arguments=n.arguments, output='screen')
                      for n in plan.nodes]

    return LaunchDescription([
        DeclareLaunchArgument('scenario', description='scenario name or .yaml path'),
        DeclareLaunchArgument('backend', default_value='mujoco',
                              description='mujoco (default) | gazebo (Gazebo Harmonic) | a '
                              'hardware link: dynamixel, go1_udp (zoo_sim.backends)'),
        DeclareLaunchArgument('gz_sensors', default_value='node',
                              description='with backend:=gazebo, who publishes the IMU and '
                              'contacts: node (the simulator, from gz-sim sensors; default) | '
                              'ros_gz_bridge'),
        DeclareLaunchArgument('set', default_value='', description='node.param=value;...'),
        OpaqueFunction(function=_actions),
    ])
