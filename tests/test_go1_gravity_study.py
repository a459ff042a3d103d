"""`robozoo gravity-study` (spec go1.md §6, §13.4 C1-C10, R5.5, R7.1): one study of the three
gravities into a tmp folder; every number of its table is recomputed here from the plan files, the bags'
summaries and the plan checks, and every trend sentence is checked against its numbers."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from zoo_experiments import gravity_study
from trajectory_optimizer.checks import leg_reach_used, run_checks
from trajectory_optimizer.plan_file import load_plan
from trajectory_optimizer.robot_model import load_robot
from trajectory_optimizer.stance_metrics import BOUNDS
from trajectory_optimizer.study_metrics import num

GRAVITIES = ['earth', 'intermediate', 'mars']


@pytest.fixture(scope='module')
def study(tmp_path_factory) -> tuple[Path, dict, str]:
    out = tmp_path_factory.mktemp('study') / 'gs'
    code = gravity_study.main(['--output', str(out), '--gravities', 'mars', 'earth',
                                'intermediate'])
    assert code == 0
    return out, json.loads((out / 'study.json').read_text()), (out / 'report.md').read_text()


def _row(report: str, label: str) -> list[str]:
    """The cells of the report table row whose first cell is ``label``."""
    for line in report.splitlines():
        cells = [c.strip().replace('\\|', '|') for c in re.split(r'(?<!\\)\|', line)[1:-1]]
        if cells and cells[0] == label:
            return cells[1:]
    raise AssertionError(f'no row {label!r} in report.md')


def test_outputs_exist(study):
    out, s, report = study
    assert [g['name'] for g in s['gravities']] == GRAVITIES  # ordered by decreasing g
    for g in GRAVITIES:
        assert (out / g / 'plan.npz').is_file() and (out / g / 'bag').is_dir()
        assert json.loads((out / g / 'summary.json').read_text())['scenario'] == f'go1_trot_{g}'
    figures = [f for group in s['figures'].values() for f in group]
    names = {Path(f).name for f in s['figures']['earth']}
    assert {'plan_base_position.png', 'plan_base_acceleration.png', 'plan_foot_forces.png',
            'plan_joint_angles.png', 'track_base_acceleration.png', 'track_joint_torques.png',
            'track_joint_angles.png'} <= names  # R7.1's planning and tracking set
    assert {'compare_plan_foot_forces.png', 'compare_track_joint_torques.png'} <= {
        Path(f).name for f in s['figures']['compare']}
    for f in figures:
        assert (out / f).read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
        assert f'({f})' in report  # linked from the report
    assert (out / 'real_robot' / 'plan.npz').is_file()


def test_plan_numbers_come_from_the_plan_files(study):
    out, s, report = study
    for g in GRAVITIES:
        plan, m = load_plan(out / g / 'plan.npz'), s['plans'][g]
        for got, check in zip(m['checks'], run_checks(plan)):
            assert (got['name'], got['passed']) == (check.name, check.passed)
            assert got['value'] == pytest.approx(check.value, rel=1e-12, abs=1e-15)
        fz = plan['foot_force'][..., 2].sum(axis=1)
        impulse = float(np.trapezoid(fz, plan['t']))
        mgT = plan['mass'] * plan['gravity'] * plan['duration']
        assert m['impulse_Ns'] == pytest.approx(impulse, rel=1e-12)
        assert m['impulse_Ns'] / m['mgT_Ns'] == pytest.approx(m['checks'][5]['value'], rel=1e-12)
        assert m['mgT_Ns'] == pytest.approx(mgT, rel=1e-12)
        assert m['peak_sum_fz_N'] == pytest.approx(fz.max(), rel=1e-12)
        assert m['peak_lin_acc'] == pytest.approx(
            np.linalg.norm(plan['base_lin_acc'], axis=1).max(), rel=1e-12)
        assert m['peak_ang_acc'] == pytest.approx(
            np.linalg.norm(plan['base_ang_acc'], axis=1).max(), rel=1e-12)
        assert m['base_z_ptp_m'] == pytest.approx(np.ptp(plan['base_pos'][:, 2]), rel=1e-12)
    names = [g['name'] for g in s['gravities']]
    for label, key in (('peak Σf_z (N)', 'peak_sum_fz_N'), ('Σ∫f_z dt (N s)', 'impulse_Ns'),
                       ('peak-to-peak base z (m)', 'base_z_ptp_m'),
                       ('peak ‖base angular acc‖ (rad/s²)', 'peak_ang_acc')):
        assert _row(report, label) == [num(s['plans'][n][key]) for n in names]
    earth, mars = (load_plan(out / g / 'plan.npz') for g in ('earth', 'mars'))
    assert [d['pair'] for d in s['differences']] == [
        ['earth', 'intermediate'], ['earth', 'mars'], ['intermediate', 'mars']]
    diff = s['differences'][1]
    assert diff['base_x_rms_m'] == pytest.approx(
        np.sqrt(np.mean((earth['base_pos'][:, 0] - mars['base_pos'][:, 0]) ** 2)), rel=1e-9)
    assert _row(report, 'RMS Δ base x (m)') == [num(d['base_x_rms_m']) for d in s['differences']]


def test_planned_joint_angles_are_what_the_tracker_uses(study):
    """C8's joint angles are the plan through the tracker's IK: its commands during the plan are
    those angles, unless the tracker adds base feedback (then it reports so)."""
    _, s, _ = study
    for g in GRAVITIES:
        t = s['tracking'][g]
        if not t['base_feedback']:
            assert t['cmd_vs_plan_max_rad'] < 1e-9


def test_real_robot_preset(study):
    out, s, report = study
    plan, r = load_plan(out / 'real_robot' / 'plan.npz'), s['real_robot']
    assert plan['duration'] == 4.0 and list(plan['goal']) == [0.8, 0.0]
    np.testing.assert_allclose(plan['max_dev'], [0.09, 0.09, 0.08])
    height = plan['foot_pos'][..., 2] - plan['foot_terrain_height']
    assert r['max_swing_height_m'] == pytest.approx(height[~plan['contact']].max(), rel=1e-12)
    assert r['status'] == plan['status'] and f"{num(r['max_swing_height_m'])} m" in report


def test_tracking_numbers_come_from_the_summaries(study):
    out, s, report = study
    for g in GRAVITIES:
        summary = json.loads((out / g / 'summary.json').read_text())
        tracker, t = summary['metrics']['plan_tracker'], s['tracking'][g]
        # R5.5 per joint, recomputed from the bag: its worst and max are the tracker's own
        assert t['worst_joint_rms_rad'] == pytest.approx(tracker['joint_rms_error_rad'], rel=1e-9)
        assert max(t['joint_rms_error_rad'].values()) == t['worst_joint_rms_rad']
        assert t['max_error_rad'] == pytest.approx(tracker['joint_max_error_rad'], rel=1e-9)
        assert t['ticks'] == tracker['tracked_samples']
        assert t['distance_to_goal_m'] == tracker['distance_to_goal_m']
        assert t['fell'] == summary['robots']['go1']['fell']
        assert t['sim_gravity'] == -summary['metrics']['sim']['gravity'][2]
        assert t['sim_gravity'] == pytest.approx(load_plan(out / g / 'plan.npz')['gravity'])  # R5.1
        assert t['imu_rate_hz'] == pytest.approx(500.0, rel=1e-6)
    names = [g['name'] for g in s['gravities']]
    assert [c.split(' (')[0] for c in _row(report, 'worst joint RMS error (rad)')] == [
        num(s['tracking'][n]['worst_joint_rms_rad']) for n in names]


def test_trend_sentences_follow_the_numbers(study):
    _, s, report = study
    assert len(s['trends']) >= 10
    for tr in s['trends']:
        key = tr['key'].removeprefix('tracked.')
        source = s['tracking'] if tr['key'].startswith('tracked.') else s['plans']
        for g, v in tr['values'].items():
            m = source[g]
            for part in key.split('.'):
                m = m[part]
            assert v == m  # the sentence's numbers are the table's
            assert f'{num(v)} ' in tr['sentence']
        steps = np.diff(list(tr['values'].values()))
        expected = ('falls' if np.all(steps < 0) else 'rises' if np.all(steps > 0)
                    else 'stays the same' if np.all(steps == 0)
                    else 'does not change monotonically')
        assert tr['direction'] == expected and f" {expected} from " in tr['sentence']
        assert f"- {tr['sentence']}" in report
    for v in s['track_vs_plan']:
        p, t = s['plans'][v['gravity']], s['tracking'][v['gravity']]
        above = (t['peak_lin_acc'] > p['peak_lin_acc'], t['rms_lin_acc'] > p['rms_lin_acc'])
        word = 'exceeds' if all(above) else 'stays below' if not any(above) else 'is mixed'
        assert v['linear'].startswith(word)
        assert f"tracked linear acceleration {v['linear']}" in v['sentence']


def test_force_trend_is_stated(study):
    """The headline of spec §6.2: planned forces fall with g, at about the ratio of the g's."""
    _, s, _ = study
    force = next(t for t in s['trends'] if t['key'] == 'impulse_Ns')
    assert force['direction'] == 'falls'
    assert force['ratio'] == pytest.approx(force['g_ratio'], rel=0.03)  # C6: ∫f_z = m g T ± 2 %


def test_bad_input_is_one_line(study, tmp_path, capsys):
    out, _, _ = study
    from zoo_bringup.cli import main as robozoo
    assert robozoo(['gravity-study', '--gravities', 'pluto']) == 2
    assert robozoo(['gravity-study', '--output', str(out)]) == 2  # an earlier study
    (tmp_path / 'file').write_text('x')
    assert gravity_study.main(['--output', str(tmp_path / 'file')]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith('robozoo gravity-study: error: ') for line in err)
    assert 'holds an earlier study' in err[1] and '--overwrite' in err[1]


def test_overwrite_removes_only_the_study(tmp_path):
    out = tmp_path / 'gs'
    (out / 'figures' / 'earth').mkdir(parents=True)
    (out / 'figures' / 'earth' / 'plan_base_position.png').write_bytes(b'png')
    (out / 'report.md').write_text('old')
    (out / 'earth').mkdir()
    (out / 'earth' / 'summary.json').write_text('{"files": ["plan.npz"]}')
    (out / 'earth' / 'plan.npz').write_bytes(b'npz')
    (out / 'notes.txt').write_text('mine')
    with pytest.raises(gravity_study.StudyError, match='earlier study'):
        gravity_study.prepare_study(out, overwrite=False)
    assert gravity_study.prepare_study(out, overwrite=True) == out
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob('*')) == ['earth', 'notes.txt']


# Issue 28's planted feet, measured at every physics step (contacts at 2000 Hz): the worst stance
# per gravity today (contact %, breaks, peak f_z ratio, slip cm). A bound a gravity does not meet
# goes in MISSED_TODAY as a strict xfail; since the feet's surface layer, landed_within 1 mm and
# the stance kd of the go1_trot scenarios (trajectory_optimizer README) every bound holds.
PLANTED_TODAY = {'earth': (98.33, 1, 1.167, 0.2478), 'intermediate': (98.31, 1, 1.15, 0.133),
                 'mars': (98.31, 1, 1.299, 0.09451)}
MISSED_TODAY: set[tuple[str, str]] = set()


def _planted_case(g: str, bound: str):
    if (g, bound) not in MISSED_TODAY:
        return pytest.param(g, bound, id=f'{g}-{bound}')
    c, b, r, sl = PLANTED_TODAY[g]
    return pytest.param(g, bound, id=f'{g}-{bound}', marks=pytest.mark.xfail(
        strict=True, reason=f'worst stance: contact {c} %, {b} breaks, f_z {r}x the plan, slip '
                            f'{sl} cm (issue 28)'))


@pytest.mark.parametrize('g,bound', [_planted_case(g, b) for g in GRAVITIES for b in BOUNDS])
def test_planted_feet_keep_the_plans_stances(study, g, bound):
    """Issue 28: stance contact >= 98 % of the planned stance, <= 2 contact breaks per stance,
    peak vertical force (10 ms mean) <= 1.5x the plan's, slip < 1 cm per stance."""
    w = study[1]['tracking'][g]['stance']
    assert w['holds'][bound], w


def test_planted_stance_keeps_earths_feet_planted(tmp_path):
    """Issue 28, the tracker's planted_stance option (trajectory_optimizer README, "Gravity
    study"): landed feet held where they landed and swings meeting the ground on time keep
    every stance of the Earth run within the issue's four bounds (contact 98.16 %) with the
    stance kd it was built with (half); the joints leave the plan's angles for it (R5.5 0.057
    rad), so the scenarios keep it off."""
    out = tmp_path / 'gs'
    assert gravity_study.main(['--output', str(out), '--gravities', 'earth', '--set',
                               'plan_tracker.planted_stance=true', '--set',
                               'plan_tracker.landing_depth=0.005', '--set',
                               'plan_tracker.stance_kd_scale=0.5']) == 0
    w = json.loads((out / 'study.json').read_text())['tracking']['earth']['stance']
    assert all(w['holds'].values()), w
    assert w['contact'] > 0.981, w


def test_leg_reach_numbers_come_from_the_plans(study):
    out, s, report = study
    reach = load_robot('go1').reach
    for g in GRAVITIES:
        used = leg_reach_used(load_plan(out / g / 'plan.npz'), reach)
        r = s['plans'][g]['leg_reach']
        assert r['used_m'] == pytest.approx(used.max(), rel=1e-12)
        assert r['within'] == bool(np.all(used <= reach.distance - reach.margin))
    names = [g['name'] for g in s['gravities']]
    assert [c.split(' (')[0] for c in _row(report, 'leg reach asked / reach - margin (m)')] == [
        num(s['plans'][n]['leg_reach']['used_m']) for n in names]


# Issue 28: the planned feet the legs reach. The go1_trot scenarios plan with the base at most
# 3 cm above its start (max_rise): the plans ask up to 0.3543 / 0.3545 / 0.3622 m of a 0.3847 m
# leg, margin 0.01 (with TOWR's 0.1 m: 0.3825 / 0.3876 / 0.3867 m, and the tracker's IK missed
# the feet by up to 6.7 mm).
@pytest.mark.parametrize('g', GRAVITIES)
def test_every_planned_foot_is_within_reach_with_margin(study, g):
    s = study[1]
    assert s['plans'][g]['leg_reach']['within'], s['plans'][g]['leg_reach']
    assert s['tracking'][g]['ik_error_m'] < 1e-3


# The thesis' invariance (spec go1.md §6.2; issue 28 asks it of the plans): Mars' thigh and calf
# ranges no larger than Earth's. Planned today (mean of the four legs, rad): thigh 1.028 / 1.062,
# calf 0.6762 / 0.692 (Earth / Mars); with TOWR's 0.1 m rise the calf held (0.9376 / 0.8852) and
# the thigh did not (1.056 / 1.09).
@pytest.mark.parametrize('kind', [pytest.param(k, marks=pytest.mark.xfail(
    strict=True, reason=f'Mars {k} range above Earth\'s (issue 28)')) for k in ('thigh', 'calf')])
def test_mars_joint_ranges_are_no_larger_than_earths(study, kind):
    plans = study[1]['plans']
    assert plans['mars'][f'{kind}_range_rad'] <= plans['earth'][f'{kind}_range_rad']
