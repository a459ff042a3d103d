"""The one-sample path the gait player plays at every control tick (``OscillatorBank.value_list``,
``NaoWaveWalk.continuous_list``) against the vectorised path it replaces: the same numbers to the last
bit (compared as bytes, so even the sign of a zero counts), because the shipped walk's figures and
the determinism tests depend on the exact commands."""
import math

import numpy as np
import pytest

from coupled_wave_gait import nao_wave_walk as nw
from coupled_wave_gait import player_plugin
from coupled_wave_gait.nao_wave_walk import EARLIER, LATER, NaoWaveWalk, WalkParams
from coupled_wave_gait.oscillator_bank import Coupling, Oscillator, OscillatorBank
from coupled_wave_gait.waves import SHAPES, WaveShape

SHIPPED = WalkParams(0.709163895136971, 13.079372156530654, -36.41637198406938,
                     12.573491352393916, 0.48497744377759044, 48.11154312932107,
                     0.0029980501755294707, -1.41665039318309, -6.241291400959945,
                     30.654209529954247)


def bits(values) -> bytes:
    return np.asarray(values, dtype=float).tobytes()


def vectorised_continuous_rad(walk: NaoWaveWalk, elapsed: float) -> np.ndarray:
    """The continuous command as the Walker computed it before the one-sample path."""
    v = walk.bank.values(elapsed + walk.sample_interval)
    v = (nw.sole_parallel(v) if walk.sole == 'parallel' else v)[0]
    return np.concatenate([v, np.zeros(len(nw.HOLD_ZERO_JOINTS))]) * nw.DEG


def random_params(rng) -> WalkParams:
    lo = np.array([0.3, 0, -60, 0, -3.2, 0, 0, -3.2, -40, 0])
    hi = np.array([2.0, 40, 20, 60, 3.2, 90, 30, 3.2, 40, 60])
    return WalkParams.from_sequence(rng.uniform(lo, hi))


def walk_times(walk: NaoWaveWalk, rng) -> list[float]:
    """Control ticks as the Walker computes them (integer ns × 1e-9), the sampled mode's switching
    instants (where a phase lands on i/18 of the domain, on or near a shape's branch boundary),
    and random times, negative ones included."""
    ticks = [(k * 10_000_000) * 1e-9 for k in range(0, 400, 7)]
    switching = [k * walk.sample_interval for k in range(-3, 60)]
    return ticks + switching + rng.uniform(-20.0, 200.0, 60).tolist()


@pytest.mark.parametrize('generator', ['nao_wave_walk', 'nao_wave_walk_flat', 'nao_wave_walk_smooth'])
def test_continuous_list_is_the_vectorised_command_bit_for_bit(generator):
    rng = np.random.default_rng(9)
    cases = [(SHIPPED, LATER, True), (SHIPPED, EARLIER, False)]
    cases += [(random_params(rng), (LATER, EARLIER)[i % 2], i % 3 != 0) for i in range(25)]
    for params, version, arm_swing in cases:
        for p in (params, version.apply(params)):
            walk = getattr(player_plugin, generator)()(p, version, arm_swing)
            for t in walk_times(walk, rng):
                fast = walk.continuous_list(t)
                assert bits(fast) == bits(vectorised_continuous_rad(walk, t)), (p, t)
                assert bits(walk.continuous_rad(t)) == bits(fast)
                assert all(type(v) is float for v in fast)


def test_bank_value_list_matches_values_on_random_banks():
    """Every shape, negative and wrapping phases, per-joint periods, mirrored and offset
    couplings, columns reordered."""
    rng = np.random.default_rng(4)
    names = list(SHAPES)
    for _ in range(40):
        n = int(rng.integers(1, 7))
        osc = [Oscillator(f'p{i}', SHAPES[names[int(rng.integers(len(names)))]],
                          float(rng.uniform(-50, 50)), float(rng.uniform(-50, 50)),
                          float(rng.uniform(-20, 20)), float(rng.uniform(0.05, 3.0)))
               for i in range(n)]
        cpl = [Coupling(f'c{i}', f'p{int(rng.integers(n))}',
                        phase_shift=float(rng.choice([0.0, math.pi, 2 * math.pi,
                                                      rng.uniform(-9, 9)])),
                        gain=float(rng.choice([1.0, -1.0, rng.uniform(-2, 2)])),
                        offset_shift=float(rng.choice([0.0, rng.uniform(-5, 5)])))
               for i in range(int(rng.integers(0, 6)))]
        order = [o.joint for o in osc] + [c.joint for c in cpl]
        rng.shuffle(order)
        bank = OscillatorBank(osc, cpl, order=order)
        for t in np.concatenate([rng.uniform(-30, 30, 40), np.arange(-2, 2, 1 / 36)]).tolist():
            assert bits(bank.value_list(t)) == bits(bank.values(t)[0]), t


def test_bank_with_a_shape_without_a_one_sample_form_takes_the_vectorised_path():
    square = WaveShape('square', lambda x, a, s: np.where(x < math.pi, a + s, s - a))
    bank = OscillatorBank([Oscillator('a', square, 2.0, 1.0, 0.5, 1.0),
                           Oscillator('b', SHAPES['sine'], 1.0, 0.0, 0.0, 0.5)])
    for t in (0.0, 0.3, 0.7, 1.9):
        assert bits(bank.value_list(t)) == bits(bank.values(t)[0])
