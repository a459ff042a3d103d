"""The user's path: a scenario (default `nao_wave_walk`: simulator + joint PID + Walker, 6 s of sim
time) on the embedded lockstep executor, without and with recording, side by side in one run with
bare `mj_step` of the same MuJoCo model and options driven by the same motor commands: the
velocities the scenario's motor rows impose in each step call (the targets with the slip
correction and stop caps) and the actuators' controls (PD targets and feed-forward torques, for a
scenario that sends PD commands, with the gains and row bounds whenever they change) are captured
once and replayed straight into MuJoCo (with the same warm start), so the bare loop makes the same
motion and meets the same contacts and solver work. (Replaying the commanded targets alone, as
before, drove a different motion whose cost depended on how often the targets changed.)

    python benchmarks/bench_scenario.py [--cpu-time] [--python-only] [--scenario nao_walk]

``--python-only`` also runs the scenario with ``mujoco.mj_step`` replaced by a no-op (the robot
does not move, the nodes' Python paths run): the cost of the nodes and the recorder per step,
best of 3, which varies much less than the difference of two timed runs with physics.

Prints a table, then one JSON line: {"bench": "scenario", "bare_us_per_step": ...,
"scenario_us_per_step": ..., "ratio": ..., "recorded_us_per_step": ..., "recorded_ratio": ...}
Targets (issue 9, for nao_wave_walk): ratio <= 1.5, recorded_ratio <= 1.7.
"""
from __future__ import annotations

import json
import sys
import tempfile
import time

import mujoco
import numpy as np

SCENARIO = 'nao_wave_walk'
# what a mode switch (velocity rows <-> PD actuators) changes in the model (joint_motors.py)
MODEL_ARRAYS = ('tendon_frictionloss', 'actuator_gainprm', 'actuator_biasprm')
SIM_SECONDS = 6.0
REPEATS = 3
# wall time; `--cpu-time`: the thread's CPU time, which a shared machine's other processes do
# not inflate by preempting this one (they still share its caches and cores)
CLOCK = time.perf_counter


def run_scenario(record: bool, capture: list | None = None) -> tuple[float, int]:
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario

    with tempfile.TemporaryDirectory() as out:
        run = ScenarioRun(load_scenario(SCENARIO), record=record, output=out)
        physics = run.nodes['sim'].physics
        if capture is not None:  # what each step call imposes: (steps, the velocities the
            inner = physics._motor_steps  # motors' rows impose, per robot: targets with the
            #                               slip correction and stop caps, the motion itself)

            m, d = physics.model, physics.data
            seen = {}

            def motor_steps(n, last):
                inner(n, last)
                changed = {}
                for name in MODEL_ARRAYS:
                    value = getattr(m, name)
                    if name not in seen or not np.array_equal(seen[name], value):
                        seen[name] = changed[name] = value.copy()
                capture.append((n, [mo.imposed.copy() for mo in physics._motors], d.ctrl.copy(),
                                changed))
            physics._motor_steps = motor_steps
        t0 = CLOCK()
        run.run(SIM_SECONDS)
        wall = CLOCK() - t0
        steps = physics.steps
        run.close()
    return wall, steps


def run_bare(calls: list) -> tuple[float, int]:
    """The same model, the captured velocities written into the motors' rows per call."""
    from zoo_scenario.runner import ScenarioRun
    from zoo_scenario.scenario import load_scenario

    run = ScenarioRun(load_scenario(SCENARIO))
    physics = run.nodes['sim'].physics
    m, d = physics.model, physics.data
    motors = physics._motors
    run.close()
    h = m.opt.timestep
    driver = physics._driver_dof
    imposed = [np.zeros(len(mo.target)) for mo in motors]
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_SENSOR  # nothing here reads them
    steps = 0
    t0 = CLOCK()
    for n, targets, ctrl, changed in calls:
        for name, value in changed.items():
            getattr(m, name)[:] = value
        d.ctrl[:] = ctrl
        d.qvel[driver] = 1.0
        for k, (mo, target) in enumerate(zip(motors, targets)):
            m.wrap_prm[mo.driver_coef] = -target
            d.qacc_warmstart[mo.dadr] += (target - imposed[k]) / h
        mujoco.mj_step(m, d)
        for k, (mo, target) in enumerate(zip(motors, targets)):
            d.qacc_warmstart[mo.dadr] -= (target - imposed[k]) / h
            imposed[k] = target
        if n > 1:
            mujoco.mj_step(m, d, nstep=n - 1)
        steps += n
    return CLOCK() - t0, steps


def main() -> None:
    global CLOCK, SCENARIO
    if '--cpu-time' in sys.argv[1:]:
        CLOCK = time.thread_time
    if '--scenario' in sys.argv[1:]:
        SCENARIO = sys.argv[sys.argv.index('--scenario') + 1]
    calls: list = []
    run_scenario(False, calls)  # warm-up (imports, caches) and the command capture
    plain, recorded, bare = [], [], []
    for _ in range(REPEATS):  # interleaved, best of each: the machine may be shared
        plain.append(run_scenario(False))
        recorded.append(run_scenario(True))
        bare.append(run_bare(calls))
    us = {name: min(w / s for w, s in runs) * 1e6
          for name, runs in (('plain', plain), ('recorded', recorded), ('bare', bare))}
    result = {'bench': 'scenario', 'clock': 'cpu' if CLOCK is time.thread_time else 'wall',
              'bare_us_per_step': round(us['bare'], 2),
              'scenario_us_per_step': round(us['plain'], 2),
              'ratio': round(us['plain'] / us['bare'], 3),
              'recorded_us_per_step': round(us['recorded'], 2),
              'recorded_ratio': round(us['recorded'] / us['bare'], 3)}
    print(f'scenario {SCENARIO}: {SIM_SECONDS:g} s sim, best of {REPEATS}')
    print(f'  {"":36s}{"us/step":>10s}{"real-time factor":>18s}{"ratio":>8s}')
    for label, key in (('bare mj_step, same commands', 'bare'),
                       (f'robozoo run {SCENARIO}', 'plain'),
                       ('robozoo run --record', 'recorded')):
        print(f'  {label:36s}{us[key]:10.1f}{1000 / us[key]:18.1f}{us[key] / us["bare"]:8.2f}')
    print('  targets (issue 9, nao_wave_walk): ratio <= 1.5, recorded <= 1.7')
    if '--python-only' in sys.argv[1:]:
        step = mujoco.mj_step
        mujoco.mj_step = lambda m, d, nstep=1: None
        try:
            for key, record in (('python_only_us_per_step', False),
                                ('python_only_recorded_us_per_step', True)):
                result[key] = round(min(w / s for w, s in (run_scenario(record)
                                                           for _ in range(REPEATS))) * 1e6, 2)
        finally:
            mujoco.mj_step = step
        print(f"  the nodes' Python alone (mj_step a no-op): {result['python_only_us_per_step']:.1f}"
              f" us/step, recorded {result['python_only_recorded_us_per_step']:.1f}")
    print(json.dumps(result))


if __name__ == '__main__':
    main()
