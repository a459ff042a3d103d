"""Issue 17 item 1: the shipped Foxglove layouts (config/foxglove/<robot>.json) are what
tools/foxglove_layouts.py makes of each robot's joints, and every panel is placed."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

WS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(WS / 'tools'))
from foxglove_layouts import robot_joints  # noqa: E402
from zoo_live.layouts import STAND_SCENARIOS, text  # noqa: E402


@pytest.mark.parametrize('robot', sorted(STAND_SCENARIOS))
def test_the_shipped_layout_is_up_to_date(robot):
    path = WS / 'config' / 'foxglove' / f'{robot}.json'
    assert path.read_text() == text(robot, robot_joints(robot)), (
        f'{path} is stale: python tools/foxglove_layouts.py {robot}')
    data = json.loads(path.read_text())
    assert set(_leaves(data['layout'])) == set(data['configById'])


def _leaves(node):
    if isinstance(node, str):
        yield node
    else:
        yield from _leaves(node['first'])
        yield from _leaves(node['second'])
