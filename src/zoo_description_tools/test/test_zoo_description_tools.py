"""zoo_description_tools on a toy description (conftest.py) and hand-written URDFs."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from zoo_description_tools import (DescriptionError, description_problems, find_description,
                                   inertia_problems, load_mujoco, load_pinocchio,
                                   parse_links_joints, total_mass, validate_with_sdformat,
                                   xacro_to_urdf)
from zoo_description_tools.testing import standard_checks

WS = Path(__file__).resolve().parents[3]


def link(name: str, mass: float | None, ixx=1e-3, iyy=1e-3, izz=1e-3, ixy=0.0, geometry=True,
         rpy='0 0 0') -> str:
    inertial = '' if mass is None else (
        f'<inertial><origin rpy="{rpy}"/><mass value="{mass}"/><inertia ixx="{ixx}" ixy="{ixy}" '
        f'ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/></inertial>')
    geom = '<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>' if geometry else ''
    return f'<link name="{name}">{inertial}{geom}</link>'


def joint(name: str, parent: str, child: str, kind: str = 'revolute') -> str:
    limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>' if kind != 'fixed' else ''
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
            f'<axis xyz="0 0 1"/>{limit}</joint>')


def robot(*parts: str) -> str:
    return '<?xml version="1.0"?><robot name="r">' + ''.join(parts) + '</robot>'


# --- locating packages ------------------------------------------------------------------------

def test_find_description_prefers_the_install_space(toy_prefix: Path) -> None:
    assert find_description('toy_description') == toy_prefix


def test_find_description_falls_back_to_the_source_tree(monkeypatch) -> None:
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.setenv('ROBOZOO_WS', str(WS))
    assert find_description('zoo_runtime') == WS / 'src' / 'zoo_runtime'


def test_missing_package_is_named(toy_prefix: Path) -> None:
    with pytest.raises(DescriptionError, match='nosuch_description: description package not found'):
        find_description('nosuch_description')


# --- xacro with validated arguments -------------------------------------------------------------

def test_defaults_and_arguments_reach_xacro(toy_prefix: Path) -> None:
    default = xacro_to_urdf('toy_description')
    links, joints = parse_links_joints(default)
    assert sorted(j for j in joints if j.startswith('leg')) == ['leg1_joint', 'leg2_joint']
    assert total_mass(default) == pytest.approx(1.0 + 2 * 0.25)
    big = xacro_to_urdf('toy_description', {'legs': '4', 'variant': 'heavy'})
    assert len(parse_links_joints(big)[1]) == 1 + 4
    assert total_mass(big) == pytest.approx(1.0 + 4 * 0.5)


@pytest.mark.parametrize('args, expected', [
    ({'legs': 0}, "arg 'legs' = 0 is out of range: expected an int >= 1 and <= 4"),
    ({'legs': 2.5}, "arg 'legs' = 2.5 is not an int >= 1 and <= 4"),
    ({'legs': 'two'}, "arg 'legs' = 'two' is not an int"),
    ({'variant': 'medium'}, "arg 'variant' = 'medium' is not one of: light, heavy"),
    ({'wheels': 3}, "unknown xacro arg 'wheels' \\(declared: legs, variant\\)"),
])
def test_bad_arguments_fail_with_one_line_naming_the_arg(toy_prefix, args, expected) -> None:
    with pytest.raises(DescriptionError, match=expected) as info:
        xacro_to_urdf('toy_description', args)
    message = str(info.value)
    assert message.startswith('toy_description/config/xacro_args.yaml: ')
    assert '\n' not in message


def test_the_xacro_guards_itself_when_the_yaml_does_not(toy_prefix: Path) -> None:
    # Without a declared minimum the value reaches xacro, whose own guard must stop it.
    (toy_prefix / 'config/xacro_args.yaml').write_text(
        'legs: {default: 2, type: int, doc: n}\nvariant: {default: light, type: str, doc: m}\n')
    with pytest.raises(DescriptionError, match=r'toy\.urdf\.xacro: xacro failed: arg legs must be >= 1, got -1$'):
        xacro_to_urdf('toy_description', {'legs': -1})


# --- libsdformat -----------------------------------------------------------------------------

def test_sdformat_accepts_a_valid_urdf_and_reports_a_broken_one(toy_prefix: Path) -> None:
    urdf = xacro_to_urdf('toy_description')
    validate_with_sdformat(urdf, name='toy')
    broken = urdf.replace('<child link="leg1_foot"/>', '<child link="leg9_foot"/>')
    with pytest.raises(DescriptionError, match=r'^toy\.urdf: ign sdf -k failed: .*leg9_foot.*not found'):
        validate_with_sdformat(broken, name='toy')


# --- inertia checks --------------------------------------------------------------------------

def test_valid_inertias_and_pure_frames_pass() -> None:
    text = robot(link('base_link', 1.0), '<link name="frame"/>', joint('f', 'base_link', 'frame', 'fixed'),
                 link('arm', 0.5, ixx=2e-3, iyy=3e-3, izz=4e-3, ixy=1e-4, rpy='0.3 0.2 0.1'),
                 joint('j', 'base_link', 'arm'))
    assert inertia_problems(text) == []


@pytest.mark.parametrize('bad_link, expected', [
    (link('arm', 0.5, ixx=1e-3, iyy=1e-3, izz=3e-3), 'triangle inequality'),
    (link('arm', 0.5, ixx=1e-3, iyy=-1e-3, izz=1e-3), 'not positive definite'),
    (link('arm', 0.5, ixx=1e-3, iyy=1e-3, izz=1e-3, ixy=2e-3), 'not positive definite'),
    (link('arm', 0.0), 'arm: not a pure frame'),
    (link('arm', None), 'arm: not a pure frame'),
])
def test_invalid_inertias_are_reported(bad_link: str, expected: str) -> None:
    text = robot(link('base_link', 1.0), bad_link, joint('j', 'base_link', 'arm'))
    problems = inertia_problems(text)
    assert problems and expected in problems[0]


def test_a_massless_frame_moved_by_a_joint_is_reported_unless_mass_hangs_below_it() -> None:
    moved = robot(link('base_link', 1.0), '<link name="arm"/>', joint('j', 'base_link', 'arm'))
    assert inertia_problems(moved) == ['joint j: moves link arm, which carries no mass']
    carried = robot(link('base_link', 1.0), '<link name="arm"/>', joint('j', 'base_link', 'arm'),
                    link('hand', 0.2), joint('w', 'arm', 'hand', 'fixed'))
    assert inertia_problems(carried) == []


# --- pinocchio and MuJoCo --------------------------------------------------------------------

def test_pinocchio_and_mujoco_see_the_same_robot(toy_prefix: Path) -> None:
    urdf = xacro_to_urdf('toy_description')
    model, data = load_pinocchio(urdf)
    assert (model.nq, model.nv) == (7 + 2, 6 + 2)
    assert sum(i.mass for i in model.inertias) == pytest.approx(1.5)
    fixed, _ = load_pinocchio(urdf, floating=False)
    assert fixed.nq == 2
    mj = load_mujoco(urdf)
    assert (mj.nq, mj.nv) == (7 + 2, 6 + 2)
    assert mj.body_mass.sum() == pytest.approx(1.5)


def test_mujoco_rejection_becomes_a_description_error() -> None:
    bad = robot(link('base_link', 1.0), link('arm', 0.5, ixx=1e-3, iyy=1e-3, izz=3e-3),
                joint('j', 'base_link', 'arm'))
    with pytest.raises(DescriptionError, match='^URDF: MuJoCo cannot load it: '):
        load_mujoco(bad)


# --- the contract and the standard checks ------------------------------------------------------

@pytest.mark.parametrize('variant', [{}, {'legs': 1, 'variant': 'heavy'}])
def test_standard_checks_pass_on_a_conforming_description(toy_prefix, variant) -> None:
    mass = 1.0 + (2 * 0.25 if not variant else 0.5)
    (urdf,) = standard_checks('toy_description', [variant], expected_mass=mass)
    assert math.isclose(total_mass(urdf), mass)


def test_standard_checks_fail_on_the_mass(toy_prefix: Path) -> None:
    with pytest.raises(AssertionError, match=r'total mass by URDF is 1\.5 kg, the spec says 1\.52 kg'):
        standard_checks('toy_description', [{}], expected_mass=1.52)


@pytest.mark.parametrize('rel, old, new, expected', [
    ('urdf/toy.urdf.xacro', '<minDepth>0.001</minDepth>', '', 'lacks a numeric <minDepth>'),
    ('urdf/toy.urdf.xacro', 'name="legs" default="2"', 'name="legs" default="3"',
     "arg legs defaults to '3' but config/xacro_args.yaml says '2'"),
    ('urdf/toy.urdf.xacro', 'type="revolute"', 'type="prismatic"', "type 'prismatic'"),
    ('config/pid_gains.yaml', 'd: 0.1,', 'd: 0.1, u_clamp_max: 3.0,',
     "sets ['u_clamp_max']: the output clamp is the URDF's velocity limit (3.0)"),
    ('config/pid_gains.yaml', 'd: 0.1,', 'd: 0.1, i_clamp: 1.0,',
     "keys the PID does not know: ['i_clamp']"),
    ('config/joint_groups.yaml', '[leg1_joint, leg2_joint]', '[leg1_joint]',
     "joints in no group: ['leg2_joint']"),
    ('config/initial_pose.yaml', 'leg2_joint: 0.5', 'leg2_joint: 1.5', 'outside [-1.0, 1.0]'),
])
def test_contract_violations_are_reported(toy_prefix, rel, old, new, expected) -> None:
    path = toy_prefix / rel
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    urdf = xacro_to_urdf('toy_description')
    assert any(expected in p for p in description_problems('toy_description', urdf)), \
        description_problems('toy_description', urdf)


# --- the start-up cache ------------------------------------------------------------------------

def test_xacro_output_is_cached_by_content(toy_prefix: Path, tmp_path, monkeypatch) -> None:
    """A second run is a hit (no xacro); a changed xacro file or argument is a miss."""
    monkeypatch.setenv('ROBOZOO_CACHE_DIR', str(tmp_path / 'cache'))
    first = xacro_to_urdf('toy_description')
    entries = list((tmp_path / 'cache' / 'xacro').glob('*.json'))
    assert len(entries) == 1
    import xacro
    with monkeypatch.context() as patch:
        patch.setattr(xacro, 'process_file', lambda *a, **k: pytest.fail('cache miss'))
        assert xacro_to_urdf('toy_description') == first
    assert 'leg4_joint' in xacro_to_urdf('toy_description', {'legs': 4})  # another argument
    source = toy_prefix / 'urdf' / 'toy.urdf.xacro'
    source.write_text(source.read_text().replace('name="imu_link"', 'name="imu_frame"')
                      .replace('<child link="imu_link"/>', '<child link="imu_frame"/>'))
    changed = xacro_to_urdf('toy_description')  # the edited file
    assert 'imu_frame' in changed and 'imu_link' not in changed


def test_cache_can_be_turned_off(toy_prefix: Path, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv('ROBOZOO_CACHE_DIR', 'off')
    assert 'leg1_joint' in xacro_to_urdf('toy_description')
