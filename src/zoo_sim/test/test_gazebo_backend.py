"""The gz.sim8 backend against the real bindings (Gazebo Harmonic; `real_gz` in conftest): start
poses, the fixed base, links merged by the fixed-joint reduction, one TF naming scheme for both
backends, reset, the world rewrite's URIs, the sensors, and one clear line for what it cannot do.
These replace a recording stand-in of gz.sim8 that could not catch a mismatch with the real
bindings (issue 31)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from zoo_sim import SimConfigError
from zoo_sim.mujoco_scene import RobotSpec
from zoo_sim.nominal_pose import nominal_pose


def nao(**kw) -> RobotSpec:
    return RobotSpec('nao', package='nao_description', **kw)


def gazebo(world='empty', robots=()):
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    return GazeboPhysics.create(world, list(robots))


def test_no_pose_means_the_nominal_pose_and_initial_positions(real_gz):
    ph = gazebo(robots=[nao(initial_positions={'LKneePitch': 0.5})])
    base, joints = nominal_pose('nao_description')
    names = ph.robot_info('nao').joints
    # known before the first step, and where gz has it after (the robot settles by a few mrad)
    for tolerance in (1e-12, 1e-2):
        q = ph.joint_state('nao')[0]
        assert ph.base_pose('nao')[0] == pytest.approx(base[:3], abs=tolerance)
        assert q[names.index('LKneePitch')] == pytest.approx(0.5, abs=tolerance)
        assert q[names.index('HeadYaw')] == pytest.approx(joints['HeadYaw'], abs=tolerance)
        ph.advance(1)


def test_fixed_base_welds_the_base_to_the_world(real_gz):
    ph = gazebo(robots=[nao(fixed_base=True, pose=[0, 0, 1, 0, 0, 0])])
    ph.advance(300)
    assert ph.base_pose('nao')[0] == pytest.approx([0, 0, 1], abs=1e-6)


def test_links_merged_by_the_fixed_joint_reduction_get_poses(real_gz):
    ph = gazebo(robots=[nao(fixed_base=True, pose=[1, 2, 3, 0, 0, 0])])
    ph.advance(1)
    links, pos, _ = ph.link_poses('nao')
    merged = [links[k] for k in ph.robots['nao'].merged]
    assert merged, 'the Nao has fixed-jointed links that libsdformat merges'
    desc = ph.robots['nao'].built.desc
    parent = {j.child: j for j in desc.joints}
    kept = set(links) - set(merged)
    for ln in merged:  # one fixed joint below a kept link: that link's pose plus the offset
        j = parent[ln]
        if j.parent in kept and j.parent == desc.root_link and not np.any(j.rpy):
            assert pos[links.index(ln)] == pytest.approx(np.array([1, 2, 3]) + j.xyz, abs=1e-6)
    assert not np.any(np.all(pos == 0, axis=1)), 'every link has a pose'


def tf_frames(backend: str) -> set[tuple[str, str]]:
    from zoo_runtime.interfaces.tf2_msgs.msg import TFMessage
    from test_sim_node import Stack
    s = Stack(backend=backend)
    try:
        got = s.record(TFMessage, '/tf')
        static = s.record(TFMessage, '/tf_static', qos=__import__('zoo_sim.sim_node').sim_node
                          .LATCHED)
        s.run(0.1)
        return {(t.header.frame_id, t.child_frame_id)
                for m in got + static for t in m.transforms}
    finally:
        s.close()


def test_one_tf_naming_scheme_for_both_backends(real_gz, monkeypatch):
    from conftest import DATA
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(DATA / 'prefix'))
    mujoco, gz = tf_frames('mujoco'), tf_frames('gazebo')
    assert gz == mujoco
    assert ('world', 'w/base_link') in gz


def test_reset_brings_back_the_start_and_commands_still_reach_gz(real_gz):
    """gz-sim8's own reset dropped the joint state components and stopped the pre-update
    callback that applies commands; the backend loads the world again instead."""
    ph = gazebo(robots=[nao(initial_positions={'LKneePitch': 0.5})])
    names = ph.robot_info('nao').joints
    head, knee = names.index('HeadYaw'), names.index('LKneePitch')
    _, nominal = nominal_pose('nao_description')
    ph.advance(2)
    ph.command('nao', head, 'velocity', 0.3)
    ph.command('nao', knee, 'effort', 1.0)
    ph.advance(100)
    assert ph.joint_state('nao')[0][head] > nominal['HeadYaw'] + 0.02
    ph.reset()
    ph.advance(3)
    q = ph.joint_state('nao')[0]
    assert q[knee] == pytest.approx(0.5, abs=0.02)  # (it settles on landing)
    assert q[head] == pytest.approx(nominal['HeadYaw'], abs=0.02)
    assert ph.command('nao', head, 'velocity', 0.3)  # no JointForceCmd after a reset
    ph.advance(100)
    assert ph.joint_state('nao')[1][head] == pytest.approx(0.3, abs=0.02)
    assert not ph.warnings


def test_relative_uris_survive_the_world_rewrite_into_a_temporary_folder(real_gz):
    """The backend writes the world into a temporary folder, and gz-sim resolves a relative URI
    against the folder of the file it loaded (gz-sim gz-sim8 src/Util.cc asFullPath):
    go1_steps' ``media/go1_steps_heightmap.png`` must arrive absolute."""
    from zoo_sim.resources import find_world
    ph = gazebo('go1_steps')
    written = Path(ph._composed)
    assert written.parent != find_world('go1_steps').parent
    uris = [e.text for e in ET.parse(written).iter('uri')]
    maps = [u for u in uris if u.endswith('go1_steps_heightmap.png')]
    assert len(maps) == 2 and all(Path(u).is_absolute() and Path(u).is_file() for u in maps)
    assert 'model://ground_plane' in uris  # URIs with a scheme are left alone


def test_a_relative_uri_to_a_missing_file_is_one_error_line(real_gz, tmp_path):
    world = tmp_path / 'w.sdf'
    world.write_text('<sdf version="1.9"><world name="w"><model name="m"><static>true</static>'
                     '<link name="l"><collision name="c"><geometry><heightmap>'
                     '<uri>media/none.png</uri><size>1 1 1</size></heightmap></geometry>'
                     '</collision></link></model></world></sdf>')
    with pytest.raises(SimConfigError) as e:
        gazebo(world)
    assert '\n' not in str(e.value) and 'media/none.png' in str(e.value) and \
        str(tmp_path / 'media' / 'none.png') in str(e.value)


def test_a_world_gz_cannot_load_is_one_error_line_not_an_empty_run(real_gz, tmp_path):
    """gz-sim8 logs "[Err] ... Failed to load a world" and then runs an empty server: the
    backend used to step it and report a robot at (0, 0, 0) as a success. Now the world is read
    first (libsdformat, as for MuJoCo) and gz's own load is checked (every robot is an entity)."""
    world = tmp_path / 'broken.sdf'
    world.write_text('<sdf version="1.9"><world name="w"><include><uri>model://no_such_model'
                     '</uri></include></world></sdf>')
    with pytest.raises(SimConfigError) as e:
        gazebo(world, [nao()])
        pytest.fail('a robot in a world gz could not load')
    assert '\n' not in str(e.value) and 'broken.sdf' in str(e.value)
    assert 'no_such_model' in str(e.value)


def test_a_world_without_physics_is_one_error_line(real_gz, tmp_path):
    """A world that lists systems but not Physics gets none: its robots would hang in the air
    and the run would look like a perfect stand."""
    world = tmp_path / 'still.sdf'
    world.write_text('<sdf version="1.9"><world name="w"><plugin filename="gz-sim-imu-system" '
                     'name="gz::sim::systems::Imu"/></world></sdf>')
    with pytest.raises(SimConfigError) as e:
        gazebo(world, [nao()])
    assert '\n' not in str(e.value) and 'still.sdf' in str(e.value) and 'physics' in str(e.value)


def test_imu_and_contacts_come_from_gz_sims_own_sensors(real_gz):
    """A standing Nao: both soles touch the ground and carry its weight; the torso IMU reads
    gravity's reaction and a level orientation. In the air (teleported 1 m up) no sole touches."""
    ph = gazebo(robots=[nao()])
    assert {'imu', 'contacts'} <= ph.features
    ph.advance(200)
    touching, force = ph.contacts('nao')
    mass = sum(i.mass for i in ph.robots['nao'].built.desc.inertials.values()) \
        if hasattr(ph.robots['nao'].built.desc, 'inertials') else 5.3
    assert touching.all(), touching
    assert force[:, 2].sum() == pytest.approx(mass * 9.80665, rel=0.1)
    quat, gyro, acc = ph.imu('nao')
    assert acc[2] == pytest.approx(9.80665, rel=0.02) and abs(quat[0]) > 0.999
    ph.set_pose('nao', [0, 0, 1.0], [1, 0, 0, 0])
    ph.advance(5)
    assert not ph.contacts('nao')[0].any()


def test_sensors_that_need_rendering_are_said_to_be_missing(real_gz):
    from zoo_sim.gazebo.plugins import rendering_engines
    if rendering_engines():
        pytest.skip(f'this Gazebo renders ({", ".join(rendering_engines())})')
    ph = gazebo(robots=[RobotSpec('robobo', package='robobo_description')])
    lines = [w for w in ph.warnings if 'not available under this Gazebo build' in w]
    assert any('camera' in w for w in lines) and any('gpu_lidar' in w for w in lines)
    ph.advance(10)


def test_a_robot_at_rest_still_obeys_commands(real_gz):
    """bullet-featherstone put a Robobo resting for 2 s to sleep, and a sleeping model ignored
    its wheels' velocity commands for good."""
    ph = gazebo(robots=[RobotSpec('robobo', package='robobo_description')])
    wheels = [j for j, name in enumerate(ph.robot_info('robobo').joints) if 'pan' not in name
              and 'tilt' not in name]
    ph.advance(2500)
    x0 = ph.base_pose('robobo')[0][0]
    for j in wheels:
        ph.command('robobo', j, 'velocity', 5.0)
    ph.advance(500)
    assert ph.joint_state('robobo')[1][wheels] == pytest.approx(5.0, abs=0.05)
    assert abs(ph.base_pose('robobo')[0][0] - x0) > 0.05
