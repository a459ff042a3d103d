"""The DDS bridge node (zoo_dds/dds_bridge) in the ROS 2 graph: its participant writes
ros_discovery_info as rmw_cyclonedds does, so the real `ros2` CLI lists `/dds_bridge` in
`ros2 node list` and names it as the publisher of the topics it bridges out and the subscriber
of those it bridges in (`ros2 topic info -v`), instead of `_CREATED_BY_BARE_DDS_APP_`."""
from __future__ import annotations

from conftest import ros2
from test_processes import endpoint_nodes, processes_run, until


def test_ros2_cli_sees_the_bridge_node_and_its_topics(ros_env, tmp_path):
    with processes_run(ros_env, tmp_path, 'nao_stand_dds', processes=False) as run:
        until(lambda: '/dds_bridge' in ros2(ros_env, 'node', 'list', '--no-daemon').stdout.split(),
              90, '/dds_bridge in `ros2 node list`')
        for topic in ('/nao/joint_states', '/tf', '/clock'):
            assert endpoint_nodes(ros_env, topic).get('PUBLISHER') == {'/dds_bridge'}, topic
        assert endpoint_nodes(ros_env, '/nao/joint_commands').get('SUBSCRIPTION') == {
            '/dds_bridge'}
        assert run.poll() is None, run.stdout.read()
