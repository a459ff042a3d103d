"""Issue 24 items 2b and 3 on the acceptance scenario, `nao_walk` under the real `ros2 launch`:
the real `ros2` CLI lists the nodes, the topics with their types and the parameters, `ros2 service
call /sim/reset` resets the world, and every controller ticks at its declared rate in sim time
(the walker's PD commands 250 per simulated second; the simulator's joint states 100)."""
from __future__ import annotations

import collections
import re
import subprocess

import pytest
from sensor_msgs.msg import JointState
from zoo_interfaces.msg import JointPDCommand

from conftest import ros2
from launched import LaunchedScenario


@pytest.fixture
def nao_walk(ros_env, tmp_path):
    run = LaunchedScenario('nao_walk', ros_env, tmp_path / 'launch.log')
    stamps = collections.defaultdict(list)

    def keep(topic):
        return lambda m: stamps[topic].append(m.header.stamp.sec + m.header.stamp.nanosec * 1e-9)
    run.node.create_subscription(JointPDCommand, '/nao/joint_pd_commands',
                                 keep('pd'), 1000)
    run.node.create_subscription(JointState, '/nao/joint_states', keep('joint_states'), 1000)
    run.stamps = stamps
    yield run
    assert run.stop() == 0, run.output()[-3000:]
    assert 'Traceback' not in run.output()


def per_sim_second(stamps: list[float], first: int, last: int) -> dict[int, int]:
    counts = collections.Counter(int(t) for t in stamps)
    return {s: counts.get(s, 0) for s in range(first, last + 1)}


def test_controllers_tick_at_their_declared_rates_in_sim_time(nao_walk, ros_env):
    nao_walk.wait_sim_time(6.05, wall_timeout=120)
    # whole simulated seconds 1-3 of the run are counted below; the acceptance walk: at least
    # 0.6 m forward in 6 simulated seconds of walking (0.70 m embedded from t = 0). Counted from
    # the start of the motion: with a cold plan cache (a fresh clone) the walker plans for ~1 s
    # while sim time already runs, so its walk starts later than in lockstep.
    start = next(t for t, x, y in nao_walk.base_xy['nao'] if abs(x) + abs(y) > 0.02)
    nao_walk.wait_sim_time(start + 6.05, wall_timeout=120)
    track = nao_walk.base_xy['nao']
    x0 = [x for t, x, _ in track if t <= start][-1]
    x6 = [x for t, x, _ in track if t <= start + 6.0][-1]
    assert x6 - x0 >= 0.6, (start, x0, x6)
    # whole simulated seconds 1-3 (the walk starts after the reset and the settle, ~0.3 s).
    # A node that falls more than a period behind /clock (rclpy's time source keeps only the
    # newest /clock message) misses that tick: on this 2-core machine that happened for at most
    # 2 of 250 in a second under a load average of 13, never when idle; 1 % is allowed.
    for topic, rate in (('pd', 250), ('joint_states', 100)):
        counts = per_sim_second(nao_walk.stamps[topic], int(start) + 1, int(start) + 3)
        assert all(0.99 * rate <= n <= rate for n in counts.values()), (topic, counts)


def test_ros2_topic_hz_shows_the_declared_rate(nao_walk, ros_env):
    """`ros2 topic hz --use-sim-time` runs until stopped: read its first reports."""
    nao_walk.wait_sim_time(1.0, wall_timeout=120)
    proc = subprocess.Popen(['ros2', 'topic', 'hz', '/nao/joint_states', '--use-sim-time'],
                            env=ros_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.terminate()
        out, _ = proc.communicate()
    rates = [float(r) for r in re.findall(r'average rate: ([0-9.]+)', out)]
    assert rates, out
    assert rates[-1] == pytest.approx(100.0, abs=1.0), out


def test_ros2_cli_sees_nodes_topics_parameters_and_resets_the_world(nao_walk, ros_env):
    nao_walk.wait_sim_time(2.0, wall_timeout=120)
    nodes = ros2(ros_env, 'node', 'list', '--no-daemon').stdout.split()
    assert {'/sim', '/nao/walker'} <= set(nodes), nodes
    topics = dict(re.findall(r'^(\S+) \[(\S+)\]$',
                             ros2(ros_env, 'topic', 'list', '-t', '--no-daemon').stdout, re.M))
    assert topics['/clock'] == 'rosgraph_msgs/msg/Clock'
    assert topics['/nao/joint_states'] == 'sensor_msgs/msg/JointState'
    assert topics['/nao/joint_pd_commands'] == 'zoo_interfaces/msg/JointPDCommand'
    assert topics['/nao/metrics'] == 'zoo_interfaces/msg/RobotMetrics'
    assert topics['/nao/odometry/ground_truth'] == 'nav_msgs/msg/Odometry'
    assert topics['/tf'] == 'tf2_msgs/msg/TFMessage'
    params = ros2(ros_env, 'param', 'list', '/sim', '--no-daemon').stdout.split()
    assert {'world', 'backend', 'real_time_factor', 'use_sim_time'} <= set(params), params
    got = ros2(ros_env, 'param', 'get', '/nao/walker', 'generator', '--no-daemon')
    assert 'nao_zmp_walk' in got.stdout, got.stdout + got.stderr
    got = ros2(ros_env, 'param', 'get', '/sim', 'backend', '--no-daemon')
    assert 'mujoco' in got.stdout, got.stdout + got.stderr
    # the Nao has walked away from its start; the reset puts it back
    walked = nao_walk.metrics_at('nao', nao_walk.sim_time).base_end
    assert walked[0] > 0.05, walked
    before = nao_walk.sim_time
    call = ros2(ros_env, 'service', 'call', '/sim/reset', 'std_srvs/srv/Empty')
    assert call.returncode == 0 and 'response:' in call.stdout, call.stdout + call.stderr
    nao_walk.wait_sim_time(nao_walk.sim_time + 0.3, wall_timeout=30)
    after = [m for t, m in nao_walk.metrics['nao'] if t > before]
    assert any(abs(m.base_end[0]) < 0.01 for m in after), [m.base_end[0] for m in after]
