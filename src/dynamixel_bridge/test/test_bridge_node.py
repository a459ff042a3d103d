"""The ROS shell in a scenario (embedded runtime): joint_targets in, joint_states and the
per-servo status out under the robot's namespace, the reboot service, summary metrics."""
import yaml

from conftest import emulated
from zoo_scenario.runner import ScenarioRun
from zoo_scenario.scenario import parse_scenario
from zoo_runtime.interfaces.diagnostic_msgs.msg import DiagnosticArray
from zoo_runtime.interfaces.sensor_msgs.msg import JointState


def test_bridge_node_topics_status_and_metrics(tmp_path):
    with emulated(1) as (bus, pty):
        data = {'nodes': [{'name': 'bridge', 'package': 'dynamixel_bridge',
                           'executable': 'bridge', 'namespace': '/snake',
                           'parameters': {'port': pty.path, 'ids': [1, 2, 3, 4],
                                          'rate': 50.0, 'watchdog_s': 5.0}}]}
        sc = parse_scenario(yaml.safe_load(yaml.safe_dump(data)), tmp_path / 'bridge.yaml')
        with ScenarioRun(sc) as run:
            node = run.nodes['bridge']
            seen = {}
            probe = node.create_subscription(JointState, '/snake/joint_states',
                                             lambda m: seen.__setitem__('js', m), 10)
            node.create_subscription(DiagnosticArray, '/snake/dynamixel/status',
                                     lambda m: seen.__setitem__('st', m), 10)
            pub = node.create_publisher(JointState, '/snake/joint_targets', 10)
            pub.publish(JointState(name=['joint_2'], position=[0.25]))
            run.run(0.1)
            bus.faults.set('overload', 4)
            run.run(0.1)
            assert probe is not None and list(seen['js'].name)[:2] == ['joint_1', 'joint_2']
            assert bus.servos[2].get('Goal Position') == 512 + round(0.25 / node.core.model
                                                                     .rad_per_step)
            levels = {s.name: (s.level, s.message) for s in seen['st'].status}
            assert levels['dynamixel/joint_4'] == (b'\x02', 'overload: torque off')
            assert levels['dynamixel/joint_1'] == (b'\x00', 'ok')
            metrics = run.summary(1.0)['metrics']['bridge']
            assert metrics['faults'] == 1 and metrics['faulty_ids'] == [4]
