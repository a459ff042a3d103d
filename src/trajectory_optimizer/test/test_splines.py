"""Cubic Hermite node splines (TOWR's polynomial.cc) and the phase-based layouts."""
import numpy as np
import pytest

from trajectory_optimizer import splines


def test_hermite_reproduces_a_cubic_and_its_derivatives():
    T, p = 0.3, np.poly1d([2.0, -1.0, 0.5, 0.2])  # 2 s^3 - s^2 + 0.5 s + 0.2
    nodes = (p(0.0), p.deriv()(0.0), p(T), p.deriv()(T))
    for s in (0.0, 0.07, 0.15, 0.3):
        for d, ref in enumerate((p, p.deriv(), p.deriv(2))):
            w = splines.hermite_weights(s, T, d)
            assert np.dot(w, nodes) == pytest.approx(ref(s), abs=1e-12)


def test_base_polynomials_and_constraint_times():
    assert splines.base_poly_durations(3.2, 0.1) == pytest.approx([0.1] * 32)
    assert splines.base_poly_durations(0.25, 0.1) == pytest.approx([0.1, 0.1, 0.05])
    np.testing.assert_allclose(splines.discretization(3.2, 0.1), np.arange(33) * 0.1)
    assert len(splines.discretization(3.2, 0.08)) == 41
    np.testing.assert_allclose(splines.discretization(0.25, 0.1), [0, 0.1, 0.2, 0.25])


def test_junctions_belong_to_the_earlier_polynomial():
    idx, s = splines.locate(np.array([0.0, 0.1, 0.15, 0.3]), [0.1, 0.2])
    np.testing.assert_array_equal(idx, [0, 0, 1, 1])
    np.testing.assert_allclose(s, [0.0, 0.1, 0.05, 0.2])


def test_phase_based_layout_of_a_foot():
    """stance | swing (2 polys) | stance for motion; the reverse pattern for force."""
    motion = splines.phase_polys(3, True, 2)
    assert [p.constant for p in motion] == [True, False, False, True]
    assert [splines.constant_node(motion, k) for k in range(5)] == [True, True, False, True,
                                                                    True]
    force = splines.phase_polys(3, False, 3)
    assert [p.constant for p in force] == [False] * 3 + [True] + [False] * 3
    assert splines.poly_durations(force, [0.3, 0.2, 0.6]) == pytest.approx(
        [0.1] * 3 + [0.2] + [0.2] * 3)
