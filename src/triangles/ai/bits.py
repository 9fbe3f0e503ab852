"""Bit masks of at most 64 lines, the region searches' states (the lowest line, its number,
how many), and the 64-bit mixer every search's keys are made with.  Inlined into every numba
kernel that uses them, so written without loops or branches (de Bruijn multiplication, SWAR)."""

from __future__ import annotations

import numpy as np

from triangles.jit import njit

__all__ = ["GOLDEN", "ONE", "bit_index", "low_bit", "mix64", "popcount"]

_DB_MUL = np.uint64(0x03F79D71B4CB0A89)
_DB_TABLE = np.zeros(64, np.int64)
for _i in range(64):
    _DB_TABLE[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i
#: 2^64 over the golden ratio (odd): multiplying by it spreads a small number over all 64 bits
#: before :func:`mix64`, so that nearby inputs make unrelated keys
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: a mask's 1, typed (numba keeps uint64 arithmetic unsigned only among uint64s)
ONE = np.uint64(1)


@njit(inline="always")
def low_bit(m: np.uint64) -> np.uint64:
    """The lowest set bit of ``m``."""
    return m & (~m + ONE)


@njit(inline="always")
def bit_index(b: np.uint64) -> int:
    """The position of the single set bit ``b`` (de Bruijn multiplication)."""
    return _DB_TABLE[np.int64((b * _DB_MUL) >> np.uint64(58))]


@njit(inline="always")
def popcount(m: np.uint64) -> int:
    """The set bits of ``m`` (SWAR, no loop)."""
    m = m - ((m >> np.uint64(1)) & np.uint64(0x5555555555555555))
    m = (m & np.uint64(0x3333333333333333)) + ((m >> np.uint64(2)) & np.uint64(0x3333333333333333))
    m = (m + (m >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((m * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(inline="always")
def mix64(x: np.uint64) -> np.uint64:
    """splitmix64 finaliser: a cheap deterministic hash of a uint64."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))
