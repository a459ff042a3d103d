"""Failures are statuses, never tracebacks: an unreachable goal, an exhausted budget or
iteration limit; the CLI's one-line errors (exit 2) and its output-folder rules."""
import json

import pytest

from trajectory_optimizer import load_plan
from trajectory_optimizer.cli import main
from trajectory_optimizer.planning import PlanRequest, make_plan


def test_unreachable_goal_is_a_clear_failed_status():
    plan, sol = make_plan(PlanRequest(goal=(5.0, 0.0)))
    assert not plan['success'] and not sol.success
    assert plan['status'].startswith('Goal_Out_Of_Reach: 5.000 m away')
    assert 'at most 2.754 m' in plan['status']


def test_budget_and_iteration_limits_are_statuses():
    plan, _ = make_plan(PlanRequest(budget_s=0.005))
    assert plan['status'] == 'Maximum_WallTime_Exceeded' and not plan['success']
    plan, sol = make_plan(PlanRequest(max_iter=2))
    assert plan['status'] == 'Maximum_Iterations_Exceeded' and sol.iterations == 2
    plan, _ = make_plan(PlanRequest())  # the same built problem still solves afterwards
    assert plan['status'] == 'Solve_Succeeded'


def test_a_bad_max_rise_is_one_line_naming_it():
    from trajectory_optimizer.planning import PlanRequestError
    with pytest.raises(PlanRequestError, match='max_rise nan: expected a positive, finite number'):
        make_plan(PlanRequest(max_rise=float('nan')))


def test_cli_writes_a_failed_plan_and_exits_1(tmp_path, capsys):
    out = tmp_path / 'far'
    assert main(['--goal', '5', '0', '--out', str(out)]) == 1
    err = capsys.readouterr().err
    assert 'robozoo plan: failed: Goal_Out_Of_Reach' in err and 'Traceback' not in err
    assert load_plan(out / 'plan.npz')['success'] is False
    assert json.loads((out / 'summary.json').read_text())['success'] is False


@pytest.mark.parametrize('argv, message', [
    (['--gravity', 'jupiterish'], "gravity 'jupiterish': expected earth, intermediate, mars"),
    (['--gravity', '-3'], 'gravity -3.0: expected a positive'),
    (['--duration', '0'], '--duration 0.0: expected a positive'),
    (['--max-rise', '-0.01'], '--max-rise -0.01: expected a positive'),
    (['--gait', 'C7'], "argument --gait: invalid choice: 'C7'"),
    (['--world', 'atlantis'], "world 'atlantis' not found"),
    (['--robot', 'go7'], "robot 'go7' not found"),
    (['--body', 'heavy'], "body.preset"),
    (['--goal', '1'], 'argument --goal: expected 2 arguments'),
    (['--world', 'go1_steps', '--goal', '9', '0'], 'off the heightmap'),
])
def test_cli_errors_are_one_line_exit_2(argv, message, tmp_path, capsys):
    assert main([*argv, '--out', str(tmp_path / 'o')]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith('robozoo plan: error: ') and message in err[-1], err
    assert not any('Traceback' in line for line in err)


def test_cli_malformed_robot_file_names_file_and_field(tmp_path, capsys):
    bad = tmp_path / 'robot.yaml'
    bad.write_text('name: x\nurdf: {package: go1_description}\nfeet: [FL_foot]\n')
    assert main(['--robot', str(bad), '--out', str(tmp_path / 'o')]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == f'robozoo plan: error: {bad}: nominal_stance: missing'


def test_cli_output_folder_rules(tmp_path, capsys):
    out = tmp_path / 'plan'
    assert main(['--gravity', 'mars', '--out', str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith('plan: Solve_Succeeded in ') and 'g 3.72111 m/s^2' in lines[0]
    assert lines[1] == 'checks: ' + ', '.join(f'{c} pass' for c in
                                            ('C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C9'))
    assert {p.name for p in out.iterdir()} == {
        'plan.npz', 'plan_bag', 'summary.json', 'plan_base_position.png',
        'plan_base_acceleration.png', 'plan_foot_forces.png', 'plan_contact_schedule.png'}
    summary = json.loads((out / 'summary.json').read_text())
    assert summary['gravity'] == 3.72111 and all(c['passed'] for c in summary['checks'])
    # an existing plan is refused without --overwrite, replaced with it
    assert main(['--out', str(out)]) == 2
    assert 'holds an earlier plan' in capsys.readouterr().err
    assert main(['--out', str(out), '--overwrite']) == 0
    assert load_plan(out / 'plan.npz')['gravity'] == 9.80665
    other = tmp_path / 'other'
    other.mkdir()
    (other / 'notes.txt').write_text('mine')
    assert main(['--out', str(other)]) == 2
    assert 'not empty (holds notes.txt)' in capsys.readouterr().err
    assert main(['--out', str(other / 'notes.txt')]) == 2
