"""The CMA-ES (pycma) on textbook functions, its exact replay, and the generic oscillator bank."""
import math

import numpy as np
import pytest

from coupled_wave_gait.oscillator_bank import Coupling, Oscillator, OscillatorBank
from coupled_wave_gait.search.cmaes import CMAES
from coupled_wave_gait.waves import SHAPES


def minimise(f, x0, sigma, seed, generations):
    es = CMAES(np.asarray(x0, float), sigma, seed)
    for _ in range(generations):
        x = es.ask()
        es.tell([f(xi) for xi in x])
    return es


def test_cma_es_solves_an_ill_conditioned_ellipsoid_and_rosenbrock():
    ellipsoid = lambda x: sum(10 ** (6 * i / 9) * v * v for i, v in enumerate(x))  # noqa: E731
    es = minimise(ellipsoid, np.ones(10), 0.5, seed=1, generations=600)
    assert ellipsoid(es.mean) < 1e-8
    rosen = lambda x: sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)  # noqa: E731
    es = minimise(rosen, np.zeros(6), 0.3, seed=2, generations=800)
    np.testing.assert_allclose(es.mean, 1.0, atol=1e-3)


def test_cma_es_is_reproducible_and_checks_its_input():
    a = minimise(lambda x: float(x @ x), np.ones(4), 1.0, seed=5, generations=20)
    b = minimise(lambda x: float(x @ x), np.ones(4), 1.0, seed=5, generations=20)
    np.testing.assert_array_equal(a.mean, b.mean)
    assert a.lam == 4 + int(3 * math.log(4))
    with pytest.raises(RuntimeError, match='without a preceding ask'):
        a.tell(np.zeros(a.lam))
    a.ask()
    with pytest.raises(ValueError, match='finite objective values'):
        a.tell([0.0])


def test_replaying_the_tells_reproduces_the_candidates_bitwise(tmp_path, monkeypatch):
    """What a resumed search does: a fresh CMAES with the same seed, re-told the journaled values
    in order, asks exactly the same points; the global numpy generator (which an in-process
    scenario run reseeds) plays no part, and pycma writes no files."""
    monkeypatch.chdir(tmp_path)
    f = lambda x: float(np.sum((x - 0.3) ** 2))  # noqa: E731
    bounds = ([0.0] * 5, [1.0] * 5)
    first = CMAES(np.full(5, 0.5), 0.3, seed=7, bounds=bounds)
    asked, told = [], []
    for _ in range(6):
        np.random.seed(123)  # disturbs only the global generator
        x = first.ask()
        asked.append(x)
        told.append([f(xi) for xi in x])
        first.tell(told[-1])
    after = first.ask()
    again = CMAES(np.full(5, 0.5), 0.3, seed=7, bounds=bounds)
    for x, values in zip(asked, told):
        assert again.ask().tobytes() == x.tobytes()
        again.tell(values)
    assert again.ask().tobytes() == after.tobytes()
    assert np.all(after >= 0.0) and np.all(after <= 1.0)
    assert CMAES(np.full(5, 0.5), 0.3, seed=8).ask().tobytes() != asked[0].tobytes()
    assert list(tmp_path.iterdir()) == []  # no outcmaes/


def test_bank_per_joint_periods_couplings_and_errors():
    sine = SHAPES['sine']
    bank = OscillatorBank(
        [Oscillator('a', sine, 2.0, 1.0, 0.0, 1.0), Oscillator('b', sine, 1.0, 0.0, 0.0, 0.5)],
        [Coupling('c', 'a', phase_shift=math.pi, gain=-1.0, offset_shift=3.0)])
    t = np.array([0.125, 0.25, 0.6])
    v = bank.values(t)
    np.testing.assert_allclose(v[:, 0], 2 * np.sin(2 * np.pi * t) + 1)
    np.testing.assert_allclose(v[:, 1], np.sin(2 * np.pi * t / 0.5))  # its own period
    np.testing.assert_allclose(v[:, 2], -(2 * np.sin(2 * np.pi * t + np.pi) + 1) + 3)
    assert bank.joints == ('a', 'b', 'c')
    with pytest.raises(ValueError, match="leader 'z' is not a primary"):
        OscillatorBank([Oscillator('a', sine, 1, 0, 0, 1)], [Coupling('c', 'z')])
    with pytest.raises(ValueError, match='defined twice: a'):
        OscillatorBank([Oscillator('a', sine, 1, 0, 0, 1)], [Coupling('a', 'a')])
    with pytest.raises(ValueError, match="oscillator 'a': period"):
        Oscillator('a', sine, 1, 0, 0, 0.0)
