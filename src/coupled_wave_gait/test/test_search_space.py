"""The search grid (specs/nao.md R19): level counts, ranges inside the joint limits, mixed-radix
indexing, and the keyed permutation that visits it in random order without repetition."""
import math

import pytest

from coupled_wave_gait.nao_wave_walk import PARAM_NAMES, WalkParams
from coupled_wave_gait.search.permutation import KeyedPermutation
from coupled_wave_gait.search.space import NAO_LEVELS, NAO_WALK_GRID, Axis, GridSpace


@pytest.mark.parametrize('n', [1, 2, 3, 7, 24, 100, 1000, 4097])
def test_permutation_covers_small_domains_exactly(n):
    perm = KeyedPermutation(n, key=12345)
    order = [perm(i) for i in range(n)]
    assert sorted(order) == list(range(n))


def test_permutation_is_keyed_and_reproducible():
    a = [KeyedPermutation(1000, 1)(i) for i in range(1000)]
    assert a == [KeyedPermutation(1000, 1)(i) for i in range(1000)]
    b = [KeyedPermutation(1000, 2)(i) for i in range(1000)]
    assert a != b
    assert a != list(range(1000))  # shuffled, not the natural order
    with pytest.raises(IndexError):
        KeyedPermutation(10, 1)(10)


def test_permutation_of_the_full_nao_grid():
    n = NAO_WALK_GRID.size
    assert n == math.prod(NAO_LEVELS) and n > 6e16  # §7: ≈ 6.1e16 points
    perm = KeyedPermutation(n, key=7)
    first = [perm(i) for i in range(2000)]
    assert len(set(first)) == 2000 and all(0 <= v < n for v in first)
    # Random order: consecutive candidates are far apart in the grid index.
    assert sum(abs(a - b) > n // 1000 for a, b in zip(first, first[1:])) > 1900


def test_nao_grid_levels_and_ranges():
    assert tuple(a.n for a in NAO_WALK_GRID.axes) == NAO_LEVELS
    assert NAO_WALK_GRID.names == PARAM_NAMES
    hip, knee, ankle = (NAO_WALK_GRID.axes[i] for i in (2, 5, 8))
    # Offsets inside the naoV40 pitch limits (deg): hip [-88.0, 27.7], knee [-5.3, 121.0],
    # ankle [-67.97, 52.86].
    assert -88.0 <= hip.lo and hip.hi <= 27.7
    assert -5.3 <= knee.lo and knee.hi <= 121.0
    assert -67.97 <= ankle.lo and ankle.hi <= 52.86
    assert NAO_WALK_GRID.axes[0].levels()[:4] == [0.3, 0.35, 0.4, 0.45]
    # The later plugin's hard-coded values lie inside the searched ranges.
    for name, v in {'knee_offset': 42.1, 'ankle_amplitude': 7.5, 'ankle_offset': -21.4,
                    'balance': 38.29999}.items():
        a = NAO_WALK_GRID.axes[PARAM_NAMES.index(name)]
        assert a.lo <= v <= a.hi
    for a in NAO_WALK_GRID.axes:  # every grid point is a valid parameter set
        assert a.levels() == sorted(a.levels())
    WalkParams.from_sequence(NAO_WALK_GRID.values(NAO_WALK_GRID.size - 1))


def test_mixed_radix_indexing_and_clipping():
    g = GridSpace([Axis('a', 0.0, 1.0, 3), Axis('b', -1.0, 0.5, 4)])
    assert g.size == 12
    assert [g.values(i) for i in (0, 1, 4, 11)] == [(0.0, -1.0), (0.0, -0.5), (1.0, -1.0),
                                                   (2.0, 0.5)]
    assert len({g.values(i) for i in range(12)}) == 12
    c = g.clipped({'b': (-0.6, 10.0)})
    assert c.axes[1].levels() == [-0.5, 0.0, 0.5] and c.size == 9
    with pytest.raises(ValueError, match="grid axis 'a': no level"):
        g.clipped({'a': (5.0, 6.0)})
    with pytest.raises(IndexError):
        g.values(12)
