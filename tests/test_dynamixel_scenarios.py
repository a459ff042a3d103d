"""dynamixel_bridge's nodes in scenarios (embedded runtime; moved here from the package's tests,
which import no scenario runner): the bridge's ROS shell (joint_targets in, joint_states and the
per-servo status out under the robot's namespace, summary metrics) and the emulator node (a dead
bus thread stops the run; duplicate ids are refused)."""
import os
import time

import pytest
import yaml

from dynamixel_bridge.emulator.bus import build_bus
from dynamixel_bridge.emulator.pty_server import PtyBus
from zoo_scenario.runner import RunStopped, ScenarioRun
from zoo_scenario.scenario import parse_scenario
from zoo_runtime.interfaces.diagnostic_msgs.msg import DiagnosticArray
from zoo_runtime.interfaces.sensor_msgs.msg import JointState


def test_bridge_node_topics_status_and_metrics(tmp_path):
    bus = build_bus(1, [1, 2, 3, 4], baud=1_000_000)
    with PtyBus(bus, 1_000_000) as pty:
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


def _close_under_the_loop(pty) -> None:
    """The emulator's serving loop fails for real: its pty master is gone (select: EBADF)."""
    os.close(pty.master)
    deadline = time.monotonic() + 5
    while pty.alive and time.monotonic() < deadline:
        time.sleep(0.01)


def _emulator_scenario(tmp_path, parameters: dict):
    data = {'nodes': [{'name': 'dxl_emulator', 'package': 'dynamixel_bridge',
                       'executable': 'emulator', 'parameters': parameters}]}
    return parse_scenario(yaml.safe_load(yaml.safe_dump(data)), tmp_path / 'emu.yaml')


def test_the_emulator_node_stops_the_run_when_its_bus_dies(tmp_path):
    """A dead bus thread ends the run with RunStopped naming the node and the cause (robozoo
    run: one line, exit 2), never an idle node in a run that goes on."""
    with ScenarioRun(_emulator_scenario(tmp_path, {'robot': 'snake', 'ids': [1, 2]})) as run:
        run.run(0.05)
        _close_under_the_loop(run.nodes['dxl_emulator'].pty)
        with pytest.raises(RunStopped, match='dxl_emulator: bus thread stopped'):
            run.run(0.05)


def test_the_emulator_node_names_duplicate_ids(tmp_path):
    with pytest.raises(ValueError, match=r'parameter ids: expected distinct servo ids'):
        ScenarioRun(_emulator_scenario(tmp_path, {'ids': [1, 2, 2]})).close()
