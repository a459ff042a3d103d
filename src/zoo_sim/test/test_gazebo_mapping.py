"""The Gazebo mapping: generated plugin/sensor blocks pass libsdformat and name real collisions;
the ros_gz_bridge YAML uses the bridge's keys and type pairs; the gz.sim8 backend runs where the
bindings exist and refuses clearly where they do not."""
from __future__ import annotations

import importlib.util
import subprocess
import xml.etree.ElementTree as ET

import pytest
import yaml

from conftest import urdf_text
from zoo_sim import SimConfigError
from zoo_sim.gazebo.bridge import bridge_config, bridge_service_args, write_bridge_yaml
from zoo_sim.gazebo.plugins import collision_names, robot_gazebo_blocks, with_gazebo_blocks
from zoo_sim.mujoco_scene import RobotSpec
from zoo_sim.sdf_spec import ign_available, validate_sdf
from zoo_sim.urdf_robot import parse_urdf

RATES = {'joint_states_rate': 100.0, 'odometry_rate': 50.0, 'imu_rate': 100.0,
         'tf_rate': 25.0, 'contacts_rate': 50.0}
HAVE_GZ = importlib.util.find_spec('gz') is not None and \
    importlib.util.find_spec('gz.sim8') is not None
# ros_gz_bridge/src/bridge_config.cpp (jazzy): the keys an entry may have
BRIDGE_KEYS = {'topic_name', 'ros_topic_name', 'gz_topic_name', 'ros_type_name', 'gz_type_name',
               'direction', 'publisher_queue', 'subscriber_queue', 'lazy', 'publish_optical_frame'}
# specs/ros_stack.md 4.6 (+ nav_msgs/Odometry and tf2_msgs/TFMessage, also ros_gz_bridge pairs)
TYPE_PAIRS = {'sensor_msgs/msg/JointState': 'gz.msgs.Model',
              'std_msgs/msg/Float64': 'gz.msgs.Double',
              'rosgraph_msgs/msg/Clock': 'gz.msgs.Clock', 'sensor_msgs/msg/Imu': 'gz.msgs.IMU',
              'ros_gz_interfaces/msg/Contacts': 'gz.msgs.Contacts',
              'nav_msgs/msg/Odometry': 'gz.msgs.Odometry',
              'tf2_msgs/msg/TFMessage': 'gz.msgs.Pose_V'}


def walker_with_blocks(text: str | None = None) -> tuple[str, object]:
    desc = parse_urdf(text or urdf_text('walker.urdf'), 'walker.urdf')
    blocks = robot_gazebo_blocks('w', desc, base_link='base_link', imu_link='base_link',
                                 contact_links=['left_foot', 'right_foot'], rates=RATES)
    return with_gazebo_blocks(desc.urdf, blocks), desc


@pytest.mark.skipif(not ign_available(), reason="libsdformat's 'ign' tool missing")
def test_plugin_blocks_pass_libsdformat_and_name_real_collisions(tmp_path):
    text = urdf_text('walker.urdf', **{
        '<collision><geometry><box size="0.25 0.06 0.04"/></geometry></collision>\n  </link>\n  '
        '<joint name="left_ankle"':
        '<collision name="heel"><geometry><box size="0.25 0.06 0.04"/></geometry></collision>'
        '<collision><geometry><box size="0.2 0.06 0.04"/></geometry></collision>\n  </link>\n  '
        '<joint name="left_ankle"'})
    urdf, desc = walker_with_blocks(text)
    assert collision_names(desc, 'left_foot') == ['left_foot_fixed_joint_lump__heel_collision',
                                                  'left_foot_collision_1']
    path = tmp_path / 'w.urdf'
    path.write_text(urdf)
    validate_sdf(path)
    sdf = ET.fromstring(subprocess.run(['ign', 'sdf', '-p', str(path)], capture_output=True,
                                       text=True, check=True).stdout)
    model = sdf.find('model')
    systems = [p.get('filename') for p in model.findall('plugin')]
    assert systems.count('gz-sim-joint-controller-system') == 2
    assert systems.count('gz-sim-apply-joint-force-system') == 2
    assert {'gz-sim-joint-state-publisher-system', 'gz-sim-odometry-publisher-system',
            'gz-sim-pose-publisher-system'} <= set(systems)
    for link in ('left_foot', 'right_foot'):  # kept as links, the sensor names their collisions
        el = model.find(f"link[@name='{link}']")
        assert el is not None
        present = {c.get('name') for c in el.findall('collision')}
        named = {c.text for c in el.find("sensor[@type='contact']/contact").findall('collision')}
        assert named and named <= present
    imu = model.find("link[@name='base_link']/sensor[@type='imu']")
    assert imu.findtext('topic') == '/w/imu' and float(imu.findtext('update_rate')) == 100


def test_bridge_yaml_uses_the_bridges_keys_and_type_pairs(tmp_path):
    desc = parse_urdf(urdf_text('walker.urdf'))
    cfg = bridge_config('empty', [('w', [j.name for j in desc.actuated],
                                   ['left_foot', 'right_foot'])])
    for entry in cfg:
        assert set(entry) <= BRIDGE_KEYS
        assert TYPE_PAIRS[entry['ros_type_name']] == entry['gz_type_name']
    by_ros = {e['ros_topic_name']: e for e in cfg}
    assert by_ros['/clock']['direction'] == 'GZ_TO_ROS'  # never bidirectional (ros_gz #341)
    assert by_ros['/w/joint_states']['gz_topic_name'] == '/world/empty/model/w/joint_state'
    cmd = by_ros['/w/shoulder/cmd_vel']
    assert (cmd['gz_topic_name'], cmd['direction'], cmd['lazy']) == \
        ('/model/w/joint/shoulder/cmd_vel', 'ROS_TO_GZ', True)
    assert by_ros['/w/elbow/cmd_force']['gz_topic_name'] == '/model/w/joint/elbow/cmd_force'
    assert by_ros['/w/contacts/left_foot']['ros_type_name'] == 'ros_gz_interfaces/msg/Contacts'
    assert len(cfg) == 1 + 4 + 2 + 2 * 2
    path = write_bridge_yaml(tmp_path / 'bridge.yaml', 'empty', [('w', ['shoulder'], [])])
    assert yaml.safe_load(path.read_text()) == bridge_config('empty', [('w', ['shoulder'], [])])
    assert bridge_service_args('empty')[0] == \
        '/world/empty/control@ros_gz_interfaces/srv/ControlWorld'


@pytest.mark.skipif(HAVE_GZ, reason='gz.sim8 is installed')
def test_gazebo_backend_refuses_clearly_without_the_bindings():
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    with pytest.raises(SimConfigError, match=r"backend 'gazebo' needs .*gz\.sim8"):
        GazeboPhysics.create('empty', [])


def test_gazebo_backend_drives_a_joint():
    pytest.importorskip('gz.sim8')
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    ph = GazeboPhysics.create('empty', [RobotSpec('w', urdf=urdf_text('walker.urdf'),
                                                  pose=(0, 0, 0.12, 0, 0, 0))])
    ph.advance(200)
    ph.command('w', 0, 'velocity', 1.0)
    ph.advance(500)
    q, dq, _ = ph.joint_state('w')
    assert dq[0] == pytest.approx(1.0, abs=0.05) and q[0] > 0.3
    assert ph.base_pose('w')[0][2] == pytest.approx(0.09, abs=0.01)
