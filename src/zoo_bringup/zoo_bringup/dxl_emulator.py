"""``robozoo dxl-emulator``: dynamixel_bridge's emulator command (its parser, faults and pty
server) with ``--scenario`` backed by a scenario run: the servos are the scenario robot's joints.
The emulator package knows no scenarios; this module is where a run meets the bus."""
from __future__ import annotations

from dynamixel_bridge.emulator import cli as emulator_cli


def main(argv: list[str] | None = None) -> int:
    return emulator_cli.main(argv, attach=attach_scenario)


def attach_scenario(args, model, log):
    """The scenario's run (not started) and the plant of its robot's joints."""
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import apply_overrides, load_scenario

    from dynamixel_bridge.emulator.plants import JointsPlant
    from dynamixel_bridge.emulator.sim_link_node import SimLink

    sc = apply_overrides(load_scenario(args.scenario), args.overrides)
    if not sc.robots:
        raise ValueError(f'--scenario {sc.name}: it has no robot to attach the servos to')
    robot = args.robot or sc.robots[0].name
    if robot not in [r.name for r in sc.robots]:
        raise ValueError(f'--robot {robot}: not in scenario {sc.name} '
                         f'(robots: {", ".join(r.name for r in sc.robots)})')
    robots = sc.simulator.setdefault('robots', {})
    if isinstance(robots, dict) and f'robots.{robot}.servo' not in sc.simulator:
        robots.setdefault(robot, {}).setdefault('servo', 'ax12')  # goals on joint_targets
    run = ScenarioRun(sc, real_time_factor=1.0)
    joints = list(run.physics.robots[robot].joints) if hasattr(run.physics, 'robots') else []
    if len(joints) < len(args.ids):
        run.close()
        raise ValueError(f'--ids: {len(args.ids)} servos but robot {robot} has {len(joints)} '
                         'joints')
    plant = JointsPlant(model, dict(zip(args.ids, joints)))
    from zoo_runtime.embedded import parameter
    link = SimLink(plant, robot, context=run.context,
                   parameter_overrides=[parameter.Parameter('use_sim_time', value=True)])
    run.nodes['dxl_emulator_link'] = link
    run.executor.add_node(link)
    log(f'scenario {sc.name}: ids {args.ids[0]}.. -> {robot} joints {joints[0]}..')
    return run, plant, link
