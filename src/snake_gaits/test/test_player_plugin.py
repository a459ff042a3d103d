"""The snake_gait plug-in: its schema part is the plan's parameters (one owner of each default:
the links of state_log, the presets of serpenoid), and LegMeter reports a leg it could not
measure (no link_poses, as on a Dynamixel bus) as NaN, never 0."""
import math

import pytest

from gait_player.legs import LegProtocol
from zoo_runtime import parameter_schema
from zoo_runtime.interfaces.geometry_msgs.msg import Pose, PoseArray

from snake_gaits import player_plugin, state_log
from snake_gaits.serpenoid import GAITS, SAMPLE_INTERVAL, GaitError

PART = parameter_schema.load('snake_gaits', '_snake_gait')


def _defaults() -> dict:
    return {name: e.default for name, e in PART.entries.items()}


def test_the_part_is_the_plugin_s_and_agrees_with_the_code():
    entry = player_plugin.snake_gait()
    assert isinstance(entry, LegProtocol) and entry.parameters == ('snake_gaits', '_snake_gait')
    assert PART.entries['links'].default == state_log.PUBLISHED_LINKS
    assert dict(PART.entries['gait'].validation)['one_of'] == (list(GAITS),)
    assert set(player_plugin.PARAMS) <= set(PART.entries)
    assert all(math.isnan(PART.entries[n].default) for n in player_plugin.PARAMS)
    assert PART.problem('direction', 0) == 'expected 1 or -1, got 0'


def test_the_defaults_plan_the_r25_protocol_and_a_bad_gait_names_the_node():
    plan = player_plugin.plan(_defaults(), 'gait')
    assert plan.name == 'linear_progression' and plan.interval == SAMPLE_INTERVAL
    assert [(leg.kind, leg.ticks) for leg in plan.legs] == [('forward', 40), ('reversed', 40)]
    with pytest.raises(GaitError, match=r'^gait: amplitude_odd 70 \+ offset 0 deg'):
        player_plugin.plan({**_defaults(), 'amplitude_odd': 70.0}, 'gait')


def _poses(n: int) -> PoseArray:
    msg = PoseArray()
    for i in range(n):
        p = Pose()
        p.position.x, p.orientation.w = -0.1 * i, 1.0
        msg.poses.append(p)
    return msg


def test_a_leg_without_link_poses_is_not_measured_and_one_with_them_is():
    meter = player_plugin.LegMeter(state_log.PUBLISHED_LINKS, 'pitch')
    meter.begin_leg(0)
    unmeasured = meter.end_leg('forward')
    assert unmeasured.keys() == {'leg', 'max_roll_deg'} and math.isnan(unmeasured['max_roll_deg'])
    meter.on_message(_poses(len(state_log.PUBLISHED_LINKS)), 1, 2)
    meter.begin_leg(1)
    measured = meter.end_leg('reversed')
    assert math.isfinite(measured['max_roll_deg']) and measured['along_m'] == 0.0
