"""Plan files (R3.6): NPZ round trip, validation with one-line errors, sampling at time t for a
tracker; the plan bag (topics, values, gravity arrow proportional to g, R3.7); plots."""
import numpy as np
import pytest

from trajectory_optimizer import load_plan, save_plan
from trajectory_optimizer.plan_bag import GRAVITY_ARROW_M_PER_MS2, write_plan_bag
from trajectory_optimizer.plan_file import PlanFileError
from trajectory_optimizer.planning import PlanRequest, make_plan
from trajectory_optimizer.plots import PLOTS, compare_plans, write_plots


@pytest.fixture(scope='module')
def plan():
    return make_plan(PlanRequest(gravity='mars', dt=0.002))[0]


def test_npz_round_trip_is_identical(plan, tmp_path):
    path = save_plan(tmp_path / 'plan.npz', plan)
    back = load_plan(path)
    assert set(back) == set(plan)
    for k, v in plan.items():
        if isinstance(v, np.ndarray):
            np.testing.assert_array_equal(back[k], v, err_msg=k)
        else:
            assert back[k] == v, k
    assert back['status'] == 'Solve_Succeeded' and back.success
    assert len(back['t']) == 1601 and back['t'][1] == pytest.approx(0.002)


def test_sampling_at_time_t(plan):
    s = plan.at(0.0)
    np.testing.assert_allclose(s.base_pos, [0.0, 0.0, 0.32], atol=1e-12)
    np.testing.assert_allclose(s.base_quat, [1, 0, 0, 0], atol=1e-12)
    assert s.contact.all() and s.foot_pos.shape == (4, 3) and s.foot_force.shape == (4, 3)
    mid = plan.at(0.5)  # RF and LH swing from 0.3 to 0.625 s
    assert list(mid.contact) == [True, False, False, True]
    np.testing.assert_allclose(mid.foot_force[[1, 2]], 0.0, atol=1e-12)
    i = int(np.searchsorted(plan['t'], 1.0))
    np.testing.assert_allclose(plan.at(1.0).base_pos, plan['base_pos'][i])
    between = plan.at(1.001)
    assert np.all(np.abs(between.base_pos - plan['base_pos'][i]) < 1e-3)
    np.testing.assert_allclose(plan.at(99.0).base_pos, plan['base_pos'][-1])  # clamped


@pytest.mark.parametrize('damage, message', [
    (lambda d: d.pop('foot_force'), "missing field 'foot_force'"),
    (lambda d: d.update(format='other'), "not a robozoo-plan-1 plan"),
    (lambda d: d.update(base_pos=d['base_pos'][:, :2]), "field 'base_pos' has shape"),
    (lambda d: d.update(t=d['t'][::-1]), "field 't' must be at least 2 increasing times"),
    (lambda d: d.update(gravity=np.array([1.0, 2.0])), "field 'gravity' must be a scalar"),
])
def test_bad_plan_files_are_one_line(plan, tmp_path, damage, message):
    data = {k: np.asarray(v) for k, v in plan.items()}
    damage(data)
    path = tmp_path / 'bad.npz'
    np.savez(path, **data)
    with pytest.raises(PlanFileError) as err:
        load_plan(path)
    assert message in str(err.value) and '\n' not in str(err.value)
    assert str(err.value).startswith(str(path))


def test_not_a_plan_file(tmp_path):
    junk = tmp_path / 'junk.npz'
    junk.write_text('hello')
    with pytest.raises(PlanFileError, match='not a plan file'):
        load_plan(junk)
    with pytest.raises(PlanFileError, match='no such plan file'):
        load_plan(tmp_path / 'none.npz')


def test_plan_bag_holds_the_plan(plan, tmp_path):
    from zoo_runtime.bag import read_bag
    write_plan_bag(tmp_path / 'bag', plan, marker_dt=0.1)
    tables = read_bag(tmp_path / 'bag')
    n = len(plan['t'])
    pose = tables['/plan/base/pose']
    assert len(pose.t) == n and pose.type_name == 'geometry_msgs/msg/PoseStamped'
    np.testing.assert_allclose(pose.t, plan['t'], atol=1e-9)
    np.testing.assert_array_equal(pose['pose.position.x'], plan['base_pos'][:, 0])
    np.testing.assert_array_equal(tables['/plan/foot/RR/force']['vector.z'],
                                  plan['foot_force'][:, 3, 2])
    np.testing.assert_array_equal(tables['/plan/foot/FR/contact']['data'], plan['contact'][:, 1])
    np.testing.assert_array_equal(tables['/plan/base/accel']['accel.angular.y'],
                                  plan['base_ang_acc'][:, 1])
    markers = tables['/plan/markers'].msgs
    assert len(markers) == 33
    arrow = [m for m in markers[0].markers if m.ns == 'gravity'][0]
    length = arrow.points[0].z - arrow.points[1].z
    assert length == pytest.approx(GRAVITY_ARROW_M_PER_MS2 * 3.72111)  # R3.7: same g as the plan
    assert {m.ns for m in markers[0].markers} == {'base', 'feet', 'forces', 'range_of_motion',
                                                  'gravity'}


def test_plots(plan, tmp_path):
    paths = write_plots(plan, tmp_path)
    assert [p.name for p in paths] == [f'plan_{n}.png' for n in PLOTS]
    assert all(p.stat().st_size > 10_000 for p in paths)
    paths = compare_plans([plan, plan], ['a', 'b'], tmp_path)
    assert all(p.is_file() for p in paths)
