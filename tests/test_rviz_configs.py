"""Issue 16 item 6: the shipped rviz2 configs show the robots the simulator publishes. The node
publishes ``world -> <robot>/<base>`` and ``<robot>/<parent> -> <robot>/<child>`` (zoo_sim
sim_node, both backends) and the description on ``/<robot>/robot_description``; rviz2's
RobotModel looks each link up as ``<TF Prefix>/<link>`` (ros2/rviz
rviz_default_plugins/src/rviz_default_plugins/robot/tf_link_updater.cpp, ``concat``). So the
Fixed Frame is ``world`` and the prefix is the robot's scenario name: in every shipped config,
the descriptions' own and grid_navigation's (whose empty prefix left the HOAP-2 invisible)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from zoo_sim.urdf_robot import load_description

WS = Path(__file__).resolve().parents[1]
ROBOTS = ('go1', 'hoap2', 'nao', 'robobo', 'snake')  # each description's robot name in scenarios
CONFIGS = sorted((WS / 'src').glob('*/rviz/*.rviz'))


def displays(cfg: dict, cls: str) -> list[dict]:
    return [d for d in cfg['Visualization Manager']['Displays']
            if d['Class'] == f'rviz_default_plugins/{cls}']


def scenario_robots() -> dict[str, set[str]]:
    """Robot name -> the description packages scenarios give a robot of that name."""
    out: dict[str, set[str]] = {}
    from zoo_scenario.scenario import load_scenario  # with the robots of the scenario it extends
    for f in (WS / 'config' / 'scenarios').glob('*.yaml'):
        for r in load_scenario(str(f)).robots:
            out.setdefault(r.name, set()).add(r.package)
    return out


def test_every_description_ships_a_config():
    assert {p.relative_to(WS / 'src').as_posix() for p in CONFIGS} >= \
        {f'{r}_description/rviz/{r}.rviz' for r in ROBOTS}
    assert 'grid_navigation/rviz/grid_navigation.rviz' in \
        {p.relative_to(WS / 'src').as_posix() for p in CONFIGS}


@pytest.mark.parametrize('path', CONFIGS, ids=lambda p: p.name)
def test_rviz_config_matches_the_published_frames(path):
    cfg = yaml.safe_load(path.read_text())
    assert cfg['Visualization Manager']['Global Options']['Fixed Frame'] == 'world'
    models = displays(cfg, 'RobotModel')
    assert models, f'{path.name}: no RobotModel display'
    robots = scenario_robots()
    for model in models:
        topic = model['Description Topic']['Value']
        m = re.fullmatch(r'/(\w+)/robot_description', topic)
        assert m and m.group(1) in robots, f'{path.name}: {topic}: no scenario robot publishes it'
        robot = m.group(1)
        assert model['Description Topic']['Durability Policy'] == 'Transient Local'  # latched
        prefix = model['TF Prefix']
        assert prefix == robot, (f'{path.name}: RobotModel TF Prefix {prefix!r}: the node '
                                 f'publishes the frames {robot}/<link>')
        for package in robots[robot]:
            desc = load_description(package)
            published = {f'{robot}/{j.child}' for j in desc.joints if j.parent != 'world'}
            base = desc.root_link if desc.root_link != 'world' else \
                next(j.child for j in desc.joints if j.parent == 'world')
            published.add(f'{robot}/{base}')  # the child of world
            assert {f'{prefix}/{ln}' for ln in desc.links if ln != 'world'} == published
