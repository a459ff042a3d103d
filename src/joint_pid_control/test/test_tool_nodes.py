"""The keyframe player and the keyboard teleop nodes on sim time (embedded runtime)."""
import math

import pytest

from zoo_runtime import EMBEDDED, rclpy

if not EMBEDDED:
    pytest.skip('lockstep tests need the embedded runtime', allow_module_level=True)

from zoo_runtime.embedded.executors import LockstepExecutor  # noqa: E402
from zoo_runtime.interfaces.sensor_msgs.msg import JointState  # noqa: E402

from joint_pid_control.keyframe_player_node import KeyframePlayer  # noqa: E402
from joint_pid_control.teleop_node import KeyboardTeleop  # noqa: E402

P = rclpy.parameter.Parameter
SIM = P('use_sim_time', value=True)


@pytest.fixture
def ctx():
    c = rclpy.context.Context()
    rclpy.init(context=c)
    yield c
    rclpy.shutdown(context=c)


def listen(ctx, received):
    node = rclpy.create_node('listener', context=ctx, parameter_overrides=[SIM])
    node.create_subscription(
        JointState, 'joint_targets',
        lambda m: received.append((node.get_clock().now().nanoseconds * 1e-9,
                                   dict(zip(m.name, m.position)))), 10)
    return node


def test_keyframe_player_publishes_the_interpolated_pose_on_sim_time(ctx):
    got = []
    player = KeyframePlayer(context=ctx, parameter_overrides=[
        SIM, P('file', value='nao_hip_sway'), P('rate', value=50.0)])
    ex = LockstepExecutor(context=ctx)
    for n in (player, listen(ctx, got)):
        ex.add_node(n)
    ex.spin_until(5_000_000_000)
    assert len(got) == 250                               # 50 Hz for 5 s
    t0 = got[0][0]                                       # playback starts at the first tick
    at = {round(t - t0, 3): v for t, v in got}
    assert at[1.0]['LHipRoll'] == pytest.approx(math.radians(6))
    assert at[2.0]['RAnkleRoll'] == pytest.approx(0.0, abs=1e-12)
    assert at[3.0]['LAnkleRoll'] == pytest.approx(math.radians(6))
    assert got[-1][1]['LHipRoll'] == 0.0                 # holds the final pose
    assert player.robozoo_metrics()['finished']


class ScriptedKeys:
    def __init__(self, script):
        self.script = list(script)

    def read(self):
        return self.script.pop(0) if self.script else ''

    def close(self):
        pass


def test_teleop_starts_from_the_measured_pose_and_moves_one_joint_per_key(ctx):
    got = []
    tele = KeyboardTeleop(keys=ScriptedKeys(['', '6', 'ww', 'a', '', 'r']), context=ctx,
                          parameter_overrides=[SIM, P('rate', value=10.0),
                                               P('step', value=0.1)])
    sim = rclpy.create_node('sim', context=ctx, parameter_overrides=[SIM])
    pub = sim.create_publisher(JointState, 'joint_states', 10)
    sim.create_timer(0.05, lambda: pub.publish(JointState(
        name=['RAnklePitch', 'RAnkleRoll', 'HeadYaw'], position=[0.2, -0.1, 0.3])))
    ex = LockstepExecutor(context=ctx)
    for n in (tele, sim, listen(ctx, got)):
        ex.add_node(n)
    ex.spin_until(700_000_000)
    poses = [v for _, v in got]
    # ticks at 0.1 ... 0.7 s; the first joint_states came at 0.05 s
    assert len(poses) == 7 and len(poses[0]) == 20
    assert poses[0]['RAnklePitch'] == 0.2 and poses[0]['HeadYaw'] == 0.3
    assert poses[1] == poses[0]                             # '6' only selects the ankles
    assert poses[2]['RAnklePitch'] == pytest.approx(0.4)    # 'ww'
    assert poses[3]['RAnkleRoll'] == pytest.approx(0.0)     # 'a': +0.1 from -0.1
    assert poses[3]['RAnklePitch'] == pytest.approx(0.4)
    assert set(poses[5].values()) == {0.0}                  # 'r'
