"""Orientation and error control (spec hoap2.md §6, R5, R12-R14)."""
from __future__ import annotations

import math

import pytest

from grid_navigation.steering import (cross_track, heading_to, nodes_equal, split_turn, turn_to,
                                      wrap)


def test_node_equality():  # R5
    assert nodes_equal((2.0, 1.0), (2.0 + 5e-6, 1.0))
    assert not nodes_equal((2.0, 1.0), (2.0 + 2e-5, 1.0))


def test_heading_and_turn():  # R12
    turn = turn_to((2.0, 1.0, math.pi / 2), (1.8, 2.2))
    assert abs(turn) == pytest.approx(0.1651, abs=1e-4) and turn > 0  # toward -x: CCW
    assert math.degrees(abs(turn)) == pytest.approx(9.46, abs=0.01)
    assert heading_to((0, 0), (-1, -1e-12)) == pytest.approx(-math.pi)
    assert wrap(-math.pi) == pytest.approx(math.pi) and wrap(3 * math.pi) == pytest.approx(math.pi)


def test_turn_split():  # R13
    assert [math.degrees(a) for a in split_turn(math.radians(100))] == \
        pytest.approx([45.0, 45.0, 10.0], abs=1e-3)
    parts = split_turn(-1.0)
    assert parts == pytest.approx([-0.7854, -0.2146], abs=1e-9) and sum(parts) == \
        pytest.approx(-1.0, abs=1e-9)
    assert split_turn(0.7854) == [0.7854]
    assert split_turn(0.0) == []


def test_cross_track():  # R14
    err, lam = cross_track((2, 1), (2, 1.6), (2.012, 1.3))
    assert lam == pytest.approx(0.5) and err == pytest.approx(0.012) and err > 0.01
    assert cross_track((2, 1), (2, 1.6), (2.005, 1.3))[0] == pytest.approx(0.005)
