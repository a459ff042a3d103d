"""The simulated Robobo's IR at contact, as robobopy 1.5.0 (PyPI, unmodified) reads it (issue 27):
driven into the arena's 1 cm wall, Front-C rises and then holds the law's contact value (a real
proximity sensor saturates); it never drops to the open-floor baseline because its window went
into or through the wall (zoo_sim.ir_sensor, "Contact"). Reversing into a wall, Back-C does the
same."""
from __future__ import annotations

import time

import numpy as np
import pytest

from zoo_sim.ir_law import CONTACT_M, intensity

CONTACT = intensity(np.full(16, CONTACT_M), 0.4)   # 25042 with the thesis law


def test_contact_value_bounds_the_law():
    assert intensity(np.zeros(16), 0.4, contact=True) == pytest.approx(CONTACT)
    assert intensity(np.full(16, 0.001), 0.4) == pytest.approx(CONTACT)  # saturated
    assert intensity(np.full(16, 0.05), 0.4) < CONTACT                  # calibrated range: law


robobopy = pytest.importorskip('robobopy', reason='robobopy==1.5.0 (requirements.txt)')

from robobopy.utils.IR import IR  # noqa: E402
from zoo_bringup.robobo_served_run import ServedRun, free_robot_id  # noqa: E402
from robobo_clients import connect  # noqa: E402


def drive_and_sample(rob, sensor, speed: int, seconds: float) -> list[int]:
    rob.moveWheelsByTime(speed, speed, seconds, wait=False)
    samples, end = [], time.time() + seconds + 1.0
    while time.time() < end:
        samples.append(rob.readIRSensor(sensor))
        time.sleep(0.05)
    return samples


@pytest.mark.parametrize('pose, speed, sensor', [
    ((0.30, 0.0, 0.0), 20, IR.FrontC),          # 10 cm from the east wall's face, facing it
    ((0.15, 0.0, np.pi), -20, IR.BackC),        # backing into it
])
def test_ir_saturates_at_contact(pose, speed, sensor):
    robot_id = free_robot_id()
    with ServedRun(robot_id, pose=pose, sim_server=False):
        rob = connect(robot_id)
        try:
            samples = drive_and_sample(rob, sensor, speed, 2.0)
        finally:
            rob.disconnect()
    peak = samples.index(max(samples))
    assert samples[-1] == pytest.approx(CONTACT, abs=1), samples    # touching: saturated
    assert min(samples[peak:]) >= 0.9 * CONTACT, samples              # and it stays there
