"""A keyed bijection of [0, n) onto itself: the random visiting order of a grid too large to list.

A balanced Feistel network on the smallest even number of bits that holds n-1, with cycle walking
(re-apply until the value falls inside [0, n)), is a permutation of [0, n) for any key; specs/nao.md
§11 item 6. The round function is a 64-bit integer mixer (splitmix64's finaliser), keyed per round.
"""
from __future__ import annotations

MASK64 = (1 << 64) - 1
ROUNDS = 8


def _mix64(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK64
    return z ^ (z >> 31)


def _round_keys(key: int) -> list[int]:
    state = key & MASK64
    keys = []
    for _ in range(ROUNDS):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        keys.append(_mix64(state))
    return keys


class KeyedPermutation:
    """``perm(i)`` for i in [0, n): distinct for distinct i, reproducible from (n, key)."""

    def __init__(self, n: int, key: int):
        if n < 1:
            raise ValueError(f'permutation size: expected >= 1, got {n}')
        self.n, self.key = n, key
        bits = max(2, (n - 1).bit_length())
        self._half = (bits + 1) // 2
        self._mask = (1 << self._half) - 1
        self._keys = _round_keys(key)

    def _feistel(self, x: int) -> int:
        left, right = x >> self._half, x & self._mask
        for k in self._keys:
            left, right = right, left ^ (_mix64(right ^ k) & self._mask)
        return (left << self._half) | right

    def __call__(self, i: int) -> int:
        if not 0 <= i < self.n:
            raise IndexError(f'permutation index {i} outside [0, {self.n})')
        y = self._feistel(i)
        while y >= self.n:
            y = self._feistel(y)
        return y
