"""The gz.sim8 backend against a recording stand-in of the bindings (test/gz_stub) whose models
come from real libsdformat: scenarios without a pose use the nominal pose and initial positions,
fixed_base welds the base to the world, links merged by the fixed-joint reduction still get TF,
and the simulator node publishes the same /tf frames with either backend (issue 16 items 2, 7)."""
from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from zoo_sim.mujoco_scene import RobotSpec
from zoo_sim.nominal_pose import nominal_pose
from zoo_sim.sdf_spec import ign_available

pytestmark = pytest.mark.skipif(not ign_available(), reason="libsdformat's 'ign' tool missing")
STUB = Path(__file__).parent / 'gz_stub'


@pytest.fixture
def gz(monkeypatch):
    """The stand-in as ``gz`` (a real gz.sim8 is shadowed for the test)."""
    for name in [m for m in sys.modules if m == 'gz' or m.startswith('gz.')]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(STUB))
    import gz.sim8
    yield gz.sim8
    for name in [m for m in sys.modules if m == 'gz' or m.startswith('gz.')]:
        sys.modules.pop(name)


def nao(**kw) -> RobotSpec:
    return RobotSpec('nao', package='nao_description', **kw)


def test_no_pose_means_the_nominal_pose_and_initial_positions(gz):
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    ph = GazeboPhysics.create('empty', [nao(initial_positions={'LKneePitch': 0.5})])
    fixture = gz.LAST[-1]
    base, joints = nominal_pose('nao_description')
    assert fixture.models['nao'].pose == pytest.approx(base)
    assert not fixture.models['nao'].world_joint
    ph.advance(1)
    assert fixture.resets[('nao', 'LKneePitch')] == 0.5
    assert fixture.resets[('nao', 'HeadYaw')] == joints['HeadYaw']
    q, _, _ = ph.joint_state('nao')
    assert q[ph.robot_info('nao').joints.index('LKneePitch')] == 0.5


def test_fixed_base_welds_the_base_to_the_world(gz):
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    GazeboPhysics.create('empty', [nao(fixed_base=True, pose=[0, 0, 1, 0, 0, 0])])
    assert gz.LAST[-1].models['nao'].world_joint


def test_links_merged_by_the_fixed_joint_reduction_get_poses(gz):
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    ph = GazeboPhysics.create('empty', [nao(pose=[1, 2, 3, 0, 0, 0])])
    ph.advance(1)
    links, pos, quat = ph.link_poses('nao')
    kept = set(gz.LAST[-1].models['nao'].links)
    merged = [ln for ln in links if ln not in kept]
    assert merged, 'the Nao has fixed-jointed links that libsdformat merges'
    desc = ph.robots['nao'].built.desc
    parent = {j.child: j for j in desc.joints}
    for ln in merged:  # one fixed joint below a kept link: that link's pose plus the offset
        j = parent[ln]
        if j.parent in kept and not np.any(j.rpy):
            assert pos[links.index(ln)] == pytest.approx(np.array([1, 2, 3]) + j.xyz)
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


def test_one_tf_naming_scheme_for_both_backends(gz, monkeypatch):
    from conftest import DATA
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(DATA / 'prefix'))
    mujoco, gazebo = tf_frames('mujoco'), tf_frames('gazebo')
    assert gazebo == mujoco
    assert ('world', 'w/base_link') in gazebo


def test_reset_re_creates_the_joint_state_components_gz_drops(gz):
    """gz-sim8's reset restores the ECM to its load-time copy and stops TestFixture's pre-update
    callbacks (the stand-in does as gz does, see its docstring): the JointPosition /
    JointVelocity / world velocity components the backend added and the initial positions it set
    were gone for good, every joint read 0 after /sim/reset and no command reached Gazebo."""
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    ph = GazeboPhysics.create('empty', [nao(initial_positions={'LKneePitch': 0.5})])
    joints = ph.robot_info('nao').joints
    _, nominal = nominal_pose('nao_description')
    head, knee = joints.index('HeadYaw'), joints.index('LKneePitch')
    ph.advance(2)
    ph.command('nao', head, 'velocity', 0.3)
    ph.command('nao', knee, 'effort', 1.0)
    ph.advance(2)
    assert ph.joint_state('nao')[1][head] == 0.3
    ph.reset()
    ph.advance(3)
    fixture = gz.LAST[-1]
    q, dq, _ = ph.joint_state('nao')
    assert q[knee] == 0.5
    assert q[head] == nominal['HeadYaw']
    assert dq[head] == 0.0, 'the velocity command was reset'
    assert ph.command('nao', knee, 'velocity', 0.2)  # no JointForceCmd after a reset
    ph.advance(1)
    assert gz.LAST[-1].velocity_cmds[('nao', 'LKneePitch')] == 0.2, 'commands reach gz'
    assert ph.joint_state('nao')[1][knee] == 0.2 and not ph.warnings
    assert all(fixture.components >= {(e, 'JointPosition'), (e, 'JointVelocity')}
               for e in fixture.models['nao'].joints.values()
               if fixture.entities[e][2] in joints)


def test_relative_uris_survive_the_world_rewrite_into_a_temporary_folder(gz):
    """The backend writes the world (plus the robots' includes) into a temporary folder, and
    gz-sim resolves a relative URI against the folder of the file it loaded (gz-sim gz-sim8
    src/Util.cc asFullPath): go1_steps' ``media/go1_steps_heightmap.png`` must arrive absolute.
    The written world is read back by libsdformat and the SDF reader the MuJoCo backend uses,
    which follows the same rule, and gives the same terrain."""
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    from zoo_sim.resources import find_world
    from zoo_sim.sdf_world import load_world
    GazeboPhysics.create('go1_steps', [])
    written = Path(gz.LAST[-1].path)
    assert written.parent != find_world('go1_steps').parent
    uris = [e.text for e in ET.parse(written).iter('uri')]
    maps = [u for u in uris if u.endswith('go1_steps_heightmap.png')]
    assert len(maps) == 2 and all(Path(u).is_absolute() and Path(u).is_file() for u in maps)
    assert 'model://ground_plane' in uris  # URIs with a scheme are left alone

    def terrain(path):
        (step,) = [m for m in load_world(path).models if m.name == 'step']
        return [g.shape.heightfield for ln in step.links for g in ln.collisions]
    got, want = terrain(written), terrain(find_world('go1_steps'))
    assert got and all(np.array_equal(a.heights, b.heights) for a, b in zip(got, want))


def test_a_relative_uri_to_a_missing_file_is_one_error_line(gz, tmp_path):
    from zoo_sim import SimConfigError
    from zoo_sim.gazebo.gazebo_backend import GazeboPhysics
    world = tmp_path / 'w.sdf'
    world.write_text('<sdf version="1.9"><world name="w"><model name="m"><static>true</static>'
                     '<link name="l"><collision name="c"><geometry><heightmap>'
                     '<uri>media/none.png</uri><size>1 1 1</size></heightmap></geometry>'
                     '</collision></link></model></world></sdf>')
    with pytest.raises(SimConfigError) as e:
        GazeboPhysics.create(world, [])
    assert '\n' not in str(e.value) and 'media/none.png' in str(e.value) and \
        str(tmp_path / 'media' / 'none.png') in str(e.value)
