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


class _Still:
    """Physics that only lets sim time pass (1 ms steps)."""
    step_ns = 1_000_000

    def advance(self, n):
        pass


def test_the_player_starts_the_gait_at_the_first_tick_someone_subscribes_its_goals():
    """Under real ROS the simulator's subscription is discovered a moment after the player
    starts, and a goal sent before is lost (a lateral roll that lost its first goal went 0.245 m
    for 0.158): the gait waits for a subscriber, then plays from its first sample, each goal
    stamped with its tick."""
    from zoo_runtime import EMBEDDED, rclpy
    if not EMBEDDED:
        pytest.skip('lockstep tests need the embedded runtime')
    from zoo_runtime.embedded.executors import LockstepExecutor
    from zoo_runtime.interfaces.sensor_msgs.msg import JointState
    from gait_player.player_node import GaitPlayer
    P = rclpy.parameter.Parameter
    ctx = rclpy.context.Context()
    rclpy.init(context=ctx)
    player = GaitPlayer(context=ctx, namespace='/snake', parameter_overrides=[
        P('use_sim_time', value=True), P('generator', value='snake_gait'),
        P('gait', value='lateral_rolling')])
    ex = LockstepExecutor(context=ctx)
    ex.add_node(player)
    ex.set_physics(_Still())
    try:
        ex.spin_until(350_000_000)
        assert player.legs.tick == 0
        got = []
        listener = rclpy.create_node('bus', context=ctx, parameter_overrides=[
            P('use_sim_time', value=True)])
        listener.create_subscription(JointState, '/snake/joint_targets', got.append, 10)
        ex.add_node(listener)
        ex.spin_until(650_000_000)
        stamps = [m.header.stamp.sec * 1_000_000_000 + m.header.stamp.nanosec for m in got]
        assert stamps == [400_000_000, 500_000_000, 600_000_000]
        first = player.legs.plan.legs[0].generator.sample_rad(0)
        assert got[0].position.tolist() == pytest.approx([float(a) for a in first])
        assert player.legs.tick == 3
    finally:
        ex.shutdown()
        rclpy.shutdown(context=ctx)
