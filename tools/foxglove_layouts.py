"""Write config/foxglove/<robot>.json (zoo_live.layouts) for every robot, or those named; the joint
names come from each robot's stand scenario. Run: tools/env.sh sourced, then
`ZOO_RUNTIME=embedded python tools/foxglove_layouts.py [robot ...]`."""
from __future__ import annotations

import sys
from pathlib import Path

from zoo_scenario.runner import ScenarioRun
from zoo_scenario.scenario import load_scenario
from zoo_live.layouts import STAND_SCENARIOS, text

OUT = Path(__file__).resolve().parents[1] / 'config' / 'foxglove'


def robot_joints(robot: str) -> list[str]:
    """The joint order of ``/<robot>/joint_states``."""
    with ScenarioRun(load_scenario(STAND_SCENARIOS[robot])) as run:
        return list(run.physics.robot_info(robot).joints)


def main(robots: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for robot in robots or sorted(STAND_SCENARIOS):
        path = OUT / f'{robot}.json'
        path.write_text(text(robot, robot_joints(robot)))
        print(path)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
