"""coupled_wave_gait.gait_quality's recorder on the simulator, through scenarios: every physics
step sampled without changing the walk; a standing Nao is flat and never touches down."""
import numpy as np
import pytest

from coupled_wave_gait.gait_quality import measure


def _run(scenario, seconds, record, params=None, soles=False):
    from coupled_wave_gait.gait_quality import StepRecorder
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario

    run = ScenarioRun(load_scenario(scenario))
    try:
        walker = run.nodes.get('walker')
        active = (lambda: walker.state == 'walking') if walker else None
        recorder = StepRecorder(run.physics, 'nao', active=active, soles=soles)
        if record:
            recorder.install()
        run.run(seconds)
        state = run.physics.data.qpos.copy(), run.physics.data.qvel.copy(), run.physics.steps
        recorder.remove()
        return state, (recorder.recording() if record else None)
    finally:
        run.close()


def test_recorder_samples_every_physics_step_without_changing_the_walk():
    pytest.importorskip('mujoco')
    (q1, v1, steps), rec = _run('nao_wave_walk', 1.0, record=True)
    (q0, v0, steps0), _ = _run('nao_wave_walk', 1.0, record=False)
    assert np.array_equal(q1, q0) and np.array_equal(v1, v0) and steps == steps0  # bitwise
    assert rec.dt == 0.001 and rec.feet == ['l_ankle', 'r_ankle']
    assert np.allclose(np.diff(rec.t), 0.001) and rec.t[0] == 0.0  # every step walking...
    assert 0.85 * steps < rec.samples < steps                 # ...which starts after the reset
    assert rec.corners.max() <= 4 and (rec.corners[~rec.contact] == 0).all()


def test_a_standing_nao_is_flat_on_both_feet_and_never_touches_down():
    pytest.importorskip('mujoco')
    _, rec = _run('nao_stand', 1.0, record=True)
    assert rec.samples == 1000
    q = measure(rec)
    assert q.flat_fraction == {'l_ankle': 1.0, 'r_ankle': 1.0}
    assert q.touchdowns_per_s == {'l_ankle': 0.0, 'r_ankle': 0.0}
    assert max(q.median_slip_m_s.values()) < 1e-3 and q.max_velocity_ratio < 1.1


def test_sole_diagnostics_leave_the_walk_unchanged_and_see_a_standing_nao_flat():
    """``StepRecorder(..., soles=True)`` (quality ``--soles``) reads contact forces and corner
    heights without changing the walk; standing, each sole carries about half the weight with its
    centre of pressure inside the core and no corner more than hundredths of a mm up."""
    pytest.importorskip('mujoco')
    (q1, v1, _), _ = _run('nao_wave_walk', 0.5, record=True, soles=True)
    (q0, v0, _), _ = _run('nao_wave_walk', 0.5, record=False)
    assert np.array_equal(q1, q0) and np.array_equal(v1, v0)
    _, rec = _run('nao_stand', 0.5, record=True, soles=True)
    so = rec.soles
    assert so.weight_n == pytest.approx(5.195 * 9.81, rel=0.01)
    assert np.allclose(so.normal_force[-100:].sum(axis=1) / so.weight_n, 1.0, atol=0.02)
    assert so.lift[-100:].max() < 5e-5 and np.degrees(np.abs(so.tilt[-100:])).max() < 0.05
    d = measure(rec).sole_contact
    assert all(v['core']['loaded_share'] == 1.0 and v['not_flat_share'] == 0.0
               for v in d.values()), d
