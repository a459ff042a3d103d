"""Robots from description packages (xacro, $(find), args), Gazebo contact tags, and the contact
parameter mapping (ODE kp/kd/minDepth/mu -> MuJoCo), including Gazebo's min-friction rule."""
from __future__ import annotations

import math

import pytest

from conftest import DATA, urdf_text
from zoo_sim import SimConfigError
from zoo_sim.contact_params import DEFAULT_SOLIMP, from_ode, priorities
from zoo_sim.mujoco_backend import MujocoPhysics
from zoo_sim.mujoco_scene import RobotSpec
from zoo_sim.resources import find_description
from zoo_sim.urdf_robot import load_description, parse_urdf, run_xacro

PKG = 'zoo_test_description'


@pytest.fixture(autouse=True)
def test_prefix(monkeypatch):
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(DATA / 'prefix'))


def test_description_found_on_the_ament_prefix_path():
    assert find_description(PKG) == DATA / 'prefix' / 'share' / PKG


def test_xacro_with_args_and_find():
    desc = load_description(PKG, {'shoulder_effort': 2.5}, robot='walker')
    assert desc.name == 'walker' and desc.root_link == 'base_link'
    shoulder = next(j for j in desc.joints if j.name == 'shoulder')
    assert (shoulder.effort, shoulder.velocity, shoulder.lower, shoulder.damping) == \
        (2.5, 4.0, -2.5, 0.01)
    assert [j.name for j in desc.actuated] == ['shoulder', 'elbow']
    assert '<material name="grey">' in desc.urdf  # the $(find ...) include was expanded


def test_failing_xacro_gives_one_error_naming_the_file():
    path = DATA / 'prefix' / 'share' / PKG / 'urdf' / 'broken.urdf.xacro'
    with pytest.raises(SimConfigError) as err:
        run_xacro(path)
    msg = str(err.value)
    assert msg.startswith(f'{path}: xacro failed:') and 'undefined_size' in msg
    assert '\n' not in msg


def test_missing_robot_file_lists_what_is_there():
    with pytest.raises(SimConfigError, match=r'no atlas\.urdf\.xacro .*found: broken'):
        load_description(PKG, robot='atlas')


def test_gazebo_contact_tags_are_parsed_and_unknown_ones_warn():
    text = urdf_text('walker.urdf', **{'<minDepth>0.001</minDepth>\n  </gazebo>\n  <gazebo '
                                       'reference="right_foot">':
                                       '<minDepth>0.001</minDepth><maxVel>0.1</maxVel>'
                                       '<selfCollide>true</selfCollide><sparkle>1</sparkle>'
                                       '</gazebo><gazebo reference="right_foot">'})
    desc = parse_urdf(text, 'walker.urdf')
    left = desc.surfaces['left_foot']
    assert (left.mu, left.mu2, left.kp, left.kd, left.min_depth, left.max_vel) == \
        (0.9, 0.9, 1e6, 100.0, 0.001, 0.1)
    assert desc.self_collide == {'left_foot'}
    assert desc.warnings == ['walker.urdf: gazebo[left_foot]/sparkle: not represented by the '
                             'MuJoCo backend; ignored']
    with pytest.raises(SimConfigError, match=r"gazebo\[ghost\]: reference 'ghost' names no link"):
        parse_urdf(text.replace('reference="left_foot"', 'reference="ghost"'), 'walker.urdf')


def test_urdf_errors_name_the_file():
    with pytest.raises(SimConfigError, match='x.urdf: not well-formed XML'):
        parse_urdf('<robot name="r"><link name="a"></robot>', 'x.urdf')
    with pytest.raises(SimConfigError, match=r'x.urdf joint j: a revolute joint needs <limit lower=... upper=...>'):
        parse_urdf('<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
                   'type="revolute"><parent link="a"/><child link="b"/></joint></robot>', 'x.urdf')
    bad_mass = urdf_text('walker.urdf', **{'<mass value="0.3"/>': '<mass value="0"/>'})
    with pytest.raises(SimConfigError, match=r"MuJoCo cannot load robot 'w': .*forearm"):
        MujocoPhysics.create(None, [RobotSpec('w', urdf=bad_mass)])


def test_ode_spring_maps_to_direct_solref():
    # kp 1e4 N/m, kd 50 N s/m on a 2 kg robot, 1 ms step: stiffness 5000 /s^2; damping
    # (50 + 1e-3 * 1e4) / 2 = 30 /s raised to critical 2 sqrt(5000) = 141.4 /s
    p = from_ode(0.8, 0.8, 1e4, 50.0, 0.002, None, 2.0, 0.001)
    assert p.solref == pytest.approx((-5000.0, -2 * math.sqrt(5000.0)))
    assert p.solimp == (DEFAULT_SOLIMP[0], DEFAULT_SOLIMP[1], 0.002, *DEFAULT_SOLIMP[3:])
    assert p.mu == 0.8 and p.notes == ()
    # heavily damped: ODE's damping kept
    assert from_ode(None, None, 1e4, 2000.0, None, None, 2.0, 0.001).solref[1] == \
        pytest.approx(-(2000 + 10) / 2)
    # too stiff for the step: clamped to 1 / (2 h)^2, with a note
    stiff = from_ode(None, None, 1e7, 1.0, None, None, 1.0, 0.001)
    assert stiff.solref[0] == pytest.approx(-250000.0) and 'clamped' in stiff.notes[0]
    # Gazebo's rigid default and a static surface keep MuJoCo's default contact
    assert from_ode(None, None, 1e12, 1.0, None, None, 5.0, 0.001).solref is None
    static = from_ode(None, None, 1e5, 1.0, None, None, None, 0.001)
    assert static.solref is None and 'static surface' in static.notes[0]
    aniso = from_ode(1.0, 0.5, None, None, None, 0.01, 1.0, 0.001)
    assert aniso.mu == 1.0 and len(aniso.notes) == 2  # mu2 and maxVel cannot be represented


def test_priorities_make_the_lower_friction_win():
    ps = [from_ode(100, 100, None, None, None, None, None, 0.001),
          from_ode(0.3, 0.3, None, None, None, None, 1.0, 0.001),
          from_ode(0.3, 0.3, 1e4, 10.0, None, None, 1.0, 0.001),
          from_ode(100, 100, None, None, None, None, None, 0.001)]
    pr = priorities(ps)
    assert pr[0] == pr[3] < pr[1] < pr[2]  # lower mu wins; at equal mu the softer one


def test_robot_geoms_get_the_mapped_contact():
    ph = MujocoPhysics.create('empty', [RobotSpec('w', urdf=urdf_text('walker.urdf'))])
    m = ph.model
    foot = m.geom(m.body_geomadr[m.body('w/left_foot').id])
    ground = m.geom('ground_plane/link/collision')
    assert foot.friction[0] == pytest.approx(0.9) and ground.friction[0] == 100
    assert foot.priority[0] > ground.priority[0]  # 0.9 < 100: the foot's parameters apply
    # 1e6 N/m over the 3.1 kg robot exceeds 1/(2h)^2 at 1 ms: clamped and reported
    assert foot.solref == pytest.approx([-250000.0, -max(1100 / 3.1, 1000.0)])
    assert any('left_foot' in w and 'clamped' in w for w in ph.warnings)
    # robot links do not collide with each other (Gazebo's default) but do with the world
    w0 = m.geom(m.body_geomadr[m.body('w/base_link').id])
    assert (w0.contype[0] & foot.conaffinity[0]) == 0 and (foot.contype[0] & w0.conaffinity[0]) == 0
    assert (foot.contype[0] & ground.conaffinity[0]) != 0


@pytest.mark.parametrize('args, message', [
    ({'variant': 'bogus'}, "arg 'variant' = 'bogus' is not one of: elastomer, plain"),
    ({'modules': 0}, "arg 'modules' = 0 is out of range: expected an int >= 2"),
    ({'colour': 'red'}, "unknown xacro arg 'colour'"),
])
def test_description_args_are_validated_before_xacro_runs(args, message):
    """Packages declaring config/xacro_args.yaml go through zoo_description_tools: one clean line
    naming the package, the arg and what is allowed (not xacro's expression dump)."""
    with pytest.raises(SimConfigError) as err:
        load_description('snake_description', args)
    text = str(err.value)
    assert text.startswith('snake_description: ') and message in text and '\n' not in text
