"""Issue 16 item 6: the shipped rviz2 configs show the robots the simulator publishes. The node
publishes ``world -> <robot>/<base>`` and ``<robot>/<parent> -> <robot>/<child>`` (zoo_sim
sim_node, both backends) and the description on ``/<robot>/robot_description``; rviz2's
RobotModel looks each link up as ``<TF Prefix>/<link>`` (ros2/rviz
rviz_default_plugins/src/rviz_default_plugins/robot/tf_link_updater.cpp, ``concat``). So the
Fixed Frame is ``world`` and the prefix is the robot's scenario name."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from zoo_sim.urdf_robot import load_description

WS = Path(__file__).resolve().parents[1]
ROBOTS = ('go1', 'hoap2', 'nao', 'robobo', 'snake')  # each description's robot name in scenarios


def displays(cfg: dict, cls: str) -> list[dict]:
    return [d for d in cfg['Visualization Manager']['Displays']
            if d['Class'] == f'rviz_default_plugins/{cls}']


@pytest.mark.parametrize('robot', ROBOTS)
def test_rviz_config_matches_the_published_frames(robot):
    cfg = yaml.safe_load((WS / 'src' / f'{robot}_description' / 'rviz' / f'{robot}.rviz')
                         .read_text())
    assert cfg['Visualization Manager']['Global Options']['Fixed Frame'] == 'world'
    (model,) = displays(cfg, 'RobotModel')
    assert model['Description Topic']['Value'] == f'/{robot}/robot_description'
    assert model['Description Topic']['Durability Policy'] == 'Transient Local'  # latched
    prefix = model['TF Prefix']
    desc = load_description(f'{robot}_description')
    published = {f'{robot}/{j.child}' for j in desc.joints if j.parent != 'world'}
    base = desc.root_link if desc.root_link != 'world' else \
        next(j.child for j in desc.joints if j.parent == 'world')
    published.add(f'{robot}/{base}')  # the child of world
    assert {f'{prefix}/{ln}' for ln in desc.links if ln != 'world'} == published
    scenarios = ''.join(p.read_text() for p in (WS / 'config' / 'scenarios').glob('*.yaml'))
    assert f'name: {robot},' in scenarios or f'name: {robot}\n' in scenarios
