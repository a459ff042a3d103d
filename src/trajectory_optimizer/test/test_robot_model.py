"""Robot YAML, mass and inertia by pinocchio (R1.1), body presets and TOWR's sign convention
(R1.2), one-line errors for malformed files."""
import numpy as np
import pytest
import yaml

from trajectory_optimizer.robot_model import (RobotConfigError, find_robot_file, load_robot,
                                              towr_inertia)

EQ_5_1B = [[0.15579, -0.000426763, -0.0163273],
           [-0.000426763, 0.420183, -9.928e-5],
           [-0.0163273, -9.928e-5, 0.422203]]


@pytest.fixture(scope='module')
def go1_text():
    return find_robot_file('go1').read_text()


def test_go1_nominal_body_is_eq_5_1b_with_13_kg():
    r = load_robot('go1')
    assert r.urdf_mass == pytest.approx(13.1005, abs=1e-3)  # R1.1
    assert r.body.mass == 13.0 and r.body.preset == 'nominal'  # R1.2 default
    np.testing.assert_allclose(r.body.inertia, EQ_5_1B, atol=1e-5)
    np.testing.assert_allclose(r.nominal_stance[0], [0.19, 0.125, -0.32])
    np.testing.assert_allclose(r.max_dev, [0.16, 0.09, 0.08])
    assert r.feet == ('FL_foot', 'FR_foot', 'RL_foot', 'RR_foot')
    np.testing.assert_allclose(r.hip_pos[0], [0.1881, 0.04675, 0.0], atol=1e-9)
    np.testing.assert_allclose(r.hip_lateral, [0.08, -0.08, 0.08, -0.08], atol=1e-9)


def test_urdf_preset_keeps_the_urdf_mass():
    r = load_robot('go1', 'urdf')
    assert r.body.mass == pytest.approx(13.1005, abs=1e-3)
    np.testing.assert_allclose(r.body.inertia, EQ_5_1B, atol=1e-5)


def test_towr_negates_the_products_it_is_given():
    """single_rigid_body_dynamics.cc BuildInertiaTensor: Ixy, Ixz, Iyz appear negated."""
    m = towr_inertia(1.0, 2.0, 3.0, 0.1, 0.2, 0.3)
    np.testing.assert_array_equal(m, [[1.0, -0.1, -0.2], [-0.1, 2.0, -0.3], [-0.2, -0.3, 3.0]])


def test_thesis_faithful_is_what_the_thesis_towr_used():
    """Code 5.1 passed the q = 0 matrix entries as TOWR products: the off-diagonals flip sign."""
    r = load_robot('go1', 'thesis_faithful')
    code_5_1 = (0.1996, 0.451246, 0.409456, -0.000377827, -0.00371351, -0.00012186)
    assert r.body.mass == 13.0
    np.testing.assert_allclose(r.body.inertia, towr_inertia(*code_5_1), atol=1e-5)
    assert r.body.inertia[0, 1] > 0 and r.body.inertia[0, 2] > 0 and r.body.inertia[1, 2] > 0


@pytest.mark.parametrize('edit, field', [
    (lambda d: d.pop('max_dev'), 'max_dev: missing'),
    (lambda d: d.update(max_dev=[0.16, 0.09]), r'max_dev: expected finite numbers of shape \[3\]'),
    (lambda d: d.update(max_dev=[0.16, -0.09, 0.08]), 'max_dev: half-widths must be positive'),
    (lambda d: d.update(feet=['FL_foot', 'FR_foot', 'RL_foot', 'nose']),
     "feet: 'nose' is not a frame"),
    (lambda d: d.update(nominal_stance=[[0.19, 0.125, -0.32]]), 'nominal_stance: expected'),
    (lambda d: d['nominal_joints'].update({'*_knee_joint': 1.0}),
     r'nominal_joints.\*_knee_joint: matches no joint'),
    (lambda d: d['body'].update(preset='heavy'), "body.preset: 'heavy' is not among"),
    (lambda d: d['body']['presets']['nominal'].update(mass=-1), 'mass: expected a positive'),
    (lambda d: d.update(legs=4), 'legs: unknown field'),
    (lambda d: d['reach'].update(margin=-0.01), r'reach.margin: expected a number of m'),
    (lambda d: d['reach'].update(knee=1), 'reach.knee: unknown field'),
    (lambda d: d.pop('hips'), 'reach: needs hips'),
    (lambda d: d['urdf'].update(package='no_such_description'), 'urdf: no_such_description'),
    (lambda d: d['urdf'].update(xacro_args={'foot_mu': 9}), "urdf: .*foot_mu"),
])
def test_malformed_robot_file_is_one_line_naming_file_and_field(tmp_path, go1_text, edit, field):
    data = yaml.safe_load(go1_text)
    edit(data)
    path = tmp_path / 'robot.yaml'
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(RobotConfigError) as err:
        load_robot(str(path))
    msg = str(err.value)
    assert '\n' not in msg and msg.startswith(f'{path}: ')
    assert __import__('re').search(field, msg), msg


def test_unreadable_and_unknown_robot_files(tmp_path):
    bad = tmp_path / 'bad.yaml'
    bad.write_text('name: [unclosed')
    with pytest.raises(RobotConfigError, match=f'{bad}: not a readable YAML file'):
        load_robot(str(bad))
    with pytest.raises(RobotConfigError, match="robot 'go7' not found .*known: go1"):
        load_robot('go7')


def test_go1_leg_reach_is_the_urdf_leg_at_its_knee_limit():
    """Issue 28: thigh and calf 0.213 m, hip offset 0.08 m (go1_constants.xacro), knee limit
    -0.888 rad: the farthest a foot gets from the thigh joint is 2 x 0.213 cos(0.888 / 2); a foot
    put there by pinocchio's forward kinematics, at any hip and thigh angle, asks exactly that."""
    import pinocchio as pin
    from zoo_description_tools import load_pinocchio, xacro_to_urdf
    r = load_robot('go1')
    reach = r.reach
    assert reach.distance == pytest.approx(2 * 0.213 * np.cos(0.888 / 2), abs=1e-6)
    assert reach.lateral == pytest.approx(0.08) and reach.thigh_dx == pytest.approx(0.0)
    model = load_pinocchio(xacro_to_urdf('go1_description', {}))[0]
    data = model.createData()
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = pin.neutral(model)
        for leg in ('FL', 'FR', 'RL', 'RR'):
            for joint, value in (('hip', rng.uniform(-0.5, 0.5)), ('thigh', rng.uniform(-1, 2)),
                                 ('calf', -0.888)):
                q[model.joints[model.getJointId(f'{leg}_{joint}_joint')].idx_q] = value
        pin.framesForwardKinematics(model, data, q)
        feet = np.array([data.oMf[model.getFrameId(f)].translation for f in r.feet])
        assert reach.used(feet - reach.hip) == pytest.approx(reach.distance, abs=1e-9)
