"""SDF worlds: the shipped worlds validate and hold the spec values; bad input gives one clear
error naming file and element; unsupported elements warn once; heightmaps and includes."""
from __future__ import annotations

import math
from pathlib import Path

import mujoco
import numpy as np
import pytest
from PIL import Image

from conftest import DATA, urdf_text
from zoo_sim import SimConfigError
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.sdf_spec import ign_available, validate_sdf
from zoo_sim.sdf_world import HeightField, load_world

WS = Path(__file__).resolve().parents[3]
WORLDS = sorted((WS / 'worlds').glob('*.sdf'))
needs_ign = pytest.mark.skipif(not ign_available(), reason="libsdformat's 'ign' tool missing")


@needs_ign
@pytest.mark.parametrize('path', WORLDS, ids=[p.stem for p in WORLDS])
def test_shipped_worlds_pass_libsdformat_and_load(path):
    validate_sdf(path)
    world = load_world(path)
    assert world.warnings == []  # nothing the MuJoCo backend leaves out
    MujocoPhysics.create(world).advance(10)


def test_shipped_world_set_is_complete():
    assert {p.stem for p in WORLDS} >= {'empty', 'empty_mars', 'moon', 'obstacle_course',
                                        'robobo_arena', 'snake_terrain'}


def test_world_gravities():
    g = {name: load_world(WS / 'worlds' / f'{name}.sdf').gravity[2]
         for name in ('empty', 'empty_mars', 'moon')}
    assert g == {'empty': -9.80665, 'empty_mars': -3.72111, 'moon': -1.62}


def geom(ph: MujocoPhysics, name: str):
    return ph.model.geom(name)


def test_obstacle_course_is_the_hoap2_demo_map():
    ph = MujocoPhysics.create('obstacle_course')
    pole = geom(ph, 'pole/link/collision')
    assert pole.type[0] == mujoco.mjtGeom.mjGEOM_CYLINDER
    assert ph.data.geom_xpos[pole.id][:2] == pytest.approx([2.0, 2.0])
    assert pole.size[0] == pytest.approx(0.075) and 2 * pole.size[1] >= 0.5  # 15 cm, >= 0.5 m
    marker = geom(ph, 'marker/link/collision')
    assert ph.data.geom_xpos[marker.id][:2] == pytest.approx([2.0, 3.5])


def test_robobo_arena_dimensions():
    ph = MujocoPhysics.create('robobo_arena')
    x = {}
    for wall in ('north', 'south', 'east', 'west'):
        g = geom(ph, f'wall_{wall}/link/collision')
        assert 2 * g.size[2] == pytest.approx(0.2)  # 20 cm high
        x[wall] = ph.data.geom_xpos[g.id]
    inside_x = (x['east'][0] - geom(ph, 'wall_east/link/collision').size[0]) - \
        (x['west'][0] + geom(ph, 'wall_west/link/collision').size[0])
    inside_y = (x['north'][1] - geom(ph, 'wall_north/link/collision').size[1]) - \
        (x['south'][1] + geom(ph, 'wall_south/link/collision').size[1])
    assert inside_x == pytest.approx(0.80) and inside_y == pytest.approx(0.80)
    ball = geom(ph, 'green_ball/ball/collision')
    stand = geom(ph, 'green_ball/stand/collision')
    assert ball.size[0] == pytest.approx(0.032)
    assert ph.data.geom_xpos[ball.id][2] == pytest.approx(0.185)
    assert 2 * stand.size[1] == pytest.approx(0.17) and stand.size[0] == pytest.approx(0.03)


def test_snake_terrain_is_a_heightfield_with_its_centre_at_zero():
    ph = MujocoPhysics.create('snake_terrain')
    assert ph.model.nhfield == 1
    assert ray_height(ph, 0.0, 0.0) == pytest.approx(0.0, abs=2e-3)
    heights = [ray_height(ph, x, y) for x in (-3, -1.5, 1.5, 3) for y in (-3, 0, 3)]
    assert max(heights) - min(heights) > 0.03  # hills away from the centre


def ray_height(ph: MujocoPhysics, x: float, y: float, exclude_body: int = -1) -> float:
    geomid = np.zeros(1, np.int32)
    dist = mujoco.mj_ray(ph.model, ph.data, np.array([x, y, 5.0]), np.array([0, 0, -1.0]),
                         None, 1, exclude_body, geomid)
    return 5.0 - dist


def test_heightmap_image_follows_gazebos_rule(tmp_path):
    """Grey / 255 * size z, top image row = +y edge; a ball dropped on a node rests on it."""
    img = np.zeros((5, 5), dtype=np.uint8)  # 2 x 2 m: nodes every 0.5 m
    img[0, 4], img[4, 0], img[0, 2] = 255, 102, 51  # (+x, +y), (-x, -y), (0, +y)
    img[1:4, 1:4] = 153  # a plateau around the centre
    Image.fromarray(img, mode='L').save(tmp_path / 'h.png')
    hf = HeightField.from_image(tmp_path / 'h.png', (2.0, 2.0, 0.5))
    assert hf.heights[4, 4] == pytest.approx(0.5)  # top-right pixel: +x, +y corner
    world_sdf = tmp_path / 'hf.sdf'
    world_sdf.write_text(f'''<?xml version="1.0"?>
<sdf version="1.9"><world name="hf">
  <model name="terrain"><static>true</static><link name="l"><collision name="c"><geometry>
    <heightmap><uri>{tmp_path / 'h.png'}</uri><size>2 2 0.5</size><pos>0 0 0.1</pos></heightmap>
  </geometry></collision></link></model>
  <model name="ball"><pose>0 0 1 0 0 0</pose><link name="l">
    <inertial><mass>0.1</mass>
      <inertia><ixx>1e-5</ixx><iyy>1e-5</iyy><izz>1e-5</izz></inertia></inertial>
    <collision name="c"><geometry><sphere><radius>0.05</radius></sphere></geometry></collision>
  </link></model>
</world></sdf>''')
    ph = MujocoPhysics.create(str(world_sdf))
    for (x, y), grey in {(1, 1): 255, (0, 1): 51, (-1, -1): 102, (0, 0): 153, (1, -1): 0}.items():
        assert ray_height(ph, x * 0.999, y * 0.999, ph.model.body('ball').id) == pytest.approx(
            0.1 + grey / 255 * 0.5, abs=2e-3)
    ph.advance(1500)  # the ball, dropped on the centre node, rests there
    assert ph.data.xpos[ph.model.body('ball').id][2] == pytest.approx(
        0.1 + 153 / 255 * 0.5 + 0.05, abs=1e-3)


def test_array_heightfield_rejects_bad_data():
    with pytest.raises(SimConfigError, match='finite 2-D array'):
        HeightField(np.array([[0.0, math.nan], [0.0, 0.0]]), (1.0, 1.0))


@needs_ign
def test_sdf_syntax_error_names_file_and_line(tmp_path):
    bad = tmp_path / 'bad.sdf'
    bad.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n <world name="w">\n'
                   '  <model name="m"><link name="l"></model>\n </world>\n</sdf>\n')
    with pytest.raises(SimConfigError) as err:
        load_world(bad)
    msg = str(err.value)
    assert str(bad) in msg and 'line 4' in msg and '<link>' in msg and '\n' not in msg


@needs_ign
def test_unknown_element_is_an_error_naming_it(tmp_path):
    bad = tmp_path / 'unknown.sdf'
    bad.write_text('<?xml version="1.0"?><sdf version="1.9"><world name="w"><model name="m">'
                   '<static>true</static><statik>1</statik><link name="l"/></model></world></sdf>')
    with pytest.raises(SimConfigError, match=r'unknown\.sdf: element /sdf/world\[w\]/model\[m\]/'
                                             r'statik is not defined by SDF 1\.9'):
        load_world(bad)


@needs_ign
def test_missing_model_include_names_file_and_uri(tmp_path):
    bad = tmp_path / 'missing.sdf'
    bad.write_text('<?xml version="1.0"?><sdf version="1.9"><world name="w">'
                   '<include><uri>model://no_such_model</uri></include></world></sdf>')
    with pytest.raises(SimConfigError) as err:
        load_world(bad)
    assert 'missing.sdf' in str(err.value) and 'model://no_such_model' in str(err.value)
    with pytest.raises(SimConfigError, match="no model 'no_such_model'"):
        load_world(bad, validate=False)  # our own resolver says the same without libsdformat


def test_model_include_resolves_through_gz_sim_resource_path(tmp_path, monkeypatch):
    model = tmp_path / 'models' / 'crate'
    model.mkdir(parents=True)
    (model / 'model.config').write_text('<?xml version="1.0"?><model><name>crate</name>'
                                        '<sdf version="1.9">crate.sdf</sdf></model>')
    (model / 'crate.sdf').write_text(
        '<?xml version="1.0"?><sdf version="1.9"><model name="crate"><link name="l">'
        '<collision name="c"><geometry><box><size>0.5 0.5 0.5</size></box></geometry>'
        '</collision></link></model></sdf>')
    world = tmp_path / 'w.sdf'
    world.write_text('<?xml version="1.0"?><sdf version="1.9"><world name="w"><include>'
                     '<uri>model://crate</uri><name>crate_1</name><pose>1 2 3 0 0 0</pose>'
                     '</include></world></sdf>')
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(tmp_path / 'models'))
    w = load_world(world)
    m = w.model('crate_1')
    assert not m.static and m.pose.pos.tolist() == [1, 2, 3]
    assert m.links[0].collisions[0].shape.size == (0.5, 0.5, 0.5)


@needs_ign
def test_valid_but_unsupported_elements_warn_once_each():
    w = load_world(DATA / 'unsupported.sdf')
    expect = ['wind', 'ode/solver/sor', 'ode/constraints/cfm', 'plugin[my-odd-plugin]',
              'surface/bounce', 'sensor[cam]', 'joint[j]']
    for e in expect:
        assert sum(e in warning for warning in w.warnings) == 1, (e, w.warnings)
    assert len(w.warnings) == len(expect)
    assert w.step == 0.002 and w.iterations == 80 and w.cone == 'elliptic'
    ph = MujocoPhysics.create(w)
    assert ph.warnings == w.warnings
    assert ph.model.opt.cone == mujoco.mjtCone.mjCONE_ELLIPTIC and ph.model.opt.iterations == 80


def test_libsdformat_verdicts_are_cached_by_content(tmp_path, monkeypatch):
    """Validating the same world again does not run ign; a changed world is validated again
    (a cached 'valid' never hides a new error), and so is a changed URDF text."""
    from zoo_description_tools import sdformat_check
    from zoo_sim import sdf_spec
    monkeypatch.setenv('ROBOZOO_CACHE_DIR', str(tmp_path / 'cache'))
    world = tmp_path / 'w.sdf'
    world.write_text((DATA / 'drop.sdf').read_text())
    sdf_spec.validate_sdf(world)
    runs = []
    real = sdformat_check.run_ign
    monkeypatch.setattr(sdformat_check, 'run_ign',
                        lambda args, paths=(): runs.append(args) or real(args, paths))
    sdf_spec.validate_sdf(world)
    assert runs == []
    world.write_text(world.read_text().replace('<model name="box">', '<model name="box"><oops/>')
                     .replace('</world>', '<model name="x"><link name="l"></model></world>'))
    with pytest.raises(SimConfigError, match='invalid SDF'):
        sdf_spec.validate_sdf(world)
    assert len(runs) == 1
    urdf = urdf_text('walker.urdf')
    sdf_spec.validate_sdf(urdf, 'walker.urdf')
    with pytest.raises(SimConfigError, match='walker.urdf: invalid SDF'):
        sdf_spec.validate_sdf(urdf.replace('<child link="upper_arm"/>', '<child link="nope"/>'),
                              'walker.urdf')
